/**
 * A scene switch gives back what the scene held (issue 44): explore → planet → gallery → explore in
 * one page, production build, and `renderer.info.memory` (the geometries and textures three.js holds
 * on the GPU) is back at the first explore's figures (textures exactly; geometries within what drawn frames upload of the view, ±8). Each scene is waited for until settled, so
 * what it holds is at its peak when the next replaces it. 320×180, `quality=low`: the figures, not
 * the pixels, are checked.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { newPage, type Served, undrawn, useBrowser } from './harness';

let browser: Browser;
let server: Served;
useBrowser('preview', (b, s) => ([browser, server] = [b, s]));

interface Held { mode: string; geometries: number; textures: number; programs: number }

/** Applies the app's state with `change` (as Back/Forward would), waits until it settles, returns what the renderer holds. */
async function switchTo(page: Page, change: Record<string, unknown> | null): Promise<Held> {
  if (change) {
    await page.evaluate((c) => {
      const app = window.__sr!.app!;
      app.modes.apply({ ...app.state, ...c, camera: null });
    }, change);
  }
  await undrawn(page, () => page.waitForFunction(() => window.__sr?.settled() === true, null, { timeout: 150_000, polling: 250 }));
  // Drawn frames upload what is in view: counted once the figures hold still for ten frames (in a
  // clean-clone CI run, counted two frames after settling, explore held 35 geometries the first
  // time and 38 the second).
  await page.evaluate(async () => {
    const info = window.__sr!.app!.renderer.info.memory;
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    let last = '', same = 0;
    for (let i = 0; i < 600 && same < 10; i++) {
      await frame();
      const now = `${info.geometries}/${info.textures}`;
      same = now === last ? same + 1 : 0;
      last = now;
    }
  });
  return page.evaluate(() => {
    const r = window.__sr!.app!.renderer;
    return { mode: window.__sr!.app!.state.mode, geometries: r.info.memory.geometries, textures: r.info.memory.textures, programs: r.info.programs?.length ?? 0 };
  });
}

describe('a scene switch (issue 44)', () => {
  it('explore → planet → gallery → explore gives the GPU memory back: geometries and textures at their first figures', { timeout: 420_000 }, async () => {
    const { page, log } = await newPage(browser, { width: 320, height: 180 });
    await page.goto(`${server.url}/?seed=1&quality=low&t=0`);
    await page.waitForFunction(() => window.__sr?.app?.bodies !== null && window.__sr?.app?.bodies !== undefined, null, { timeout: 120_000, polling: 250 });
    const steps: Held[] = [await switchTo(page, null)];
    steps.push(await switchTo(page, { mode: 'planet' }));
    steps.push(await switchTo(page, { mode: 'gallery', galleryKind: 'asteroids', start: 1, count: 2 }));
    steps.push(await switchTo(page, { mode: 'explore' }));
    console.log(`renderer.info.memory through the switches: ${steps.map((s) => `${s.mode} ${s.geometries} geometries, ${s.textures} textures, ${s.programs} programs`).join(' → ')}`);
    const [first, planet, , last] = steps;
    expect(planet.mode).toBe('planet');
    // The planet scene held something of its own (else the check below proves nothing).
    expect(planet.geometries).not.toBe(first.geometries);
    expect(last.mode).toBe('explore');
    // Geometries: what frames have uploaded of the meshes in view, which in clean-clone CI runs
    // differed by up to 6 between two settled visits of the same view (35/38, 42/36; 42/42 here).
    // A scene that kept its planet would hold 14–21 more (the planet held that many over explore).
    expect(Math.abs(last.geometries - first.geometries)).toBeLessThanOrEqual(8);
    expect(last.textures).toBe(first.textures);
    expect(log.errors).toEqual([]);
  });
});
