/**
 * Thrown probes in the app (issue 19), production build on SwiftShader: probes thrown at an asteroid
 * land on the collider built from its drawn mesh and come to rest on its surface.
 */
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { newPage, resultPath, type Served, useBrowser } from './harness';

let browser: Browser;
let server: Served;

useBrowser('preview', (b, s) => ([browser, server] = [b, s]));

describe('probes', () => {
  it('twenty probes thrown at an asteroid come to rest on its surface, less than 5 cm deep', { timeout: 420_000 }, async () => {
    const { page, log } = await newPage(browser, { width: 480, height: 360 });
    await page.goto(`${server.url}/?mode=asteroid&seed=6&ui=0`);
    await page.waitForFunction(() => window.__sr?.settled() === true, null, { timeout: 150_000, polling: 250 });
    expect(await page.evaluate(() => window.__sr!.physics())).toMatchObject({ bodies: 0, colliders: 0 });
    // Seed 6: a 152 m cratered asteroid, the camera ~330 m from its surface (probes of 3.3 m at 130
    // m/s). Aimed around its centre, one throw every 0.2 s as a user pressing T would.
    for (let i = 0; i < 20; i++) {
      const id = await page.evaluate((i) => {
        const t = window.__sr!.app!.controls.target;
        const a = i * 2.39996;
        const r = 10 * Math.sqrt(i + 1);
        return window.__sr!.throwProbe(undefined, [t.x + r * Math.cos(a), t.y + r * Math.sin(a), t.z]);
      }, i);
      expect(typeof id).toBe('number');
      await page.waitForTimeout(200);
    }
    await page.waitForFunction(() => window.__sr!.physics()!.resting === 20, null, { timeout: 240_000, polling: 500 });
    const stats = (await page.evaluate(() => window.__sr!.physics()))!;
    console.log(`probes: ${JSON.stringify(stats)}`);
    expect(stats.bodies).toBe(20);
    expect(stats.colliders).toBe(1);
    // At rest (the bound); impacts go deeper for a step or two (worstPenetrationM, logged).
    expect(stats.restingPenetrationM).toBeLessThan(0.05);
    // On the surface the asteroid draws: its field is about one probe radius at each probe's centre.
    const heights = await page.evaluate(() => {
      const app = window.__sr!.app!;
      const Vector3 = app.camera.position.constructor as typeof import('three').Vector3;
      return app.bodies!.probes!.physics.views().map((p) => app.field!.fieldAt(new Vector3(...p.positionM)) - p.radiusM);
    });
    console.log(`field at the probes minus their radius, m: ${heights.map((h) => h.toFixed(2)).join(' ')}`);
    for (const h of heights) expect(Math.abs(h)).toBeLessThan(1.5);
    await page.screenshot({ path: resultPath('probes-resting.png') });
    expect(log.errors).toEqual([]);
  });
});
