/**
 * Narrow-band sampling of a chunk's (N+1)³ lattice: field evaluations where the surface is, and
 * interpolated values elsewhere that keep the sign the mesher reads (docs/mesher.md, "Narrow-band
 * sampling"). Pure lattice bookkeeping: the caller evaluates the points it is handed (a planet
 * chunk through its cube-sphere mapping and plane cache, a body's grid in one lattice call).
 *
 * 1. Every point of the six faces and every other point inside (i, j, k all even): ~30 % of the
 *    lattice at N = 32, ~27 % at 64. All one sign: the chunk is taken as homogeneous.
 * 2. The 2-cell blocks (corners all sampled) that hold a sign change among their sampled points,
 *    touch such a block, or have a corner closer to zero than {@link NARROW_BAND_SLOPE_FACTOR} ×
 *    the largest change along one of their 2-cell edges (the surface may be in reach of the local
 *    slope) are sampled whole.
 * 3. The rest — one sign, far from the surface — are the mean of the sampled points around them.
 *
 * Every sign-changing edge then lies in a fully sampled block, so a mesh that reads only signs
 * and the crossings' values there equals the one from a dense lattice. What it can miss: a pocket
 * of the other sign wholly inside a block and between its corners — under two cells across; a
 * planet level's band limit leaves no such feature in its field, and a body's meshes are compared
 * with the dense ones in test/mesher/narrowBand.test.ts.
 */
import { evaluatePoints } from '../field/compileField.ts';
import { IDENTITY_MAPPING } from './mapping.ts';
import type { FieldFn, GridMapping } from './types.ts';

/**
 * How far a 2-cell block's corners must be from zero, as a multiple of the largest change along one
 * of its 2-cell edges, for its inside to be left unsampled: √3 (the block's half diagonal, in 2-cell
 * steps, is √3 / 2) with a safety factor of 2 on that local slope.
 */
export const NARROW_BAND_SLOPE_FACTOR = Math.sqrt(3);

/** A lattice being sampled: values, and which points hold a field value (1) rather than nothing yet. */
export interface BandLattice {
  N: number;
  values: Float32Array;
  done: Uint8Array;
}

export function bandLattice(N: number): BandLattice {
  const P = N + 1;
  return { N, values: new Float32Array(P * P * P), done: new Uint8Array(P * P * P) };
}

/** Step 1's points not yet done (lattice indices i + P (j + P k)): the faces, then the even interior. */
export function firstPassPoints(l: BandLattice): Int32Array {
  const { N, done } = l;
  const P = N + 1, PP = P * P;
  const out: number[] = [];
  for (let k = 0; k < P; k++) {
    const kFace = k === 0 || k === N;
    for (let j = 0; j < P; j++) {
      const jFace = kFace || j === 0 || j === N;
      for (let i = 0; i < P; i++) {
        const face = jFace || i === 0 || i === N;
        if (!face && ((i | j | k) & 1)) continue;
        const p = i + P * j + PP * k;
        if (!done[p]) out.push(p);
      }
    }
  }
  return Int32Array.from(out);
}

/** Whether every done point has one sign (inside: value < 0). */
export function oneSign(l: BandLattice): boolean {
  let inside = 0, seen = 0;
  for (let p = 0; p < l.done.length; p++) {
    if (!l.done[p]) continue;
    seen++;
    if (l.values[p] < 0) inside++;
  }
  return inside === 0 || inside === seen;
}

/** Step 2: the points not yet done of the blocks to sample whole. N must be even. */
export function bandPoints(l: BandLattice): Int32Array {
  const { N, values, done } = l;
  const P = N + 1, PP = P * P;
  const B = N / 2;
  const mixed = new Uint8Array(B * B * B);
  const active = new Uint8Array(B * B * B);
  for (let bk = 0; bk < B; bk++) for (let bj = 0; bj < B; bj++) for (let bi = 0; bi < B; bi++) {
    const b = bi + B * (bj + B * bk);
    const p0 = 2 * bi + P * (2 * bj + P * 2 * bk);
    let neg = 0, seen = 0;
    for (let dk = 0; dk <= 2; dk++) for (let dj = 0; dj <= 2; dj++) for (let di = 0; di <= 2; di++) {
      const p = p0 + di + P * dj + PP * dk;
      if (!done[p]) continue;
      seen++;
      if (values[p] < 0) neg++;
    }
    if (neg !== 0 && neg !== seen) {
      mixed[b] = 1;
      continue;
    }
    let near = Infinity, slope = 0;
    for (let c = 0; c < 8; c++) {
      const p = p0 + 2 * (c & 1) + 2 * P * ((c >> 1) & 1) + 2 * PP * (c >> 2);
      const v = values[p];
      near = Math.min(near, Math.abs(v));
      if (!(c & 1)) slope = Math.max(slope, Math.abs(values[p + 2] - v));
      if (!(c & 2)) slope = Math.max(slope, Math.abs(values[p + 2 * P] - v));
      if (!(c & 4)) slope = Math.max(slope, Math.abs(values[p + 2 * PP] - v));
    }
    if (!(near > NARROW_BAND_SLOPE_FACTOR * slope)) active[b] = 1;
  }
  for (let bk = 0; bk < B; bk++) for (let bj = 0; bj < B; bj++) for (let bi = 0; bi < B; bi++) {
    if (!mixed[bi + B * (bj + B * bk)]) continue;
    for (let nk = Math.max(0, bk - 1); nk <= Math.min(B - 1, bk + 1); nk++) {
      for (let nj = Math.max(0, bj - 1); nj <= Math.min(B - 1, bj + 1); nj++) {
        for (let ni = Math.max(0, bi - 1); ni <= Math.min(B - 1, bi + 1); ni++) active[ni + B * (nj + B * nk)] = 1;
      }
    }
  }
  // Each point once, in lattice order (blocks share faces).
  const want = new Uint8Array(P * P * P);
  for (let bk = 0; bk < B; bk++) for (let bj = 0; bj < B; bj++) for (let bi = 0; bi < B; bi++) {
    if (!active[bi + B * (bj + B * bk)]) continue;
    for (let k = 2 * bk; k <= 2 * bk + 2; k++) for (let j = 2 * bj; j <= 2 * bj + 2; j++) {
      for (let i = 2 * bi; i <= 2 * bi + 2; i++) want[i + P * j + PP * k] = 1;
    }
  }
  const out: number[] = [];
  for (let p = 0; p < want.length; p++) if (want[p] && !done[p]) out.push(p);
  return Int32Array.from(out);
}

/** Step 3: each point not done becomes the mean of the even points around it along its odd axes. */
export function fillFromCorners(l: BandLattice): void {
  const { N, values, done } = l;
  const P = N + 1, PP = P * P;
  for (let k = 0; k < P; k++) for (let j = 0; j < P; j++) for (let i = 0; i < P; i++) {
    const p = i + P * (j + P * k);
    if (done[p]) continue;
    // The midpoint of an edge, face or block of the even lattice.
    const di = i & 1, dj = (j & 1) * P, dk = (k & 1) * PP;
    let sum = 0, n = 0;
    for (let c = 0; c < 8; c++) {
      if ((c & 1 && !di) || (c & 2 && !dj) || (c & 4 && !dk)) continue;
      sum += values[p + (c & 1 ? di : -di) + (c & 2 ? dj : -dj) + (c & 4 ? dk : -dk)];
      n++;
    }
    values[p] = sum / n;
  }
}

/** Points a lattice call evaluates at most at once (its scratch: 3 float64 a point). */
const BATCH = 4096;
const batchXyz = new Float64Array(3 * BATCH);
const batchOut = new Float64Array(BATCH);
const scratchW = new Float64Array(3);

/**
 * Evaluates lattice points `points` (i + P (j + P k), P points a side, grid origin `origin`, `cs`
 * grid units a step, mapped by `mapping`) in lattice calls of up to {@link BATCH} points (the
 * generated evaluator's `points`); `visit(p, value)` gets each double value, bit for bit the
 * field's at that point. Shared by narrow-band chunks and the cube-sphere chunks (src/lod).
 */
export function evaluateLatticePoints(
  points: Int32Array, P: number, origin: readonly [number, number, number], cs: number,
  field: FieldFn, mapping: GridMapping, visit: (p: number, value: number) => void,
): void {
  const PP = P * P;
  const [ox, oy, oz] = origin;
  for (let start = 0; start < points.length; start += BATCH) {
    const n = Math.min(BATCH, points.length - start);
    for (let q = 0; q < n; q++) {
      const p = points[start + q];
      const i = p % P, j = Math.floor(p / P) % P, k = Math.floor(p / PP);
      mapping.toWorld(ox + i * cs, oy + j * cs, oz + k * cs, scratchW);
      batchXyz[3 * q] = scratchW[0]; batchXyz[3 * q + 1] = scratchW[1]; batchXyz[3 * q + 2] = scratchW[2];
    }
    evaluatePoints(field, batchXyz, batchOut, n);
    for (let q = 0; q < n; q++) visit(points[start + q], batchOut[q]);
  }
}

/**
 * Evaluates the lattice points `points` of a chunk (`spec`, as `sampleChunk`) into `l`. Values are
 * bit for bit `sampleChunk`'s.
 */
function evaluateLattice(
  l: BandLattice, points: Int32Array, spec: { originGrid: readonly [number, number, number]; level: number },
  field: FieldFn, mapping: GridMapping,
): void {
  evaluateLatticePoints(points, l.N + 1, spec.originGrid, 2 ** spec.level, field, mapping, (p, v) => {
    l.values[p] = v;
    l.done[p] = 1;
  });
}

export interface NarrowBandSamples {
  /** (N+1)³ values, x fastest: the field's where evaluated, same-sign interpolants elsewhere. */
  values: Float32Array;
  evaluations: number;
  /** Step 1 found one sign only: the chunk holds no surface the mesher would find (values filled). */
  homogeneous: boolean;
}

/**
 * A chunk's lattice (`sampleChunk`'s layout and values where evaluated), narrow-band: the same mesh
 * from ~35–45 % of the evaluations on a body's grid (test/mesher/narrowBand.test.ts). Odd N
 * (no 2-cell blocks) samples every point.
 */
export function sampleChunkNarrowBand(
  spec: { originGrid: readonly [number, number, number]; level: number; cells: number },
  field: FieldFn, mapping: GridMapping = IDENTITY_MAPPING,
): NarrowBandSamples {
  const l = bandLattice(spec.cells);
  const rest = (): Int32Array => {
    const out: number[] = [];
    for (let p = 0; p < l.done.length; p++) if (!l.done[p]) out.push(p);
    return Int32Array.from(out);
  };
  if (spec.cells % 2 !== 0) {
    const all = rest();
    evaluateLattice(l, all, spec, field, mapping);
    return { values: l.values, evaluations: all.length, homogeneous: false };
  }
  const first = firstPassPoints(l);
  evaluateLattice(l, first, spec, field, mapping);
  if (oneSign(l)) {
    fillFromCorners(l);
    return { values: l.values, evaluations: first.length, homogeneous: true };
  }
  const band = bandPoints(l);
  evaluateLattice(l, band, spec, field, mapping);
  fillFromCorners(l);
  return { values: l.values, evaluations: first.length + band.length, homogeneous: false };
}
