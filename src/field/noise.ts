/**
 * Noise for the JS back end, and the reference the GLSL port (glsl/sr_noise.glsl) follows.
 *
 * The base noise is the `simplex-noise` package's `createNoise3D`, fed with the project
 * PRNG. `noisePermutation(seed)` rebuilds the exact table the package builds from the same
 * random stream (its `buildPermutationTable`), which is what the GLSL back end bakes in;
 * `simplex3` is a table-driven port of the package's noise3D, proven equal to it by
 * test/field/noise.test.ts, and line-for-line the algorithm of `sr_simplex3` in GLSL.
 *
 * Note: the package uses a kernel radius² of 0.6 (not Gustavson's 0.5), so its noise has
 * small jumps (measured ≤ ~0.006 for unit amplitude) across simplex boundaries. We keep it
 * for fidelity to the package; the jumps are far below a metre for our amplitudes.
 */
import { createNoise3D, type NoiseFunction3D } from 'simplex-noise';
import { createRandom } from './prng';
import type { NoiseKind } from './recipe';

/** Largest |noise3D| seen over 4M samples (0.977); bounds use 1. */
export const NOISE_MAX_ABS = 1;
/**
 * Estimated bound on |∇ noise3D| per unit of noise-space input (finite differences with
 * h = 2e-3 over 4M samples: 7.2). Used for the Lipschitz estimate only.
 */
export const NOISE_GRADIENT_BOUND = 7.5;

/** Shift between octaves, in noise space, so octaves do not share a lattice origin. */
export const OCTAVE_SHIFT: readonly [number, number, number] = [31.416, 47.853, 12.793];
/**
 * Noise-space offset of every octave, different on each axis. Without it, sample points with
 * equal coordinates (the diagonals of every chunk grid: x = y, y = z, …) lie exactly on simplex
 * faces, where simplex-noise's r² = 0.6 kernel jumps by up to ~0.006 × amplitude; float32 and
 * float64 then pick different simplices and the GPU and JS back ends disagreed by 1.8e-4 of the
 * body's size on grid-aligned samples (test/browser/gpuSampler.test.ts). Offset, a tie needs an
 * exact non-dyadic difference between coordinates, which grids do not produce.
 */
export const OCTAVE_BASE: readonly [number, number, number] = [0.1273, 0.3719, 0.6143];
/** Noise-space offsets of the three warp components (x uses no offset). */
export const WARP_OFFSETS: readonly (readonly [number, number, number])[] = [
  [0, 0, 0],
  [5.2, 1.3, 7.1],
  [9.7, 3.4, 2.8],
];

/** The 256-entry permutation `createNoise3D(createRandom(seed))` builds (its table repeats it). */
export function noisePermutation(seed: number): Uint8Array {
  const random = createRandom(seed);
  const p = new Uint8Array(256);
  for (let i = 0; i < 256; i++) p[i] = i;
  // Same loop as simplex-noise 4.0.3 buildPermutationTable (tableSize / 2 - 1 = 255 swaps).
  for (let i = 0; i < 255; i++) {
    const r = i + ~~(random() * (256 - i));
    const aux = p[i];
    p[i] = p[r];
    p[r] = aux;
  }
  return p;
}

/** Rows of one table's layer in {@link permutationLayers}: 256 pair rows and the table itself. */
export const PERMUTATION_LAYER_ROWS = 257;

/**
 * Permutation tables as the GPU reads them (glslCodegen.ts `permutationTexture`): each 256-byte
 * table becomes a 256 × 257 layer whose row z < 256 holds perm[(y + perm[z]) & 255] at column y,
 * and whose last row is the table itself. Simplex noise's hash perm[x + perm[y + perm[z]]] is then
 * two dependent fetches instead of three (a third fewer per corner), with exactly the same values.
 */
export function permutationLayers(tables: Uint8Array): Uint8Array {
  const layer = 256 * PERMUTATION_LAYER_ROWS;
  const count = tables.length / 256;
  const out = new Uint8Array(layer * count);
  for (let t = 0; t < count; t++) {
    const perm = tables.subarray(256 * t, 256 * t + 256);
    const base = layer * t;
    for (let z = 0; z < 256; z++) {
      const pz = perm[z];
      const row = base + 256 * z;
      for (let y = 0; y < 256; y++) out[row + y] = perm[(y + pz) & 255];
    }
    out.set(perm, base + 256 * 256);
  }
  return out;
}

/** The package's noise3D for a seed. */
export function seededNoise3D(seed: number): NoiseFunction3D {
  return createNoise3D(createRandom(seed));
}

const GRAD3 = [1, 1, 0, -1, 1, 0, 1, -1, 0, -1, -1, 0, 1, 0, 1, -1, 0, 1, 1, 0, -1, -1, 0, -1, 0, 1, 1, 0, -1, 1, 0, 1, -1, 0, -1, -1];
const F3 = 1 / 3;
const G3 = 1 / 6;

function corner(perm: Uint8Array, gi: number, t: number, x: number, y: number, z: number): number {
  if (t < 0) return 0;
  const g = (perm[gi & 255] % 12) * 3;
  t *= t;
  return t * t * (GRAD3[g] * x + GRAD3[g + 1] * y + GRAD3[g + 2] * z);
}

/**
 * Table-driven port of simplex-noise's noise3D on a 256-entry permutation: the package
 * indexes a doubled 512 table with `ii + perm[jj + perm[kk]]`; `& 255` on a single table
 * is the same lookup. Slower than the package (it exists to pin the GLSL algorithm).
 */
export function simplex3(perm: Uint8Array, x: number, y: number, z: number): number {
  const s = (x + y + z) * F3;
  const i = Math.floor(x + s) | 0;
  const j = Math.floor(y + s) | 0;
  const k = Math.floor(z + s) | 0;
  const t = (i + j + k) * G3;
  const x0 = x - (i - t);
  const y0 = y - (j - t);
  const z0 = z - (k - t);
  let i1, j1, k1, i2, j2, k2;
  if (x0 >= y0) {
    if (y0 >= z0) { i1 = 1; j1 = 0; k1 = 0; i2 = 1; j2 = 1; k2 = 0; }
    else if (x0 >= z0) { i1 = 1; j1 = 0; k1 = 0; i2 = 1; j2 = 0; k2 = 1; }
    else { i1 = 0; j1 = 0; k1 = 1; i2 = 1; j2 = 0; k2 = 1; }
  } else {
    if (y0 < z0) { i1 = 0; j1 = 0; k1 = 1; i2 = 0; j2 = 1; k2 = 1; }
    else if (x0 < z0) { i1 = 0; j1 = 1; k1 = 0; i2 = 0; j2 = 1; k2 = 1; }
    else { i1 = 0; j1 = 1; k1 = 0; i2 = 1; j2 = 1; k2 = 0; }
  }
  const x1 = x0 - i1 + G3, y1 = y0 - j1 + G3, z1 = z0 - k1 + G3;
  const x2 = x0 - i2 + 2 * G3, y2 = y0 - j2 + 2 * G3, z2 = z0 - k2 + 2 * G3;
  const x3 = x0 - 1 + 3 * G3, y3 = y0 - 1 + 3 * G3, z3 = z0 - 1 + 3 * G3;
  const ii = i & 255, jj = j & 255, kk = k & 255;
  const P = (n: number): number => perm[n & 255];
  const n0 = corner(perm, ii + P(jj + P(kk)), 0.6 - x0 * x0 - y0 * y0 - z0 * z0, x0, y0, z0);
  const n1 = corner(perm, ii + i1 + P(jj + j1 + P(kk + k1)), 0.6 - x1 * x1 - y1 * y1 - z1 * z1, x1, y1, z1);
  const n2 = corner(perm, ii + i2 + P(jj + j2 + P(kk + k2)), 0.6 - x2 * x2 - y2 * y2 - z2 * z2, x2, y2, z2);
  const n3 = corner(perm, ii + 1 + P(jj + 1 + P(kk + 1)), 0.6 - x3 * x3 - y3 * y3 - z3 * z3, x3, y3, z3);
  return 32 * (n0 + n1 + n2 + n3);
}

/** Crater cells (the `craters` noise kind): share of cells holding a crater, of 256. */
export const CRATER_CELL_PRESENCE = 160;
/** Smallest and largest crater radius, in cells; the ejecta reach CRATER_EJECTA radii. */
export const CRATER_CELL_RADIUS: readonly [number, number] = [0.1, 0.3];
export const CRATER_EJECTA = 1.6;
/** Rim height over the bowl's depth (the deepest crater's bowl is −1). */
export const CRATER_RIM = 0.25;

/**
 * One octave of the `craters` noise kind: a crater (a bowl with a raised rim and ejecta) in the
 * unit cell of `(x, y, z)` or none, from the permutation table's hash of the cell (the simplex
 * hash perm[x + perm[y + perm[z]]], then four more lookups for presence, radius and centre).
 * Distances are 3-D, so a surface that cuts a crater's sphere off its centre shows a smaller,
 * shallower bowl: sizes vary within an octave too. Each crater (and its ejecta) stays inside its
 * own cell, so a cell is the only one to look at and the value is 0 on every cell face (the field
 * is continuous across cells whichever side floats round to). Depth scales with the radius
 * (the largest reaches −1), so depth/diameter is one constant and max |∇| is 2(1 + rim)/0.3 ≈ 8.3
 * per noise unit. Mirrored by `sr_craterCell` in GLSL.
 */
export function craterCell(perm: Uint8Array, x: number, y: number, z: number): number {
  const fx = Math.floor(x), fy = Math.floor(y), fz = Math.floor(z);
  const h0 = perm[((fx & 255) + perm[((fy & 255) + perm[fz & 255]) & 255]) & 255];
  if (h0 >= CRATER_CELL_PRESENCE) return 0;
  const h1 = perm[(h0 + 71) & 255];
  const h2 = perm[(h1 + 13) & 255];
  const h3 = perm[(h2 + 151) & 255];
  const h4 = perm[(h3 + 97) & 255];
  const rho = CRATER_CELL_RADIUS[0] + (CRATER_CELL_RADIUS[1] - CRATER_CELL_RADIUS[0]) * (h1 / 255);
  const reach = CRATER_EJECTA * rho;
  const span = 1 - 2 * reach;
  const dx = x - (fx + reach + span * (h2 / 255));
  const dy = y - (fy + reach + span * (h3 / 255));
  const dz = z - (fz + reach + span * (h4 / 255));
  const d2 = dx * dx + dy * dy + dz * dz;
  if (d2 >= reach * reach) return 0;
  const t = Math.sqrt(d2) / rho;
  const scale = rho / CRATER_CELL_RADIUS[1];
  if (t < 1) return scale * (-1 + (1 + CRATER_RIM) * t * t);
  const e = 1 - (t - 1) / (CRATER_EJECTA - 1);
  return scale * CRATER_RIM * e * e;
}

/**
 * The `terrace` kind's steps: an fbm sum s in about [-1, 1] cut into eight treads, each riser the
 * middle 40 % of a step, smoothstepped: (k + g) / 4 − 1 with k = floor(4 (s + 1)). Continuous; its
 * slope is up to 3.75 × the sum's. Mirrored by `sr_terrace` in GLSL.
 */
export function terrace(s: number): number {
  const t = 4 * (s + 1);
  const k = Math.floor(t);
  const q = Math.min(Math.max((t - k - 0.3) / 0.4, 0), 1);
  return (k + q * q * (3 - 2 * q)) / 4 - 1;
}

/**
 * Fractal sum in noise space (`u` = position × base frequency), normalised by the sum of
 * octave weights: fbm and billow in about [-1, 1], ridged in [0, 1]. Octave `i` samples
 * `noise(u · lacunarity^i + OCTAVE_BASE + i · OCTAVE_SHIFT)`. Mirrored by `sr_fractal` in GLSL.
 * `used` < `octaves` band-limits it: only the first `used` octaves are summed, still normalised by
 * all of them (the coarse shape stays where the full sum puts it; see bandLimit.ts).
 */
export function fractal(
  kind: NoiseKind,
  noise: NoiseFunction3D,
  ux: number,
  uy: number,
  uz: number,
  octaves: number,
  lacunarity: number,
  gain: number,
  used = octaves,
  perm: Uint8Array | null = null,
): number {
  let sum = 0;
  let norm = 0;
  let amp = 1;
  let f = 1;
  let weight = 1;
  for (let i = 0; i < used; i++) {
    const qx = ux * f + OCTAVE_BASE[0] + i * OCTAVE_SHIFT[0];
    const qy = uy * f + OCTAVE_BASE[1] + i * OCTAVE_SHIFT[1];
    const qz = uz * f + OCTAVE_BASE[2] + i * OCTAVE_SHIFT[2];
    let v: number;
    if (kind === 'craters') {
      if (!perm) throw new Error('fractal: the craters kind needs the permutation table');
      sum += amp * craterCell(perm, qx, qy, qz);
      norm += amp;
      amp *= gain;
      f *= lacunarity;
      continue;
    }
    const n = noise(qx, qy, qz);
    if (kind === 'fbm' || kind === 'terrace') {
      v = n;
    } else if (kind === 'billow') {
      v = 2 * Math.abs(n) - 1;
    } else {
      // Ridged multifractal (Musgrave): sharp crests, detail weighted by the octave below.
      v = 1 - Math.abs(n);
      v *= v;
      v *= weight;
      weight = Math.min(Math.max(v * 2, 0), 1);
    }
    sum += amp * v;
    norm += amp;
    amp *= gain;
    f *= lacunarity;
  }
  for (let i = used; i < octaves; i++) {
    norm += amp;
    amp *= gain;
  }
  return kind === 'terrace' ? terrace(sum / norm) : sum / norm;
}

/**
 * Σ amp_i·f_i / Σ amp_i: how much faster than the base frequency a fractal can change. With `used`
 * (a band limit's leading octaves, bandLimit.ts) the sum stops there and the norm still runs over
 * every octave, as the band-limited fractal is normalised.
 */
export function fractalSlopeFactor(octaves: number, lacunarity: number, gain: number, used = octaves): number {
  let sum = 0;
  let norm = 0;
  let amp = 1;
  let f = 1;
  for (let i = 0; i < octaves; i++) {
    if (i < used) sum += amp * f;
    norm += amp;
    amp *= gain;
    f *= lacunarity;
  }
  return sum / norm;
}
