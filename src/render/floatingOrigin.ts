/**
 * The floating origin (issue 9's precision at planet scale): for the draw, the world group is
 * shifted by −camera.position and a render camera sits at the origin with the camera's
 * orientation and projection. three.js composes every matrix in float64 on the CPU and uploads
 * float32; shifted, the model-view matrices of everything near the camera hold small numbers, so
 * a vertex 2 m away is exact to micrometres even with the planet 20,000 km from the world origin
 * (test/app/floatingOrigin.test.ts). CPU-side logic (LOD, raycasts, fields) always sees the
 * unshifted world. Pure three.js (no DOM): App uses it, and Node tests measure it.
 */
import type { Object3D, PerspectiveCamera } from 'three';

/**
 * Draws with `world` shifted by −camera.position and `renderCamera` a copy of `camera` at the
 * origin. The render camera's projection is recomputed from its own parameters, not copied: a
 * renderer with a reversed depth buffer marks the camera it draws with as reversed
 * (`reversedDepth`) and builds its projection that way only once, and a copied standard
 * projection would then be drawn with the reversed depth test (far surfaces over near ones).
 */
export function drawShifted(world: Object3D, camera: PerspectiveCamera, renderCamera: PerspectiveCamera, draw: () => void): void {
  renderCamera.copy(camera, false);
  renderCamera.updateProjectionMatrix();
  renderCamera.position.set(0, 0, 0);
  renderCamera.updateMatrixWorld(true);
  world.position.copy(camera.position).negate();
  phase = 'shift';
  try {
    world.updateMatrixWorld(true);
  } finally {
    phase = 'draw';
  }
  // Updated just above: the renderer's own pass over the scene skips the world (each pass over
  // it is ~0.5–1 ms of CPU with a planet's 1,700 pieces near the ground).
  const autoUpdate = world.matrixWorldAutoUpdate;
  world.matrixWorldAutoUpdate = false;
  try {
    draw();
  } finally {
    world.matrixWorldAutoUpdate = autoUpdate;
    world.position.set(0, 0, 0);
    phase = 'restore';
    try {
      world.updateMatrixWorld(true);
    } finally {
      phase = 'none';
    }
  }
}

/**
 * Where {@link drawShifted} is: 'shift' and 'restore' while it recomputes the world's matrices
 * (shifted, then back), 'draw' in between, 'none' outside. {@link DrawnMatrixGroup} reads it.
 */
export type ShiftPhase = 'none' | 'shift' | 'draw' | 'restore';

let phase: ShiftPhase = 'none';

export function shiftPhase(): ShiftPhase {
  return phase;
}
