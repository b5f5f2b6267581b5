/**
 * The pure numbers behind a planet's sea and cloud layer (issue 41; src/render/PlanetSea.ts,
 * src/render/PlanetClouds.ts): what the CPU hands the shaders each frame, in float64, so the
 * GPU's float32 never subtracts two large radii, and TypeScript twins of the shaders' ray–sphere
 * arithmetic for Node tests. No three.js.
 *
 * Precision (docs/rendering.md, "Sea and clouds"): 20 m above a 6,000 km sphere, |oc|² − R² in
 * float32 is off by ~4·10⁶ m² (an ulp of 3.6·10¹³) against a true 2.4·10⁸: the sea would sit
 * metres off and swim as the camera moves. Here `c = (|oc| − R)(|oc| + R)` is formed in float64
 * (exact to 1e-9 relative), and the shader takes only products with unit vectors:
 * b = |oc| · (up · rd), whose float32 rounding is a turn of the ray by ~1e-7 rad — far under a pixel.
 */

export type Vec3 = [number, number, number];

/** What a shader needs to intersect view rays with a sphere around the planet's centre. */
export interface SphereRay {
  /** Unit vector from the planet's centre to the camera. */
  up: Vec3;
  /** The camera's distance from the centre, metres. */
  cameraR: number;
  /** (|oc| − R)(|oc| + R), metres²: > 0 outside the sphere, < 0 inside. */
  c: number;
}

/** {@link SphereRay} for a camera at `cameraInBody` (metres, planet frame) and a sphere of `radiusM`. */
export function sphereRay(cameraInBody: Readonly<Vec3>, radiusM: number, out: SphereRay = { up: [0, 1, 0], cameraR: 0, c: 0 }): SphereRay {
  const r = Math.hypot(cameraInBody[0], cameraInBody[1], cameraInBody[2]);
  const inv = r > 0 ? 1 / r : 0;
  out.up[0] = r > 0 ? cameraInBody[0] * inv : 0;
  out.up[1] = r > 0 ? cameraInBody[1] * inv : 1;
  out.up[2] = r > 0 ? cameraInBody[2] * inv : 0;
  out.cameraR = r;
  out.c = (r - radiusM) * (r + radiusM);
  return out;
}

/**
 * The first hit t ≥ 0 along a view ray of cos-zenith `mu` (its direction · up) with the sphere
 * {@link sphereRay} describes; −1: none. Outside the sphere the near root as
 * t = c / (−b + √(b² − c)) (no cancellation: both terms of the sum are positive), inside the far
 * root, again in the form without cancellation. The shaders' srLayerRayHit does the same in float32.
 */
export function raySphereHit(cameraR: number, mu: number, c: number): number {
  const b = cameraR * mu;
  const disc = b * b - c;
  if (disc < 0) return -1;
  const s = Math.sqrt(disc);
  if (c > 0) return b >= 0 ? -1 : c / (-b + s);
  return b <= 0 ? -b + s : c / (-b - s);
}

/** The far hit (a ray leaving the sphere on its far side); −1: none or behind. */
export function raySphereFar(cameraR: number, mu: number, c: number): number {
  const b = cameraR * mu;
  const disc = b * b - c;
  if (disc < 0) return -1;
  const s = Math.sqrt(disc);
  const t = b <= 0 ? -b + s : c / (-b - s);
  return t >= 0 ? t : -1;
}

/**
 * How far the cloud pattern has turned eastwards about the planet's axis (+y, the axis the ground's
 * latitude is measured from) after `timeS` of scene time, radians in [0, 2π): `driftMps` along the
 * equator of the layer's sphere. Reduced in float64, so the shader's angle never grows with time.
 */
export function cloudDriftAngleRad(timeS: number, driftMps: number, radiusM: number): number {
  const turns = (timeS * driftMps) / (2 * Math.PI * radiusM);
  return (turns - Math.floor(turns)) * 2 * Math.PI;
}

/**
 * Column-major 3×3 (three's Matrix3.elements order) that takes a direction where the pattern is
 * now back to where it was at time 0: a turn by −angle about +y. A feature at p₀ at time 0 is at
 * R_y(angle)·p₀ later, which moves it along east = ŷ × p̂ (towards −z at +x).
 */
export function cloudDriftMatrix(angleRad: number, out: number[] = new Array<number>(9)): number[] {
  const c = Math.cos(angleRad);
  const s = Math.sin(angleRad);
  // R_y(−a): x' = c·x − s·z, z' = s·x + c·z (columns: images of x̂, ŷ, ẑ).
  out[0] = c; out[1] = 0; out[2] = s;
  out[3] = 0; out[4] = 1; out[5] = 0;
  out[6] = -s; out[7] = 0; out[8] = c;
  return out;
}

/** Applies a column-major 3×3 to `v` (tests). */
export function applyMatrix3(m: readonly number[], v: Readonly<Vec3>): Vec3 {
  return [
    m[0] * v[0] + m[3] * v[1] + m[6] * v[2],
    m[1] * v[0] + m[4] * v[1] + m[7] * v[2],
    m[2] * v[0] + m[5] * v[1] + m[8] * v[2],
  ];
}

/** The period of the sea's waves in each axis, metres: the shader's camera part on this grid drops out exactly. */
export const WAVE_PERIOD_M = 1024;

/** One wave of the sea's surface (see {@link seaWaves}). */
export interface SeaWave {
  /** Wave vector, radians per metre: 2π/1024 × whole numbers, so the wave repeats every 1,024 m along x, y and z. */
  k: Vec3;
  /** Slope amplitude (amplitude × |k|). */
  slope: number;
  /** Angular frequency (rad/s), deep water: √(g |k|). */
  omega: number;
  /** Phase at time 0, radians. */
  phase: number;
  /** Wavelength, metres. */
  lengthM: number;
}

/** Shortest and longest wave of the sea, metres (ripples to a short swell). */
export const SEA_WAVE_MIN_M = 0.5;
export const SEA_WAVE_MAX_M = 60;

/**
 * `count` waves from {@link SEA_WAVE_MIN_M} to {@link SEA_WAVE_MAX_M} long, seeded, their slopes
 * adding up to a mean-square slope of `meanSquareSlope` (Cox & Munk 1954: 0.003 + 0.00512 × wind
 * speed in m/s; 0.03 at ~5 m/s). Whole wave numbers over {@link WAVE_PERIOD_M}: the shader evaluates
 * them at the camera's offset from a 1,024 m grid point (small, exact in float32) and the grid
 * point's part is a whole number of turns.
 *
 * Six waves an octave of length, stratified (each octave gets its share, at a random place in it):
 * with two an octave (12 waves, issue 41) the one or two longest a view resolves outweighed the rest
 * and the sea drew parallel stripes from 300 m. Three in four run within ~40° of a wind axis (one per
 * seed: a sea has a prevailing direction), the rest anywhere (cross sea). The directions are 3-D: a
 * planar wave on the sphere runs along its direction's tangential part, so the wind is the axis'
 * projection, which turns over the planet as a real wind field would.
 */
export function seaWaves(seed: number, count = 36, meanSquareSlope = 0.03): SeaWave[] {
  let state = (seed ^ 0x9e3779b9) >>> 0;
  const next = (): number => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    state ^= state >>> 12;
    return (state >>> 0) / 4294967296;
  };
  const unit = (): Vec3 => {
    const z = 2 * next() - 1;
    const a = 2 * Math.PI * next();
    const h = Math.sqrt(1 - z * z);
    return [h * Math.cos(a), z, h * Math.sin(a)];
  };
  const wind = unit();
  const waves: SeaWave[] = [];
  const slope = Math.sqrt((2 * meanSquareSlope) / count);
  for (let i = 0; i < count; i++) {
    const lengthM = SEA_WAVE_MIN_M * (SEA_WAVE_MAX_M / SEA_WAVE_MIN_M) ** ((i + next()) / count);
    const n = WAVE_PERIOD_M / lengthM;
    const r = unit();
    const spread = next() < 0.75 ? 0.7 : 1e6;
    const d = [wind[0] + spread * r[0], wind[1] + spread * r[1], wind[2] + spread * r[2]];
    const dl = Math.hypot(d[0], d[1], d[2]) || 1;
    // The direction scaled to n and rounded to whole numbers.
    const m: Vec3 = [Math.round((n * d[0]) / dl), Math.round((n * d[1]) / dl), Math.round((n * d[2]) / dl)];
    if (m[0] === 0 && m[1] === 0 && m[2] === 0) m[0] = 1;
    const k = m.map((v) => (2 * Math.PI * v) / WAVE_PERIOD_M) as Vec3;
    const kLen = Math.hypot(...k);
    waves.push({ k, slope, omega: Math.sqrt(9.81 * kLen), phase: 2 * Math.PI * next(), lengthM: (2 * Math.PI) / kLen });
  }
  return waves;
}

/** A wave's phase at `timeS` reduced to [0, 2π) in float64 (the shader's sin never sees a large argument). */
export function wavePhaseRad(wave: SeaWave, timeS: number): number {
  const p = (wave.phase - wave.omega * timeS) / (2 * Math.PI);
  return (p - Math.floor(p)) * 2 * Math.PI;
}

/** The standard normal's quantile (Acklam's rational approximation, |error| < 1.2e-9 for 0 < p < 1). */
export function probit(p: number): number {
  const q = Math.min(1 - 1e-9, Math.max(1e-9, p));
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (r: number): number => (((((c[0] * r + c[1]) * r + c[2]) * r + c[3]) * r + c[4]) * r + c[5]) / ((((d[0] * r + d[1]) * r + d[2]) * r + d[3]) * r + 1);
  if (q < 0.02425) return tail(Math.sqrt(-2 * Math.log(q)));
  if (q > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - q)));
  const x = q - 0.5;
  const r = x * x;
  return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * x) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}
