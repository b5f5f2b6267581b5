/**
 * The band-limited field's Lipschitz estimate (bounds.ts `bandLipschitz`): what a coarse planet
 * chunk's samples may prove with (planetChunkJob.ts: no surface where every band-limited sample
 * is farther from zero than L_band × gap + the dropped octaves' bound). Oracle: central
 * differences of `compileToJs(recipe, { minWavelengthM })` at points near the surface.
 */
import { describe, expect, it } from 'vitest';
import { bandLipschitz, compileToJs, fieldGradient, Prng, recipeBounds, type FieldRecipe } from '../../src/field/index';
import { planetRecipe } from '../../src/scene/index';

const planets: [string, FieldRecipe][] = [2, 4, 7, 15, 42].map((seed) => [`planet ${seed}`, planetRecipe(seed)]);
/** Wavelength limits of chunk levels 3 … 12 at 1 m finest cells (2 cells: levelMinWavelengthM). */
const LIMITS_M = [13, 52, 209, 836, 3346, 13383];

/** A point on the surface along `dir` (bisection from the centre outwards), then moved up or down by `offsetM`. */
function nearSurface(f: (x: number, y: number, z: number) => number, outerM: number, dir: number[], offsetM: number): [number, number, number] {
  let lo = 0, hi = outerM;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (f(dir[0] * mid, dir[1] * mid, dir[2] * mid) < 0) lo = mid;
    else hi = mid;
  }
  const r = lo + offsetM;
  return [dir[0] * r, dir[1] * r, dir[2] * r];
}

describe('bandLipschitz', () => {
  for (const [name, recipe] of planets) {
    it(`${name}: equals the full field's estimate without a limit, never grows with the limit`, () => {
      const full = recipeBounds(recipe).lipschitz;
      expect(bandLipschitz(recipe, 0)).toBe(full);
      let last = full;
      for (const w of LIMITS_M) {
        const l = bandLipschitz(recipe, w);
        expect(l).toBeLessThanOrEqual(last);
        expect(l).toBeGreaterThanOrEqual(1);
        last = l;
      }
    });

    it(`${name}: bounds the band-limited field's measured gradients near the surface`, () => {
      const b = recipeBounds(recipe);
      const prng = new Prng(7);
      const dir = [0, 0, 0];
      const g = [0, 0, 0];
      for (const w of LIMITS_M) {
        const f = compileToJs(recipe, { minWavelengthM: w });
        const bound = bandLipschitz(recipe, w);
        let worst = 0;
        for (let i = 0; i < 150; i++) {
          prng.unitVector(dir);
          const [x, y, z] = nearSurface(f, b.sphereRadiusM * 1.01, dir, prng.range(-2, 2) * w);
          fieldGradient(f, x, y, z, w / 64, g);
          worst = Math.max(worst, Math.hypot(g[0], g[1], g[2]));
        }
        expect(worst, `${name} at ${w} m: measured ${worst.toFixed(2)}, bound ${bound.toFixed(2)}`).toBeLessThanOrEqual(bound);
      }
    });
  }
});
