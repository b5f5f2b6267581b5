/**
 * Dual Contouring of one chunk (Ju, Losasso, Schaefer, Warren 2002; seed 004 §4.2–4.4; seed 001).
 *
 * Pipeline, each stage a flat loop over typed arrays:
 *   hermite  — sign per corner, list of sign-changing edges with crossing t and normal
 *   qef      — one leaf per active cell (a cell touching a sign-changing edge), QEF + vertex
 *   octree   — bottom-up levels of nodes over active cells, dense maps per level (seed 004 §4.3's
 *              hash-map layering, with arrays instead of hash maps)
 *   simplify — collapse 8 children when QEF error < threshold and the merge is topologically safe
 *   contour  — one polygon per minimal sign-changing edge, via the fine edges (see contourChunk)
 *   boundary — the leaves touching the chunk's boundary, in global coordinates, for seams
 *
 * Ownership: a chunk's own mesh covers exactly the edges whose four cells all lie in the chunk.
 * Edges on the chunk's boundary belong to seams (src/mesher/seam.ts).
 */
import { IDENTITY_MAPPING } from './mapping.ts';
import { qefAdd, qefSolve, QEF_NORMAL, QEF_STRIDE } from './qef.ts';
import { COMPONENT_COUNT, EDGE_COMPONENT, MANIFOLD_CONFIG, QUAD_EDGE, VERTEX_COMPONENT_SHIFT } from './tables.ts';
import type {
  BoundaryLeaves, ChunkMesh, ChunkStats, GridMapping, MeshChunkInput, MeshChunkResult,
} from './types.ts';

const now: () => number =
  typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

/** Most secant (Illinois) steps used to refine a crossing when a field callback is given. */
const REFINE_STEPS = 5;
/**
 * A crossing is refined until its estimated distance to the root, |f(t)| over the secant slope of
 * the bracket, is below this (cells): far below what moves a QEF vertex visibly, and most edges
 * of fine chunks stop after the first (linear) guess.
 */
const CROSSING_TOL_CELLS = 1e-2;
/** Forward-difference step for callback normals, in cells. */
const NORMAL_STEP_CELLS = 1e-3;

const scratchW = new Float64Array(3);
const scratchN = new Float64Array(3);
const solveOut = new Float64Array(4);

/** Quadrant order around an edge along axis a, counter-clockwise seen from +a in (u, v) = (a+1, a+2). */
const QUAD_DU = [-1, 0, 0, -1];
const QUAD_DV = [-1, -1, 0, 0];

export class MesherInputError extends Error {
  override name = 'MesherInputError';
}

/** `a`, or a copy of it at least `need` long (doubling), of the same type. */
function grow<T extends Float64Array<ArrayBuffer> | Float32Array<ArrayBuffer> | Uint8Array<ArrayBuffer> | Int32Array<ArrayBuffer>>(a: T, need: number): T {
  if (need <= a.length) return a;
  const b = new (a.constructor as new (length: number) => T)(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

/**
 * Module-level scratch buffers, by name, reused across calls (house style 16: no allocation per
 * call in hot paths). meshChunk is synchronous, so one set per thread is enough; nothing that
 * leaves meshChunk points into them (results are sliced copies).
 */
const scratch = new Map<string, Uint8Array | Int32Array | Float32Array | Float64Array>();
function scratchOf<T extends Uint8Array | Int32Array | Float32Array | Float64Array>(
  name: string, n: number, keep: boolean, make: (n: number) => T,
): T {
  const old = scratch.get(name) as T | undefined;
  if (old && old.length >= n) return old;
  const b = make(Math.max(n, old ? old.length * 2 : 0));
  if (keep && old) b.set(old);
  scratch.set(name, b);
  return b;
}
const scratchU8 = (name: string, n: number): Uint8Array => scratchOf(name, n, false, (m) => new Uint8Array(m));
const scratchI32 = (name: string, n: number, keep = false): Int32Array => scratchOf(name, n, keep, (m) => new Int32Array(m));
const scratchF32 = (name: string, n: number, keep = false): Float32Array => scratchOf(name, n, keep, (m) => new Float32Array(m));
const scratchF64 = (name: string, n: number, keep = false): Float64Array => scratchOf(name, n, keep, (m) => new Float64Array(m));

/** Sign mask of the cube of `size` points at point p (bit c = corner c inside). */
function cornerMaskAt(signs: Uint8Array, p: number, size: number, P: number): number {
  const sx = size, sy = size * P, sz = size * P * P;
  return signs[p] | (signs[p + sx] << 1) | (signs[p + sy] << 2) | (signs[p + sx + sy] << 3) |
    (signs[p + sz] << 4) | (signs[p + sx + sz] << 5) | (signs[p + sy + sz] << 6) | (signs[p + sx + sy + sz] << 7);
}

/**
 * Lists the sign-changing edges of an (N+1)^3 sign grid into the 'edgeP' (code p * 3 + axis) and
 * 'edgeC' (i, j, k) scratch arrays, in point order; returns the count. Rows of points (fixed j, k)
 * that are homogeneous and equal to their +y and +z neighbour rows (rowState: 0 outside, 1 inside,
 * 2 mixed) cannot start a sign-changing edge and are skipped. A module function rather than a
 * closure so its loop variables live in registers.
 */
function listSignEdges(signs: Uint8Array, rowState: Uint8Array, N: number): number {
  const P = N + 1, PP = P * P;
  let edgeP = scratchI32('edgeP', 6 * PP);
  let edgeC = scratchI32('edgeC', 3 * edgeP.length);
  let cap = edgeP.length;
  let n = 0;
  for (let k = 0; k < P; k++) {
    for (let j = 0; j < P; j++) {
      const r = j + P * k;
      const st = rowState[r];
      if (st !== 2 && (j === N || rowState[r + 1] === st) && (k === N || rowState[r + P] === st)) continue;
      for (let i = 0, p = r * P; i < P; i++, p++) {
        const s = signs[p];
        const ex = i < N && s !== signs[p + 1];
        const ey = j < N && s !== signs[p + P];
        const ez = k < N && s !== signs[p + PP];
        if (!(ex || ey || ez)) continue;
        if (n + 3 > cap) {
          edgeP = scratchI32('edgeP', 2 * cap, true);
          edgeC = scratchI32('edgeC', 6 * cap, true);
          cap = edgeP.length;
        }
        if (ex) { edgeP[n] = p * 3; edgeC[3 * n] = i; edgeC[3 * n + 1] = j; edgeC[3 * n + 2] = k; n++; }
        if (ey) { edgeP[n] = p * 3 + 1; edgeC[3 * n] = i; edgeC[3 * n + 1] = j; edgeC[3 * n + 2] = k; n++; }
        if (ez) { edgeP[n] = p * 3 + 2; edgeC[3 * n] = i; edgeC[3 * n + 1] = j; edgeC[3 * n + 2] = k; n++; }
      }
    }
  }
  return n;
}

/**
 * Adds each edge's plane to the QEFs of the (up to 4) cells around it, creating active entries
 * (one per surface component, consecutive) on first touch in the 'activeCell', 'activeMask',
 * 'activeComp', 'activeCoords' and 'qefs' scratch arrays. Returns the number of entries.
 */
function accumulateQefs(
  N: number, signs: Uint8Array, edgeCount: number,
  edgeP: Int32Array, edgeC: Int32Array, edgeT: Float64Array, edgeN: Float32Array, cellToActive: Int32Array,
): number {
  const P = N + 1, PP = P * P, NN = N * N;
  let cap = Math.max(64, edgeCount);
  let activeCell = scratchI32('activeCell', cap);
  let activeMask = scratchU8('activeMask', cap);
  let activeComp = scratchU8('activeComp', cap);
  let coords = scratchI32('activeCoords', 3 * cap);
  let qefs = scratchF64('qefs', cap * QEF_STRIDE);
  cap = Math.min(activeCell.length, activeMask.length, activeComp.length, coords.length / 3, qefs.length / QEF_STRIDE);
  let count = 0;
  for (let e = 0; e < edgeCount; e++) {
    const code = edgeP[e];
    const axis = code % 3;
    const p = (code - axis) / 3;
    const pc0 = edgeC[3 * e], pc1 = edgeC[3 * e + 1], pc2 = edgeC[3 * e + 2];
    const t = edgeT[e];
    const px = pc0 + (axis === 0 ? t : 0), py = pc1 + (axis === 1 ? t : 0), pz = pc2 + (axis === 2 ? t : 0);
    const nx = edgeN[3 * e], ny = edgeN[3 * e + 1], nz = edgeN[3 * e + 2];
    const d = nx * px + ny * py + nz * pz;
    // u = axis + 1, v = axis + 2 (mod 3): cell strides, point strides and coordinates along them.
    const su = axis === 0 ? N : axis === 1 ? NN : 1, sv = axis === 0 ? NN : axis === 1 ? 1 : N;
    const pu = axis === 0 ? P : axis === 1 ? PP : 1, pv = axis === 0 ? PP : axis === 1 ? 1 : P;
    const cu0 = axis === 0 ? pc1 : axis === 1 ? pc2 : pc0, cv0 = axis === 0 ? pc2 : axis === 1 ? pc0 : pc1;
    const base = pc0 + N * (pc1 + N * pc2);
    for (let qd = 0; qd < 4; qd++) {
      const du = QUAD_DU[qd], dv = QUAD_DV[qd];
      const cu = cu0 + du, cv = cv0 + dv;
      if (cu < 0 || cv < 0 || cu >= N || cv >= N) continue;
      const cell = base + du * su + dv * sv;
      let a = cellToActive[cell];
      if (a < 0) {
        const m = cornerMaskAt(signs, p + du * pu + dv * pv, 1, P);
        const nc = COMPONENT_COUNT[m];
        if (count + nc > cap) {
          cap *= 2;
          activeCell = scratchI32('activeCell', cap, true);
          activeMask = scratchOf('activeMask', cap, true, (l) => new Uint8Array(l));
          activeComp = scratchOf('activeComp', cap, true, (l) => new Uint8Array(l));
          coords = scratchI32('activeCoords', 3 * cap, true);
          qefs = scratchF64('qefs', cap * QEF_STRIDE, true);
        }
        a = count;
        count += nc;
        cellToActive[cell] = a;
        const ci = cell % N, cj = ((cell - ci) / N) % N, ck = (cell - ci - N * cj) / NN;
        for (let c = 0; c < nc; c++) {
          const b = a + c;
          activeCell[b] = cell; activeMask[b] = m; activeComp[b] = c;
          coords[3 * b] = ci; coords[3 * b + 1] = cj; coords[3 * b + 2] = ck;
          for (let w = b * QEF_STRIDE, end = w + QEF_STRIDE; w < end; w++) qefs[w] = 0;
        }
      }
      const o = (a + EDGE_COMPONENT[activeMask[a] * 12 + QUAD_EDGE[axis * 4 + qd]]) * QEF_STRIDE;
      // qefAddPlane, inlined.
      qefs[o] += nx * nx; qefs[o + 1] += nx * ny; qefs[o + 2] += nx * nz;
      qefs[o + 3] += ny * ny; qefs[o + 4] += ny * nz; qefs[o + 5] += nz * nz;
      qefs[o + 6] += nx * d; qefs[o + 7] += ny * d; qefs[o + 8] += nz * d;
      qefs[o + 9] += d * d;
      qefs[o + 10] += px; qefs[o + 11] += py; qefs[o + 12] += pz;
      qefs[o + 13] += 1;
      qefs[o + 14] += nx; qefs[o + 15] += ny; qefs[o + 16] += nz;
    }
  }
  return count;
}

/**
 * Contour (see meshChunk): one polygon per fine sign-changing edge inside the chunk whose four
 * cells map to >= 3 distinct leaves, wound counter-clockwise seen from outside, quads split along
 * the shorter diagonal. Writes 3 leaf ids per triangle to the 'triLeaves' scratch array and
 * returns the triangle count.
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

/** Samples a world-space field at the chunk's (N+1)^3 corners (x fastest). */
export function sampleChunk(
  spec: { originGrid: readonly [number, number, number]; level: number; cells: number },
  field: (x: number, y: number, z: number) => number,
  mapping: GridMapping = IDENTITY_MAPPING,
  target?: Float32Array,
): Float32Array {
  const P = spec.cells + 1;
  const cs = 2 ** spec.level;
  const out = target ?? new Float32Array(P * P * P);
  const [ox, oy, oz] = spec.originGrid;
  let p = 0;
  for (let k = 0; k < P; k++) {
    for (let j = 0; j < P; j++) {
      for (let i = 0; i < P; i++) {
        mapping.toWorld(ox + i * cs, oy + j * cs, oz + k * cs, scratchW);
        out[p++] = field(scratchW[0], scratchW[1], scratchW[2]);
      }
    }
  }
  return out;
}

/** Meshes one chunk. See {@link MeshChunkInput} for the input layout and docs/mesher.md. */
export function meshChunk(input: MeshChunkInput): MeshChunkResult {
  const t0 = now();
  const N = input.cells;
  const level = input.level;
  if (!Number.isInteger(N) || N < 1) throw new MesherInputError(`mesher: cells must be a positive integer, got ${N}`);
  if (!Number.isInteger(level) || level < 0 || level > 30) throw new MesherInputError(`mesher: level must be an integer in [0, 30], got ${level}`);
  for (const c of input.originGrid) {
    if (!Number.isSafeInteger(c)) throw new MesherInputError(`mesher: originGrid must hold integers, got ${input.originGrid.join(',')}`);
  }
  const P = N + 1;
  const PP = P * P;
  const P3 = PP * P;
  let values = input.values;
  if (values.length !== P3) throw new MesherInputError(`mesher: values has ${values.length} entries, expected (N+1)^3 = ${P3}`);
  const mapping = input.mapping ?? IDENTITY_MAPPING;
  const field = input.field;
  const cs = 2 ** level;
  const [ox, oy, oz] = input.originGrid;
  const simplify = input.simplify ?? 0;

  // ---- hermite -----------------------------------------------------------------------------
  // Sign per corner, and per row of corners (fixed j, k) a summary: 0 all outside, 1 all inside,
  // 2 mixed, so rows whose edges cannot change sign are skipped without touching their points.
  const signs = scratchU8('signs', P3);
  const rowState = scratchU8('rows', PP);
  for (let r = 0, p = 0; r < PP; r++) {
    let any = 0, all = 1, sum = 0;
    for (let i = 0; i < P; i++, p++) {
      const v = values[p];
      sum += v; // NaN and infinities survive the sum: one finiteness test per row
      const sg = v < 0 ? 1 : 0;
      signs[p] = sg;
      any |= sg; all &= sg;
    }
    if (!Number.isFinite(sum)) {
      for (let i = 0, q = r * P; i < P; i++, q++) {
        const v = values[q];
        if (Number.isFinite(v)) continue;
        const j = r % P, k = Math.floor(r / P);
        throw new MesherInputError(
          `mesher: field value ${v} at chunk corner (${i},${j},${k}), global grid (${ox + i * cs},${oy + j * cs},${oz + k * cs}); the field must be finite`,
        );
      }
    }
    rowState[r] = any === all ? all : 2;
  }
  // Points restricted to a coarser neighbour's lattice (1), whose value is no field sample.
  let restricted: Uint8Array | undefined;
  if (input.coarserNeighbours && input.coarserNeighbours.length > 0) {
    restricted = new Uint8Array(P3);
    values = restrictToCoarser(input, values, signs, restricted);
    for (let r = 0; r < PP; r++) rowState[r] = 2; // summaries are stale; rows are cheap to rescan
  }
  const STEP = [1, P, PP];
  // Edges: code p * 3 + axis, lower-end coordinates (i, j, k), crossing t and unit normal. Module
  // scratch, grown as needed: no allocation per call once warm.
  let edgeCount = 0;
  let edgePoint = scratchI32('edgeP', 6 * PP);
  let edgeC = scratchI32('edgeC', 3 * edgePoint.length);
  let edgeT = scratchF64('edgeT', edgePoint.length);
  let edgeN = scratchF32('edgeN', 3 * edgePoint.length);
  const growEdges = (): void => {
    const n = edgePoint.length * 2;
    edgePoint = scratchI32('edgeP', n, true); edgeC = scratchI32('edgeC', 3 * n, true);
    edgeT = scratchF64('edgeT', n, true); edgeN = scratchF32('edgeN', 3 * n, true);
  };
  if (input.hermite) {
    const h = input.hermite;
    // Supplied hermite data describes the grid as sampled (the GPU edge pass knows nothing of the
    // neighbours): check it against the unrestricted signs, then replace the edges touching
    // restricted points (below).
    const inputValues = input.values;
    const sign0 = restricted
      ? (p: number): number => (restricted![p] ? (inputValues[p] < 0 ? 1 : 0) : signs[p])
      : (p: number): number => signs[p];
    let expected = 0;
    for (let k = 0, p = 0; k < P; k++) for (let j = 0; j < P; j++) for (let i = 0; i < P; i++, p++) {
      const s = sign0(p);
      if (i < N && s !== sign0(p + 1)) expected++;
      if (j < N && s !== sign0(p + P)) expected++;
      if (k < N && s !== sign0(p + PP)) expected++;
    }
    if (h.count !== expected) throw new MesherInputError(`mesher: hermite input has ${h.count} edges, the grid has ${expected} sign-changing edges`);
    for (let e = 0; e < h.count; e++) {
      const id = h.edgeIds[e];
      const axis = Math.floor(id / P3);
      const p = id - axis * P3;
      if (axis > 2 || sign0(p) === sign0(p + STEP[axis]) || (axis === 0 && p % P === N) ||
          (axis === 1 && Math.floor(p / P) % P === N) || (axis === 2 && Math.floor(p / PP) === N)) {
        throw new MesherInputError(`mesher: hermite edge ${e} (id ${id}) is not a sign-changing edge of the grid`);
      }
      if (restricted && (restricted[p] || restricted[p + STEP[axis]])) continue;
      if (edgeCount >= edgePoint.length) growEdges();
      edgePoint[edgeCount] = p * 3 + axis;
      edgeC[3 * edgeCount] = p % P; edgeC[3 * edgeCount + 1] = Math.floor(p / P) % P; edgeC[3 * edgeCount + 2] = Math.floor(p / PP);
      const t = h.t[e];
      edgeT[edgeCount] = t < 0 ? 0 : t > 1 ? 1 : t;
      const nx = h.normals[3 * e], ny = h.normals[3 * e + 1], nz = h.normals[3 * e + 2];
      const len = Math.hypot(nx, ny, nz);
      if (!(len > 0) || !Number.isFinite(len)) throw new MesherInputError(`mesher: hermite edge ${e} has a zero or non-finite normal`);
      const o = 3 * edgeCount;
      edgeN[o] = nx / len; edgeN[o + 1] = ny / len; edgeN[o + 2] = nz / len;
      edgeCount++;
    }
    if (restricted) {
      // Edges touching restricted points, from the restricted grid: linear crossing, normal from
      // grid differences (each edge once: from its lower end, or from its upper end when the lower
      // end is not restricted).
      const first = edgeCount;
      for (let p = 0; p < P3; p++) {
        if (!restricted[p]) continue;
        const c0 = p % P, c1 = Math.floor(p / P) % P, c2 = Math.floor(p / PP);
        for (let axis = 0; axis < 3; axis++) {
          const c = axis === 0 ? c0 : axis === 1 ? c1 : c2;
          for (let lower = 0; lower < 2; lower++) {
            const a = lower === 0 ? p : p - STEP[axis];
            if (lower === 0 ? c === N : c === 0 || restricted[a]) continue;
            if (signs[a] === signs[a + STEP[axis]]) continue;
            if (edgeCount >= edgePoint.length) growEdges();
            edgePoint[edgeCount] = a * 3 + axis;
            edgeC[3 * edgeCount] = c0 - (lower && axis === 0 ? 1 : 0);
            edgeC[3 * edgeCount + 1] = c1 - (lower && axis === 1 ? 1 : 0);
            edgeC[3 * edgeCount + 2] = c2 - (lower && axis === 2 ? 1 : 0);
            edgeCount++;
          }
        }
      }
      computeCrossings(first, true);
    }
  } else {
    edgeCount = listSignEdges(signs, rowState, N);
    edgePoint = scratchI32('edgeP', edgeCount); edgeC = scratchI32('edgeC', 3 * edgeCount);
    edgeT = scratchF64('edgeT', edgeCount); edgeN = scratchF32('edgeN', 3 * edgeCount);
    computeCrossings();
  }

  function computeCrossings(from = 0, gridNormals = false): void {
    const h = NORMAL_STEP_CELLS * cs;
    const field = gridNormals ? undefined : input.field;
    const memo = input.hermiteMemo;
    for (let e = from; e < edgeCount; e++) {
      const code = edgePoint[e];
      const axis = code % 3;
      const p = (code - axis) / 3;
      const q = p + STEP[axis];
      const va = values[p], vb = values[q];
      let t = va / (va - vb);
      const i = edgeC[3 * e], j = edgeC[3 * e + 1], k = edgeC[3 * e + 2];
      const gx = ox + i * cs, gy = oy + j * cs, gz = oz + k * cs;
      let nx: number, ny: number, nz: number;
      // Field value at the final crossing when the last evaluation was there (NaN: not known).
      let fc = NaN;
      // A restricted end's sign is the coarse lattice's, not the field's: the field need not change
      // sign on this edge, and false position would then pin the crossing to the restricted end
      // (saw coincident vertices and zero-area seam triangles). Keep the linear crossing there.
      // Sign convention (docs/mesher.md): negative is inside, zero and positive are outside, in
      // every sign test here, in seams and in the GPU edge pass. An end whose value is exactly 0
      // is on the surface, so the crossing is that end: t = 0 or 1 exactly. (False position would
      // never reach it: with f = 0 at the bracket's end each step bisects, and the 5 steps left
      // faces on the lattice 1/32 cell inside.)
      const onEnd = va === 0 || vb === 0;
      if (onEnd) fc = 0;
      const refine = field !== undefined && !onEnd && !(restricted && (restricted[p] || restricted[q]));
      if (refine && memo?.recall(code, va, vb, edgeT, e, edgeN)) continue;
      if (refine) {
        // Illinois false position on [0, 1]; keeps the bracket so t never leaves the edge. The
        // first step is the linear crossing of the grid values; stop once the estimated distance
        // to the root is below CROSSING_TOL_CELLS.
        let a = 0, fa = va, b = 1, fb = vb, side = 0;
        let ga = va, gb = vb; // unhalved values at the bracket's ends
        for (let it = 0; it < REFINE_STEPS; it++) {
          t = (a * fb - b * fa) / (fb - fa);
          if (!(t > a && t < b)) t = 0.5 * (a + b);
          const d = t * cs;
          mapping.toWorld(gx + (axis === 0 ? d : 0), gy + (axis === 1 ? d : 0), gz + (axis === 2 ? d : 0), scratchW);
          const ft = field(scratchW[0], scratchW[1], scratchW[2]);
          fc = ft;
          if (ft === 0 || !Number.isFinite(ft)) break;
          if ((ft < 0) === (fa < 0)) {
            a = t; fa = ft; ga = ft;
            if (side === -1) fb *= 0.5;
            side = -1;
          } else {
            b = t; fb = ft; gb = ft;
            if (side === 1) fa *= 0.5;
            side = 1;
          }
          if (Math.abs(ft) * (b - a) <= CROSSING_TOL_CELLS * Math.abs(gb - ga)) break;
        }
      }
      if (field) {
        // Forward differences from the crossing, reusing its value: 3 evaluations (4 when the
        // crossing was not evaluated). Step 1e-3 cells: the O(step) error is ~1e-3 of the curvature.
        const d = t * cs;
        const cx = gx + (axis === 0 ? d : 0), cy = gy + (axis === 1 ? d : 0), cz = gz + (axis === 2 ? d : 0);
        if (Number.isNaN(fc)) fc = sampleAt(cx, cy, cz);
        nx = sampleAt(cx + h, cy, cz) - fc;
        ny = sampleAt(cx, cy + h, cz) - fc;
        nz = sampleAt(cx, cy, cz + h) - fc;
      } else {
        // Central differences of the grid at both ends, interpolated at t.
        const u = 1 - t;
        nx = u * gridGrad(p, i, 1) + t * gridGrad(q, axis === 0 ? i + 1 : i, 1);
        ny = u * gridGrad(p, j, P) + t * gridGrad(q, axis === 1 ? j + 1 : j, P);
        nz = u * gridGrad(p, k, PP) + t * gridGrad(q, axis === 2 ? k + 1 : k, PP);
      }
      let len = Math.sqrt(nx * nx + ny * ny + nz * nz);
      if (!(len > 0) || !Number.isFinite(len)) {
        // Flat or broken gradient: fall back to the edge direction, pointing outward.
        nx = axis === 0 ? 1 : 0; ny = axis === 1 ? 1 : 0; nz = axis === 2 ? 1 : 0;
        if (va >= 0) { nx = -nx; ny = -ny; nz = -nz; }
        len = 1;
      }
      edgeT[e] = t;
      edgeN[3 * e] = nx / len; edgeN[3 * e + 1] = ny / len; edgeN[3 * e + 2] = nz / len;
      if (refine) memo?.keep(code, va, vb, edgeT, e, edgeN);
    }
  }
  function sampleAt(gx: number, gy: number, gz: number): number {
    mapping.toWorld(gx, gy, gz, scratchW);
    return field!(scratchW[0], scratchW[1], scratchW[2]);
  }
  /** Grid gradient along the axis of stride s at point p, whose coordinate on that axis is c. */
  function gridGrad(p: number, c: number, s: number): number {
    if (c === 0) return values[p + s] - values[p];
    if (c === N) return values[p] - values[p - s];
    return 0.5 * (values[p + s] - values[p - s]);
  }
  const t1 = now();

  // ---- qef: leaves in active cells -------------------------------------------------------
  const NN = N * N;
  const cellToActive = scratchI32('cellToActive', N * NN);
  cellToActive.fill(-1, 0, N * NN);
  const activeCount = accumulateQefs(N, signs, edgeCount, edgePoint, edgeC, edgeT, edgeN, cellToActive);
  const activeMask = scratchU8('activeMask', activeCount);
  const activeComp = scratchU8('activeComp', activeCount);
  const cellCoords = scratchI32('activeCoords', 3 * activeCount);
  const qefs = scratchF64('qefs', activeCount * QEF_STRIDE);
  // Level-0 node arrays: coords, vertex, ok (= may take part in a merge).
  const cellVert = scratchF64('cellVert', activeCount * 3);
  const cellOk = scratchU8('cellOk', activeCount);
  let nonManifoldCells = 0;
  for (let a = 0; a < activeCount; a++) {
    qefSolve(qefs, a * QEF_STRIDE, cellCoords[3 * a], cellCoords[3 * a + 1], cellCoords[3 * a + 2], 1, solveOut);
    cellVert[3 * a] = solveOut[0]; cellVert[3 * a + 1] = solveOut[1]; cellVert[3 * a + 2] = solveOut[2];
    const ok = MANIFOLD_CONFIG[activeMask[a]];
    cellOk[a] = ok;
    if (!ok && activeComp[a] === 0) nonManifoldCells++;
  }
  function cornerMask(i: number, j: number, k: number, size: number): number {
    return cornerMaskAt(signs, i + P * (j + P * k), size, P);
  }
  const t2 = now();

  // ---- octree + simplify -----------------------------------------------------------------
  // levelMap[k][node key] = node index at level k (or -1); levelOk[k][idx] = 1 if the node is a
  // collapsed leaf. Level 0 is the active cells (ok = manifold, so allowed to merge).
  const levelMap: Int32Array[] = [cellToActive];
  const levelOk: Uint8Array[] = [cellOk];
  const levelCoords: Int32Array[] = [cellCoords];
  const levelVert: Float64Array[] = [cellVert];
  const levelQef: Float64Array[] = [qefs];
  const levelCount: number[] = [activeCount];
  let octreeMs = 0;
  let simplifyMs = 0;
  let collapsedNodes = 0;
  if (simplify > 0) {
    const maxLeaf = input.maxLeafCells ?? N;
    for (let k = 1; (N >> k) >= 1 && (1 << k) <= maxLeaf; k++) {
      const ta = now();
      const nk = N >> k; // nodes per axis fully inside the chunk
      const prevCount = levelCount[k - 1];
      const prevCoords = levelCoords[k - 1];
      const prevOk = levelOk[k - 1];
      const prevQef = levelQef[k - 1];
      // Per-level module scratch (large typed arrays per call triggered extra GCs mid-stage).
      const map = scratchI32(`octMap${k}`, nk * nk * nk);
      map.fill(-1, 0, nk * nk * nk);
      const coords = scratchI32(`octCoords${k}`, prevCount * 3);
      const blocked = scratchU8(`octBlocked${k}`, prevCount);
      const qef = scratchF64(`octQef${k}`, prevCount * QEF_STRIDE);
      let count = 0;
      for (let n = 0; n < prevCount; n++) {
        const x = prevCoords[3 * n] >> 1, y = prevCoords[3 * n + 1] >> 1, z = prevCoords[3 * n + 2] >> 1;
        if (x >= nk || y >= nk || z >= nk) continue; // partial node at a non-power-of-two edge
        const key = x + nk * (y + nk * z);
        let idx = map[key];
        if (idx < 0) {
          idx = count++;
          map[key] = idx;
          coords[3 * idx] = x; coords[3 * idx + 1] = y; coords[3 * idx + 2] = z;
          blocked[idx] = 0;
          for (let w = idx * QEF_STRIDE, end = w + QEF_STRIDE; w < end; w++) qef[w] = 0;
        }
        if (!prevOk[n]) blocked[idx] = 1;
        else qefAdd(qef, idx * QEF_STRIDE, prevQef, n * QEF_STRIDE);
      }
      // A parent whose child at level k-1 lies partly outside the chunk cannot exist: handled by
      // the bounds test above, since its own coords would then be >= nk.
      const tb = now();
      octreeMs += tb - ta;
      const ok = scratchU8(`octOk${k}`, count);
      ok.fill(0, 0, count);
      const vert = scratchF64(`octVert${k}`, count * 3);
      let any = false;
      const size = 1 << k;
      for (let n = 0; n < count; n++) {
        if (blocked[n]) continue;
        const x = coords[3 * n] * size, y = coords[3 * n + 1] * size, z = coords[3 * n + 2] * size;
        if (!topologySafe(x, y, z, size)) continue;
        qefSolve(qef, n * QEF_STRIDE, x, y, z, size, solveOut);
        if (!(solveOut[3] < simplify)) continue;
        ok[n] = 1;
        any = true;
        collapsedNodes++;
        vert[3 * n] = solveOut[0]; vert[3 * n + 1] = solveOut[1]; vert[3 * n + 2] = solveOut[2];
      }
      simplifyMs += now() - tb;
      levelMap.push(map); levelOk.push(ok); levelCoords.push(coords); levelVert.push(vert);
      levelQef.push(qef); levelCount.push(count);
      if (!any) break;
    }
  }
  const levels = levelMap.length;
  const levelBase: number[] = [0];
  for (let k = 0; k < levels; k++) levelBase.push(levelBase[k] + levelCount[k]);
  const totalNodes = levelBase[levels];

  /** Ju et al. 2002 §3.2: parent sign config manifold, and each edge midpoint / face center /
   *  cube center agrees with at least one corner of that edge / face / cube. */
  function topologySafe(x: number, y: number, z: number, size: number): boolean {
    const m = cornerMask(x, y, z, size);
    if (!MANIFOLD_CONFIG[m]) return false;
    const h = size >> 1;
    const base = x + P * (y + P * z);
    // 27-point lattice: s(a, b, c) with a, b, c in {0, 1, 2}.
    const s = (a: number, b: number, c: number): number => signs[base + a * h + (b * h) * P + (c * h) * PP];
    for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) for (let c = 0; c < 3; c++) {
      const odd = (a & 1) + (b & 1) + (c & 1);
      if (odd === 0) continue;
      // The corners of the smallest edge/face/cube this point is the center of.
      const v = s(a, b, c);
      let match = false;
      for (let ca = (a & 1 ? 0 : a); ca <= (a & 1 ? 2 : a) && !match; ca += 2) {
        for (let cb = (b & 1 ? 0 : b); cb <= (b & 1 ? 2 : b) && !match; cb += 2) {
          for (let cc = (c & 1 ? 0 : c); cc <= (c & 1 ? 2 : c) && !match; cc += 2) {
            if (s(ca, cb, cc) === v) match = true;
          }
        }
      }
      if (!match) return false;
    }
    return true;
  }

  /** Top-most collapsed node containing chunk cell (i, j, k), as a global node id, or -1. */
  function collapsedLeafOf(i: number, j: number, k: number): number {
    for (let l = levels - 1; l >= 1; l--) {
      const nk = N >> l;
      const x = i >> l, y = j >> l, z = k >> l;
      if (x >= nk || y >= nk || z >= nk) continue;
      const idx = levelMap[l][x + nk * (y + nk * z)];
      if (idx >= 0 && levelOk[l][idx]) return levelBase[l] + idx;
    }
    return -1;
  }
  const activeLeaf = scratchI32('activeLeaf', activeCount);
  for (let a = 0; a < activeCount; a++) {
    const c = levels > 1 ? collapsedLeafOf(cellCoords[3 * a], cellCoords[3 * a + 1], cellCoords[3 * a + 2]) : -1;
    activeLeaf[a] = c >= 0 ? c : a;
  }
  const nodeLevel = (id: number): number => {
    let l = 0;
    while (id >= levelBase[l + 1]) l++;
    return l;
  };
  const t3 = now();

  // ---- contour -----------------------------------------------------------------------------
  // Each fine sign-changing edge inside the chunk maps its four cells to their leaves. Because every
  // collapse is topologically safe, a minimal edge of a collapsed leaf contains exactly one fine
  // crossing iff its ends differ in sign (by induction on Ju's midpoint condition), so emitting at
  // fine crossings whose leaves are >= 3 distinct reproduces the cell/face/edge procedures' output
  // exactly; fewer than 3 distinct leaves means the edge lies inside a leaf or on a face between two.
  mapping.toWorld(ox, oy, oz, scratchW);
  const originWorld: [number, number, number] = [scratchW[0], scratchW[1], scratchW[2]];
  // Vertex positions of every node id (level-0 entries first, then each level), local cells.
  let leafVert: Float64Array;
  if (levels === 1) {
    leafVert = cellVert;
  } else {
    leafVert = scratchF64('leafVert', totalNodes * 3);
    for (let l = 0; l < levels; l++) leafVert.set(levelVert[l].subarray(0, levelCount[l] * 3), levelBase[l] * 3);
  }
  // Triangles as leaf ids, then vertices in order of first use (as a streaming emitter would).
  const triCount = contourTriangles(N, signs, edgeCount, edgePoint, edgeC, cellToActive, activeLeaf, activeMask, leafVert);
  const triLeaves = scratchI32('triLeaves', 3 * triCount);
  const iCount = 3 * triCount;
  const indices = new Uint32Array(iCount);
  const leafVertex = scratchI32('leafVertex', totalNodes);
  leafVertex.fill(-1, 0, totalNodes);
  let vCount = 0;
  for (let t = 0; t < iCount; t++) {
    const id = triLeaves[t];
    let vi = leafVertex[id];
    if (vi < 0) { vi = vCount++; leafVertex[id] = vi; triLeaves[t] = -1 - id; } // mark first use
    indices[t] = vi;
  }
  const positions = new Float32Array(vCount * 3);
  const normals = new Float32Array(vCount * 3);
  const vertexCells = new Int32Array(vCount * 4);
  for (let t = 0; t < iCount; t++) {
    if (triLeaves[t] >= 0) continue;
    const id = -1 - triLeaves[t];
    const vi = indices[t];
    let l = 0;
    while (id >= levelBase[l + 1]) l++;
    const idx = id - levelBase[l];
    const gx = ox + leafVert[3 * id] * cs, gy = oy + leafVert[3 * id + 1] * cs, gz = oz + leafVert[3 * id + 2] * cs;
    mapping.toWorld(gx, gy, gz, scratchW);
    positions[3 * vi] = scratchW[0] - originWorld[0];
    positions[3 * vi + 1] = scratchW[1] - originWorld[1];
    positions[3 * vi + 2] = scratchW[2] - originWorld[2];
    const q = levelQef[l];
    const qo = idx * QEF_STRIDE + QEF_NORMAL;
    writeNormal(mapping, gx, gy, gz, q[qo], q[qo + 1], q[qo + 2]);
    normals[3 * vi] = scratchN[0]; normals[3 * vi + 1] = scratchN[1]; normals[3 * vi + 2] = scratchN[2];
    const c = levelCoords[l];
    vertexCells[4 * vi] = ox + c[3 * idx] * (cs << l);
    vertexCells[4 * vi + 1] = oy + c[3 * idx + 1] * (cs << l);
    vertexCells[4 * vi + 2] = oz + c[3 * idx + 2] * (cs << l);
    vertexCells[4 * vi + 3] = (cs << l) | (l === 0 ? activeComp[idx] << VERTEX_COMPONENT_SHIFT : 0);
  }
  function leafInfo(id: number, out: Float64Array): number {
    // out: vertex (local cells) in 0..2; returns level.
    const l = nodeLevel(id);
    out[0] = leafVert[3 * id]; out[1] = leafVert[3 * id + 1]; out[2] = leafVert[3 * id + 2];
    return l;
  }
  const lv = new Float64Array(3);
  const mesh: ChunkMesh = { positions, normals, indices, originWorld, vertexCells };
  const t4 = now();

  // ---- boundary leaves ---------------------------------------------------------------------
  const exported = scratchU8('exported', totalNodes);
  exported.fill(0, 0, totalNodes);
  let bCount = 0;
  // Module scratch (every field of a record is written); the result holds exact-size copies.
  const bCap = Math.max(8, 6 * NN);
  let bCells = scratchI32('bCells', bCap * 4) as Int32Array<ArrayBuffer>;
  let bCorners = scratchU8('bCorners', bCap) as Uint8Array<ArrayBuffer>;
  let bComponent = scratchU8('bComponent', bCap) as Uint8Array<ArrayBuffer>;
  let bVert = scratchF64('bVert', bCap * 3) as Float64Array<ArrayBuffer>;
  let bNormals = scratchF32('bNormals', bCap * 3) as Float32Array<ArrayBuffer>;
  const exportCell = (i: number, j: number, k: number): void => {
    const cell = i + N * (j + N * k);
    const a = cellToActive[cell];
    const id = a >= 0 ? activeLeaf[a] : levels > 1 ? collapsedLeafOf(i, j, k) : -1;
    if (id >= 0 && id < activeCount) {
      // An uncollapsed cell: one record per surface component, consecutive.
      for (let t = 0; t < COMPONENT_COUNT[activeMask[id]]; t++) exportLeaf(id + t);
      return;
    }
    exportLeaf(id, i, j, k);
  };
  const exportLeaf = (id: number, i = 0, j = 0, k = 0): void => {
    if (bCount >= bCells.length / 4) {
      bCells = grow(bCells, (bCount + 1) * 4); bCorners = grow(bCorners, bCount + 1);
      bComponent = grow(bComponent, bCount + 1); bVert = grow(bVert, (bCount + 1) * 3);
      bNormals = grow(bNormals, (bCount + 1) * 3);
    }
    const b = bCount++;
    if (id < 0) {
      // Empty cell: no vertex.
      bCells[4 * b] = ox + i * cs; bCells[4 * b + 1] = oy + j * cs; bCells[4 * b + 2] = oz + k * cs;
      bCells[4 * b + 3] = cs;
      bCorners[b] = cornerMask(i, j, k, 1);
      bComponent[b] = 0;
      bVert[3 * b] = NaN; bVert[3 * b + 1] = NaN; bVert[3 * b + 2] = NaN;
      bNormals[3 * b] = 0; bNormals[3 * b + 1] = 0; bNormals[3 * b + 2] = 0;
      return;
    }
    if (exported[id]) { bCount--; return; }
    exported[id] = 1;
    const l = leafInfo(id, lv);
    const idx = id - levelBase[l];
    const c = levelCoords[l];
    const sizeCells = 1 << l;
    bCells[4 * b] = ox + c[3 * idx] * sizeCells * cs;
    bCells[4 * b + 1] = oy + c[3 * idx + 1] * sizeCells * cs;
    bCells[4 * b + 2] = oz + c[3 * idx + 2] * sizeCells * cs;
    bCells[4 * b + 3] = sizeCells * cs;
    bCorners[b] = cornerMask(c[3 * idx] * sizeCells, c[3 * idx + 1] * sizeCells, c[3 * idx + 2] * sizeCells, sizeCells);
    bComponent[b] = l === 0 ? activeComp[idx] : 0;
    const gx = ox + lv[0] * cs, gy = oy + lv[1] * cs, gz = oz + lv[2] * cs;
    bVert[3 * b] = gx; bVert[3 * b + 1] = gy; bVert[3 * b + 2] = gz;
    const q = levelQef[l];
    const qo = idx * QEF_STRIDE + QEF_NORMAL;
    writeNormal(mapping, gx, gy, gz, q[qo], q[qo + 1], q[qo + 2]);
    bNormals[3 * b] = scratchN[0]; bNormals[3 * b + 1] = scratchN[1]; bNormals[3 * b + 2] = scratchN[2];
  };
  for (let k = 0; k < N; k++) {
    for (let j = 0; j < N; j++) {
      if (k === 0 || k === N - 1 || j === 0 || j === N - 1) {
        for (let i = 0; i < N; i++) exportCell(i, j, k);
      } else {
        exportCell(0, j, k);
        if (N > 1) exportCell(N - 1, j, k);
      }
    }
  }
  const S = N * cs;
  const boundary: BoundaryLeaves = {
    chunkId: input.chunkId ?? 0,
    boxGrid: [ox, oy, oz, ox + S, oy + S, oz + S],
    count: bCount,
    cells: bCells.slice(0, bCount * 4),
    corners: bCorners.slice(0, bCount),
    component: bComponent.slice(0, bCount),
    vertexGrid: bVert.slice(0, bCount * 3),
    normals: bNormals.slice(0, bCount * 3),
  };
  const t5 = now();
  const seenLeaf = scratchU8('seenLeaf', totalNodes);
  seenLeaf.fill(0, 0, totalNodes);
  let leaves = 0;
  for (let a = 0; a < activeCount; a++) {
    if (!seenLeaf[activeLeaf[a]]) { seenLeaf[activeLeaf[a]] = 1; leaves++; }
  }
  const stats: ChunkStats = {
    hermiteMs: t1 - t0,
    qefMs: t2 - t1,
    octreeMs,
    simplifyMs,
    contourMs: t4 - t3,
    boundaryMs: t5 - t4,
    totalMs: t5 - t0,
    edges: edgeCount,
    activeCells: activeCount,
    leaves,
    collapsedNodes,
    nonManifoldCells,
    vertices: vCount,
    triangles: iCount / 3,
  };
  return { mesh, boundary, stats };
}

/**
 * 2:1 consistency (docs/mesher.md, "Mixed levels"). A coarse neighbour only sampled every other
 * point of the boundary it shares with this chunk, and its boundary cells get one vertex per
 * surface piece of their 8 corners. If this finer chunk kept its own samples at the odd points,
 * a feature smaller than a coarse cell could cross a coarse face between its samples and give one
 * seam edge four triangles (seen: noisy asteroid, 3x3x3 chunks, seed 2). So the odd points are
 * replaced by the coarse lattice's interpolant — what a topologically safe octree collapse would
 * guarantee (Ju et al. 2002 §3.2): an edge midpoint gets the mean of the edge's ends (its sign
 * agrees with one end, and the linear crossing is where the coarse edge has it); a face center
 * gets the mean of its 4 corners, except on a checkerboard face, where it must be outside to
 * keep the inside corners apart as EDGE_COMPONENT does (the mean of the outside corners).
 * Returns a copy of `values`; updates `signs` and marks the replaced points in `restricted`.
 */
function restrictToCoarser(
  input: MeshChunkInput, values: Float32Array | Float64Array, signs: Uint8Array, restricted: Uint8Array,
): Float64Array {
  const N = input.cells;
  const P = N + 1;
  const cs = 2 ** input.level;
  const S = 2 * cs;
  const o = input.originGrid;
  const out = Float64Array.from(values);
  const step = [1, P, P * P];
  const mod = (a: number, m: number): number => ((a % m) + m) % m;
  for (const nb of input.coarserNeighbours!) {
    const b = nb.boxGrid;
    if (nb.level !== input.level + 1) {
      throw new MesherInputError(`mesher: coarser neighbour at level ${nb.level} next to a level-${input.level} chunk; only one level apart is supported`);
    }
    const lo = [0, 0, 0], hi = [0, 0, 0];
    let touching = true, flat = 0;
    for (let a = 0; a < 3; a++) {
      if (mod(o[a] - b[a], S) !== 0 || mod(b[a + 3] - b[a], S) !== 0 || N % 2 !== 0) {
        throw new MesherInputError(`mesher: chunk at ${o.join(',')} (level ${input.level}, ${N} cells) is not aligned to the lattice of its coarser neighbour ${b.join(',')}`);
      }
      const g0 = Math.max(o[a], b[a]), g1 = Math.min(o[a] + N * cs, b[a + 3]);
      if (g0 > g1) { touching = false; break; }
      if (g0 === g1) flat++;
      lo[a] = (g0 - o[a]) / cs; hi[a] = (g1 - o[a]) / cs;
    }
    if (!touching) continue;
    if (flat === 0) throw new MesherInputError(`mesher: coarser neighbour ${b.join(',')} overlaps the chunk at ${o.join(',')}`);
    // Chunk-local points of the shared boundary; odd along an axis = between two coarse samples.
    for (let k = lo[2]; k <= hi[2]; k++) for (let j = lo[1]; j <= hi[1]; j++) for (let i = lo[0]; i <= hi[0]; i++) {
      const c = [i, j, k];
      let a0 = -1, a1 = -1;
      for (let a = 0; a < 3; a++) {
        if (c[a] % 2 === 0) continue;
        if (a0 < 0) a0 = a; else a1 = a;
      }
      if (a0 < 0) continue;
      const p = i + P * (j + P * k);
      let v: number;
      if (a1 < 0) {
        v = 0.5 * (values[p - step[a0]] + values[p + step[a0]]);
      } else {
        const sa = step[a0], sb = step[a1];
        const v00 = values[p - sa - sb], v10 = values[p + sa - sb], v01 = values[p - sa + sb], v11 = values[p + sa + sb];
        const in00 = v00 < 0, in10 = v10 < 0, in01 = v01 < 0, in11 = v11 < 0;
        if (in00 === in11 && in10 === in01 && in00 !== in10) {
          v = in00 ? 0.5 * (v10 + v01) : 0.5 * (v00 + v11);
        } else {
          v = 0.25 * (v00 + v10 + v01 + v11);
        }
      }
      out[p] = v;
      signs[p] = v < 0 ? 1 : 0;
      restricted[p] = 1;
    }
  }
  return out;
}

/** Normalises a grid-space normal and maps it to world space into scratchN. */
function writeNormal(mapping: GridMapping, gx: number, gy: number, gz: number, nx: number, ny: number, nz: number): void {
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz) || 1;
  scratchN[0] = nx / len; scratchN[1] = ny / len; scratchN[2] = nz / len;
  if (mapping.normalToWorld) mapping.normalToWorld(gx, gy, gz, scratchN);
}
