/**
 * Page-side set-up for test/browser/frameOutput.test.ts: the sun's disc half hidden behind a black
 * sphere, drawn through the app's FrameOutput with bloom on and off, at a small size.
 */
import { Mesh, MeshBasicMaterial, PerspectiveCamera, Scene, SphereGeometry } from 'three';
import { createRenderer } from '../../../src/app/renderer';
import { FrameOutput } from '../../../src/render/FrameOutput';
import { Sun } from '../../../src/render/Sun';

const WIDTH = 320;
const HEIGHT = 180;

export interface SunBloomShot {
  hdr: boolean;
  /** PNG data URLs, bloom off and on. */
  pngOff: string;
  pngOn: string;
  /** Mean luma (0–255) over the occluder just beside the hidden half of the disc. */
  overLimbOff: number;
  overLimbOn: number;
  /** Mean luma of the visible half of the disc (saturated either way). */
  discOff: number;
  discOn: number;
  /** Mean luma of the frame's far corner (space, away from the sun). */
  cornerOff: number;
  cornerOn: number;
  /** renderer.info.render after one FrameOutput.render: the whole frame, not only the last pass. */
  triangles: number;
  sphereTriangles: number;
}

export function sunBloom(): SunBloomShot {
  const renderer = createRenderer();
  renderer.setPixelRatio(1);
  renderer.setSize(WIDTH, HEIGHT, false);
  document.body.appendChild(renderer.domElement);
  const output = new FrameOutput(renderer);
  const scene = new Scene();
  // The sun straight ahead (−z); a black sphere whose right limb crosses the disc's center.
  const sun = new Sun({ direction: [0, 0, -1] });
  scene.add(sun);
  const sphereGeometry = new SphereGeometry(20, 64, 32);
  const sphere = new Mesh(sphereGeometry, new MeshBasicMaterial({ color: 0x000000 }));
  sphere.position.set(-20, 0, -100);
  scene.add(sphere);
  const camera = new PerspectiveCamera(45, WIDTH / HEIGHT, 0.5, 1e6);
  camera.lookAt(0, 0, -1);
  camera.updateMatrixWorld(true);
  const gl = renderer.getContext();
  const cx = WIDTH / 2;
  const cy = HEIGHT / 2;
  const luma = (px: Uint8Array, x0: number, x1: number, y0: number, y1: number): number => {
    let sum = 0;
    let n = 0;
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const i = ((HEIGHT - 1 - y) * WIDTH + x) * 4; // readPixels rows run bottom-up
        sum += 0.2126 * px[i] + 0.7152 * px[i + 1] + 0.0722 * px[i + 2];
        n++;
      }
    }
    return sum / n;
  };
  const shot = (bloom: boolean) => {
    output.bloom = bloom;
    output.render(scene, camera);
    const info = { triangles: renderer.info.render.triangles };
    const px = new Uint8Array(WIDTH * HEIGHT * 4);
    gl.readPixels(0, 0, WIDTH, HEIGHT, gl.RGBA, gl.UNSIGNED_BYTE, px);
    return {
      png: renderer.domElement.toDataURL('image/png'),
      // The disc’s radius is ≈ 0.012 rad ≈ 2.6 px here (the app’s 45° field of view): the band 6–20 px left of center is the sphere's dark side.
      overLimb: luma(px, cx - 20, cx - 6, cy - 3, cy + 3),
      disc: luma(px, cx + 1, cx + 2, cy - 1, cy + 1),
      corner: luma(px, WIDTH - 30, WIDTH - 5, 5, 30),
      ...info,
    };
  };
  try {
    const off = shot(false);
    const on = shot(true);
    return {
      hdr: output.hdr,
      pngOff: off.png,
      pngOn: on.png,
      overLimbOff: off.overLimb,
      overLimbOn: on.overLimb,
      discOff: off.disc,
      discOn: on.disc,
      cornerOff: off.corner,
      cornerOn: on.corner,
      triangles: on.triangles,
      sphereTriangles: sphereGeometry.index!.count / 3,
    };
  } finally {
    output.dispose();
    sun.dispose();
    sphereGeometry.dispose();
    renderer.dispose();
    renderer.domElement.remove();
  }
}
