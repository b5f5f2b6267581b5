/**
 * Seeded crater fields. Both back ends share this placement, so the GLSL gets exactly the
 * numbers the JS uses (baked as constants).
 *
 * A crater is a height profile h(x) over x = chord distance on the unit sphere × R / r
 * (R the field's `sphereRadius`, r the crater radius): a parabolic bowl from −depth at the
 * centre to +rim at x = 1, then an ejecta blanket falling as rim·(1 − t)² to zero at
 * x = 1 + ejectaFalloff. Overlapping craters combine as (max of raised parts) + (min of
 * lowered parts), so the height stays in [−max depth, +max rim] however many overlap —
 * seed 004 summed one crater into the field; with hundreds, a sum would not be bounded.
 * The field value changes by −h, so a bowl raises the value (removes material).
 *
 * Cost: one loop over the craters per evaluation, with an early-out on the squared chord
 * distance, no sqrt unless the point is in the ejecta ring.
 */
import { Prng } from './prng';
import type { CraterField } from './recipe';

/** Floats per crater in {@link placeCraters}'s output. */
export const CRATER_STRIDE = 6;
/** Offsets inside one crater's record. */
export const CRATER_DIR_X = 0;
export const CRATER_DIR_Y = 1;
export const CRATER_DIR_Z = 2;
/** (R / r)²: turns a squared unit-sphere chord into x². */
export const CRATER_INV_RADIUS2 = 3;
/** Bowl depth (m). */
export const CRATER_DEPTH_M = 4;
/** Rim height (m). */
export const CRATER_RIM_M = 5;

/**
 * Deterministic crater list: `count` records of {@link CRATER_STRIDE} floats (unit
 * direction, (R/r)², depth m, rim m), largest craters first.
 */
export function placeCraters(field: CraterField): Float64Array {
  const prng = new Prng(field.seed);
  const out = new Float64Array(field.count * CRATER_STRIDE);
  const radii: number[] = [];
  const a = field.sizeExponent;
  const dir: number[] = [0, 0, 0];
  const dirs: number[][] = [];
  for (let i = 0; i < field.count; i++) {
    prng.unitVector(dir);
    dirs.push([dir[0], dir[1], dir[2]]);
    const u = prng.next();
    let r: number;
    if (a === 0 || field.radiusMax === field.radiusMin) {
      r = field.radiusMin * Math.pow(field.radiusMax / field.radiusMin, u);
    } else {
      // Inverse CDF of a power law truncated to [radiusMin, radiusMax].
      const lo = Math.pow(field.radiusMin, -a);
      const hi = Math.pow(field.radiusMax, -a);
      r = Math.pow(lo - u * (lo - hi), -1 / a);
    }
    radii.push(Math.min(Math.max(r, field.radiusMin), field.radiusMax));
  }
  const order = radii.map((_, i) => i).sort((i, j) => radii[j] - radii[i] || i - j);
  order.forEach((src, i) => {
    const r = radii[src];
    const o = i * CRATER_STRIDE;
    out[o + CRATER_DIR_X] = dirs[src][0];
    out[o + CRATER_DIR_Y] = dirs[src][1];
    out[o + CRATER_DIR_Z] = dirs[src][2];
    out[o + CRATER_INV_RADIUS2] = (field.sphereRadius / r) ** 2;
    out[o + CRATER_DEPTH_M] = field.depth * r;
    out[o + CRATER_RIM_M] = field.rimHeight * r;
  });
  return out;
}

/** Largest |height| a crater field can produce (m): max(depth, rim) over its craters. */
export function craterHeightBound(field: CraterField): number {
  if (field.count === 0) return 0;
  return Math.max(field.depth, field.rimHeight) * field.radiusMax;
}

/**
 * Crater height (m) at unit direction (nx, ny, nz); positive raises the surface.
 * `craters` from {@link placeCraters}; `ejecta` is the field's `ejectaFalloff`.
 */
export function craterHeight(craters: Float64Array, ejecta: number, nx: number, ny: number, nz: number): number {
  let raised = 0;
  let lowered = 0;
  const outer2 = (1 + ejecta) * (1 + ejecta);
  const invEjecta = 1 / ejecta;
  for (let o = 0; o < craters.length; o += CRATER_STRIDE) {
    const dx = nx - craters[o];
    const dy = ny - craters[o + 1];
    const dz = nz - craters[o + 2];
    const x2 = (dx * dx + dy * dy + dz * dz) * craters[o + CRATER_INV_RADIUS2];
    if (x2 >= outer2) continue;
    const depth = craters[o + CRATER_DEPTH_M];
    const rim = craters[o + CRATER_RIM_M];
    let h: number;
    if (x2 < 1) {
      h = -depth + (depth + rim) * x2;
    } else {
      const t = 1 - (Math.sqrt(x2) - 1) * invEjecta;
      h = rim * t * t;
    }
    if (h > raised) raised = h;
    if (h < lowered) lowered = h;
  }
  return raised + lowered;
}
