/** Band-limiting a recipe for a sampling lattice (src/field/bandLimit.ts, compileToJs minWavelengthM). */
import { describe, expect, it } from 'vitest';
import { bandLimitSummary, compileToJs, parseRecipe, Prng, recipeBounds, usedOctaves, type FieldNode } from '../../src/field/index';
import { planetRecipe } from '../../src/scene/index';

function randomPoints(seed: number, n: number, radius: number, spread: number): [number, number, number][] {
  const r = new Prng(seed);
  const out: [number, number, number][] = [];
  for (let i = 0; i < n; i++) {
    const z = 2 * r.next() - 1, a = 2 * Math.PI * r.next(), s = Math.sqrt(1 - z * z);
    const d = radius + (2 * r.next() - 1) * spread;
    out.push([s * Math.cos(a) * d, s * Math.sin(a) * d, z * d]);
  }
  return out;
}

describe('band-limited fields', () => {
  it('octaves kept: those with wavelength ≥ the limit', () => {
    expect(usedOctaves(1 / 1000, 6, 2, 0)).toBe(6);
    expect(usedOctaves(1 / 1000, 6, 2, 250)).toBe(3); // 1000, 500, 250
    expect(usedOctaves(1 / 1000, 6, 2, 2000)).toBe(0);
  });

  it('no limit (or one below every feature) is the full field, bit for bit', () => {
    const recipe = planetRecipe(4);
    const full = compileToJs(recipe);
    const zero = compileToJs(recipe, { minWavelengthM: 0 });
    const tiny = compileToJs(recipe, { minWavelengthM: 1e-3 });
    const R = recipeBounds(recipe).sphereRadiusM;
    for (const p of randomPoints(1, 2000, R, 500)) {
      const v = full(...p);
      expect(Object.is(zero(...p), v)).toBe(true);
      expect(Object.is(tiny(...p), v)).toBe(true);
    }
  });

  it('stays within the summary bound of the full field (noise sphere, several limits)', () => {
    const recipe = parseRecipe({
      version: 1, name: 'noisy',
      root: { type: 'sphere', radius: 10_000, noise: [
        { kind: 'fbm', seed: 1, frequency: 1 / 4000, octaves: 7, amplitude: 600 },
        { kind: 'ridged', seed: 2, frequency: 1 / 2500, octaves: 6, amplitude: 300 },
        { kind: 'billow', seed: 3, frequency: 1 / 900, octaves: 5, amplitude: -120 },
      ] },
    });
    const full = compileToJs(recipe);
    const L = recipeBounds(recipe).lipschitz;
    for (const minWavelengthM of [60, 300, 1200, 5000]) {
      const limited = compileToJs(recipe, { minWavelengthM });
      const s = bandLimitSummary(recipe, minWavelengthM, L);
      expect(s.changed).toBe(true);
      let worst = 0;
      for (const p of randomPoints(minWavelengthM, 1500, 10_000, 1000)) worst = Math.max(worst, Math.abs(limited(...p) - full(...p)));
      expect(worst).toBeGreaterThan(0);
      expect(worst).toBeLessThanOrEqual(s.noiseBoundM * (1 + 1e-12));
    }
  });

  it('the planet at a 30 m limit: caves (a 6 m shell) dropped, only ever adding rock, otherwise within the bound', () => {
    // Karst planet 4's terrain and its cave sheet (its arch band, a union, is left out: dropped, it removes rock).
    const karst = planetRecipe(4, 'karst').root as FieldNode & { children: [FieldNode & { children: FieldNode[] }, FieldNode] };
    const recipe = parseRecipe({ version: 1, root: { ...karst, children: [karst.children[0].children[0], karst.children[1]] }, brushes: [] });
    const R = recipeBounds(recipe).sphereRadiusM;
    const s = bandLimitSummary(recipe, 30, recipeBounds(recipe).lipschitz);
    expect(s.shellsDropped).toBe(true);
    const full = compileToJs(recipe);
    const limited = compileToJs(recipe, { minWavelengthM: 30 });
    let filled = 0;
    for (const p of randomPoints(7, 4000, R, 300)) {
      const a = limited(...p), b = full(...p);
      // Caves carve (smooth subtraction): without them there is more rock, never less.
      expect(a).toBeLessThanOrEqual(b + s.noiseBoundM + 1e-9);
      if (a < 0 && b > 0) filled++;
    }
    console.log(`planetRecipe(4) at 30 m: noise bound ${s.noiseBoundM.toFixed(2)} m, ${filled} of 4000 points near the surface were cave and are rock`);
  });
});
