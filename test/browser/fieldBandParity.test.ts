/**
 * One band-limited GLSL program for every LOD level (src/field/glslCodegen.ts `bandUniforms`):
 * planetRecipe(4) compiled once, drawn in headless Chromium (WebGL2) with the `sr_band` uniform
 * set for several limits, against compileToJs(recipe, { minWavelengthM }) at points within ±2 km
 * of the surface. Tolerance as in fieldParity.test.ts: max |GPU − CPU| ≤ 1e-4 of the recipe's
 * size, signs agree wherever |CPU| > 1e-4 of its size.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { bandLimitSummary, recipeBounds } from '../../src/field/index';
import { planetGround, planetRecipe } from '../../src/scene/index';
import { useBlankPages } from './harness';
import type { BandParityRun } from './pages/fieldBandParity';

const PAGE = '/test/browser/pages/fieldBandParity.ts';
const TOLERANCE = 1e-4;
const POINTS = 384;
const SPREAD_M = 2000;
/**
 * 0 (full field), then about 2 cells at a few LOD levels, each a different band signature for this
 * planet: 8 m drops the 7 m cave shell (thinner than two 4 m cells), 64 and 128 m thin the terrain's
 * octaves, 256 m the whole warp, 65536 m every noise octave.
 */
const LIMITS_M = [0, 8, 64, 128, 256, 2048, 65536];

const pages = useBlankPages();

describe('field parity with band uniforms, GLSL vs JS', () => {
  it(`planetRecipe(4) compiled once, ${LIMITS_M.length} limits (${LIMITS_M.join(', ')} m), ${POINTS} points near the surface`, async () => {
    const page: Page = await pages.open();
    const recipe = planetRecipe(4);
    // The terrain sphere (root: smoothSubtraction(terrain, caves)).
    const radiusM = planetGround(recipe).meanRadiusM;
    expect(radiusM).toBeCloseTo(61_953, -1);
    const run = (await page.evaluate(
      async ([path, recipe, limits, points, radiusM, spreadM]) =>
        (await srImport(path)).runBandParity(recipe, limits, points, radiusM, spreadM),
      [PAGE, recipe, LIMITS_M, POINTS, radiusM, SPREAD_M] as const,
    )) as BandParityRun;

    for (const r of run.results) {
      console.log(
        `band parity ${r.minWavelengthM} m [${r.band.join(',')}]: |GPU − CPU| = ${r.maxAbsErrM.toExponential(3)} m = ` +
          `${r.maxRelErr.toExponential(3)} of size; limit moves the field ≤ ${r.bandEffectM.toFixed(2)} m; sign mismatches ${r.signMismatches}`,
      );
    }
    console.log(`band parity: ${run.slots} slots, compile ${run.compileMs.toFixed(0)} ms, GPU ${run.gpuMs.toFixed(0)} ms`);

    // Different limits, different band signatures (so the uniform is what changes the output).
    const L = recipeBounds(recipe).lipschitz;
    const signatures = new Set(LIMITS_M.map((m) => bandLimitSummary(recipe, m, L).signature));
    expect(signatures.size).toBe(LIMITS_M.length);
    expect(new Set(run.results.map((r) => r.band.join(','))).size).toBe(LIMITS_M.length);
    expect(run.results.map((r) => r.minWavelengthM)).toEqual(LIMITS_M);
    expect(Math.max(...run.results.map((r) => r.bandEffectM / r.sizeM))).toBeGreaterThan(10 * TOLERANCE);
    for (const r of run.results) {
      expect(r.maxRelErr, `${r.minWavelengthM} m: max |GPU − CPU| / size`).toBeLessThanOrEqual(TOLERANCE);
      expect(r.signMismatches, `${r.minWavelengthM} m: sign mismatches`).toBe(0);
    }
  });
});
