/**
 * Measures of a planet's terrain taken on its JS field (issue 41's tests): the height of the
 * outermost surface along a radial line, the relief in a band of wavelengths, surface crossings
 * along vertical rays, and caves found by a flood fill of the air a 2 m sphere can reach.
 */
import type { FieldFn as FieldFunction } from '../../src/field/compileJs';

type Vec3 = [number, number, number];

/**
 * Radius of the outermost surface along the unit direction `dir`, metres: sphere tracing down from
 * `topM` with steps of value / lipschitz, then bisection to 1 mm.
 */
export function surfaceRadius(field: FieldFunction, dir: Vec3, topM: number, lipschitz: number): number {
  let r = topM;
  let hi = topM;
  for (let i = 0; i < 4000; i++) {
    const f = field(dir[0] * r, dir[1] * r, dir[2] * r);
    if (f <= 0) break;
    hi = r;
    r -= Math.max(f / lipschitz, 0.05);
  }
  let lo = r;
  for (let i = 0; i < 60 && hi - lo > 1e-3; i++) {
    const mid = 0.5 * (lo + hi);
    if (field(dir[0] * mid, dir[1] * mid, dir[2] * mid) <= 0) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

function normalize(v: Vec3): Vec3 {
  const l = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / l, v[1] / l, v[2] / l];
}

/**
 * Relief in the band of wavelength `bandM` around the unit direction `at`: heights every bandM/8
 * along a great circle through it over 2·bandM (17 samples, heading `headingRad`), smoothed over
 * three samples (bandM/4: shorter wavelengths mostly averaged out), a straight line fitted and
 * removed (longer ones): the RMS of what is left, metres.
 */
export function bandRelief(
  field: FieldFunction, at: Vec3, headingRad: number, bandM: number, radiusM: number, topM: number, lipschitz: number,
): number {
  // A tangent direction at `at`.
  const ref: Vec3 = Math.abs(at[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0];
  const e1 = normalize([ref[1] * at[2] - ref[2] * at[1], ref[2] * at[0] - ref[0] * at[2], ref[0] * at[1] - ref[1] * at[0]]);
  const e2: Vec3 = [at[1] * e1[2] - at[2] * e1[1], at[2] * e1[0] - at[0] * e1[2], at[0] * e1[1] - at[1] * e1[0]];
  const c = Math.cos(headingRad), s = Math.sin(headingRad);
  const t: Vec3 = [c * e1[0] + s * e2[0], c * e1[1] + s * e2[1], c * e1[2] + s * e2[2]];
  const n = 17;
  const h: number[] = [];
  for (let i = 0; i < n; i++) {
    const angle = ((i - (n - 1) / 2) * (bandM / 8)) / radiusM;
    const ca = Math.cos(angle), sa = Math.sin(angle);
    const dir = normalize([ca * at[0] + sa * t[0], ca * at[1] + sa * t[1], ca * at[2] + sa * t[2]]);
    h.push(surfaceRadius(field, dir, topM, lipschitz) - radiusM);
  }
  const m: number[] = [];
  for (let i = 1; i < n - 1; i++) m.push((h[i - 1] + h[i] + h[i + 1]) / 3);
  const k = m.length;
  const xMean = (k - 1) / 2;
  const yMean = m.reduce((a, b) => a + b, 0) / k;
  let sxy = 0, sxx = 0;
  for (let i = 0; i < k; i++) {
    sxy += (i - xMean) * (m[i] - yMean);
    sxx += (i - xMean) * (i - xMean);
  }
  const slope = sxy / sxx;
  let ss = 0;
  for (let i = 0; i < k; i++) {
    const r = m[i] - (yMean + slope * (i - xMean));
    ss += r * r;
  }
  return Math.sqrt(ss / k);
}

/**
 * Vertical rays over a square of side `sideM` centred above the north pole (+y: the camera of
 * `--altitude` stands there), `n` × `n` of them, sampled every `stepM` from `fromY` to `toY`: the
 * share that cross the surface three or more times.
 */
export function multiCrossingShare(field: FieldFunction, sideM: number, n: number, fromY: number, toY: number, stepM: number): number {
  let multi = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const x = ((i + 0.5) / n - 0.5) * sideM, z = ((j + 0.5) / n - 0.5) * sideM;
      let crossings = 0;
      let prev = field(x, toY, z) <= 0;
      for (let y = toY - stepM; y >= fromY; y -= stepM) {
        const inside = field(x, y, z) <= 0;
        if (inside !== prev) crossings++;
        prev = inside;
      }
      if (crossings >= 3) multi++;
    }
  }
  return multi / (n * n);
}

export interface CaveSearch {
  /** Air cells a sphere of `clearanceM` radius fits in, reached from the open sky. */
  reached: number;
  /** Of those, the ones with rock somewhere above them. */
  covered: number;
  /** The largest connected group of covered cells (6-connected), cells. */
  largestPocket: number;
  /** Its lowest cell's centre, metres, and the rock over it (m). */
  pocketAt: Vec3 | null;
}

/**
 * Flood fill of the air over a square of side `sideM` above the north pole, cells of `cellM`,
 * from `fromY` to `toY`: a cell is open when the field at its centre is ≥ `clearanceM` (the field
 * is about the distance to the surface; a lower bound of it where its Lipschitz constant is ≤ 1),
 * so a sphere of that radius fits; the fill starts from the open cells of the top layer. Covered
 * cells (rock above them in their column) that the fill reaches are overhangs and caves; their
 * largest 6-connected group is the pocket.
 */
export function findCave(field: FieldFunction, sideM: number, cellM: number, fromY: number, toY: number, clearanceM: number): CaveSearch {
  const nx = Math.round(sideM / cellM), ny = Math.round((toY - fromY) / cellM);
  const idx = (i: number, j: number, k: number): number => (j * nx + i) * nx + k;
  const open = new Uint8Array(nx * ny * nx);
  const rockAbove = new Uint8Array(nx * ny * nx);
  for (let i = 0; i < nx; i++) {
    for (let k = 0; k < nx; k++) {
      const x = ((i + 0.5) / nx - 0.5) * sideM, z = ((k + 0.5) / nx - 0.5) * sideM;
      let rock = false;
      for (let j = ny - 1; j >= 0; j--) {
        const f = field(x, fromY + (j + 0.5) * cellM, z);
        if (f <= 0) rock = true;
        open[idx(i, j, k)] = f >= clearanceM ? 1 : 0;
        rockAbove[idx(i, j, k)] = rock ? 1 : 0;
      }
    }
  }
  const reached = new Uint8Array(nx * ny * nx);
  const stack: number[] = [];
  for (let i = 0; i < nx; i++) for (let k = 0; k < nx; k++) {
    const c = idx(i, ny - 1, k);
    if (open[c]) { reached[c] = 1; stack.push(c); }
  }
  const steps: [number, number, number][] = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]];
  const coords = (c: number): [number, number, number] => {
    const k = c % nx, rest = (c - k) / nx, i = rest % nx, j = (rest - i) / nx;
    return [i, j, k];
  };
  while (stack.length > 0) {
    const [i, j, k] = coords(stack.pop()!);
    for (const [di, dj, dk] of steps) {
      const a = i + di, b = j + dj, c = k + dk;
      if (a < 0 || b < 0 || c < 0 || a >= nx || b >= ny || c >= nx) continue;
      const n = idx(a, b, c);
      if (open[n] && !reached[n]) { reached[n] = 1; stack.push(n); }
    }
  }
  let nReached = 0, nCovered = 0, largest = 0;
  let pocketAt: Vec3 | null = null;
  const seen = new Uint8Array(nx * ny * nx);
  for (let c = 0; c < reached.length; c++) {
    if (!reached[c]) continue;
    nReached++;
    if (!rockAbove[c]) continue;
    nCovered++;
    if (seen[c]) continue;
    // Grow this covered group.
    let size = 0;
    let lowest = c;
    seen[c] = 1;
    stack.push(c);
    while (stack.length > 0) {
      const cur = stack.pop()!;
      size++;
      const [i, j, k] = coords(cur);
      if (j < coords(lowest)[1]) lowest = cur;
      for (const [di, dj, dk] of steps) {
        const a = i + di, b = j + dj, d = k + dk;
        if (a < 0 || b < 0 || d < 0 || a >= nx || b >= ny || d >= nx) continue;
        const n = idx(a, b, d);
        if (reached[n] && rockAbove[n] && !seen[n]) { seen[n] = 1; stack.push(n); }
      }
    }
    if (size > largest) {
      largest = size;
      const [i, j, k] = coords(lowest);
      pocketAt = [((i + 0.5) / nx - 0.5) * sideM, fromY + (j + 0.5) * cellM, ((k + 0.5) / nx - 0.5) * sideM];
    }
  }
  return { reached: nReached, covered: nCovered, largestPocket: largest, pocketAt };
}
