/**
 * The GLSL field's analytic gradient (sr_fieldGrad, src/field/glslGradient.ts, what BodyMaterial's
 * per-pixel normals use) against central differences of sr_field, at points on the surface of
 * every example recipe, 12 seeded asteroids (every family) and two planets. Writes
 * test-results/field-gradient.json and prints the worst case.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { resultPath, ROOT, useBlankPages } from './harness';
import type { GradientResult } from './pages/fieldGradientPage';

const pages = useBlankPages();
const POINTS = 600;
const SEEDED = 12;

it(`sr_fieldGrad: examples + ${SEEDED} asteroids + 2 planets, ${POINTS} surface points each`, async () => {
  const dir = join(ROOT, 'assets/recipes');
  const examples = readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== 'schema.json')
    .sort()
    .map((f) => ({ name: f, recipe: JSON.parse(readFileSync(join(dir, f), 'utf8')) as unknown }));
  const page = await pages.open();
  const results = (await page.evaluate(
    async ({ examples, seeded, points }) => (await srImport('/test/browser/pages/fieldGradientPage.ts')).runGradientSuite(examples, seeded, points),
    { examples, seeded: SEEDED, points: POINTS },
  )) as GradientResult[];
  writeFileSync(resultPath('field-gradient.json'), JSON.stringify(results, null, 2));
  for (const r of results) {
    console.log(
      `gradient ${r.name}: ${r.points} points; angle to the difference median ${r.angleMedianDeg.toFixed(3)}°, p95 ${r.angleP95Deg.toFixed(2)}°, ` +
        `max ${r.angleMaxDeg.toFixed(1)}°; |g| ratio median err ${r.magnitudeMedianErr.toExponential(2)}; value err ${r.maxValueErrM.toExponential(2)} m; ` +
        `filtered (1 % footprint) median ${r.filteredMedianDeg.toFixed(2)}°`,
    );
  }
  expect(results.length).toBe(examples.length + 1 + SEEDED + 2);
  for (const r of results) {
    expect(r.points, `${r.name}: surface points found`).toBeGreaterThanOrEqual(POINTS * 0.9);
    // The value is sr_field's, operation for operation.
    expect(r.maxValueErrM, `${r.name}: value`).toBeLessThan(1e-3);
    // As exact as the differences can tell (their float32 rounding: ~0.1–0.3°) where the field
    // is smooth; creases (CSG, ridges, crater rims) are a few points.
    expect(r.angleMedianDeg, `${r.name}: median angle`).toBeLessThan(0.3);
    expect(r.angleP95Deg, `${r.name}: 95th percentile angle`).toBeLessThan(2);
    expect(r.magnitudeMedianErr, `${r.name}: magnitude`).toBeLessThan(4e-3);
  }
});
