/**
 * Picking (issue 19), production build on SwiftShader: the pointer ray meets asteroids and planet
 * chunks through their BVHs; hovering names what is hit on the overlay, clicking an asteroid flies
 * the orbit camera to it.
 */
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { newPage, resultPath, type Served, undrawn, useBrowser } from './harness';

let browser: Browser;
let server: Served;

useBrowser('preview', (b, s) => ([browser, server] = [b, s]));

describe('picking', () => {
  it('hovering an asteroid names it on the overlay; clicking it flies the camera to it', { timeout: 300_000 }, async () => {
    const { page, log } = await newPage(browser, { width: 480, height: 360 });
    await page.goto(`${server.url}/?seed=1`);
    await undrawn(page, () => page.waitForFunction(() => window.__sr?.allGenerated() === true, null, { timeout: 200_000, polling: 500 }));
    // An asteroid other than the one the camera orbits whose centre pixel shows that asteroid.
    const target = await page.evaluate(() => {
      const app = window.__sr!.app!;
      const Vector3 = app.camera.position.constructor as typeof import('three').Vector3;
      app.camera.updateMatrixWorld();
      const canvas = app.renderer.domElement;
      const orbited = app.controls.target;
      for (const a of app.field!.spec.asteroids) {
        const c = new Vector3(...a.positionM);
        if (c.distanceTo(orbited) < 1) continue;
        const ndc = c.clone().project(app.camera);
        if (Math.abs(ndc.x) > 0.8 || Math.abs(ndc.y) > 0.8 || ndc.z > 1) continue;
        const x = ((ndc.x + 1) / 2) * canvas.clientWidth;
        const y = ((1 - ndc.y) / 2) * canvas.clientHeight;
        const hit = window.__sr!.pick(x, y);
        if (hit?.asteroid?.index === a.index) return { index: a.index, seed: a.seed, x, y, center: a.positionM, radiusM: a.radiusM };
      }
      return null;
    });
    expect(target).not.toBeNull();
    const t = target!;
    await page.mouse.move(t.x, t.y);
    await page.waitForFunction((seed) => document.querySelector('.sr-stats')?.textContent?.includes(`seed ${seed},`) === true, t.seed, { timeout: 30_000 });
    const line = await page.evaluate(() => document.querySelector('.sr-stats')!.textContent!.split('\n').find((l) => l.startsWith('pointer:')));
    console.log(`hover: ${line}`);
    expect(line).toContain(`asteroid ${t.index} (seed ${t.seed},`);
    await page.mouse.click(t.x, t.y);
    // A click flies there (issue 45: CameraFlight.ts): 1–5 s.
    await page.waitForFunction(() => window.__sr!.app!.flight.arrived === 1, null, { timeout: 60_000, polling: 100 });
    const view = await page.evaluate(() => {
      const app = window.__sr!.app!;
      return { target: app.controls.target.toArray(), camera: app.camera.position.toArray() };
    });
    expect(Math.hypot(...view.target.map((v, i) => v - t.center[i]))).toBeLessThan(1e-6);
    const distance = Math.hypot(...view.camera.map((v, i) => v - t.center[i]));
    expect(distance / t.radiusM).toBeCloseTo(3, 3);
    await page.waitForTimeout(1000);
    await page.screenshot({ path: resultPath('picking-focused.png') });
    expect(log.errors).toEqual([]);
  });

  it('the pointer ray meets the planet’s chunks: a pick at its centre is the planet, on its surface', { timeout: 300_000 }, async () => {
    const { page, log } = await newPage(browser, { width: 400, height: 300 });
    await page.goto(`${server.url}/?mode=planet&seed=4`);
    await page.waitForFunction(() => (window.__sr?.planet()?.drawn ?? 0) >= 6, null, { timeout: 200_000, polling: 500 });
    const hit = await page.evaluate(() => {
      const app = window.__sr!.app!;
      app.camera.updateMatrixWorld();
      const ndc = app.planet!.root.position.clone().project(app.camera);
      const canvas = app.renderer.domElement;
      return window.__sr!.pick(((ndc.x + 1) / 2) * canvas.clientWidth, ((1 - ndc.y) / 2) * canvas.clientHeight);
    });
    console.log(`planet pick: ${JSON.stringify(hit)}`);
    expect(hit?.kind).toBe('planet');
    // On the drawn surface: the field there is within a chunk's error of zero (coarse chunks from orbit).
    expect(Math.abs(hit!.altitudeM!)).toBeLessThan(2000);
    expect(log.errors).toEqual([]);
  });
});
