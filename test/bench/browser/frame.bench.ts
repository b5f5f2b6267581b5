/**
 * Baseline GPU numbers for this browser: the app-shell placeholder scene rendered with and
 * without PCF shadows at 512×512, so later rendering work has a peer measured in the same run.
 */
import { PCFShadowMap, PerspectiveCamera, Scene, WebGLRenderer } from 'three';
import type { Benchmark } from '../harness';
import { createPlaceholderScene } from '../../../src/render/placeholderScene';

const SIZE = 512;
let renderer: WebGLRenderer | null = null;
const scene = new Scene();
const camera = new PerspectiveCamera(45, 1, 0.01, 100);

function setup(): void {
  if (renderer) return;
  renderer = new WebGLRenderer({ antialias: false });
  renderer.setSize(SIZE, SIZE, false);
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.type = PCFShadowMap;
  document.body.appendChild(renderer.domElement);
  scene.add(createPlaceholderScene().root);
  camera.position.set(2.6, 1.2, 3.4);
  camera.lookAt(0, 0, 0);
}

/** One frame, finished on the GPU (a 1-pixel readback waits for it). */
function frame(shadows: boolean): void {
  const r = renderer!;
  if (r.shadowMap.enabled !== shadows) {
    r.shadowMap.enabled = shadows;
    scene.traverse((o) => {
      const m = (o as { material?: { needsUpdate: boolean } }).material;
      if (m) m.needsUpdate = true;
    });
  }
  r.render(scene, camera);
  const gl = r.getContext();
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
}

export const benchmarks: Benchmark[] = [
  {
    name: 'render/placeholder/512^2/no-shadows',
    unit: 'ms',
    setup,
    run: () => frame(false),
    notes: 'placeholder rock + moonlet, one frame incl. GPU finish',
  },
  {
    name: 'render/placeholder/512^2/pcf-2048',
    unit: 'ms',
    setup,
    run: () => frame(true),
    notes: 'same frame with a 2048² PCF shadow map; compare with no-shadows',
  },
];
