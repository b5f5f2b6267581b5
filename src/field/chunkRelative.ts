/**
 * A field evaluated relative to a chunk's origin (issue 42): the numbers that let the GPU sample the
 * fine levels of a big planet in float32 without float32's error at the planet's radius. Pure.
 *
 * The absolute field takes a body-local point p. At 2,000 km from the centre float32 spaces points
 * 0.25 m apart, and a fine noise octave's input p · f is ~10⁶ noise units, spaced 0.06 units apart:
 * the GPU then draws a different surface from the JS back end (docs/lod.md, "Which levels the GPU
 * samples"). A chunk-relative field takes l = p − O instead, O the chunk's origin, and every term
 * that needs O gets it from the CPU in float64, per chunk:
 *
 * - **noise**: octave i of a layer reads `q = O·f·λⁱ + base_i + l·f·λⁱ`. The CPU forms the first part
 *   in float64, moves it by a period of the noise near zero ({@link reduceNoisePoint}) and splits it
 *   into a whole point and a rest in [0, 3) ({@link splitNoisePoint}). The GPU adds l·f·λⁱ to the rest
 *   only and lets the whole point shift the noise's hash (glsl/sr_noise.glsl `sr_octaveShifted`):
 *   float32 then holds numbers under ~10 where it held 10⁶;
 * - **sphere**: |O + l| − R = (|O| − R) + (2 n·l + l·l/|O|) / (|n + l/|O|| + 1), n = O/|O|, with
 *   |O| and R each split into float32 high and low parts, so nothing of the radius' size is
 *   subtracted in float32;
 * - **crater fields**: the point from the field's centre is (O − c) + l, O − c formed in float64.
 *
 * Which recipes: spheres under CSG and shell nodes with any modifiers, no brushes — every planet
 * class. Translate, rotate and scale would move O per node, other shapes would need their own
 * relative forms, and brushed chunks are sampled in JS anyway (src/workers/PlanetChunkJobs.ts).
 */
import { usedOctaves } from './bandLimit';
import { NOISE_GRADIENT_BOUND, OCTAVE_BASE, OCTAVE_SHIFT, WARP_OFFSETS } from './noise';
import type { FieldNode, FieldRecipe, NoiseKind, Vec3 } from './recipe';

/**
 * The noise's period, per axis, in noise units: simplex-noise hashes its skewed lattice cell
 * `c = floor(q + Σq/3)` with `c & 255`, and the craters kind its cell `floor(q) & 255`. A shift of
 * q by 256·m (m integer) with m_x + m_y + m_z a multiple of 3 moves both cells by multiples of 256
 * (the skewed one by 256·(m + Σm/3)) and leaves every offset inside the cell as it was: both kinds
 * repeat on that lattice.
 */
export const NOISE_PERIOD = 256;

/** One noise use of a chunk-relative field: a layer, or one component of a warp. */
export interface RelativeNoiseUse {
  frequency: number;
  /** Added to p · frequency before the octaves (a warp component's WARP_OFFSETS entry; 0 for a layer). */
  offset: Vec3;
  octaves: number;
  lacunarity: number;
}

/** What a chunk-relative field reads per chunk, in its uniforms' order (GlslCodegenResult.relative). */
export interface RelativePlan {
  /** Noise uses in `sr_relOrigin` order: each use's octaves take consecutive rows. */
  noise: RelativeNoiseUse[];
  /** Crater fields' centres, in `sr_relCrater` order. */
  craterCenters: Vec3[];
}

/** Why a recipe cannot be evaluated chunk-relative, or null if it can. */
export function chunkRelativeRefusal(recipe: FieldRecipe): string | null {
  if (recipe.brushes.length > 0) return 'brushes';
  const visit = (n: FieldNode): string | null => {
    switch (n.type) {
      case 'sphere': return null;
      case 'union': case 'intersection': case 'subtraction':
      case 'smoothUnion': case 'smoothIntersection': case 'smoothSubtraction':
        for (const c of n.children) {
          const r = visit(c);
          if (r) return r;
        }
        return null;
      case 'shell': return visit(n.child);
      default: return `a ${n.type} node`;
    }
  };
  return visit(recipe.root);
}

/** Whether {@link chunkRelativeRefusal} has no objection: every planet class. */
export function chunkRelativeEligible(recipe: FieldRecipe): boolean {
  return chunkRelativeRefusal(recipe) === null;
}

/**
 * `q` moved by a period of the noise ({@link NOISE_PERIOD}) to the representative nearest zero
 * (every coordinate within ±384; points already within ±128 stay as they are). Float64 in, float64
 * out: the GPU rounds the result once.
 */
export function reduceNoisePoint(q: ArrayLike<number>, out: Float64Array | number[] = new Float64Array(3)): Float64Array | number[] {
  const P = NOISE_PERIOD;
  const m0x = Math.round(q[0] / P), m0y = Math.round(q[1] / P), m0z = Math.round(q[2] / P);
  let best = Infinity, bx = 0, by = 0, bz = 0;
  for (let dx = -1; dx <= 1; dx++) {
    for (let dy = -1; dy <= 1; dy++) {
      for (let dz = -1; dz <= 1; dz++) {
        const mx = m0x + dx, my = m0y + dy, mz = m0z + dz;
        if (((mx + my + mz) % 3 + 3) % 3 !== 0) continue;
        const size = Math.max(Math.abs(q[0] - P * mx), Math.abs(q[1] - P * my), Math.abs(q[2] - P * mz));
        if (size < best) { best = size; bx = mx; by = my; bz = mz; }
      }
    }
  }
  out[0] = q[0] - P * bx;
  out[1] = q[1] - P * by;
  out[2] = q[2] - P * bz;
  return out;
}

/**
 * `q` as a whole point whose coordinates sum to a multiple of 3 (noise.ts's simplex cell of cell + r
 * is then the cell of r shifted by cell + Σcell/3, exactly) and the rest r = q − cell, each
 * coordinate in [0, 3).
 */
export function splitNoisePoint(q: ArrayLike<number>, cell: Int32Array | number[], rest: Float64Array | number[], at = 0): void {
  const x = Math.floor(q[0]), y = Math.floor(q[1]), z = Math.floor(q[2]);
  const m = ((x + y + z) % 3 + 3) % 3;
  cell[at] = x - m;
  cell[at + 1] = y;
  cell[at + 2] = z;
  rest[at] = q[0] - (x - m);
  rest[at + 1] = q[1] - y;
  rest[at + 2] = q[2] - z;
}

/** The per-chunk uniforms of a chunk-relative field (by GLSL name) for a chunk whose origin is O. */
export interface RelativeUniforms {
  /** Octave origins' whole points, 3 a row (splitNoisePoint of the reduced origin). */
  sr_relCell: Int32Array;
  /** Octave origins' rests, 3 a row, each coordinate in [0, 3). */
  sr_relOrigin: Float32Array;
  /** O / |O|. */
  sr_relDir: Float32Array;
  /** |O| as float32 high + low, and 1 / |O|. */
  sr_relDist: Float32Array;
  /** O − c for each crater field. */
  sr_relCrater: Float32Array;
}

/** How many `sr_relOrigin` rows a plan needs (at least 1: a GLSL array has a length). */
export function relativeOriginRows(plan: RelativePlan): number {
  return Math.max(1, plan.noise.reduce((n, u) => n + u.octaves, 0));
}

/**
 * The octave origins of `plan` at chunk origin `originM` (float64), reduced; `visit(use, i, q)` sees
 * each in row order (q reused: copy it to keep it).
 */
export function forEachOctaveOrigin(
  plan: Pick<RelativePlan, 'noise'>, originM: ArrayLike<number>, visit: (use: RelativeNoiseUse, octave: number, q: Float64Array) => void,
): void {
  const u = new Float64Array(3), q = new Float64Array(3);
  for (const use of plan.noise) {
    for (let a = 0; a < 3; a++) u[a] = originM[a] * use.frequency + use.offset[a];
    let f = 1;
    for (let i = 0; i < use.octaves; i++) {
      // As the fractal loop forms it (noise.ts `fractal`): u · f + base + i · shift, f = λⁱ by products.
      for (let a = 0; a < 3; a++) q[a] = u[a] * f + OCTAVE_BASE[a] + i * OCTAVE_SHIFT[a];
      reduceNoisePoint(q, q);
      visit(use, i, q);
      f *= use.lacunarity;
    }
  }
}

/** {@link RelativeUniforms} of a chunk at `originM` (body-local metres, float64). */
export function relativeUniforms(plan: RelativePlan, originM: ArrayLike<number>): RelativeUniforms {
  const rows = relativeOriginRows(plan);
  const cells = new Int32Array(3 * rows), rests = new Float64Array(3 * rows);
  let row = 0;
  forEachOctaveOrigin(plan, originM, (_use, _i, q) => {
    splitNoisePoint(q, cells, rests, 3 * row++);
  });
  const ox = originM[0], oy = originM[1], oz = originM[2];
  const d = Math.hypot(ox, oy, oz);
  const high = Math.fround(d);
  const craters = new Float32Array(3 * Math.max(1, plan.craterCenters.length));
  plan.craterCenters.forEach((c, k) => craters.set([ox - c[0], oy - c[1], oz - c[2]], 3 * k));
  return {
    sr_relCell: cells,
    sr_relOrigin: Float32Array.from(rests),
    sr_relDir: Float32Array.of(d > 0 ? ox / d : 0, d > 0 ? oy / d : 0, d > 0 ? oz / d : 0),
    sr_relDist: Float32Array.of(high, d - high, d > 0 ? 1 / d : 0),
    sr_relCrater: craters,
  };
}

/** `x` as float32 high + low parts (x ≈ high + low to ~2⁻⁴⁸ of x). */
export function splitFloat32(x: number): [number, number] {
  const high = Math.fround(x);
  return [high, Math.fround(x - high)];
}

/** Spacing of float32 numbers at |x| (the unit in the last place). */
function ulp32(x: number): number {
  const a = Math.abs(x);
  return a > 0 ? 2 ** (Math.floor(Math.log2(a)) - 23) : 2 ** -149;
}

/**
 * Per noise unit, a bound on how fast one octave's value changes: simplex noise's gradient bound
 * (NOISE_GRADIENT_BOUND, 7.5 against 7.2 measured) times what the kind does to it — billow's 2|n|,
 * ridged's (1 − |n|)² under a weight ≤ 1 (≤ 2), terrace's risers (the sum's slope × 1/0.4 × 1.5),
 * and the craters kind's own 8.3 (noise.ts craterCell).
 */
const KIND_SLOPE: Record<NoiseKind, number> = {
  fbm: NOISE_GRADIENT_BOUND, billow: 2 * NOISE_GRADIENT_BOUND, ridged: 2 * NOISE_GRADIENT_BOUND, terrace: 3.75 * NOISE_GRADIENT_BOUND, craters: 8.3,
};

/** What float32 costs a chunk-relative evaluation in a chunk, from {@link relativeErrorM}. */
export interface RelativeError {
  /** Bound on the value's error from the noise layers' float32 inputs and the final sums, metres. */
  valueM: number;
  /** Bound on how far the point the shapes see may be off (warps' and crater fields' float32), metres. */
  positionM: number;
}

/**
 * Error bounds of a chunk-relative evaluation of `recipe` in a chunk whose origin is `originM`, whose
 * points lie within `extentM` of it, at the band limit `minWavelengthM` (0: every octave): each used
 * octave's input is the rest of its origin (under 3) plus the local part, rounded (an ulp of their
 * sum), times its slope and its weight in the normalised sum; a warp's errors move the point; a crater field sees the
 * point from its centre in float32 at the radius' size; the sums round at the size of the sphere's
 * and the layers' terms.
 */
export function relativeErrorM(recipe: FieldRecipe, originM: ArrayLike<number>, extentM: number, minWavelengthM = 0): RelativeError {
  let valueM = 0, positionM = 0, terms = 0;
  const inputError = (layer: { frequency: number; octaves: number; lacunarity: number; gain: number }, kind: NoiseKind, offset: readonly number[]): number => {
    const { frequency, octaves, lacunarity, gain } = layer;
    const used = usedOctaves(frequency, octaves, lacunarity, minWavelengthM);
    let norm = 0;
    for (let i = 0, amp = 1; i < octaves; i++, amp *= gain) norm += amp;
    let sum = 0;
    const use = { frequency, offset: [offset[0], offset[1], offset[2]] as Vec3, octaves: used, lacunarity };
    forEachOctaveOrigin({ noise: [use] }, originM, (_use, i) => {
      sum += (gain ** i / norm) * ulp32(3 + extentM * frequency * lacunarity ** i);
    });
    return KIND_SLOPE[kind] * sum;
  };
  const walk = (n: FieldNode): void => {
    for (const l of n.noise ?? []) {
      valueM += Math.abs(l.amplitude) * inputError(l, l.kind, [0, 0, 0]);
      terms += Math.abs(l.amplitude);
    }
    const w = n.warp;
    if (w && w.amplitude > 0) positionM += Math.sqrt(3) * w.amplitude * Math.max(...WARP_OFFSETS.map((o) => inputError(w, 'fbm', o)));
    if (n.craters && n.craters.count > 0) {
      // Half an ulp a component of the point from the centre.
      const c = n.craters.center;
      positionM += 0.5 * Math.sqrt(3) * ulp32(Math.hypot(originM[0] - c[0], originM[1] - c[1], originM[2] - c[2]) + extentM);
    }
    if ('children' in n) n.children.forEach(walk);
    if ('child' in n) walk(n.child);
    if (n.type === 'sphere') terms += Math.abs(Math.hypot(originM[0], originM[1], originM[2]) - n.radius) + extentM;
  };
  walk(recipe.root);
  return { valueM: valueM + 8 * ulp32(terms), positionM };
}
