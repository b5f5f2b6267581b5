/**
 * What a newcomer trips on (issue 45), production build on SwiftShader. Two pages, each shared by
 * the tests that follow it (they run in order), small and at `quality=low` to keep CI short:
 *
 * - explore, seed 1 (320×180, no UI): a probe thrown with scene time running rests within 60 s of
 *   wall time; a click on the planet flies the camera there, 1,168 km, to its stop height over the
 *   ground, the URL following, the pointer line naming what is under it now;
 * - the UI (640×360): the gallery's URL says the page it clamped to (gallery.test.ts: Back from an
 *   asteroid leaves no frozen overlay); a shipped recipe imports and draws, and a reload shows it
 *   again; the help overlay, the random-seed and the copy-link buttons.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ROOT, resultPath, type Served, useBrowser } from './harness';

let browser: Browser;
let server: Served;

useBrowser('preview', (b, s) => ([browser, server] = [b, s]));

/** A page kept across this file's tests (newPage's are closed after each test). */
async function sharedPage(width: number, height: number, permissions: string[] = []): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
  if (permissions.length > 0) await context.grantPermissions(permissions, { origin: server.url });
  const page = await context.newPage();
  // Navigations and file inputs wait on the scene's workers: over 30 s on the loaded 2-core CI machine.
  page.setDefaultTimeout(180_000);
  page.setDefaultNavigationTimeout(180_000);
  const errors: string[] = [];
  page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/**
 * The contexts of one describe's shared page, closed when its tests are done: a page left open keeps
 * drawing (explore's, under the UI tests, made an import that takes 8 s alone take 95 s).
 */
function closedAfterAll(): BrowserContext[] {
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  return contexts;
}

describe('explore, as a newcomer (issue 45)', () => {
  let page: Page | undefined;
  let errors: string[] = [];
  const contexts = closedAfterAll();

  /** Explore seed 1, opened by the first test that needs it (each test also runs alone with -t). */
  async function explore(): Promise<Page> {
    if (page) return page;
    const shared = await sharedPage(320, 180);
    contexts.push(shared.context);
    ({ page, errors } = shared);
    await page.goto(`${server.url}/?seed=1&quality=low&ui=0`);
    await page.waitForFunction(() => (window.__sr?.asteroids()[0]?.level ?? -1) >= 0, null, { timeout: 150_000, polling: 250 });
    return page;
  }

  // Physics, not pixels: the page draws nothing while the probe flies and settles (__sr.draw(false):
  // frames still step the world and turn the asteroids), so SwiftShader leaves the two cores to it.
  // The clock is the wall's from the throw. Before issue 45's fix (contacts judged in the world frame,
  // the pull toward the bounding sphere's centre) it failed a clean-clone CI run (not at rest after
  // 60.2 s at 4.4 fps, 36.6 s simulated, 19.1 s dropped) and 3 of 8 runs.
  it('a probe thrown in explore (time running, a software GPU’s frame rate) rests within 60 s of wall time', { timeout: 240_000 }, async () => {
    const page = await explore();
    await page.evaluate(() => window.__sr!.draw(false));
    const thrownAt = Date.now();
    const frames0 = await page.evaluate(() => {
      const c = window.__sr!.app!.field!.pivotOf(0).position;
      window.__sr!.throwProbe(undefined, [c.x, c.y, c.z]);
      return window.__sr!.frames();
    });
    // Polled, not waited on: a probe that does not rest says how far its clock got.
    let s = await probeNow(page);
    while (s.resting !== 1 && Date.now() - thrownAt < 60_000) {
      await page.waitForTimeout(500);
      s = await probeNow(page);
    }
    const wallS = (Date.now() - thrownAt) / 1000;
    console.log(
      `explore probe ${s.resting === 1 ? 'at rest' : 'NOT at rest'} ${wallS.toFixed(1)} s after the throw, ${((s.frames - frames0) / wallS).toFixed(1)} fps, ` +
        `${s.steps} steps (${s.coarseSteps} coarse), ${s.droppedS.toFixed(1)} s dropped, resting penetration ${(s.restingPenetrationM * 100).toFixed(1)} cm, ` +
        `${s.sweptStops} swept stops, ${s.contactImpacts} contact impacts`,
    );
    await page.evaluate(() => window.__sr!.draw(true));
    expect(s.resting).toBe(1);
    expect(s.bodies).toBe(1);
    expect(s.restingPenetrationM).toBeLessThan(0.05);
    expect(errors).toEqual([]);
  });

  it('a click on the planet flies there: the camera ends near its ground, the URL follows, the pointer line is current; Back ends a flight', { timeout: 240_000 }, async () => {
    const page = await explore();
    // The planet's pixel: its centre projected (it is in explore's default view, beside the hero
    // asteroid), or where an asteroid has spun or drifted over the centre (scene time runs), the
    // first of a few rings of pixels within half the disc's radius that the planet is under.
    const at = await page.evaluate(() => {
      const app = window.__sr!.app!;
      app.camera.updateMatrixWorld();
      const c = app.planet!.root.position;
      const canvas = app.renderer.domElement;
      const px = (ndc: { x: number; y: number }) => [((ndc.x + 1) / 2) * canvas.clientWidth, ((1 - ndc.y) / 2) * canvas.clientHeight];
      const ndc = c.clone().project(app.camera);
      const [cx, cy] = px(ndc);
      const right = app.camera.position.clone().sub(c).cross(app.camera.up).normalize();
      const [lx, ly] = px(c.clone().addScaledVector(right, app.planet!.radiusM).project(app.camera));
      const discPx = Math.hypot(lx - cx, ly - cy);
      const tries: [number, number][] = [[cx, cy]];
      for (const f of [0.15, 0.3, 0.45]) for (let k = 0; k < 8; k++) tries.push([cx + f * discPx * Math.cos((k * Math.PI) / 4), cy + f * discPx * Math.sin((k * Math.PI) / 4)]);
      const [x, y] = tries.find(([x, y]) => window.__sr!.pick(x, y)?.kind === 'planet') ?? tries[0];
      return {
        x, y, centre: x === cx && y === cy, discPx, onScreen: Math.abs(ndc.x) < 1 && Math.abs(ndc.y) < 1 && ndc.z < 1,
        altitudeM: app.planet!.altitude(app.camera.position), url: location.search, drawn: window.__sr!.planet()!.drawn,
      };
    });
    expect(at.onScreen).toBe(true);
    if (!at.centre) console.log(`the planet's centre pixel was covered: clicking (${at.x.toFixed(0)}, ${at.y.toFixed(0)}), the disc ${at.discPx.toFixed(0)} px in radius`);
    // Drawn or not (the pick marches the planet's field where no chunk is drawn), the planet is under that pixel.
    expect(await page.evaluate(([x, y]) => window.__sr!.pick(x, y)?.kind, [at.x, at.y])).toBe('planet');
    await page.mouse.move(at.x, at.y);
    const pointerLine = () => page.evaluate(() => document.querySelector('.sr-stats')!.textContent!.split('\n').find((l) => l.startsWith('pointer:')) ?? '');
    await page.waitForFunction(() => document.querySelector('.sr-stats')!.textContent!.includes('pointer: the ground of planet 1'), null, { timeout: 10_000 });
    const before = await pointerLine();
    const t0 = Date.now();
    await page.mouse.click(at.x, at.y);
    // 1–5 s of wall time, but frames here can stall for tens of seconds under load (the GPU process busy).
    await page.waitForFunction(() => window.__sr!.app!.flight.arrived === 1, null, { timeout: 150_000, polling: 100 });
    const flightS = (Date.now() - t0) / 1000;
    // The URL is written 0.3 s after the flight ends; the pointer line at most 0.25 s after.
    await page.waitForTimeout(800);
    const end = await page.evaluate(() => {
      const app = window.__sr!.app!;
      return { altitudeM: app.planet!.altitude(app.camera.position), url: location.search, camera: app.camera.position.toArray() };
    });
    const after = await pointerLine();
    console.log(`flight (${at.drawn} planet chunks drawn at the click): ${(at.altitudeM / 1000).toFixed(0)} km → ${end.altitudeM.toFixed(0)} m over the ground in ${flightS.toFixed(1)} s; "${before}" → "${after}"`);
    expect(at.altitudeM).toBeGreaterThan(1e6);
    expect(end.altitudeM).toBeGreaterThan(100);
    expect(end.altitudeM).toBeLessThan(10_000);
    const cam = new URLSearchParams(end.url).get('cam')?.split(',').map(Number) ?? [];
    expect(Math.hypot(...end.camera.map((v, i) => v - cam[i]))).toBeLessThan(1);
    // The pointer did not move: the line is picked again (the ground near, or nothing: sky), not the one from 1,168 km.
    expect(before).toMatch(/^pointer: the ground of planet 1 · 1,1\d\d km away · click to go there$/);
    expect(after).not.toBe(before);
    if (after !== '') expect(after).toMatch(/· [\d.,]+ (m|km) away/);
    await page.screenshot({ path: resultPath('newcomer-flight.png') });
    // A new state (here Back/Forward to this same URL) ends a flight under way: the view is the URL's.
    const popped = await page.evaluate(async () => {
      const app = window.__sr!.app!;
      app.flight.toAsteroid(0);
      window.dispatchEvent(new PopStateEvent('popstate'));
      const active = app.flight.active;
      await new Promise((done) => setTimeout(done, 3000));
      const cam = new URLSearchParams(location.search).get('cam')!.split(',').map(Number);
      return { active, offM: Math.hypot(...app.camera.position.toArray().map((v, i) => v - cam[i])) };
    });
    expect(popped).toEqual({ active: false, offM: expect.any(Number) });
    expect(popped.offM).toBeLessThan(1);
    expect(errors).toEqual([]);
  });
});

describe('the UI, as a newcomer (issue 45)', () => {
  let page: Page | undefined;
  let errors: string[] = [];
  const contexts = closedAfterAll();

  /** The page the UI tests share, opened by the first that needs it (each also runs alone with -t). */
  async function ui(): Promise<Page> {
    if (page) return page;
    const shared = await sharedPage(640, 360, ['clipboard-read', 'clipboard-write']);
    contexts.push(shared.context);
    ({ page, errors } = shared);
    return page;
  }

  it('the gallery’s URL says the page it clamped to (Back from an asteroid: gallery.test.ts)', { timeout: 240_000 }, async () => {
    const page = await ui();
    await page.goto(`${server.url}/?mode=gallery&kind=asteroids&start=4294967295&count=2&quality=low`);
    await page.waitForFunction(() => window.__sr?.gallery().length === 2, null, { timeout: 120_000, polling: 250 });
    await page.waitForFunction(() => location.search.includes('start=4294967294'), null, { timeout: 10_000 });
    expect(await page.evaluate(() => window.__sr!.gallery().map((c) => c.seed))).toEqual([4294967294, 4294967295]);
    expect(await page.isVisible('.sr-stats')).toBe(false);
    expect(errors).toEqual([]);
  });

  it('a shipped recipe (assets/recipes/potato.json) imports as a body to explore and draws; a reload shows it again', { timeout: 240_000 }, async () => {
    const page = await ui();
    await page.goto(`${server.url}/?mode=asteroid&seed=3&quality=low`);
    await page.waitForFunction(() => window.__sr?.app?.bodies !== null && window.__sr?.app?.mesher !== null, null, { timeout: 120_000, polling: 250 });
    const file = join(ROOT, 'assets/recipes/potato.json');
    await page.setInputFiles('input[type=file]', file);
    await page.waitForFunction(() => /recipe=[0-9a-z]+/.test(location.search) && window.__sr!.allGenerated(), null, { timeout: 120_000, polling: 250 });
    const shown = await page.evaluate(() => {
      const a = window.__sr!.asteroids()[0];
      const spec = window.__sr!.app!.field!.spec.asteroids[0];
      return { triangles: a.triangles, id: spec.id, url: location.search, notices: window.__sr!.notices().map((n) => n.text), lit: window.__sr!.measure()!.litFraction };
    });
    console.log(`imported potato.json: ${shown.id}, ${shown.triangles} triangles, ${(shown.lit * 100).toFixed(1)} % of pixels lit; ${shown.url}`);
    expect(shown.id).toMatch(/^import:/);
    expect(shown.triangles).toBeGreaterThan(1000);
    expect(shown.lit).toBeGreaterThan(0.02);
    expect(shown.notices.some((t) => t.startsWith('Opened potato.json'))).toBe(true);
    await page.reload();
    await page.waitForFunction(() => window.__sr?.app?.field?.spec.asteroids[0] !== undefined, null, { timeout: 120_000, polling: 250 });
    expect(await page.evaluate(() => window.__sr!.app!.field!.spec.asteroids[0].id)).toBe(shown.id);
    expect(errors).toEqual([]);
  });

  it('? shows the keys; the random-seed button opens another seed; the copy-link button copies this view’s link', { timeout: 120_000 }, async () => {
    const page = await ui();
    if (!page.url().includes('mode=asteroid')) {
      await page.goto(`${server.url}/?mode=asteroid&seed=3&quality=low`);
      await page.waitForFunction(() => window.__sr?.app?.bodies !== null, null, { timeout: 120_000, polling: 250 });
    }
    expect(await page.isVisible('.sr-help')).toBe(false);
    await page.keyboard.press('?');
    expect(await page.isVisible('.sr-help')).toBe(true);
    const help = await page.textContent('.sr-help');
    for (const key of ['click', 'F', 'T', 'B', 'Ctrl+Z', 'P']) expect(help).toContain(key);
    await page.keyboard.press('Escape');
    expect(await page.isVisible('.sr-help')).toBe(false);
    await page.keyboard.press('h');
    expect(await page.isVisible('.sr-help')).toBe(true);
    await page.click('.sr-help-box button');
    expect(await page.isVisible('.sr-help')).toBe(false);

    const before = await page.evaluate(() => window.__sr!.app!.state.seed);
    await page.click('.lil-gui button:has-text("random seed")');
    await page.waitForFunction((s) => window.__sr!.app!.state.seed !== s, before, { timeout: 10_000 });
    const after = await page.evaluate(() => ({ seed: window.__sr!.app!.state.seed, url: location.search }));
    expect(after.url).toContain(`seed=${after.seed}`);
    expect(after.url).not.toContain('recipe=');

    await page.click('.lil-gui button:has-text("copy link")');
    await page.waitForFunction(() => window.__sr!.notices().some((n) => n.text.startsWith('Link copied')), null, { timeout: 10_000 });
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await page.evaluate(() => location.href));
    expect(copied).toContain(`seed=${after.seed}`);
    expect(copied).toContain('cam=');
    expect(errors).toEqual([]);
  });
});

async function probeNow(page: Page) {
  return page.evaluate(() => ({ ...window.__sr!.physics()!, frames: window.__sr!.frames() }));
}
