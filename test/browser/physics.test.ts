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
  it('twenty probes thrown at an asteroid come to rest on its surface, less than 5 cm deep', async () => {
    const { page, log } = await newPage(browser, { width: 480, height: 360 });
    await page.goto(`${server.url}/?mode=asteroid&seed=11&ui=0`);
    await page.waitForFunction(() => window.__sr?.settled() === true, null, { timeout: 150_000, polling: 250 });
    expect(await page.evaluate(() => window.__sr!.physics())).toMatchObject({ bodies: 0, colliders: 0 });
    // Aimed at points around the asteroid's centre (the orbit camera looks at it), a few metres apart.
    const ids = await page.evaluate(() => {
      const app = window.__sr!.app!;
      const target = app.controls.target;
      const out: (number | null)[] = [];
      for (let i = 0; i < 20; i++) {
        const a = i * 2.39996;
        const r = 3 * Math.sqrt(i + 1);
        out.push(window.__sr!.throwProbe(12, [target.x + r * Math.cos(a), target.y + r * Math.sin(a), target.z]));
      }
      return out;
    });
    expect(ids.every((id) => typeof id === 'number')).toBe(true);
    await page.waitForFunction(() => window.__sr!.physics()!.resting === 20, null, { timeout: 240_000, polling: 500 });
    const stats = (await page.evaluate(() => window.__sr!.physics()))!;
    console.log(`probes: ${JSON.stringify(stats)}`);
    expect(stats.bodies).toBe(20);
    expect(stats.colliders).toBe(1);
    expect(stats.worstPenetrationM).toBeLessThan(0.05);
    // Resting on the surface the asteroid draws: its field is ~0 a radius below each probe's centre.
    const heights = await page.evaluate(() => {
      const app = window.__sr!.app!;
      const probes = app.bodies!.probes!.physics.views();
      return probes.map((p) => app.field!.fieldAt(new (app.camera.position.constructor as typeof import('three').Vector3)(...p.positionM)) - p.radiusM);
    });
    for (const h of heights) expect(Math.abs(h)).toBeLessThan(0.5);
    await page.screenshot({ path: resultPath('probes-resting.png') });
    expect(log.errors).toEqual([]);
  });
});
