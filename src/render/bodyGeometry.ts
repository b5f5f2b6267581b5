/**
 * Body mesh (from a worker) → three.js BufferGeometry with its BVH attached, sharing the
 * transferred buffers (no copies). The BVH was built in the worker; deserialising only
 * wraps its node buffers.
 */
import { BufferAttribute, BufferGeometry, Sphere, Vector3 } from 'three';
import { MeshBVH, type SerializedBVH } from 'three-mesh-bvh';

export interface BodyMeshBuffers {
  positions: Float32Array;
  /** Float, or 16-bit normalized (planet pieces keep them so: issue 15). */
  normals: Float32Array | Int16Array;
  indices: Uint32Array | Uint16Array;
  /** BVH node buffers whose triangle order is `indices`, or null. */
  bvhRoots: ArrayBuffer[] | null;
}

/** Bytes of GPU-side geometry (positions, normals, indices) — for the memory budget. */
export function bodyGeometryBytes(m: Pick<BodyMeshBuffers, 'positions' | 'normals' | 'indices'>): number {
  return m.positions.byteLength + m.normals.byteLength + m.indices.byteLength;
}

export function createBodyGeometry(m: BodyMeshBuffers): BufferGeometry {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(m.positions, 3));
  geometry.setAttribute('normal', new BufferAttribute(m.normals, 3, m.normals instanceof Int16Array));
  geometry.setIndex(new BufferAttribute(m.indices, 1));
  geometry.computeBoundingBox();
  geometry.boundingSphere = geometry.boundingBox!.getBoundingSphere(new Sphere(new Vector3(), 0));
  if (m.bvhRoots) {
    const data = { version: 1, roots: m.bvhRoots, index: m.indices, indirectBuffer: null } as unknown as SerializedBVH;
    geometry.boundsTree = MeshBVH.deserialize(data, geometry, { setIndex: false });
  }
  return geometry;
}
