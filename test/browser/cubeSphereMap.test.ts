/**
 * glsl/sr_map_cubesphere.glsl in real Chromium WebGL2 (SwiftShader here) against the float64 JS
 * mapping of src/lod/cubeSphere.ts, on random points of random chunks of every level.
 */
import { expect, it } from 'vitest';
import { useBlankPages } from './harness';

const pages = useBlankPages();

const PAGE = '/test/browser/pages/cubeSphereMap.ts';

it.each([
  { radiusM: 50e3, seed: 1 },
  { radiusM: 6.0e6, seed: 2 },
])('sr_chunkPointM matches the JS mapping at R = $radiusM m (seed $seed)', async ({ radiusM, seed }) => {
  const page = await pages.open();
  const r = await page.evaluate(
    async ([path, radiusM, seed]) => (await srImport(path)).mapParity(radiusM, seed, 60, 256),
    [PAGE, radiusM, seed] as const,
  );
  console.log(
    `R ${radiusM / 1e3} km, ${r.points} points: offset error ${r.worstOffsetRel.toExponential(2)} of the chunk, ` +
      `point error ${r.worstPointM.toExponential(2)} m (float32 ulp at the largest radius ${r.ulpM.toExponential(2)} m); by level: ${r.byLevel.map((e: number) => e.toExponential(0)).join(' ')}`,
  );
  expect(r.nanCount).toBe(0);
  expect(r.worstOffsetRel).toBeLessThan(1e-6);
  // The absolute point is one float32 rounding away from exact, plus the offset's share.
  expect(r.pointOverBound).toBe(0);
});
