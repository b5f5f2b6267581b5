/**
 * Seeded crater fields. Both back ends share this placement, so the GLSL gets exactly the
 * numbers the JS uses (baked as constants).
 *
 * A crater is a height profile h(x) over x = chord distance on the unit sphere × R / r
 * (R the field's `sphereRadius`, r the crater radius): a parabolic bowl from −depth at the
 * center to +rim at x = 1, then an ejecta blanket falling as rim·(1 − t)² to zero at
 * x = 1 + ejectaFalloff. Overlapping craters combine as (max of raised parts) + (min of
 * lowered parts), so the height stays in [−max depth, +max rim] however many overlap —
 * Sockalingam 2017 summed one crater into the field; with hundreds, a sum would not be bounded.
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
 * One crater's height at unit direction n (m): the bowl inside its radius, the ejecta beyond it
 * out to `outer2` (squared, in radii), 0 outside — 0 changes neither the raised nor the lowered
 * extreme the callers keep. Shared by the full loop and the indexed one (bitwise the same values).
 */
function craterProfile(craters: Float64Array, o: number, nx: number, ny: number, nz: number, outer2: number, invEjecta: number): number {
  const dx = nx - craters[o];
  const dy = ny - craters[o + 1];
  const dz = nz - craters[o + 2];
  const x2 = (dx * dx + dy * dy + dz * dz) * craters[o + CRATER_INV_RADIUS2];
  if (x2 >= outer2) return 0;
  const depth = craters[o + CRATER_DEPTH_M];
  const rim = craters[o + CRATER_RIM_M];
  if (x2 < 1) return -depth + (depth + rim) * x2;
  const t = 1 - (Math.sqrt(x2) - 1) * invEjecta;
  return rim * t * t;
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
    const h = craterProfile(craters, o, nx, ny, nz, outer2, invEjecta);
    if (h > raised) raised = h;
    if (h < lowered) lowered = h;
  }
  return raised + lowered;
}

/** Buckets per cube-face axis of a {@link CraterIndex}. */
const INDEX_RES = 16;
/** Extra angle (rad) every bucket test allows: covers rounding of directions, bucket picks, acos. */
const INDEX_MARGIN_RAD = 1e-6;

/**
 * Craters by direction, for {@link craterHeightIndexed}: the unit sphere is cut into the cells of a
 * cube map (6 × INDEX_RES²), and each cell lists (lazily, on first use) the craters whose ejecta cap
 * can reach it. A crater outside a cell's list has x² ≥ (1 + ejecta)² at every direction of the
 * cell with a margin of INDEX_MARGIN_RAD, so craterHeight skips it there anyway; the craters in the
 * list go through exactly craterHeight's arithmetic, and max/min do not depend on order, so the
 * height is bitwise craterHeight's.
 */
export interface CraterIndex {
  craters: Float64Array;
  ejecta: number;
  /** Per crater: angular radius of its ejecta cap (rad), π when it covers the sphere. */
  capRad: Float64Array;
  /** Per cell: offsets (into `craters`) of the craters that can reach it, or undefined until used. */
  cells: (Int32Array | undefined)[];
}

export function indexCraters(craters: Float64Array, ejecta: number): CraterIndex {
  const n = craters.length / CRATER_STRIDE;
  const capRad = new Float64Array(n);
  const outer2 = (1 + ejecta) * (1 + ejecta);
  for (let c = 0; c < n; c++) {
    // Skipped where |dir − center|² · (R/r)² ≥ outer2: a chord of sqrt(outer2 / (R/r)²).
    const chord = Math.sqrt(outer2 / craters[c * CRATER_STRIDE + CRATER_INV_RADIUS2]);
    capRad[c] = chord >= 2 || !Number.isFinite(chord) ? Math.PI : 2 * Math.asin(chord / 2);
  }
  return { craters, ejecta, capRad, cells: new Array<Int32Array | undefined>(6 * INDEX_RES * INDEX_RES) };
}

/** Unit direction of cube-face point (a, b) ∈ [−1, 1]² on face `face` (axis = face >> 1, sign = face & 1). */
function faceDirection(face: number, a: number, b: number, out: number[]): void {
  const axis = face >> 1;
  const s = face & 1 ? -1 : 1;
  const len = Math.sqrt(1 + a * a + b * b);
  out[axis] = s / len;
  out[(axis + 1) % 3] = a / len;
  out[(axis + 2) % 3] = b / len;
}

function buildCell(index: CraterIndex, cell: number): Int32Array {
  const face = Math.floor(cell / (INDEX_RES * INDEX_RES));
  const iu = cell % INDEX_RES, iv = Math.floor(cell / INDEX_RES) % INDEX_RES;
  const u0 = -1 + (2 * iu) / INDEX_RES, u1 = -1 + (2 * (iu + 1)) / INDEX_RES;
  const v0 = -1 + (2 * iv) / INDEX_RES, v1 = -1 + (2 * (iv + 1)) / INDEX_RES;
  const center = [0, 0, 0], corner = [0, 0, 0];
  faceDirection(face, 0.5 * (u0 + u1), 0.5 * (v0 + v1), center);
  // The cell is a convex spherical quadrilateral: its farthest point from the center is a corner.
  let rho = 0;
  for (const [a, b] of [[u0, v0], [u1, v0], [u0, v1], [u1, v1]]) {
    faceDirection(face, a, b, corner);
    const dot = center[0] * corner[0] + center[1] * corner[1] + center[2] * corner[2];
    rho = Math.max(rho, Math.acos(Math.min(1, dot)));
  }
  const list: number[] = [];
  const c = index.craters;
  for (let k = 0, o = 0; o < c.length; k++, o += CRATER_STRIDE) {
    const dot = center[0] * c[o] + center[1] * c[o + 1] + center[2] * c[o + 2];
    const angle = Math.acos(Math.max(-1, Math.min(1, dot)));
    if (angle <= rho + index.capRad[k] + INDEX_MARGIN_RAD) list.push(o);
  }
  const out = Int32Array.from(list);
  index.cells[cell] = out;
  return out;
}

/**
 * {@link craterHeight} through a {@link CraterIndex}: bitwise the same value, visiting only the
 * craters that can reach the direction's cube-map cell. Falls back to the full loop for anything
 * not a unit vector within 1e-9 (the cell argument needs one).
 */
export function craterHeightIndexed(index: CraterIndex, nx: number, ny: number, nz: number): number {
  const len2 = nx * nx + ny * ny + nz * nz;
  if (!(len2 > 1 - 1e-9 && len2 < 1 + 1e-9)) return craterHeight(index.craters, index.ejecta, nx, ny, nz);
  const ax = Math.abs(nx), ay = Math.abs(ny), az = Math.abs(nz);
  let face: number, a: number, b: number, m: number;
  if (ax >= ay && ax >= az) { face = nx < 0 ? 1 : 0; a = ny; b = nz; m = ax; }
  else if (ay >= az) { face = ny < 0 ? 3 : 2; a = nz; b = nx; m = ay; }
  else { face = nz < 0 ? 5 : 4; a = nx; b = ny; m = az; }
  const half = 0.5 * INDEX_RES;
  const iu = Math.min(INDEX_RES - 1, Math.max(0, Math.floor((a / m + 1) * half)));
  const iv = Math.min(INDEX_RES - 1, Math.max(0, Math.floor((b / m + 1) * half)));
  const cell = (face * INDEX_RES + iv) * INDEX_RES + iu;
  const list = index.cells[cell] ?? buildCell(index, cell);
  const craters = index.craters;
  let raised = 0;
  let lowered = 0;
  const outer2 = (1 + index.ejecta) * (1 + index.ejecta);
  const invEjecta = 1 / index.ejecta;
  for (let k = 0; k < list.length; k++) {
    const o = list[k];
    const h = craterProfile(craters, o, nx, ny, nz, outer2, invEjecta);
    if (h > raised) raised = h;
    if (h < lowered) lowered = h;
  }
  return raised + lowered;
}
