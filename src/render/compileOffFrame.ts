/**
 * A material's program compiled off the frame path: a probe mesh of `geometry` (its attributes pick
 * the program variant: without normals a standard material compiles flat-shaded) under `parent`, so
 * the scene's lights and shadows pick it as a drawn mesh would; `compileAsync` (KHR_parallel_shader_compile
 * where the browser has it). The probe leaves at once: compileAsync collects what to compile before it
 * returns. Resolves when the material draws without compiling, rejects with the compile error;
 * without a renderer it resolves at once.
 */
import { Mesh, type BufferGeometry, type Camera, type Material, type Object3D, type Scene, type WebGLRenderer } from 'three';

export function compileOffFrame(
  material: Material, geometry: BufferGeometry | undefined, parent: Object3D,
  renderer: WebGLRenderer | undefined, scene: Scene | undefined, camera: Camera,
): Promise<void> {
  if (!renderer || !scene) return Promise.resolve();
  const probe = new Mesh(geometry, material);
  parent.add(probe);
  try {
    return renderer.compileAsync(probe, camera, scene).then(() => undefined);
  } finally {
    probe.removeFromParent();
  }
}
