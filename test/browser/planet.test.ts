/**
 * Planet LOD in the browser (issue 9): a scripted flight from three radii out to 10 m above
 * the surface and back. At every step the drawn chunks must cover the visible surface (the
 * drawn set has no holes: a parent is never removed before its children are in), geometry
 * stays under budget, and nothing errs. Screenshots at orbit, mid-altitude and the surface.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, newPage, resultPath, startPreviewServer, type Served } from './harness';

let browser: Browser;
let server: Served;
beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startPreviewServer()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Puts the camera `altitudeM` above the surface along `dir`, looking at the horizon ahead. */
async function placeCamera(page: Page, altitudeM: number): Promise<number> {
  return page.evaluate((alt) => {
    const app = window.__sr!.app!;
    const planet = app.planet!;
    const dir = { x: 0.3, y: 0.55, z: 0.78 };
    const len = Math.hypot(dir.x, dir.y, dir.z);
    const d = { x: dir.x / len, y: dir.y / len, z: dir.z / len };
    // The field is close to a distance: a few Newton steps put the camera at the altitude.
    let r = planet.radiusM + alt;
    const p = app.camera.position;
    for (let i = 0; i < 8; i++) {
      p.set(d.x * r, d.y * r, d.z * r);
      r -= planet.altitude(p) - alt;
    }
    p.set(d.x * r, d.y * r, d.z * r);
    // Look along the surface, tilted down a little.
    const ahead = { x: -d.y, y: d.x, z: 0 };
    const tilt = alt > planet.radiusM ? 1 : 0.15;
    app.controls.target.set(
      alt > planet.radiusM ? 0 : p.x + ahead.x * 100 - d.x * 100 * tilt,
      alt > planet.radiusM ? 0 : p.y + ahead.y * 100 - d.y * 100 * tilt,
      alt > planet.radiusM ? 0 : p.z + ahead.z * 100 - d.z * 100 * tilt,
    );
    app.camera.lookAt(app.controls.target);
    return planet.altitude(p);
  }, altitudeM);
}

describe('planet: orbit to surface and back', () => {
  it('keeps the surface covered, within budget, at every step', { timeout: 300_000 }, async () => {
    const { page, log } = await newPage(browser, { width: 480, height: 360 });
    await page.goto(`${server.url}/?mode=planet&seed=4&ui=0`);
    // The six root chunks first: until then there is nothing to cover with.
    await page.waitForFunction(() => (window.__sr?.planet()?.holes ?? -1) === 0, null, { timeout: 120_000, polling: 250 });
    const radius = await page.evaluate(() => window.__sr!.app!.planet!.radiusM);
    const path = [3 * radius, radius, 0.3 * radius, 0.1 * radius, 3000, 300, 30, 10, 300, 3000, radius];
    const rows: string[] = [];
    for (const [i, target] of path.entries()) {
      const alt = await placeCamera(page, target);
      // Let the LOD worker answer for this view and the workers fill in, up to a limit.
      const t0 = Date.now();
      await page
        .waitForFunction(() => window.__sr?.planet()?.complete === true, null, { timeout: 6_000, polling: 250 })
        .catch(() => undefined);
      const s = (await page.evaluate(() => window.__sr!.planet()))!;
      rows.push(
        `step ${i} alt ${alt.toFixed(1)} m: drawn ${s.drawn}, leaves ${s.leaves}, holes ${s.holes}, queued ${s.queued}, cached ${s.cached}, ${(s.bytes / 2 ** 20).toFixed(1)} MiB, prefiltered ${s.prefiltered}, complete ${s.complete} after ${Date.now() - t0} ms`,
      );
      console.log(rows[rows.length - 1]);
      expect(Math.abs(alt - target) / target, 'camera placed at the altitude').toBeLessThan(0.05);
      expect(s.holes, `step ${i}: drawn chunks cover the surface`).toBe(0);
      expect(s.bytes).toBeLessThanOrEqual(s.budgetBytes);
      if (i === 0) await page.screenshot({ path: resultPath('planet-orbit.png') });
      if (i === 3) await page.screenshot({ path: resultPath('planet-mid.png') });
      if (i === 7) await page.screenshot({ path: resultPath('planet-surface.png') });
    }
    expect(log.errors).toEqual([]);
  });
});
