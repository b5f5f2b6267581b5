/**
 * A collider from a drawn Dual Contouring mesh: a cannon-es Trimesh over the same positions and
 * triangles, so a probe rests on the surface the user sees (issue 19).
 *
 * Built here rather than by `new Trimesh(...)`: cannon-es keeps a trimesh's indices in an
 * Int16Array, which wraps past 32,767 vertices (a 64-cell asteroid has ~30k), builds an edge list
 * keyed by strings that its sphere contacts never read, and finds a probe's triangles in an octree
 * that returns hundreds of them (triangleGrid.ts says why). This keeps 32-bit indices, skips the edge
 * list, and answers cannon-es's two triangle queries (a box; a ray's box) from a TriangleGrid.
 */
import { AABB, Trimesh, type Ray, type Transform } from 'cannon-es';
import { TriangleGrid } from './triangleGrid';

/** The arrays of a body mesh (positions in metres, three per vertex; three indices a triangle). */
export interface MeshArrays {
  positions: Float32Array;
  indices: Uint32Array | Uint16Array;
}

/** A Trimesh over `mesh`, its vertices offset by `offsetM` (the mesh's origin in the collider's frame). */
export function meshCollider(mesh: MeshArrays, offsetM: readonly [number, number, number] = [0, 0, 0]): Trimesh {
  if (mesh.indices.length % 3 !== 0) throw new RangeError(`meshCollider: ${mesh.indices.length} indices is not whole triangles`);
  const vertexCount = mesh.positions.length / 3;
  for (const i of mesh.indices) {
    if (i >= vertexCount) throw new RangeError(`meshCollider: index ${i} past the ${vertexCount} vertices`);
  }
  const shape = new Trimesh([], []);
  const vertices = new Float32Array(mesh.positions.length);
  for (let i = 0; i < vertices.length; i += 3) {
    vertices[i] = mesh.positions[i] + offsetM[0];
    vertices[i + 1] = mesh.positions[i + 1] + offsetM[1];
    vertices[i + 2] = mesh.positions[i + 2] + offsetM[2];
  }
  // Typed arrays of another kind in cannon-es's fields: every reader indexes them, none checks the kind.
  (shape as { vertices: ArrayLike<number> }).vertices = vertices;
  (shape as { indices: ArrayLike<number> }).indices = new Uint32Array(mesh.indices);
  shape.normals = faceNormals(vertices, shape.indices);
  shape.updateAABB();
  shape.updateBoundingSphereRadius();
  const grid = new TriangleGrid(vertices, shape.indices);
  grids.set(shape, grid);
  // The sphere contact's query (unit scale: colliders are never scaled).
  shape.getTrianglesInAABB = (aabb: AABB, result: number[]) => grid.trianglesIn(aabb.lowerBound, aabb.upperBound, result);
  // The raycast's query: the ray's box in the shape's frame, as cannon-es's octree does it.
  const rayBox = new AABB();
  (shape as unknown as { tree: unknown }).tree = {
    rayQuery(ray: Ray, treeTransform: Transform, result: number[]) {
      ray.getAABB(rayBox);
      rayBox.toLocalFrame(treeTransform, rayBox);
      return grid.trianglesIn(rayBox.lowerBound, rayBox.upperBound, result);
    },
  };
  return shape;
}

const grids = new WeakMap<Trimesh, TriangleGrid>();

/**
 * Unit face normals, three floats a triangle, as cannon-es's `updateNormals` makes them
 * ((c − a) × (a − b)) without its Vec3 calls: a third of a 30k-triangle collider's build time.
 */
function faceNormals(v: Float32Array, ix: ArrayLike<number>): Float32Array {
  const out = new Float32Array(ix.length);
  for (let t = 0; t < ix.length; t += 3) {
    const a = 3 * ix[t], b = 3 * ix[t + 1], c = 3 * ix[t + 2];
    const abx = v[a] - v[b], aby = v[a + 1] - v[b + 1], abz = v[a + 2] - v[b + 2];
    const cbx = v[c] - v[a], cby = v[c + 1] - v[a + 1], cbz = v[c + 2] - v[a + 2];
    let nx = cby * abz - cbz * aby, ny = cbz * abx - cbx * abz, nz = cbx * aby - cby * abx;
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (len > 0) (nx /= len), (ny /= len), (nz /= len);
    out[t] = nx;
    out[t + 1] = ny;
    out[t + 2] = nz;
  }
  return out;
}

/**
 * Bytes a collider holds: its vertex, index and normal arrays and its triangle grid. Compare with
 * Roblox's 24.5 bytes a triangle (docs/design.md#sources) for a chunked collision tree.
 */
export function colliderBytes(shape: Trimesh): number {
  const grid = grids.get(shape)?.bytes ?? 0;
  return shape.vertices.byteLength + shape.indices.byteLength + shape.normals.byteLength + grid;
}

/** Triangles of a collider. */
export function colliderTriangles(shape: Trimesh): number {
  return shape.indices.length / 3;
}
