/**
 * A body mesh's BVH, built where the mesh is made (the body worker: body.worker.ts calls this
 * after the pure body job) and sent as three-mesh-bvh's serialised roots; bodyGeometry.ts rebuilds
 * it on the main thread without walking the triangles again. The three.js bridge of the body job
 * (house rule 3): the job itself stays free of three.js.
 */
import { BufferAttribute, BufferGeometry } from 'three';
import { MeshBVH, type SerializedBVH } from 'three-mesh-bvh';

/**
 * Builds the BVH of `mesh` (positions relative to its origin, indexed triangles) and puts its
 * serialised roots in `bvhRoots`; `indices` becomes the BVH's triangle order. Nothing for an empty mesh.
 */
export function attachBodyBvh(mesh: { positions: Float32Array; indices: Uint32Array; bvhRoots: ArrayBuffer[] | null }): void {
  if (mesh.indices.length === 0) return;
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(mesh.positions, 3));
  geometry.setIndex(new BufferAttribute(mesh.indices, 1));
  const serialized: SerializedBVH = MeshBVH.serialize(new MeshBVH(geometry), { cloneBuffers: false });
  mesh.indices = serialized.index as Uint32Array;
  mesh.bvhRoots = serialized.roots as ArrayBuffer[];
}
