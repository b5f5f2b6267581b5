/**
 * Contour stage of the chunk mesher: one polygon per minimal sign-changing edge inside the chunk,
 * found through the fine edges, then the mesh's vertices numbered in order of first use (as a
 * streaming emitter would) with positions and normals through the grid mapping. Edges on the
 * chunk's boundary belong to seams (seam.ts).
 *
 * Why the fine edges suffice: because every collapse is topologically safe, a minimal edge of a
 * collapsed leaf contains exactly one fine crossing iff its ends differ in sign (by induction on
 * Ju's midpoint condition), so emitting at fine crossings whose four cells map to >= 3 distinct
 * leaves reproduces the cell/face/edge procedures' output exactly; fewer than 3 distinct leaves means
 * the edge lies inside a leaf or on a face between two.
 */
import type { ChunkGrid, SignEdges } from './hermite.ts';
import type { ActiveCells } from './leaves.ts';
import type { Octree } from './octree.ts';
import { QEF_NORMAL, QEF_STRIDE } from './qef.ts';
import { scratchF64, scratchI32 } from './scratch.ts';
import { EDGE_COMPONENT, QUAD_EDGE, VERTEX_COMPONENT_SHIFT } from './tables.ts';
import type { ChunkMesh, GridMapping } from './types.ts';

const scratchW = new Float64Array(3);
/** The normal writeNormal made. */
export const scratchN = new Float64Array(3);

/**
 * The contour stage: the chunk's own mesh, positions relative to the world position of its origin.
 * `leafVert` is {@link leafVertices}' array of the same tree.
 */
export function contourMesh(
  grid: ChunkGrid, edges: SignEdges, active: ActiveCells, tree: Octree, leafVert: Float64Array, mapping: GridMapping,
): ChunkMesh {
  mapping.toWorld(grid.ox, grid.oy, grid.oz, scratchW);
  const originWorld: [number, number, number] = [scratchW[0], scratchW[1], scratchW[2]];
  const triCount = contourTriangles(
    grid.N, grid.signs, edges.count, edges.codes, edges.coords, active.cellToActive, tree.activeLeaf, active.mask, leafVert,
  );
  const triLeaves = scratchI32('triLeaves', 3 * triCount);
  const leafVertex = scratchI32('leafVertex', tree.totalNodes);
  leafVertex.fill(-1, 0, tree.totalNodes);
  const indices = new Uint32Array(3 * triCount);
  const vCount = numberVertices(triLeaves, indices, leafVertex);
  const mesh: ChunkMesh = {
    positions: new Float32Array(vCount * 3), normals: new Float32Array(vCount * 3), indices, originWorld,
    vertexCells: new Int32Array(vCount * 4),
  };
  emitVertices(grid, active, tree, leafVert, triLeaves, mapping, mesh);
  return mesh;
}

/** Vertex positions of every node id (level-0 entries first, then each level), chunk-local cells. */
export function leafVertices(tree: Octree): Float64Array {
  if (tree.levels === 1) return tree.vert[0];
  const leafVert = scratchF64('leafVert', tree.totalNodes * 3);
  for (let l = 0; l < tree.levels; l++) leafVert.set(tree.vert[l].subarray(0, tree.count[l] * 3), tree.base[l] * 3);
  return leafVert;
}

/**
 * One polygon per fine sign-changing edge inside the chunk whose four cells map to >= 3 distinct
 * leaves, wound counter-clockwise seen from outside, quads split along the shorter diagonal. Writes
 * 3 leaf ids per triangle to the 'triLeaves' scratch array and returns the triangle count.
 */
function contourTriangles(
  N: number, signs: Uint8Array, edgeCount: number, edgeP: Int32Array, edgeC: Int32Array,
  cellToActive: Int32Array, activeLeaf: Int32Array, activeMask: Uint8Array, leafVert: Float64Array,
): number {
  const NN = N * N;
  let tris = scratchI32('triLeaves', Math.max(64, 2 * edgeCount * 3));
  let n3 = 0;
  for (let e = 0; e < edgeCount; e++) {
    const code = edgeP[e];
    const axis = code % 3;
    const pc0 = edgeC[3 * e], pc1 = edgeC[3 * e + 1], pc2 = edgeC[3 * e + 2];
    const cu0 = axis === 0 ? pc1 : axis === 1 ? pc2 : pc0, cv0 = axis === 0 ? pc2 : axis === 1 ? pc0 : pc1;
    if (cu0 < 1 || cv0 < 1 || cu0 >= N || cv0 >= N) continue; // boundary edge: a seam's
    const su = axis === 0 ? N : axis === 1 ? NN : 1, sv = axis === 0 ? NN : axis === 1 ? 1 : N;
    const base = pc0 + N * (pc1 + N * pc2);
    const qe = axis * 4;
    // Quadrants (du, dv) = (-1,-1), (0,-1), (0,0), (-1,0), counter-clockwise seen from +axis.
    let f = cellToActive[base - su - sv];
    const l0 = activeLeaf[f + EDGE_COMPONENT[activeMask[f] * 12 + QUAD_EDGE[qe]]];
    f = cellToActive[base - sv];
    const l1 = activeLeaf[f + EDGE_COMPONENT[activeMask[f] * 12 + QUAD_EDGE[qe + 1]]];
    f = cellToActive[base];
    const l2 = activeLeaf[f + EDGE_COMPONENT[activeMask[f] * 12 + QUAD_EDGE[qe + 2]]];
    f = cellToActive[base - su];
    const l3 = activeLeaf[f + EDGE_COMPONENT[activeMask[f] * 12 + QUAD_EDGE[qe + 3]]];
    // Drop consecutive duplicates (cyclically), as the leaves of collapsed nodes repeat.
    let q0 = l0, q1 = -1, q2 = -1, q3 = -1, n = 1;
    if (l1 !== q0) { q1 = l1; n = 2; }
    const last1 = n === 2 ? q1 : q0;
    if (l2 !== last1) { if (n === 2) q2 = l2; else q1 = l2; n++; }
    const last2 = n === 3 ? q2 : n === 2 ? q1 : q0;
    if (l3 !== last2) { if (n === 3) q3 = l3; else if (n === 2) q2 = l3; else q1 = l3; n++; }
    const lastN = n === 4 ? q3 : n === 3 ? q2 : n === 2 ? q1 : q0;
    if (n > 1 && lastN === q0) n--;
    if (n < 3) continue;
    if (!signs[code / 3 | 0]) {
      // Outside at the lower end: the surface faces -axis, reverse the winding.
      if (n === 4) { const t = q1; q1 = q3; q3 = t; } else { const t = q1; q1 = q2; q2 = t; }
    }
    if (n3 + 6 > tris.length) tris = scratchI32('triLeaves', 2 * tris.length, true);
    if (n === 3) {
      tris[n3++] = q0; tris[n3++] = q1; tris[n3++] = q2;
      continue;
    }
    // Split along the shorter diagonal.
    const dx02 = leafVert[3 * q0] - leafVert[3 * q2], dy02 = leafVert[3 * q0 + 1] - leafVert[3 * q2 + 1], dz02 = leafVert[3 * q0 + 2] - leafVert[3 * q2 + 2];
    const dx13 = leafVert[3 * q1] - leafVert[3 * q3], dy13 = leafVert[3 * q1 + 1] - leafVert[3 * q3 + 1], dz13 = leafVert[3 * q1 + 2] - leafVert[3 * q3 + 2];
    if (dx02 * dx02 + dy02 * dy02 + dz02 * dz02 <= dx13 * dx13 + dy13 * dy13 + dz13 * dz13) {
      tris[n3++] = q0; tris[n3++] = q1; tris[n3++] = q2; tris[n3++] = q0; tris[n3++] = q2; tris[n3++] = q3;
    } else {
      tris[n3++] = q0; tris[n3++] = q1; tris[n3++] = q3; tris[n3++] = q1; tris[n3++] = q2; tris[n3++] = q3;
    }
  }
  return n3 / 3;
}

/**
 * Numbers the leaves of the triangles (leaf ids in `triLeaves`) in order of first use into `indices`;
 * marks each first use in `triLeaves` as −1 − id. Returns the vertex count.
 */
function numberVertices(triLeaves: Int32Array, indices: Uint32Array, leafVertex: Int32Array): number {
  let vCount = 0;
  for (let t = 0, n = indices.length; t < n; t++) {
    const id = triLeaves[t];
    let vi = leafVertex[id];
    if (vi < 0) { vi = vCount++; leafVertex[id] = vi; triLeaves[t] = -1 - id; } // mark first use
    indices[t] = vi;
  }
  return vCount;
}

/** Writes position, normal and cell of each vertex at its first use (marked by numberVertices). */
function emitVertices(
  grid: ChunkGrid, active: ActiveCells, tree: Octree, leafVert: Float64Array, triLeaves: Int32Array, mapping: GridMapping,
  mesh: ChunkMesh,
): void {
  const { cs, ox, oy, oz } = grid;
  const { positions, normals, vertexCells, indices, originWorld } = mesh;
  const base = tree.base;
  for (let t = 0, n = indices.length; t < n; t++) {
    if (triLeaves[t] >= 0) continue;
    const id = -1 - triLeaves[t];
    const vi = indices[t];
    let l = 0;
    while (id >= base[l + 1]) l++;
    const idx = id - base[l];
    const gx = ox + leafVert[3 * id] * cs, gy = oy + leafVert[3 * id + 1] * cs, gz = oz + leafVert[3 * id + 2] * cs;
    mapping.toWorld(gx, gy, gz, scratchW);
    positions[3 * vi] = scratchW[0] - originWorld[0];
    positions[3 * vi + 1] = scratchW[1] - originWorld[1];
    positions[3 * vi + 2] = scratchW[2] - originWorld[2];
    const q = tree.qef[l];
    const qo = idx * QEF_STRIDE + QEF_NORMAL;
    writeNormal(mapping, gx, gy, gz, q[qo], q[qo + 1], q[qo + 2]);
    normals[3 * vi] = scratchN[0]; normals[3 * vi + 1] = scratchN[1]; normals[3 * vi + 2] = scratchN[2];
    const c = tree.coords[l];
    vertexCells[4 * vi] = ox + c[3 * idx] * (cs << l);
    vertexCells[4 * vi + 1] = oy + c[3 * idx + 1] * (cs << l);
    vertexCells[4 * vi + 2] = oz + c[3 * idx + 2] * (cs << l);
    vertexCells[4 * vi + 3] = (cs << l) | (l === 0 ? active.comp[idx] << VERTEX_COMPONENT_SHIFT : 0);
  }
}

/** Normalises a grid-space normal and maps it to world space into scratchN (shared with boundary.ts). */
export function writeNormal(mapping: GridMapping, gx: number, gy: number, gz: number, nx: number, ny: number, nz: number): void {
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz) || 1;
  scratchN[0] = nx / len; scratchN[1] = ny / len; scratchN[2] = nz / len;
  if (mapping.normalToWorld) mapping.normalToWorld(gx, gy, gz, scratchN);
}
