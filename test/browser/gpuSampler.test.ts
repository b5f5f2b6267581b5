/**
 * GPU field sampling (src/gpu) in real Chromium WebGL2: grid pass and transform-feedback
 * edge pass against the JS back end, async readback, context loss, the worker path.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { recipeBounds } from '../../src/field/bounds';
import { ASTEROID_FAMILIES, asteroidRecipe } from '../../src/scene';
import { ROOT, useBlankPages } from './harness';

let page: Page;
const pages = useBlankPages();

async function open(): Promise<void> {
  page = await pages.open();
}

const PAGE = '/test/browser/pages/gpuSampler.ts';
const examples = readdirSync(join(ROOT, 'assets/recipes'))
  .filter((f) => f.endsWith('.json') && f !== 'schema.json')
  .map((f) => ({ name: f, recipe: JSON.parse(readFileSync(join(ROOT, 'assets/recipes', f), 'utf8')) as unknown }));

describe('grid pass', () => {
  const cases = [
    ...examples.map((e) => ({ name: e.name, recipe: e.recipe, points: 17 })),
    { name: 'asteroid seed 3', recipe: asteroidRecipe(3), points: 33 },
    { name: 'asteroid seed 11', recipe: asteroidRecipe(11), points: 33 },
    { name: 'asteroid seed 4', recipe: asteroidRecipe(4), points: 65 },
  ];
  it.each(cases)('$name at $points³ matches the JS back end', async ({ recipe, points }) => {
    await open();
    const r = await page.evaluate(
      async ([path, recipe, points]) => (await srImport(path)).gridParity(recipe, points),
      [PAGE, recipe, points] as const,
    );
    console.log(
      `grid ${points}³: max |gpu−js| = ${r.maxAbsDiffM.toExponential(2)} m = ${(r.maxAbsDiffM / r.sizeM).toExponential(2)} of size, latency ${r.latencyMs.toFixed(0)} ms`,
    );
    expect(r.nanCount, 'every poisoned texel overwritten').toBe(0);
    expect(r.maxAbsDiffM / r.sizeM).toBeLessThanOrEqual(1e-4);
    expect(r.signMismatches).toBe(0);
  });
});

describe('edge pass (transform feedback)', () => {
  const cases = [
    { name: 'potato.json', recipe: examples.find((e) => e.name === 'potato.json')?.recipe ?? asteroidRecipe(1), points: 17 },
    { name: 'asteroid seed 5', recipe: asteroidRecipe(5), points: 33 },
    { name: 'asteroid seed 8', recipe: asteroidRecipe(8), points: 33 },
  ];
  it.each(cases)('$name at $points³: crossings within 1e-3 cell, normals within 1°', async ({ recipe, points }) => {
    await open();
    const r = await page.evaluate(
      async ([path, recipe, points]) => (await srImport(path)).edgeParity(recipe, points),
      [PAGE, recipe, points] as const,
    );
    console.log(
      `edges ${points}³: ${r.edges} edges, max |Δt| ${r.maxTDiff.toExponential(2)} cell, max normal angle ${r.maxAngleDeg.toFixed(3)}°, unresolved ${r.unresolved}, other root ${r.otherRoot}, grazing ${r.grazing}, latency ${r.latencyMs.toFixed(0)} ms`,
    );
    if (r.maxTDiff > 1e-3) console.log(`worst edge: ${JSON.stringify(r.worst)}`);
    expect(r.edges).toBeGreaterThan(100);
    expect(r.nanCount, 'every poisoned output written').toBe(0);
    expect(r.unresolved / r.edges).toBeLessThan(0.01);
    expect((r.grazing + r.otherRoot) / r.edges, 'ill-conditioned edges are rare').toBeLessThan(0.01);
    expect(r.maxTDiff).toBeLessThanOrEqual(1e-3);
    expect(r.maxAngleDeg).toBeLessThanOrEqual(1);
  });
});

describe('numbers as data: one program set per recipe shape (issue 16)', () => {
  it('two seeds of every family: grids match JS, and the twelve recipes build three program sets (three shapes)', async () => {
    await open();
    const worst: string[] = [];
    for (const family of ASTEROID_FAMILIES) {
      for (const seed of [3, 8]) {
        const r = await page.evaluate(
          async ([path, recipe]) => (await srImport(path)).gridParity(recipe, 17, true),
          [PAGE, asteroidRecipe(seed, { family })] as const,
        );
        worst.push(`${family} ${seed}: ${(r.maxAbsDiffM / r.sizeM).toExponential(1)}`);
        expect(r.nanCount, `${family} ${seed}: every poisoned texel overwritten`).toBe(0);
        expect(r.maxAbsDiffM / r.sizeM, `${family} ${seed}`).toBeLessThanOrEqual(1e-4);
        expect(r.signMismatches, `${family} ${seed}`).toBe(0);
      }
    }
    console.log(`numbers as data, grid 17³, max |gpu−js| / size: ${worst.join(', ')}`);
    const programs = await page.evaluate(async ([path]) => (await srImport(path)).dataSamplerPrograms(), [PAGE] as const);
    expect(programs).toEqual({ built: 3, held: 3 });
  });

  it('brushes as data (issue 19 edits): digs and builds, sharp and blended, match JS on the same program', async () => {
    await open();
    const base = asteroidRecipe(3, { family: 'potato' });
    const { sphereCenter: c, sphereRadiusM: r } = recipeBounds(base);
    // Four edits at the surface: a sharp and a blended dig, a sharp and a blended build.
    const at = (x: number, y: number, z: number): [number, number, number] => [c[0] + x * r, c[1] + y * r, c[2] + z * r];
    const brushes = [
      { op: 'carve', center: at(0.8, 0, 0), radius: 0.25 * r, blend: 0 },
      { op: 'carve', center: at(0, 0.8, 0), radius: 0.2 * r, blend: 0.05 * r },
      { op: 'add', center: at(0, 0, 0.85), radius: 0.15 * r, blend: 0 },
      { op: 'add', center: at(-0.8, 0, 0), radius: 0.2 * r, blend: 0.05 * r },
    ];
    for (const n of [1, 4]) {
      const recipe = { ...base, brushes: brushes.slice(0, n) };
      const res = await page.evaluate(async ([path, recipe]) => (await srImport(path)).gridParity(recipe, 17, true), [PAGE, recipe] as const);
      console.log(`${n} brush(es) as data, grid 17³: max |gpu−js| / size ${(res.maxAbsDiffM / res.sizeM).toExponential(1)}, ${res.signMismatches} sign mismatches`);
      expect(res.nanCount).toBe(0);
      expect(res.maxAbsDiffM / res.sizeM).toBeLessThanOrEqual(1e-4);
      expect(res.signMismatches).toBe(0);
    }
  });

  it("several bodies of one shape share a batch: each reads its own numbers and noise tables, as when sampled alone", async () => {
    await open();
    // potato, contactBinary and cratered are one shape (blob): five recipes, two of them the same family.
    const recipes = [asteroidRecipe(3, { family: 'potato' }), asteroidRecipe(4, { family: 'contactBinary' }), asteroidRecipe(5, { family: 'cratered' }),
      asteroidRecipe(6, { family: 'potato' }), asteroidRecipe(7, { family: 'contactBinary' })];
    const r = await page.evaluate(async ([path, recipes]) => (await srImport(path)).batchedRecipes(recipes, 17), [PAGE, recipes] as const);
    console.log(`five blob recipes together: ${r.gridBatches} grid batch(es), ${r.edgeBatches} edge batch(es), max |gpu−js| / size ${r.worstGridOfSize.toExponential(1)}`);
    expect(r.gridBatches).toBeLessThan(recipes.length);
    expect(r.edgeBatches).toBeLessThan(recipes.length);
    expect(r.gridsIdentical).toBe(true);
    expect(r.edgesIdentical).toBe(true);
    expect(r.nanCount).toBe(0);
    expect(r.signMismatches).toBe(0);
    expect(r.worstGridOfSize).toBeLessThanOrEqual(1e-4);
  });

  it('a released recipe gives its data back once its last holder lets go; its shape keeps the programs', async () => {
    await open();
    const recipes = [asteroidRecipe(5, { family: 'potato' }), asteroidRecipe(6, { family: 'potato' }), asteroidRecipe(2, { family: 'shard' })];
    const r = await page.evaluate(async ([path, recipes]) => (await srImport(path)).releaseCycle(recipes), [PAGE, recipes] as const);
    // The first is held twice: releasing it once keeps it; the second goes.
    expect(r).toEqual({ prepared: 3, afterOneRelease: 2, afterAll: 0, programs: 2, resampledNaN: 0 });
  });

  it('edges from the shared programs: crossings within 1e-3 cell, normals within 1°', async () => {
    await open();
    for (const recipe of [asteroidRecipe(5, { family: 'potato' }), asteroidRecipe(6, { family: 'potato' }), asteroidRecipe(8, { family: 'cratered' })]) {
      const r = await page.evaluate(
        async ([path, recipe]) => (await srImport(path)).edgeParity(recipe, 33, true),
        [PAGE, recipe] as const,
      );
      expect(r.edges).toBeGreaterThan(100);
      expect(r.nanCount).toBe(0);
      expect(r.unresolved / r.edges).toBeLessThan(0.01);
      expect(r.maxTDiff).toBeLessThanOrEqual(1e-3);
      expect(r.maxAngleDeg).toBeLessThanOrEqual(1);
    }
    // Two potatoes and a cratered asteroid differ only in numbers: one program set for the three.
    const programs = await page.evaluate(async ([path]) => (await srImport(path)).dataSamplerPrograms(), [PAGE] as const);
    expect(programs.built).toBe(1);
  });
});

describe('never blocking, never hanging', () => {
  it('requestAnimationFrame keeps firing while a 65³ grid job runs', async () => {
    await open();
    const r = await page.evaluate(
      async ([path, recipe]) => (await srImport(path)).rafDuringGrid(recipe, 65),
      [PAGE, asteroidRecipe(4)] as const,
    );
    console.log(`65³ job: ${r.latencyMs.toFixed(0)} ms, ${r.frames} frames meanwhile, longest rAF gap ${r.longestGapMs.toFixed(0)} ms`);
    expect(r.frames).toBeGreaterThanOrEqual(2);
    // The job ran over several frames instead of inside one.
    expect(r.longestGapMs).toBeLessThan(r.latencyMs);
  });

  it('a lost context rejects pending and new jobs with GpuContextLostError', async () => {
    await open();
    const r = await page.evaluate(
      async ([path, recipe]) => (await srImport(path)).contextLossRejects(recipe),
      [PAGE, asteroidRecipe(2)] as const,
    );
    expect(r).toEqual({ name: 'GpuContextLostError', after: 'GpuContextLostError' });
  });
});

describe('shader errors', () => {
  it('a GLSL error rejects the job with a GpuShaderError naming the recipe, the chunk and the line', async () => {
    await open();
    const r = await page.evaluate(
      async ([path, recipe]) => (await srImport(path)).brokenMappingError(recipe),
      [PAGE, asteroidRecipe(1)] as const,
    );
    console.log(r.message);
    expect(r.name).toBe('GpuShaderError');
    expect(r.message).toMatch(/grid pass for broken-mapping test, recipe "[^"]+"/);
    expect(r.message).toMatch(/sr_chunk_map:3: 'notDeclared' : undeclared identifier/);
  });
});

describe('worker-owned context (OffscreenCanvas)', () => {
  it('samples the same grid in a worker', async () => {
    await open();
    const r = await page.evaluate(
      async ([path, recipe]) => (await srImport(path)).workerGridParity(recipe, 33),
      [PAGE, asteroidRecipe(6)] as const,
    );
    console.log(`worker (${r.renderer}): max |gpu−js| ${(r.maxAbsDiffM / r.sizeM).toExponential(2)} of size`);
    expect(r.nanCount).toBe(0);
    expect(r.maxAbsDiffM / r.sizeM).toBeLessThanOrEqual(1e-4);
  });

  it("collect: 'sync' reads each batch back at once, waiting for the GPU: the same grid, no poisoned texel left", async () => {
    await open();
    const r = await page.evaluate(
      async ([path, recipe]) => (await srImport(path)).workerGridParity(recipe, 33, 'sync'),
      [PAGE, asteroidRecipe(9)] as const,
    );
    expect(r.nanCount).toBe(0);
    expect(r.maxAbsDiffM / r.sizeM).toBeLessThanOrEqual(1e-4);
    expect(r.signMismatches).toBe(0);
  });

  it('a bad recipe comes back as a named RecipeError, and the worker keeps going', async () => {
    await open();
    const message = await page.evaluate(async (path) => (await srImport(path)).workerRecipeError(), PAGE);
    expect(message).toMatch(/^RecipeError: /);
  });
});
