/**
 * The explore scene end to end (production build): seed → asteroid field generated in
 * workers → rendered; failures, stale-job cancellation and determinism.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closePages, newPage, type PageLog, resultPath, type Served, undrawn, useBrowser } from './harness';

let browser: Browser;
let server: Served;

useBrowser('preview', (b, s) => ([browser, server] = [b, s]));

// Small: the scene's workers and SwiftShader share two cores (seed 2 generated in 22 s at 320×240, 32 s at 640×480,
// the hero asteroid still past level 0).
const VIEW = { width: 320, height: 240 };

async function openExplore(search: string, init?: () => void): Promise<{ page: Page; log: PageLog }> {
  const opened = await newPage(browser, VIEW);
  if (init) await opened.page.addInitScript(init);
  await opened.page.goto(`${server.url}/${search}`);
  return opened;
}

/** Waits until every asteroid has its wanted mesh, drawing nothing meanwhile (harness `undrawn`); returns the wait's ms. */
async function waitGenerated(page: Page): Promise<number> {
  const t0 = Date.now();
  await undrawn(page, () => page.waitForFunction(() => window.__sr?.allGenerated() === true, null, { timeout: 150_000, polling: 250 }));
  return Date.now() - t0;
}

describe('explore: the seed’s asteroid field', () => {
  it.each([1, 2, 3])('seed %i generates every asteroid and renders a non-blank frame', async (seed) => {
    const { page, log } = await openExplore(`?seed=${seed}`);
    const ms = await waitGenerated(page);
    const asteroids = await page.evaluate(() => window.__sr!.asteroids());
    const jobs = await page.evaluate(() => window.__sr!.jobs());
    const tris = asteroids.reduce((s, a) => s + a.triangles, 0);
    console.log(
      `seed ${seed}: ${asteroids.length} asteroids in ${ms} ms, ${jobs.done} jobs, levels ${JSON.stringify(
        asteroids.map((a) => a.level),
      )}, ${tris} triangles drawn in total`,
    );
    expect(asteroids.length).toBeGreaterThanOrEqual(24);
    for (const a of asteroids) {
      expect(a.failed).toBeNull();
      expect(a.level).toBe(a.desired);
      expect(a.hash).toMatch(/^[0-9a-f]{8}$/);
    }
    // The hero asteroid fills the view, so it asks for more than the coarsest level.
    expect(asteroids[0].level).toBeGreaterThan(0);
    const frame = await page.evaluate(() => window.__sr!.measure());
    expect(frame!.lumaStdDev).toBeGreaterThan(0.03);
    expect(frame!.litFraction).toBeGreaterThan(0.05);
    await page.screenshot({ path: resultPath(`explore-seed-${seed}.png`) });
    expect(log.errors).toEqual([]);
  });

  it('the explore scene holds the seed’s LOD planet: streamed after the asteroids, in view, watertight', async () => {
    // lodTime=0: full detail, so the settled view stays as it is (the time policy refines a landed view afterwards).
    const { page, log } = await openExplore('?seed=1&lodTime=0');
    await page.setViewportSize({ width: 400, height: 300 });
    await waitGenerated(page);
    // The planet's jobs run behind every asteroid job on the shared pool.
    const atAsteroids = await page.evaluate(() => window.__sr!.planet());
    // Wait on the state itself (settled and the planet complete, read together), with a cap far
    // beyond a healthy run: on a loaded machine the streaming is slower, not different.
    await undrawn(page, () => page.waitForFunction(() => window.__sr?.settled() === true && window.__sr.app!.planet!.stats().complete, null, { timeout: 400_000, polling: 500 }));
    const planet = await page.evaluate(() => {
      const app = window.__sr!.app!;
      const p = app.planet!;
      app.camera.updateMatrixWorld();
      const center = p.root.position.clone().project(app.camera);
      return { stats: p.stats(), cracks: p.crackReport(), radiusM: p.radiusM, ndc: [center.x, center.y, center.z], atPlanet: app.bodies!.atPlanet(app.camera.position) };
    });
    console.log(
      `explore seed 1 planet: R ${(planet.radiusM / 1000).toFixed(0)} km, ${planet.stats.drawn} chunks + ${planet.stats.seams} seams drawn, ` +
        `${planet.stats.triangles} triangles, ${planet.stats.chunksDone} chunk jobs (${atAsteroids?.chunksDone ?? 0} done when the asteroids were), ` +
        `center at NDC ${planet.ndc.map((v) => v.toFixed(2)).join(', ')}`,
    );
    expect(planet.atPlanet).toBe(false);
    expect(planet.stats.complete).toBe(true);
    expect(planet.stats.drawn).toBeGreaterThanOrEqual(6);
    expect(planet.stats.triangles).toBeGreaterThan(1000);
    expect(planet.cracks.boundaryEdges).toBe(0);
    // In front of the default camera, within the view (its disc reaches into the frame).
    expect(Math.abs(planet.ndc[0])).toBeLessThan(1.2);
    expect(Math.abs(planet.ndc[1])).toBeLessThan(1.2);
    expect(planet.ndc[2]).toBeLessThan(1);
    await page.screenshot({ path: resultPath('explore-seed-1-planet.png') });
    expect(log.errors).toEqual([]);
  }, 600_000);

  it('quality=high gives near asteroids per-pixel field detail (their own material)', async () => {
    const { page, log } = await openExplore('?seed=1&quality=high');
    await page.setViewportSize({ width: 400, height: 300 });
    // The detail materials compile off the frame path (compileAsync): drawing is not needed for them.
    await undrawn(page, () => page.waitForFunction(() => window.__sr?.settled() === true, null, { timeout: 170_000, polling: 500 }));
    const asteroids = await page.evaluate(() => window.__sr!.asteroids());
    expect(asteroids[0].material).toBe('ready');
    expect(asteroids.filter((a) => a.material === 'ready').length).toBeLessThan(asteroids.length); // specks stay cheap
    await page.screenshot({ path: resultPath('explore-seed-1-high.png'), timeout: 120_000 });
    expect(log.errors).toEqual([]);
  });

  it('the same seed gives the same meshes (hash per asteroid), run after run', async () => {
    const hashes: string[][] = [];
    for (let run = 0; run < 2; run++) {
      const { page } = await openExplore('?seed=5&cam=300,200,5000,0,0,0');
      await waitGenerated(page);
      hashes.push((await page.evaluate(() => window.__sr!.asteroids())).map((a) => `${a.level}:${a.hash}`));
      await closePages();
    }
    expect(hashes[1]).toEqual(hashes[0]);
  });

  it('a job that throws in its worker is reported, retried, and does not stop the others', async () => {
    const { page, log } = await openExplore('?seed=1', () => {
      (window as unknown as { __srDebug: unknown }).__srDebug = { failAsteroid: 3, failJobs: 1 };
    });
    await waitGenerated(page);
    const asteroids = await page.evaluate(() => window.__sr!.asteroids());
    // Before: the asteroid stayed failed, a hole in the scene. Now its second attempt draws it.
    expect(asteroids.filter((a) => a.failed === null && a.level >= 0)).toHaveLength(asteroids.length);
    expect(asteroids[3].attempts).toBe(0);
    const notice = await page.locator('.sr-notice-warning').innerText();
    expect(notice).toMatch(/Asteroid 3 \(seed \d+\) failed to generate: Error: debugThrow.*trying again in 0\.5 s \(attempt 2\)/);
    // The error reached the user on the page, not as an uncaught exception.
    expect(log.errors.filter((e) => e.includes('pageerror'))).toEqual([]);
  });

  it('an asteroid that keeps failing gives up with a placeholder and a Retry button that works', async () => {
    const { page, log } = await openExplore('?mode=asteroid&seed=5', () => {
      (window as unknown as { __srDebug: unknown }).__srDebug = { failAsteroid: 0, failJobs: 4 };
    });
    await waitGenerated(page);
    const [gaveUp] = await page.evaluate(() => window.__sr!.asteroids());
    expect(gaveUp.failed).toMatch(/debugThrow/);
    expect(gaveUp.attempts).toBe(4); // the first try and 3 retries (0.5, 1, 2 s apart)
    expect(gaveUp.placeholder, 'a placeholder, not a hole').toBe(true);
    const error = page.locator('.sr-notice-error');
    expect(await error.innerText()).toMatch(/gave up after 4 attempts/);
    await page.screenshot({ path: resultPath('asteroid-failed-placeholder.png') });
    await error.locator('.sr-notice-action', { hasText: 'Retry' }).click();
    await page.waitForFunction(() => window.__sr?.asteroids()[0].level === window.__sr?.asteroids()[0].desired && window.__sr?.allGenerated(), null, { timeout: 150_000, polling: 250 });
    const [healed] = await page.evaluate(() => window.__sr!.asteroids());
    expect(healed).toMatchObject({ failed: null, placeholder: false, attempts: 0 });
    expect(healed.triangles).toBeGreaterThan(0);
    expect(log.errors.filter((e) => e.includes('pageerror'))).toEqual([]);
  });

  it('free flight (F, then W) slows near the surface and never passes through it', async () => {
    const { page, log } = await openExplore('?seed=3');
    await waitGenerated(page);
    const before = await page.evaluate(() => window.__sr!.app!.field!.fieldAt(window.__sr!.app!.camera.position));
    await page.locator('canvas').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('KeyF');
    expect(await page.evaluate(() => window.__sr!.app!.fly.enabled)).toBe(true);
    const speedBefore = await page.evaluate(() => window.__sr!.app!.fly.speed());
    await page.keyboard.down('KeyW');
    // Until it is half as far from the surface (it flies a distance per frame: on a loaded 2-core
    // machine 8 s of frames were not always enough), or 40 s.
    await page.waitForFunction((half) => window.__sr!.app!.field!.fieldAt(window.__sr!.app!.camera.position) < half, before * 0.5, { timeout: 40_000, polling: 100 }).catch(() => undefined);
    await page.keyboard.up('KeyW');
    const after = await page.evaluate(() => {
      const app = window.__sr!.app!;
      return { field: app.field!.fieldAt(app.camera.position), speed: app.fly.speed() };
    });
    console.log(`fly: field at camera ${before.toFixed(1)} m → ${after.field.toFixed(2)} m, speed now ${after.speed.toFixed(2)} m/s`);
    expect(after.field).toBeLessThan(before * 0.5); // it flew towards the asteroid…
    expect(after.field).toBeGreaterThan(0); // …and is still outside it
    expect(after.speed).toBeLessThan(0.5 * speedBefore); // slower near the surface
    // The URL now holds the flight view.
    await expect.poll(() => new URL(page.url()).searchParams.get('cam'), { timeout: 60_000, interval: 250 }).not.toBeNull();
    expect(log.errors).toEqual([]);
  });

  it('flying away cancels the stale fine-level jobs', async () => {
    const { page, log } = await openExplore('?seed=2');
    // Wait until a fine level is in flight for some asteroid…
    await page.waitForFunction(() => window.__sr?.asteroids().some((a) => a.jobLevel > 0) === true, null, {
      timeout: 120_000,
      polling: 50,
    });
    // …then jump far away: nothing needs more than the coarsest level any more.
    await page.evaluate(() => {
      const app = window.__sr!.app!;
      app.camera.position.set(0, 4e5, 0);
      app.controls.target.set(0, 0, 0);
    });
    await waitGenerated(page);
    const jobs = await page.evaluate(() => window.__sr!.jobs());
    const asteroids = await page.evaluate(() => window.__sr!.asteroids());
    console.log(`after flying away: ${JSON.stringify(jobs)}`);
    expect(jobs.stale).toBeGreaterThan(0);
    expect(asteroids.every((a) => a.desired === 0)).toBe(true);
    expect(log.errors).toEqual([]);
  });
});

describe('notices that are true (issue 45)', () => {
  it('seed changes mid-generation leave no failure notice; notices group, fold and stay on screen', async () => {
    const opened = await newPage(browser, { width: 320, height: 180 });
    const { page, log } = opened;
    await page.goto(`${server.url}/?seed=1&quality=low`);
    // Jobs in flight for the first scene, then five quick seed changes (each cancels the last scene's jobs).
    await page.waitForFunction(() => (window.__sr?.jobs().pending ?? 0) > 0, null, { timeout: 120_000, polling: 50 });
    for (const seed of [2, 3, 4, 5, 6]) {
      await page.evaluate((s) => window.__sr!.app!.setSeed(s), seed);
      await page.waitForFunction(() => (window.__sr?.jobs().pending ?? 0) > 0, null, { timeout: 60_000, polling: 50 });
    }
    // The last scene generates some asteroids: the old scenes' cancelled jobs have long answered.
    await page.waitForFunction(() => (window.__sr?.jobs().done ?? 0) >= 3, null, { timeout: 120_000, polling: 250 });
    const notices = await page.evaluate(() => window.__sr!.notices().map((n) => n.text));
    expect(notices, 'no failure notice for cancelled jobs').toEqual([]);

    // Twelve notices of one group read as one line; a long word wraps inside the window.
    const layout = await page.evaluate(() => {
      const notices = window.__sr!.app!.notices;
      for (let i = 0; i < 12; i++) notices.show('warning', `Asteroid ${i} failed to generate`, `t-${i}`, undefined, { group: 'test' });
      notices.show('error', `x${'y'.repeat(400)}`, 'long');
      const lines = [...document.querySelectorAll('.sr-notice')];
      const rects = lines.map((l) => l.getBoundingClientRect());
      const closes = lines.map((l) => [...l.querySelectorAll('button')].at(-1)!.getBoundingClientRect());
      return { count: lines.length, texts: lines.map((l) => l.textContent), right: Math.max(...rects.map((r) => r.right), ...closes.map((r) => r.right)), top: Math.min(...rects.map((r) => r.top)) };
    });
    expect(layout.count).toBe(2);
    expect(layout.texts[0]).toMatch(/Asteroid 11 failed to generate \(12 notices like this\)/);
    expect(layout.right, 'no notice runs off the right edge').toBeLessThanOrEqual(320);
    await page.locator('.sr-notice', { hasText: '12 notices' }).locator('button', { hasText: '×' }).click();
    expect(await page.evaluate(() => window.__sr!.notices().length)).toBe(1);
    expect(log.errors).toEqual([]);
  });
});

describe('the camera never ends inside a body (issue 45)', () => {
  it('a camera standing where a spinning asteroid sweeps, then flying into it, with t running, stays outside at every frame', async () => {
    const { page, log } = await newPage(browser, { width: 320, height: 180 });
    await page.goto(`${server.url}/?seed=1&quality=low`);
    await page.waitForFunction(() => (window.__sr?.frames() ?? 0) > 2 && window.__sr?.app?.field, null, { timeout: 120_000, polling: 250 });
    // A point 0.5 m over asteroid 0 where its spin brings rock over it within 3 s (found on the field
    // with the asteroid turned ahead, then turned back): with t running the surface sweeps over it.
    const placed = await page.evaluate(() => {
      const app = window.__sr!.app!;
      const field = app.field!;
      const spec = field.spec.asteroids[0];
      const pivot = field.pivotOf(0);
      const centre = pivot.position.clone();
      const now = pivot.quaternion.clone();
      const ahead = now.clone().setFromAxisAngle(centre.clone().set(...spec.spinAxis), spec.phaseRad + spec.spinRadPerS * (app.sceneTime() + 3));
      let best = { p: centre.clone(), later: Infinity };
      for (let i = 0; i < 200; i++) {
        const d = centre.clone().set(Math.sin(i * 1.7), Math.cos(i * 2.3), Math.sin(i * 0.9 + 1)).normalize();
        let lo = 0;
        let hi = spec.radiusM * 2;
        for (let k = 0; k < 40; k++) {
          const mid = (lo + hi) / 2;
          if (field.fieldAt(centre.clone().addScaledVector(d, mid)) < 0.5) lo = mid;
          else hi = mid;
        }
        const p = centre.clone().addScaledVector(d, hi);
        pivot.quaternion.copy(ahead);
        const later = field.fieldAt(p);
        pivot.quaternion.copy(now);
        if (later < best.later) best = { p, later };
      }
      app.setCameraMode('fly');
      app.camera.position.copy(best.p);
      app.camera.lookAt(centre);
      // Every frame from now on: the field at the camera after the app's frame (rAF callbacks run in order).
      const w = window as unknown as { minField: number; framesSeen: number };
      w.minField = Infinity;
      w.framesSeen = 0;
      const watch = (): void => {
        w.minField = Math.min(w.minField, field.fieldAt(app.camera.position));
        w.framesSeen++;
        requestAnimationFrame(watch);
      };
      requestAnimationFrame(watch);
      return { later: best.later, now: field.fieldAt(best.p) };
    });
    console.log(`camera placed ${placed.now.toFixed(2)} m over asteroid 0; its spin would put it ${placed.later.toFixed(1)} m deep in 3 s`);
    expect(placed.later).toBeLessThan(0);
    await page.waitForTimeout(4_000);
    // Then W towards the centre for 3 s.
    await page.keyboard.down('KeyW');
    await page.waitForTimeout(3_000);
    await page.keyboard.up('KeyW');
    const seen = await page.evaluate(() => {
      const w = window as unknown as { minField: number; framesSeen: number };
      return { minField: w.minField, framesSeen: w.framesSeen };
    });
    console.log(`over ${seen.framesSeen} frames the field at the camera was at least ${seen.minField.toFixed(2)} m`);
    expect(seen.framesSeen).toBeGreaterThan(3);
    expect(seen.minField).toBeGreaterThanOrEqual(0);
    expect(log.errors).toEqual([]);
  });
});
