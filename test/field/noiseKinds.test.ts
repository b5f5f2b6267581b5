/**
 * The craters and terrace noise kinds (issue 41): ranges, continuity (a field must not jump, or
 * Dual Contouring finds surfaces that are not there), and the Lipschitz bound that recipeBounds
 * gives them against the measured slope.
 */
import { describe, expect, it } from 'vitest';
import { compileToJs, parseRecipe, Prng, recipeBounds } from '../../src/field/index';
import { craterCell, fractal, noisePermutation, seededNoise3D, terrace } from '../../src/field/noise';

describe('noise kinds: craters and terrace', () => {
  const perm = noisePermutation(77);
  it('a crater cell is in [-1, 0.25], 0 on every cell face, and continuous (steepest wall ≤ 8.4 per unit)', () => {
    const prng = new Prng(5);
    let min = 0, max = 0, craters = 0, steepest = 0;
    const h = 1e-4;
    for (let i = 0; i < 40_000; i++) {
      const x = prng.range(-300, 300), y = prng.range(-300, 300), z = prng.range(-300, 300);
      const v = craterCell(perm, x, y, z);
      min = Math.min(min, v);
      max = Math.max(max, v);
      if (v < 0) craters++;
      steepest = Math.max(steepest, Math.abs(craterCell(perm, x + h, y, z) - v) / h, Math.abs(craterCell(perm, x, y + h, z) - v) / h);
      // Faces of the cell: 0 on both sides.
      expect(craterCell(perm, Math.floor(x), y, z)).toBe(0);
      expect(craterCell(perm, Math.floor(x) - 1e-9, y, z)).toBe(0);
    }
    expect(min).toBeGreaterThanOrEqual(-1);
    expect(min).toBeLessThan(-0.9);
    expect(max).toBeLessThanOrEqual(0.25);
    expect(max).toBeGreaterThan(0.2);
    expect(craters / 40_000).toBeGreaterThan(0.005);
    expect(steepest).toBeLessThanOrEqual(8.4);
  });

  it('terrace: continuous steps, flat treads, within [-1, 1] for sums in [-1, 1]', () => {
    let prev = terrace(-1);
    let flat = 0;
    for (let s = -1 + 1e-4; s <= 1; s += 1e-4) {
      const v = terrace(s);
      expect(Math.abs(v - prev)).toBeLessThanOrEqual(3.75e-4 + 1e-12);
      if (v === prev) flat++;
      prev = v;
      expect(v).toBeGreaterThanOrEqual(-1);
      expect(v).toBeLessThanOrEqual(1);
    }
    // The treads: 60 % of every step is flat.
    expect(flat / 2e4).toBeGreaterThan(0.55);
    const noise = seededNoise3D(3);
    expect(fractal('terrace', noise, 0.3, 0.2, 0.1, 4, 2, 0.5)).toBe(terrace(fractal('fbm', noise, 0.3, 0.2, 0.1, 4, 2, 0.5)));
  });

  it('recipes with them parse, and their Lipschitz bound holds against central differences', () => {
    const recipe = parseRecipe({
      version: 1,
      root: {
        type: 'sphere', radius: 900,
        noise: [
          { kind: 'terrace', seed: 31, frequency: 0.002, octaves: 4, amplitude: 60 },
          { kind: 'craters', seed: 32, frequency: 0.006, octaves: 4, amplitude: 30 },
        ],
      },
    });
    const f = compileToJs(recipe);
    const b = recipeBounds(recipe);
    const prng = new Prng(9);
    let worst = 0;
    const h = 0.01;
    for (let i = 0; i < 20_000; i++) {
      const x = prng.range(-1100, 1100), y = prng.range(-1100, 1100), z = prng.range(-1100, 1100);
      const gx = (f(x + h, y, z) - f(x - h, y, z)) / (2 * h), gy = (f(x, y + h, z) - f(x, y - h, z)) / (2 * h), gz = (f(x, y, z + h) - f(x, y, z - h)) / (2 * h);
      worst = Math.max(worst, Math.hypot(gx, gy, gz));
    }
    expect(worst).toBeGreaterThan(1.2);
    expect(b.lipschitz).toBeGreaterThanOrEqual(worst);
    expect(() => parseRecipe({ version: 1, root: { type: 'sphere', radius: 1, noise: { kind: 'crater', seed: 1, frequency: 1, octaves: 1, amplitude: 1 } } })).toThrow(/unknown noise kind/);
  });
});
