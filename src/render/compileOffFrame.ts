/**
 * A material's program compiled off the frame path: a probe mesh of `geometry` (its attributes pick
 * the program variant) under `parent`, so the scene's lights and shadows pick it as a drawn mesh
 * would; `compileAsync` (KHR_parallel_shader_compile where the browser has it). The probe leaves at
 * once: compileAsync collects what to compile before it returns. Compiled for the frames' HDR target
 * (FrameOutput `compileForFrames`), the variant frames draw with. Resolves when the material draws
 * without compiling, rejects with the compile error; without a renderer it resolves at once.
 *
 * Without a `geometry`, a stand-in with positions and normals, as every body mesh has: three
 * compiles a material for a geometry without normals as flat-shaded, a program of its own, and the
 * meshes then compiled another at their first frame (faceted terrain once; the planet's detail
 * material compiled twice on the H100, once inside a frame).
 */
import { BufferGeometry, Float32BufferAttribute, Mesh, type Camera, type Material, type Object3D, type Scene, type WebGLRenderer } from 'three';
import { compileForFrames } from './FrameOutput';

export function compileOffFrame(
  material: Material, geometry: BufferGeometry | undefined, parent: Object3D,
  renderer: WebGLRenderer | undefined, scene: Scene | undefined, camera: Camera,
): Promise<void> {
  if (!renderer || !scene) return Promise.resolve();
  const standIn = geometry ? null : meshLikeGeometry();
  const probe = new Mesh(geometry ?? standIn!, material);
  parent.add(probe);
  try {
    const done = compileForFrames(renderer, probe, camera, scene).then(() => undefined);
    return standIn ? done.finally(() => standIn.dispose()) : done;
  } finally {
    probe.removeFromParent();
  }
}

function meshLikeGeometry(): BufferGeometry {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new Float32BufferAttribute([0, 0, 0, 1, 0, 0, 0, 1, 0], 3));
  geometry.setAttribute('normal', new Float32BufferAttribute([0, 0, 1, 0, 0, 1, 0, 0, 1], 3));
  geometry.setIndex([0, 1, 2]);
  return geometry;
}
