import { describe, expect, it } from 'vitest';
import { recipeBounds } from '../../src/field/index';
import { asteroidFieldSpec, spinSweepM } from '../../src/scene/index';

describe('asteroidFieldSpec', () => {
  it('is deterministic per seed and differs between seeds', () => {
    expect(JSON.stringify(asteroidFieldSpec(7))).toBe(JSON.stringify(asteroidFieldSpec(7)));
    expect(JSON.stringify(asteroidFieldSpec(7))).not.toBe(JSON.stringify(asteroidFieldSpec(8)));
  });

  it.each([1, 2, 3, 42])('seed %i: dozens of asteroids, sizes over an order of magnitude, several families, no overlaps', (seed) => {
    const spec = asteroidFieldSpec(seed);
    expect(spec.asteroids.length).toBeGreaterThanOrEqual(24);
    const radii = spec.asteroids.map((a) => a.radiusM);
    expect(Math.max(...radii) / Math.min(...radii)).toBeGreaterThan(10);
    expect(new Set(spec.asteroids.map((a) => a.family)).size).toBeGreaterThanOrEqual(4);
    const center = (a: (typeof spec.asteroids)[number]): number[] => {
      expect(a.bodyCenterM).toEqual(recipeBounds(a.recipe).sphereCenter);
      return a.positionM;
    };
    let overlaps = 0;
    for (const a of spec.asteroids)
      for (const b of spec.asteroids) {
        if (a.index >= b.index) continue;
        const d = Math.hypot(...[0, 1, 2].map((i) => center(a)[i] - center(b)[i]));
        if (d < a.radiusM + b.radiusM) overlaps++;
      }
    expect(overlaps).toBe(0);
    expect(Math.hypot(...spec.sunDirection)).toBeCloseTo(1, 12);
  });

  it('rejects nonsense counts', () => {
    expect(() => asteroidFieldSpec(1, 0)).toThrow(RangeError);
    expect(() => asteroidFieldSpec(1, 1.5)).toThrow(RangeError);
  });
});

describe('spinSweepM', () => {
  const asteroids = [
    { positionM: [0, 0, 0] as [number, number, number], radiusM: 500, spinRadPerS: 0.01 },
    { positionM: [3000, 0, 0] as [number, number, number], radiusM: 200, spinRadPerS: -0.05 },
  ];
  it('is the fastest rim\'s arc among the asteroids that reach the sphere', () => {
    // Only the first reaches 1 km around the origin: 0.01 rad/s × 500 m × 2 s.
    expect(spinSweepM(asteroids, [0, 0, 0], 1000, 2)).toBeCloseTo(10, 9);
    // The second reaches a sphere around (2 km, 0, 0) of 900 m (3000 − 200 − 2000 < 900): 0.05 × 200 × 2 = 20.
    expect(spinSweepM(asteroids, [2000, 0, 0], 900, 2)).toBeCloseTo(20, 9);
    // Time backwards (a reset clock) sweeps as far; no time, no sweep; nothing in reach, none.
    expect(spinSweepM(asteroids, [0, 0, 0], 1000, -2)).toBeCloseTo(10, 9);
    expect(spinSweepM(asteroids, [0, 0, 0], 1000, 0)).toBe(0);
    expect(spinSweepM(asteroids, [1e6, 0, 0], 1000, 2)).toBe(0);
  });
});
