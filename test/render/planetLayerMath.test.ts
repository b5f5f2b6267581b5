/**
 * The sea's and clouds' numbers (src/render/planetLayerMath.ts): the ray–sphere hit the shaders
 * compute in float32 from float64 constants, against float64 truth, 20 m above a 6,000 km sea
 * (and against the textbook float32 form, which misses by metres); the clouds' eastward drift;
 * the waves' whole periods over the 1,024 m grid.
 */
import { describe, expect, it } from 'vitest';
import {
  applyMatrix3, cloudDriftAngleRad, cloudDriftMatrix, probit, raySphereFar, raySphereHit, seaWaves, sphereRay, WAVE_PERIOD_M, wavePhaseRad, type Vec3,
} from '../../src/render/planetLayerMath';

const f = Math.fround;

/** The shader's arithmetic (srLayerRayHit) in float32, from the uniforms as float32. */
function hitF32(up: Vec3, cameraR: number, c: number, rd: Vec3): number {
  const mu = f(f(f(f(up[0]) * f(rd[0])) + f(f(up[1]) * f(rd[1]))) + f(f(up[2]) * f(rd[2])));
  const b = f(f(cameraR) * mu);
  const cc = f(c);
  const disc = f(f(b * b) - cc);
  if (disc < 0) return -1;
  const s = f(Math.sqrt(disc));
  if (cc > 0) return b >= 0 ? -1 : f(cc / f(-b + s));
  return b <= 0 ? f(-b + s) : f(cc / f(-b - s));
}

/** The textbook form in float32: oc as float32, c = |oc|² − R², t = −b − √(b² − c). */
function naiveF32(oc: Vec3, radiusM: number, rd: Vec3): number {
  const o = oc.map(f) as Vec3;
  const b = f(f(f(o[0] * f(rd[0])) + f(o[1] * f(rd[1]))) + f(o[2] * f(rd[2])));
  const c = f(f(f(f(o[0] * o[0]) + f(o[1] * o[1])) + f(o[2] * o[2])) - f(f(radiusM) * f(radiusM)));
  const disc = f(f(b * b) - c);
  return disc < 0 ? -1 : f(-b - f(Math.sqrt(disc)));
}

/** Float64 truth: the hit of the ray with the sphere, by the stable form in double. */
function truth(oc: Vec3, radiusM: number, rd: Vec3): number {
  const s = sphereRay(oc, radiusM);
  return raySphereHit(s.cameraR, s.up[0] * rd[0] + s.up[1] * rd[1] + s.up[2] * rd[2], s.c);
}

function unit(v: Vec3): Vec3 {
  const l = Math.hypot(...v);
  return v.map((x) => x / l) as Vec3;
}

describe('sphereRay / raySphereHit', () => {
  const R = 6.0e6;
  const dir = unit([0.31, 0.72, -0.62]);
  const oc = dir.map((d) => d * (R + 20)) as Vec3;
  // Rays from straight down to just under the horizon (2 m above a 6,000 km sphere: the horizon dips 0.14°).
  const side = unit([dir[1], -dir[0], 0]);
  const rays: Vec3[] = [];
  for (const dipDeg of [90, 60, 30, 10, 3, 1, 0.5, 0.3, 0.2, 0.16]) {
    const a = (dipDeg * Math.PI) / 180;
    rays.push(unit(side.map((s, i) => s * Math.cos(a) - dir[i] * Math.sin(a)) as Vec3));
  }

  it('20 m over a 6,000 km sea: float32 from float64 constants lands within 1e-4 of the distance, the textbook float32 form decimetres off', () => {
    const s = sphereRay(oc, R);
    let worstStable = 0, worstNaive = 0, naiveHeightM = 0;
    for (const rd of rays) {
      const t = truth(oc, R, rd);
      expect(t, 'every ray meets the sea').toBeGreaterThan(0);
      const stable = hitF32(s.up, s.cameraR, s.c, rd);
      worstStable = Math.max(worstStable, Math.abs(stable - t) / t);
      const naive = naiveF32(oc, R, rd);
      worstNaive = Math.max(worstNaive, naive < 0 ? 1 : Math.abs(naive - t) / t);
      // The hit's height error (what moves a coastline): the distance error times the sine of the dip.
      const mu = -(s.up[0] * rd[0] + s.up[1] * rd[1] + s.up[2] * rd[2]);
      naiveHeightM = Math.max(naiveHeightM, naive < 0 ? Infinity : Math.abs(naive - t) * mu);
      expect(Math.abs(stable - t) * mu, `height error at dip ${(Math.asin(mu) * 180 / Math.PI).toFixed(2)}°`).toBeLessThan(0.01);
    }
    console.log(`relative distance error, stable float32 ${worstStable.toExponential(2)}, textbook float32 ${worstNaive.toExponential(2)} (height ${naiveHeightM.toFixed(2)} m)`);
    expect(worstStable).toBeLessThan(1e-4);
    expect(naiveHeightM, 'the textbook form is what this avoids').toBeGreaterThan(0.05);
  });

  it('matches the textbook roots in float64 for a small sphere, from outside and inside', () => {
    const radiusM = 100;
    for (const [o, rd] of [
      [[0, 300, 0], unit([0.1, -1, 0.05])],
      [[20, 30, -40], unit([0.3, 0.2, 0.9])],
      [[0, 0, 0], unit([1, 2, 3])],
    ] as [Vec3, Vec3][]) {
      const b = o[0] * rd[0] + o[1] * rd[1] + o[2] * rd[2];
      const c = o[0] ** 2 + o[1] ** 2 + o[2] ** 2 - radiusM ** 2;
      const roots = [-b - Math.sqrt(b * b - c), -b + Math.sqrt(b * b - c)];
      const s = sphereRay(o, radiusM);
      const mu = s.up[0] * rd[0] + s.up[1] * rd[1] + s.up[2] * rd[2];
      const expected = c > 0 ? roots[0] : roots[1];
      expect(raySphereHit(s.cameraR, mu, s.c)).toBeCloseTo(expected, 9);
      expect(raySphereFar(s.cameraR, mu, s.c)).toBeCloseTo(roots[1], 9);
    }
    // Looking away from a sphere below: no hit.
    const s = sphereRay([0, 300, 0], radiusM);
    expect(raySphereHit(s.cameraR, 0.5, s.c)).toBe(-1);
    expect(raySphereHit(s.cameraR, -0.1, s.c)).toBe(-1);
  });
});

describe('cloud drift', () => {
  it('turns the pattern east at driftMps along the equator, frozen for a fixed time, reduced to one turn', () => {
    const radiusM = 1e5, driftMps = 10;
    const a = cloudDriftAngleRad(100, driftMps, radiusM);
    expect(a).toBeCloseTo(0.01, 12);
    expect(cloudDriftAngleRad(100, driftMps, radiusM)).toBe(a);
    const period = (2 * Math.PI * radiusM) / driftMps;
    expect(cloudDriftAngleRad(1e6 * period + 100, driftMps, radiusM)).toBeCloseTo(0.01, 3);
    expect(cloudDriftAngleRad(1e9, 8, 1e6)).toBeLessThan(2 * Math.PI);
    // The shader looks the pattern up at M·d: a feature seen at time 0 at p0 is seen later where
    // M·p = p0, i.e. p = Mᵀ·p0, which must lie east of p0 (east = ŷ × p̂).
    const m = cloudDriftMatrix(a);
    const p0: Vec3 = [1, 0.2, 0.3];
    const mt = [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]];
    const p = applyMatrix3(mt, p0);
    expect(applyMatrix3(m, p).map((v, i) => v - p0[i]).every((v) => Math.abs(v) < 1e-12)).toBe(true);
    const east: Vec3 = [p0[2], 0, -p0[0]]; // ŷ × p0
    const moved = p.map((v, i) => v - p0[i]);
    const along = moved[0] * east[0] + moved[1] * east[1] + moved[2] * east[2];
    expect(along / Math.hypot(...east)).toBeCloseTo(a * Math.hypot(p0[0], p0[2]), 6);
    expect(moved[1]).toBeCloseTo(0, 12);
  });
});

describe('seaWaves', () => {
  it('repeat exactly every 1,024 m along each axis, 0.5–60 m long, seeded, phases reduced', () => {
    const waves = seaWaves(7);
    expect(waves).toHaveLength(36);
    expect(seaWaves(7)).toEqual(waves);
    expect(seaWaves(8)).not.toEqual(waves);
    for (const w of waves) {
      for (const k of w.k) {
        const turns = (k * WAVE_PERIOD_M) / (2 * Math.PI);
        expect(Math.abs(turns - Math.round(turns))).toBeLessThan(1e-9);
      }
      expect(w.lengthM).toBeGreaterThan(0.45);
      expect(w.lengthM).toBeLessThan(65);
      const p = wavePhaseRad(w, 1e7);
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThan(2 * Math.PI);
    }
    const meanSquare = waves.reduce((s, w) => s + (w.slope * w.slope) / 2, 0);
    expect(meanSquare).toBeCloseTo(0.03, 9);
  });

  it('several waves to every octave of length, most of them within ~40° of one wind axis (no parallel stripes)', () => {
    for (const seed of [1, 7, 42]) {
      const waves = seaWaves(seed);
      const log2 = waves.map((w) => Math.log2(w.lengthM / 0.5));
      for (let octave = 0; octave < 6; octave++) {
        expect(log2.filter((l) => l >= octave && l < octave + 1).length).toBeGreaterThanOrEqual(4);
      }
      // The mean resultant of the unit directions (sign-free: a wave and its opposite are one
      // direction): most share an axis, but not all (a sea of one direction is stripes again).
      const dirs = waves.map((w) => w.k.map((c) => c / Math.hypot(...w.k)));
      let best = 0;
      for (const a of dirs) {
        const near = dirs.filter((b) => Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) > Math.cos((50 * Math.PI) / 180)).length;
        best = Math.max(best, near);
      }
      expect(best).toBeGreaterThan(0.4 * waves.length);
      expect(best).toBeLessThan(waves.length);
    }
  });
});

describe('probit (the clouds\' threshold for a coverage)', () => {
  it('is the standard normal quantile', () => {
    expect(probit(0.5)).toBeCloseTo(0, 9);
    expect(probit(0.975)).toBeCloseTo(1.959964, 5);
    expect(probit(0.1)).toBeCloseTo(-1.281552, 5);
    expect(probit(0.01)).toBeCloseTo(-2.326348, 5);
    expect(probit(0)).toBeLessThan(-5);
    expect(probit(1)).toBeGreaterThan(5);
  });
});
