import { describe, expect, it } from 'vitest';
import { recipeBounds } from '../../src/field/index';
import { asteroidFieldSpec } from '../../src/scene/index';

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
