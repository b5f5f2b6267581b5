/**
 * Hermite stage of the chunk mesher: the sign of every corner (with the 2:1 restriction applied),
 * the list of sign-changing edges, and each edge's crossing and unit normal — from the grid alone,
 * refined with the field callback (supplied hermite data: hermiteInput.ts). Its output, a
 * {@link ChunkGrid} and a {@link SignEdges}, is all the later stages read of the input.
 */
import { MesherInputError } from './errors.ts';
import type { HermiteMemo } from './hermiteMemo.ts';
import { IDENTITY_MAPPING } from './mapping.ts';
import { restrictToCoarser } from './restrict.ts';
import { scratchF32, scratchF64, scratchI32, scratchU8 } from './scratch.ts';
import type { FieldFn, GridMapping, MeshChunkInput } from './types.ts';

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

/**
 * A chunk's corner grid as the stages read it. `signs` and `rowState` are module scratch (valid until
 * the next meshChunk).
 */
export interface ChunkGrid {
  /** Cells per axis. */
  N: number;
  /** Points per axis, N + 1; point p = i + P * (j + P * k). */
  P: number;
  /** Cell size in finest units, 2^level. */
  cs: number;
  /** Global grid coordinates of the chunk's minimum corner (finest units). */
  ox: number;
  oy: number;
  oz: number;
  /** Corner values: the input's, or a Float64 copy with the restricted points replaced. */
  values: Float32Array | Float64Array;
  /** 1 where the corner is inside (value < 0; 0 counts as outside), per point. */
  signs: Uint8Array;
  /** Per row of points (fixed j, k): 0 all outside, 1 all inside, 2 mixed or not known. */
  rowState: Uint8Array;
  /** 1 at points restricted to a coarser neighbour's lattice (no field sample); undefined without neighbours. */
  restricted: Uint8Array | undefined;
}

/** The sign-changing edges of a chunk with their hermite data. Arrays are module scratch. */
export interface SignEdges {
  count: number;
  /** Per edge: p * 3 + axis, p the chunk-local point index of the edge's lower end. */
  codes: Int32Array;
  /** Per edge: i, j, k of the lower end. */
  coords: Int32Array;
  /** Per edge: the crossing in [0, 1] from the lower end. */
  t: Float64Array;
  /** Per edge: unit normal (grid space, outward), 3 floats. */
  normals: Float32Array;
}

/** Sign mask of the cube of `size` points at point p (bit c = corner c inside). */
export function cornerMaskAt(signs: Uint8Array, p: number, size: number, P: number): number {
  const sx = size, sy = size * P, sz = size * P * P;
  return signs[p] | (signs[p + sx] << 1) | (signs[p + sy] << 2) | (signs[p + sx + sy] << 3) |
    (signs[p + sz] << 4) | (signs[p + sx + sz] << 5) | (signs[p + sy + sz] << 6) | (signs[p + sx + sy + sz] << 7);
}

/**
 * Signs per corner and a summary per row of corners (0 all outside, 1 all inside, 2 mixed), so
 * rows whose edges cannot change sign are skipped without touching their points; then the 2:1
 * restriction when the input names coarser neighbours. Throws on a non-finite value.
 */
export function signGrid(input: MeshChunkInput): ChunkGrid {
  const N = input.cells, P = N + 1, PP = P * P, P3 = PP * P;
  const cs = 2 ** input.level;
  const [ox, oy, oz] = input.originGrid;
  const values = input.values;
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
    if (!Number.isFinite(sum)) throwNonFinite(input, r);
    rowState[r] = any === all ? all : 2;
  }
  const grid: ChunkGrid = { N, P, cs, ox, oy, oz, values, signs, rowState, restricted: undefined };
  if (input.coarserNeighbours && input.coarserNeighbours.length > 0) {
    grid.restricted = new Uint8Array(P3);
    grid.values = restrictToCoarser(input, values, signs, grid.restricted);
    for (let r = 0; r < PP; r++) rowState[r] = 2; // summaries are stale; rows are cheap to rescan
  }
  return grid;
}

/** Throws a MesherInputError naming the first non-finite value of row r (chunk-local and global corner). */
function throwNonFinite(input: MeshChunkInput, r: number): void {
  const P = input.cells + 1, cs = 2 ** input.level;
  const [ox, oy, oz] = input.originGrid;
  for (let i = 0, q = r * P; i < P; i++, q++) {
    const v = input.values[q];
    if (Number.isFinite(v)) continue;
    const j = r % P, k = Math.floor(r / P);
    throw new MesherInputError(
      `mesher: field value ${v} at chunk corner (${i},${j},${k}), global grid (${ox + i * cs},${oy + j * cs},${oz + k * cs}); the field must be finite`,
    );
  }
}

/**
 * The hermite stage after the signs, without supplied data: the sign-changing edges listed from the
 * signs, with crossings and normals from the grid or the field callback.
 */
export function computedEdges(input: MeshChunkInput, grid: ChunkGrid): SignEdges {
  const edges = edgeScratch(grid.P * grid.P);
  const n = listSignEdges(grid.signs, grid.rowState, grid.N);
  edges.count = n;
  edges.codes = scratchI32('edgeP', n); edges.coords = scratchI32('edgeC', 3 * n);
  edges.t = scratchF64('edgeT', n); edges.normals = scratchF32('edgeN', 3 * n);
  computeCrossings(grid, edges, 0, input.field, input.mapping ?? IDENTITY_MAPPING, input.hermiteMemo);
  return edges;
}

/** An empty edge list on the module scratch arrays, sized for 6 edges per point of a (P, P) face. */
export function edgeScratch(PP: number): SignEdges {
  const codes = scratchI32('edgeP', 6 * PP);
  const n = codes.length;
  return { count: 0, codes, coords: scratchI32('edgeC', 3 * n), t: scratchF64('edgeT', n), normals: scratchF32('edgeN', 3 * n) };
}

/** Doubles the edge list's capacity, keeping its entries. */
export function growEdges(edges: SignEdges): void {
  const n = edges.codes.length * 2;
  edges.codes = scratchI32('edgeP', n, true); edges.coords = scratchI32('edgeC', 3 * n, true);
  edges.t = scratchF64('edgeT', n, true); edges.normals = scratchF32('edgeN', 3 * n, true);
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
 * Crossing t and unit normal of edges `from` .. count − 1 (codes and coords filled in): with a field
 * callback, refined crossings and forward-difference normals of the field; without, the linear
 * crossing and the grid's interpolated central differences.
 */
export function computeCrossings(
  grid: ChunkGrid, edges: SignEdges, from: number, field: FieldFn | undefined, mapping: GridMapping, memo: HermiteMemo | undefined,
): void {
  if (field) fieldCrossings(grid, edges, from, field, mapping, memo);
  else gridCrossings(grid, edges, from);
}

/** Linear crossings of the grid values, normals from central differences at both ends interpolated at t. */
function gridCrossings(grid: ChunkGrid, edges: SignEdges, from: number): void {
  const { N, P, values } = grid;
  const PP = P * P;
  const codes = edges.codes, ec = edges.coords;
  for (let e = from, n = edges.count; e < n; e++) {
    const code = codes[e];
    const axis = code % 3;
    const p = (code - axis) / 3;
    const q = p + (axis === 0 ? 1 : axis === 1 ? P : PP);
    const va = values[p], vb = values[q];
    // An end exactly 0 gives t = 0 or 1 exactly (docs/mesher.md, "Sign convention").
    const t = va / (va - vb);
    const i = ec[3 * e], j = ec[3 * e + 1], k = ec[3 * e + 2];
    const u = 1 - t;
    const nx = u * gridGrad(values, N, p, i, 1) + t * gridGrad(values, N, q, axis === 0 ? i + 1 : i, 1);
    const ny = u * gridGrad(values, N, p, j, P) + t * gridGrad(values, N, q, axis === 1 ? j + 1 : j, P);
    const nz = u * gridGrad(values, N, p, k, PP) + t * gridGrad(values, N, q, axis === 2 ? k + 1 : k, PP);
    storeEdge(edges, e, t, nx, ny, nz, axis, va);
  }
}

/** Grid gradient along the axis of stride s at point p, whose coordinate on that axis is c. */
function gridGrad(values: Float32Array | Float64Array, N: number, p: number, c: number, s: number): number {
  if (c === 0) return values[p + s] - values[p];
  if (c === N) return values[p] - values[p - s];
  return 0.5 * (values[p + s] - values[p - s]);
}

/**
 * Crossings refined with the field (Illinois false position) and normals by forward differences of
 * the field from the crossing, reusing its value: 3 evaluations (4 when the crossing was not
 * evaluated). Step 1e-3 cells: the O(step) error is ~1e-3 of the curvature.
 */
function fieldCrossings(
  grid: ChunkGrid, edges: SignEdges, from: number, field: FieldFn, mapping: GridMapping, memo: HermiteMemo | undefined,
): void {
  const { P, cs, ox, oy, oz, values, restricted } = grid;
  const PP = P * P;
  const h = NORMAL_STEP_CELLS * cs;
  const codes = edges.codes, ec = edges.coords;
  for (let e = from, n = edges.count; e < n; e++) {
    const code = codes[e];
    const axis = code % 3;
    const p = (code - axis) / 3;
    const q = p + (axis === 0 ? 1 : axis === 1 ? P : PP);
    const va = values[p], vb = values[q];
    let t = va / (va - vb);
    const gx = ox + ec[3 * e] * cs, gy = oy + ec[3 * e + 1] * cs, gz = oz + ec[3 * e + 2] * cs;
    // Sign convention (docs/mesher.md): an end whose value is exactly 0 is on the surface, so the
    // crossing is that end, t = 0 or 1 exactly. (False position would never reach it: with f = 0 at
    // the bracket's end each step bisects, and the 5 steps left faces on the lattice 1/32 cell inside.)
    const onEnd = va === 0 || vb === 0;
    // Field value at the final crossing when the last evaluation was there (NaN: not known).
    let fc = onEnd ? 0 : NaN;
    // A restricted end's sign is the coarse lattice's, not the field's: the field need not change
    // sign on this edge, and false position would then pin the crossing to the restricted end
    // (saw coincident vertices and zero-area seam triangles). Keep the linear crossing there.
    const refine = !onEnd && !(restricted && (restricted[p] || restricted[q]));
    if (refine && memo?.recall(code, va, vb, edges.t, e, edges.normals)) continue;
    if (refine) {
      t = refineCrossing(field, mapping, gx, gy, gz, axis, cs, va, vb);
      fc = refinedValue;
    }
    const d = t * cs;
    const cx = gx + (axis === 0 ? d : 0), cy = gy + (axis === 1 ? d : 0), cz = gz + (axis === 2 ? d : 0);
    if (Number.isNaN(fc)) fc = sampleAt(field, mapping, cx, cy, cz);
    const nx = sampleAt(field, mapping, cx + h, cy, cz) - fc;
    const ny = sampleAt(field, mapping, cx, cy + h, cz) - fc;
    const nz = sampleAt(field, mapping, cx, cy, cz + h) - fc;
    storeEdge(edges, e, t, nx, ny, nz, axis, va);
    if (refine) memo?.keep(code, va, vb, edges.t, e, edges.normals);
  }
}

/** The field's value at the crossing last returned by refineCrossing (its last evaluation). */
let refinedValue = NaN;

/**
 * Illinois false position on [0, 1] along the edge from grid point (gx, gy, gz) on `axis`; keeps the
 * bracket so t never leaves the edge. The first step is the linear crossing of the grid values; stops
 * once the estimated distance to the root is below CROSSING_TOL_CELLS. Returns t and leaves the field
 * value there in `refinedValue`.
 */
function refineCrossing(
  field: FieldFn, mapping: GridMapping, gx: number, gy: number, gz: number, axis: number, cs: number, va: number, vb: number,
): number {
  let t = NaN;
  let a = 0, fa = va, b = 1, fb = vb, side = 0;
  let ga = va, gb = vb; // unhalved values at the bracket's ends
  for (let it = 0; it < REFINE_STEPS; it++) {
    t = (a * fb - b * fa) / (fb - fa);
    if (!(t > a && t < b)) t = 0.5 * (a + b);
    const d = t * cs;
    mapping.toWorld(gx + (axis === 0 ? d : 0), gy + (axis === 1 ? d : 0), gz + (axis === 2 ? d : 0), scratchW);
    const ft = field(scratchW[0], scratchW[1], scratchW[2]);
    refinedValue = ft;
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
  return t;
}

function sampleAt(field: FieldFn, mapping: GridMapping, gx: number, gy: number, gz: number): number {
  mapping.toWorld(gx, gy, gz, scratchW);
  return field(scratchW[0], scratchW[1], scratchW[2]);
}

/** Writes edge e's crossing and its normal, normalised; a flat or broken gradient falls back to the edge direction, outward. */
function storeEdge(edges: SignEdges, e: number, t: number, nx: number, ny: number, nz: number, axis: number, va: number): void {
  let len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(len > 0) || !Number.isFinite(len)) {
    nx = axis === 0 ? 1 : 0; ny = axis === 1 ? 1 : 0; nz = axis === 2 ? 1 : 0;
    if (va >= 0) { nx = -nx; ny = -ny; nz = -nz; }
    len = 1;
  }
  edges.t[e] = t;
  const en = edges.normals;
  en[3 * e] = nx / len; en[3 * e + 1] = ny / len; en[3 * e + 2] = nz / len;
}
