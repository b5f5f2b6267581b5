/**
 * Supplied hermite data (the GPU edge pass, `MeshChunkInput.hermite`) as the hermite stage's edge
 * list: checked to be exactly the grid's sign-changing edges, copied with clamped t and normalised
 * normals, and — next to coarser neighbours — the edges touching restricted points recomputed from
 * the restricted grid, since the edge pass sampled the grid unaware of its neighbours.
 */
import { MesherInputError } from './errors.ts';
import { computeCrossings, edgeScratch, growEdges } from './hermite.ts';
import type { ChunkGrid, SignEdges } from './hermite.ts';
import { IDENTITY_MAPPING } from './mapping.ts';
import type { HermiteEdges, MeshChunkInput } from './types.ts';

/**
 * The hermite stage's edges from `input.hermite`. The supplied data describes the grid as sampled:
 * it is checked against the unrestricted signs, then the edges touching restricted points are
 * replaced (linear crossing, grid normal). Throws MesherInputError when the list is not the grid's
 * sign-changing edges.
 */
export function suppliedEdges(input: MeshChunkInput, grid: ChunkGrid): SignEdges {
  const h = input.hermite!;
  const edges = edgeScratch(grid.P * grid.P);
  const expected = countSampledEdges(grid, input.values);
  if (h.count !== expected) throw new MesherInputError(`mesher: hermite input has ${h.count} edges, the grid has ${expected} sign-changing edges`);
  copySuppliedEdges(grid, input.values, h, edges);
  if (grid.restricted) {
    const first = edges.count;
    listRestrictedEdges(grid, edges);
    computeCrossings(grid, edges, first, undefined, input.mapping ?? IDENTITY_MAPPING, undefined);
  }
  return edges;
}

/** Sign of point p as sampled: the input value's at restricted points, the grid's elsewhere. */
function sampledSign(grid: ChunkGrid, inputValues: Float32Array | Float64Array, p: number): number {
  return grid.restricted && grid.restricted[p] ? (inputValues[p] < 0 ? 1 : 0) : grid.signs[p];
}

/** Number of sign-changing edges of the grid as sampled (before the restriction). */
function countSampledEdges(grid: ChunkGrid, inputValues: Float32Array | Float64Array): number {
  const { N, P } = grid;
  const PP = P * P;
  let expected = 0;
  for (let k = 0, p = 0; k < P; k++) for (let j = 0; j < P; j++) for (let i = 0; i < P; i++, p++) {
    const s = sampledSign(grid, inputValues, p);
    if (i < N && s !== sampledSign(grid, inputValues, p + 1)) expected++;
    if (j < N && s !== sampledSign(grid, inputValues, p + P)) expected++;
    if (k < N && s !== sampledSign(grid, inputValues, p + PP)) expected++;
  }
  return expected;
}

/** Appends the supplied edges that touch no restricted point, checking each is a sign-changing edge. */
function copySuppliedEdges(grid: ChunkGrid, inputValues: Float32Array | Float64Array, h: HermiteEdges, edges: SignEdges): void {
  const { N, P, restricted } = grid;
  const PP = P * P, P3 = PP * P;
  for (let e = 0; e < h.count; e++) {
    const id = h.edgeIds[e];
    const axis = Math.floor(id / P3);
    const p = id - axis * P3;
    const step = axis === 0 ? 1 : axis === 1 ? P : PP;
    if (axis > 2 || sampledSign(grid, inputValues, p) === sampledSign(grid, inputValues, p + step) || (axis === 0 && p % P === N) ||
        (axis === 1 && Math.floor(p / P) % P === N) || (axis === 2 && Math.floor(p / PP) === N)) {
      throw new MesherInputError(`mesher: hermite edge ${e} (id ${id}) is not a sign-changing edge of the grid`);
    }
    if (restricted && (restricted[p] || restricted[p + step])) continue;
    if (edges.count >= edges.codes.length) growEdges(edges);
    const n = edges.count;
    edges.codes[n] = p * 3 + axis;
    edges.coords[3 * n] = p % P; edges.coords[3 * n + 1] = Math.floor(p / P) % P; edges.coords[3 * n + 2] = Math.floor(p / PP);
    const t = h.t[e];
    edges.t[n] = t < 0 ? 0 : t > 1 ? 1 : t;
    const nx = h.normals[3 * e], ny = h.normals[3 * e + 1], nz = h.normals[3 * e + 2];
    const len = Math.hypot(nx, ny, nz);
    if (!(len > 0) || !Number.isFinite(len)) throw new MesherInputError(`mesher: hermite edge ${e} has a zero or non-finite normal`);
    const o = 3 * n;
    edges.normals[o] = nx / len; edges.normals[o + 1] = ny / len; edges.normals[o + 2] = nz / len;
    edges.count++;
  }
}

/**
 * Appends the sign-changing edges (of the restricted grid) touching restricted points, codes and
 * coordinates only: each edge once, from its lower end, or from its upper end when the lower end is
 * not restricted.
 */
function listRestrictedEdges(grid: ChunkGrid, edges: SignEdges): void {
  const { N, P, signs } = grid;
  const restricted = grid.restricted!;
  const PP = P * P, P3 = PP * P;
  for (let p = 0; p < P3; p++) {
    if (!restricted[p]) continue;
    const c0 = p % P, c1 = Math.floor(p / P) % P, c2 = Math.floor(p / PP);
    for (let axis = 0; axis < 3; axis++) {
      const c = axis === 0 ? c0 : axis === 1 ? c1 : c2;
      const step = axis === 0 ? 1 : axis === 1 ? P : PP;
      for (let lower = 0; lower < 2; lower++) {
        const a = lower === 0 ? p : p - step;
        if (lower === 0 ? c === N : c === 0 || restricted[a]) continue;
        if (signs[a] === signs[a + step]) continue;
        if (edges.count >= edges.codes.length) growEdges(edges);
        const n = edges.count++;
        edges.codes[n] = a * 3 + axis;
        edges.coords[3 * n] = c0 - (lower && axis === 0 ? 1 : 0);
        edges.coords[3 * n + 1] = c1 - (lower && axis === 1 ? 1 : 0);
        edges.coords[3 * n + 2] = c2 - (lower && axis === 2 ? 1 : 0);
      }
    }
  }
}
