/**
 * The app's one WebGL renderer: tone-mapped sRGB output, PCF shadow maps, and a logarithmic depth
 * buffer (near 0.5 m and far 10⁵ km in one frame: a planet's ground and the asteroids behind it).
 * The scene renders into FrameOutput's HDR target, which has the MSAA; the canvas only receives
 * the tone-mapped full-screen pass, so it has none.
 */
import { ACESFilmicToneMapping, PCFShadowMap, SRGBColorSpace, WebGLRenderer } from 'three';

export function createRenderer(): WebGLRenderer {
  const renderer = new WebGLRenderer({
    antialias: false,
    powerPreference: 'high-performance',
    logarithmicDepthBuffer: true,
  });
  renderer.outputColorSpace = SRGBColorSpace;
  renderer.toneMapping = ACESFilmicToneMapping;
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.type = PCFShadowMap;
  renderer.domElement.className = 'sr-canvas';
  return renderer;
}
