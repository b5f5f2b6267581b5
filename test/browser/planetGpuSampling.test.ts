/**
 * Planet chunks sampled on the GPU (issue 15) in real Chromium WebGL2, through the GPU sampling
 * worker the app uses: values within the tolerance the body worker assumes (|GPU − JS|, per level),
 * and seams built from GPU-sampled neighbours closed.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBlankPages } from './harness';

let page: Page;
const pages = useBlankPages();
const PAGE = '/test/browser/pages/planetGpuSampling.ts';

describe('planet chunks on the GPU', () => {
  it('seed 4: GPU values stay within the settling tolerance at every tested level', async () => {
    page = await pages.open();
    const r = await page.evaluate(
      async ([path]) => (await srImport(path)).planetParity(4, [0, 3, 7, 11]),
      [PAGE] as const,
    );
    for (const row of r.rows) {
      console.log(
        `planet 4 level ${row.level} (${row.key}) on ${r.renderer.slice(0, 40)}: max |gpu−js| ${row.maxAbsDiffM.toExponential(2)} m, ` +
        `tolerance ${row.toleranceM.toExponential(2)} m, ${row.signMismatches} sign mismatches, ${row.edges} edges (${row.unresolvedEdges} unresolved), ${row.latencyMs.toFixed(0)} ms; ` +
        `meshed: moved ≤ ${row.mesh.maxMoveM.toFixed(2)} m (rms ${row.mesh.rmsMoveM.toFixed(3)}) on ${row.mesh.cellM.toFixed(1)} m cells, normals ${row.mesh.meanNormalDeg.toFixed(2)}° mean, ${row.mesh.p95NormalDeg.toFixed(2)}° p95`,
      );
      expect(row.nanCount, 'every poisoned texel overwritten').toBe(0);
      // A quarter of the tolerance: the bound holds with room on this GPU.
      expect(row.maxAbsDiffM).toBeLessThan(0.25 * row.toleranceM);
      expect(row.edges).toBeGreaterThan(0);
    }
  });

  // Issue 42: which levels of a 2,181 km planet (float32 positions 0.25 m apart) may go to the GPU.
  // Values alone looked fine at 3.3 m cells (0.85 m off against a 23 m settling tolerance), but the
  // chunk meshed from the GPU's samples and hermite data is what is drawn: its normals were 16.8°
  // from JS's on average there, 6.2° at 13 m, 4.0° at 26 m and 2.1° at 52 m cells, the first level
  // GPU_MIN_CELL_ULPS (128) sends to the GPU. Levels 2-5 are measured as a record; the GPU's must hold.
  it('planet 2 (2,181 km): chunks meshed from the GPU levels stay within ~2° of the JS mesh', async () => {
    page = await pages.open();
    const r = await page.evaluate(
      async ([path]) => (await srImport(path)).planetParity(2, [2, 3, 4, 5, 6, 7]),
      [PAGE] as const,
    );
    for (const row of r.rows) {
      const m = row.mesh;
      console.log(
        `planet 2 level ${row.level} (${row.key}): max |gpu−js| ${row.maxAbsDiffM.toExponential(2)} m, tolerance ${row.toleranceM.toExponential(2)} m, ` +
        `${row.signMismatches} sign mismatches, ${row.edges} edges, GPU level ${row.gpuLevel}; meshed: ${m.matched} of ${m.vertices} vertices matched, ` +
        `moved ≤ ${m.maxMoveM.toFixed(2)} m (rms ${m.rmsMoveM.toFixed(3)}) on ${m.cellM.toFixed(1)} m cells, normals ${m.meanNormalDeg.toFixed(2)}° mean, ${m.p95NormalDeg.toFixed(2)}° at the 95th percentile`,
      );
      expect(row.nanCount).toBe(0);
      expect(row.maxAbsDiffM).toBeLessThan(0.25 * row.toleranceM);
      expect(row.edges).toBeGreaterThan(0);
      expect(m.matched).toBeGreaterThan(0.5 * m.vertices);
      expect(row.gpuLevel).toBe(row.level >= 6);
      if (!row.gpuLevel) continue;
      expect(m.meanNormalDeg).toBeLessThan(3);
      expect(m.rmsMoveM).toBeLessThan(0.05 * m.cellM);
    }
  });

  it.each([8, 5])('seams built from GPU-sampled neighbours are closed (configuration %i)', async (configuration) => {
    page = await pages.open();
    const r = await page.evaluate(
      async ([path, configuration]) => (await srImport(path)).planetGpuSeams(4, configuration),
      [PAGE, configuration] as const,
    );
    console.log(`planet 4, configuration ${configuration}: ${r.gpuChunks} GPU-sampled chunks, ${r.seams} seams, euler ${r.euler}, worst |GPU − JS| ${r.worstErrorRatio.toFixed(3)} of the tolerance`);
    expect(r.gpuChunks).toBe(r.chunks);
    expect(r.worstErrorRatio).toBeLessThan(0.25);
    expect(r.seams).toBeGreaterThan(0);
    expect(r.boundaryEdges).toBe(0);
    expect(r.nonManifoldEdges).toBe(0);
    expect(r.misorientedEdges).toBe(0);
    expect(r.degenerateTriangles).toBe(0);
    expect(r.euler).toBe(2);
  });
});
