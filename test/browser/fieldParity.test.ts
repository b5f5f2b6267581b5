/**
 * The two back ends agree: GLSL (WebGL2 in headless Chromium) against JS (double
 * precision) on ≥ 10,000 points per recipe, for every example under assets/recipes and
 * 20 seeded asteroids and 20 seeded planets. Max |GPU − CPU| ≤ 1e-4 of the recipe's size
 * (bounding-sphere radius) and signs agree wherever |CPU| > 1e-4 of its size.
 * Writes test-results/field-parity.json and prints the worst case.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { closePages, openBlankPage, resultPath, ROOT, type Served, useBrowser } from './harness';
import type { ParityResult } from './pages/fieldParityPage';

const POINTS = 10_240;
const SEEDED = 20;
const TOLERANCE = 1e-4;

let browser: Browser;
let server: Served;
useBrowser('dev', (b, s) => ([browser, server] = [b, s]));
afterEach(async () => {
  await closePages();
});

describe('field parity, GLSL vs JS', () => {
  it(`examples + ${SEEDED} asteroids + ${SEEDED} planets, ${POINTS} points each`, async () => {
    const dir = join(ROOT, 'assets/recipes');
    const examples = readdirSync(dir)
      .filter((f) => f.endsWith('.json') && f !== 'schema.json')
      .sort()
      .map((f) => ({ name: f, recipe: JSON.parse(readFileSync(join(dir, f), 'utf8')) as unknown }));
    const { page, log } = await openBlankPage(browser, server);
    const results = (await page.evaluate(
      async ({ examples, seeded, points }) => {
        const m = await srImport('/test/browser/pages/fieldParityPage.ts');
        return m.runParitySuite(examples, seeded, points);
      },
      { examples, seeded: SEEDED, points: POINTS },
    )) as ParityResult[];
    writeFileSync(resultPath('field-parity.json'), JSON.stringify(results, null, 2));

    const worst = results.reduce((a, b) => (b.maxRelErr > a.maxRelErr ? b : a));
    const gpuMs = results.reduce((s, r) => s + r.gpuMs, 0);
    console.log(
      `field parity: ${results.length} recipes × ${POINTS} points; worst ${worst.name}: ` +
        `|GPU − CPU| = ${worst.maxAbsErrM.toExponential(3)} m = ${worst.maxRelErr.toExponential(3)} of size ` +
        `${worst.sizeM.toFixed(1)} m at (${worst.worst.p.map((v) => v.toFixed(2)).join(', ')}): ` +
        `GPU ${worst.worst.gpu} CPU ${worst.worst.cpu}; sign mismatches ${results.reduce((s, r) => s + r.signMismatches, 0)}; ` +
        `GPU time ${gpuMs.toFixed(0)} ms total`,
    );
    expect(log.errors).toEqual([]);
    expect(results.length).toBe(examples.length + 2 * SEEDED);
    for (const r of results) {
      expect(r.points).toBeGreaterThanOrEqual(10_000);
      expect(r.maxRelErr, `${r.name}: max |GPU − CPU| / size`).toBeLessThanOrEqual(TOLERANCE);
      expect(r.signMismatches, `${r.name}: sign mismatches`).toBe(0);
    }
  });
});
