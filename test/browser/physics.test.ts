/**
 * Thrown probes in the app (issue 19), production build on SwiftShader: probes thrown at an asteroid
 * land on the collider built from its drawn mesh and come to rest on its surface; a probe on a
 * planet rests on its drawn chunks and stays on the ground while finer chunks replace them.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { newPage, resultPath, type Served, undrawn, useBrowser } from './harness';
import { above, complete } from './planetCamera';

let browser: Browser;
let server: Served;

useBrowser('preview', (b, s) => ([browser, server] = [b, s]));

describe('probes', () => {
  it('twenty probes thrown at an asteroid come to rest on its surface, less than 5 cm deep', { timeout: 560_000 }, async () => {
    const { page, log } = await newPage(browser, { width: 480, height: 360 });
    await page.goto(`${server.url}/?mode=asteroid&seed=6&ui=0`);
    await undrawn(page, () => page.waitForFunction(() => window.__sr?.settled() === true, null, { timeout: 150_000, polling: 250 }));
    expect(await page.evaluate(() => window.__sr!.physics())).toMatchObject({ bodies: 0, colliders: 0 });
    // Physics, not pixels, while the probes fly: frames step the world but draw nothing (a CI run
    // drawing each SwiftShader frame ran the world slower than real time and ran past 400 s).
    await undrawn(page, async () => {
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
      // Most runs rest within 10–50 s of scene time; a probe that skips off on a long arc takes up to
      // ~130 s, and a loaded machine runs the world slower than real time.
      await page.waitForFunction(() => window.__sr!.physics()!.resting === 20, null, { timeout: 400_000, polling: 500 })
        .catch(async (e: unknown) => {
          console.log(`probes when the wait ran out: ${JSON.stringify(await page.evaluate(() => window.__sr!.physics()))}`);
          throw e;
        });
    });
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

  it('a probe dropped on a planet rests on the terrain, and stays on it across a LOD change under it', { timeout: 700_000 }, async () => {
    // 320×240: fewer chunks to complete at 1.5 km than at 400×300 (63 against 77 s here), as coarse under the probe.
    const { page, log } = await newPage(browser, { width: 320, height: 240 });
    // lodTime=0: full detail, so the settled view stays as it is (the time policy refines a landed view afterwards).
    await page.goto(`${server.url}/?mode=planet&seed=4&ui=0&lodTime=0`);
    await page.waitForFunction(() => (window.__sr?.planet()?.drawn ?? 0) > 0, null, { timeout: 200_000, polling: 500 });
    // Physics and meshes, not pixels: frames update the scene but draw nothing until the picture
    // (SwiftShader's draws would share the two cores with the body worker).
    await page.evaluate(() => window.__sr!.draw(false));
    // From 1.5 km, where the chunks under the probe are coarse.
    await above(page, 1500, 0.5);
    // Planet 4's ground has relief down to metres now (issue 41): on SwiftShader with one body
    // worker its 1.5 km view took over 150 s to complete in a loaded CI run.
    await complete(page, 360_000);
    // A probe at the ground ahead of the camera (15 m, 400 m/s at 1.5 km).
    await page.evaluate(() => window.__sr!.throwProbe(undefined, window.__sr!.app!.controls.target.toArray() as [number, number, number]));
    await page.waitForFunction(() => window.__sr!.physics()!.resting === 1, null, { timeout: 120_000, polling: 250 });
    const before = await probeState(page);
    console.log(`at rest from 1.5 km: ${JSON.stringify(before)}`);
    // Closer: finer chunks replace the ones under the probe.
    const lows: number[] = [];
    await page.evaluate(() => {
      const app = window.__sr!.app!;
      const p = app.bodies!.probes.physics.views()[0].positionM;
      const c = app.planet!.root.position;
      const up = [p[0] - c.x, p[1] - c.y, p[2] - c.z];
      const l = Math.hypot(...up);
      app.camera.position.set(p[0] + (up[0] / l) * 60 + 40, p[1] + (up[1] / l) * 60, p[2] + (up[2] / l) * 60);
      app.controls.target.set(p[0], p[1], p[2]);
      app.camera.lookAt(app.controls.target);
    });
    const t0 = Date.now();
    while (Date.now() - t0 < 90_000) {
      const s = await probeState(page);
      lows.push(s.altitudeM - s.radiusM);
      // Done once it rests on another piece than before (the change reached it), or the planet is complete.
      if (s.resting && (s.restingOn !== before.restingOn || s.planetComplete) && Date.now() - t0 > 5_000) break;
      await page.waitForTimeout(250);
    }
    const after = await probeState(page);
    console.log(`after the LOD change: ${JSON.stringify(after)}; lowest clearance ${Math.min(...lows).toFixed(2)} m over ${lows.length} samples`);
    // It rests on another piece now (a finer chunk), built while it lay on the coarse one.
    expect(before.restingOn).toMatch(/^planet:/);
    expect(after.restingOn).toMatch(/^planet:/);
    expect(after.restingOn).not.toBe(before.restingOn);
    expect(after.builds).toBeGreaterThan(before.builds);
    expect(after.resting).toBe(true);
    // Never through the ground: its centre stays above the field's surface (a coarse chunk lies
    // within its error of it), and it ends about a radius above it on the fine chunk (a 15 m sphere
    // sits on the bumps around the point below its centre, so a little more, never less: on planet
    // 4's crags and rocks since issue 41, 3.1 m more).
    expect(Math.min(...lows)).toBeGreaterThan(-after.radiusM);
    expect(after.altitudeM - after.radiusM).toBeGreaterThan(-0.5);
    expect(after.altitudeM - after.radiusM).toBeLessThan(5);
    expect(after.restingPenetrationM).toBeLessThan(0.05);
    await page.evaluate(() => window.__sr!.draw(true));
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.screenshot({ path: resultPath('probe-on-planet.png') });
    expect(log.errors).toEqual([]);
  });
});

async function probeState(page: Page) {
  return page.evaluate(() => {
    const app = window.__sr!.app!;
    const Vector3 = app.camera.position.constructor as typeof import('three').Vector3;
    const v = app.bodies!.probes.physics.views()[0];
    const s = window.__sr!.physics()!;
    const planet = app.planet!.stats();
    return {
      altitudeM: app.planet!.altitude(new Vector3(...v.positionM)), radiusM: v.radiusM, resting: v.resting, restingOn: v.restingOn,
      builds: s.colliderBuilds, planetColliders: s.planetColliders, lifted: s.lifted, restingPenetrationM: s.restingPenetrationM,
      leaves: planet.leaves, planetComplete: planet.complete,
    };
  });
}
