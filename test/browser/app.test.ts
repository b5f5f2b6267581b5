/**
 * End-to-end: the production build served on 127.0.0.1, in headless Chromium with WebGL2.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { newPage, resultPath, type Served, useBrowser } from './harness';

let browser: Browser;
let server: Served;

useBrowser('preview', (b, s) => ([browser, server] = [b, s]));

async function waitForFrames(page: Page, atLeast: number): Promise<void> {
  await page.waitForFunction((n) => (window.__sr?.frames() ?? 0) >= n, atLeast, { timeout: 60_000 });
}

describe('app shell (production build)', () => {
  it('renders a non-blank WebGL2 frame with visible shadows and no console errors', async () => {
    const { page, log } = await newPage(browser);
    await page.goto(`${server.url}/?seed=42`);
    await waitForFrames(page, 3);
    expect(await page.evaluate(() => window.__sr!.webgl2())).toBe(true);
    // The explore scene: wait until the asteroid field has been generated.
    await page.waitForFunction(() => window.__sr?.settled() === true, null, { timeout: 120_000, polling: 250 });

    const frame = await page.evaluate(() => window.__sr!.measure());
    expect(frame).not.toBeNull();
    expect(frame!.width).toBe(800);
    expect(frame!.lumaStdDev, 'frame has contrast').toBeGreaterThan(0.03);
    expect(frame!.distinctColours, 'frame is not flat').toBeGreaterThan(100);
    expect(frame!.litFraction, 'something fills the view').toBeGreaterThan(0.04);

    // Shadows: one asteroid seen from across the terminator, where relief casts long shadows:
    // pixels the shadow map darkens by ≥ 25% must be a visible part of the frame.
    await page.goto(`${server.url}/?mode=asteroid&seed=11`);
    await page.waitForFunction(() => window.__sr?.settled() === true, null, { timeout: 120_000, polling: 250 });
    await page.evaluate(() => {
      const app = window.__sr!.app!;
      const sun = app.field!.sun.direction;
      const side = sun.clone().cross({ x: 0, y: 1, z: 0 } as never).normalize();
      const r = app.field!.spec.asteroids[0].radiusM;
      app.camera.position.copy(side.multiplyScalar(2.6 * r).addScaledVector(sun, 0.35 * r));
      app.controls.target.set(0, 0, 0);
      app.camera.lookAt(0, 0, 0);
    });
    await page.waitForFunction(() => window.__sr?.settled() === true, null, { timeout: 120_000, polling: 250 });
    const shadowed = await page.evaluate(() => window.__sr!.shadowFraction());
    console.log(`shadowed fraction of the frame: ${(100 * shadowed).toFixed(2)}%`);
    await page.screenshot({ path: resultPath('app-shadows.png') });
    expect(shadowed).toBeGreaterThan(0.001);

    // The sampling-path probe sees SwiftShader here (a software GPU) and picks the JS back
    // end in workers, and says so on screen.
    await expect.poll(() => page.evaluate(() => window.__sr!.samplingPath())).toBe('js-worker');
    await expect.poll(() => page.locator('.sr-stats').innerText()).toMatch(/sampling: js-worker .*software/);

    await page.screenshot({ path: resultPath('app-explore.png') });
    expect(log.errors).toEqual([]);
  });

  it('names a bad mode (and seed) on the page and still renders', async () => {
    const { page, log } = await newPage(browser);
    await page.goto(`${server.url}/?seed=abc&mode=nonsense`);
    await waitForFrames(page, 3);
    const notices = page.locator('.sr-notice');
    await expect.poll(() => notices.count()).toBeGreaterThanOrEqual(2);
    const text = await page.locator('.sr-notices').innerText();
    expect(text).toMatch(/“mode”.*nonsense.*explore, asteroid, planet, gallery, screenshot/);
    expect(text).toMatch(/“seed”.*abc/);
    expect(await page.locator('.sr-notices').isVisible()).toBe(true);
    const frame = await page.evaluate(() => window.__sr!.measure());
    expect(frame!.lumaStdDev).toBeGreaterThan(0.03);
    await page.screenshot({ path: resultPath('app-bad-params.png') });
    expect(log.errors).toEqual([]);
  });

  it('explains a missing WebGL2 on the page instead of showing a blank one', async () => {
    const { page } = await newPage(browser);
    await page.addInitScript(() => {
      const original = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, type: string, ...rest: unknown[]) {
        if (type === 'webgl2') return null;
        return (original as (...a: unknown[]) => unknown).call(this, type, ...rest);
      } as typeof original;
    });
    await page.goto(`${server.url}/`);
    const fatal = page.locator('.sr-fatal');
    await fatal.waitFor();
    expect(await fatal.innerText()).toMatch(/needs WebGL2/);
    expect(await page.evaluate(() => window.__sr!.fatal)).toMatch(/WebGL2/);
    await page.screenshot({ path: resultPath('app-no-webgl2.png') });
  });

  it('survives a lost WebGL context and resumes rendering when it is restored', async () => {
    const { page, log } = await newPage(browser);
    await page.goto(`${server.url}/?seed=5`);
    await waitForFrames(page, 3);
    await page.evaluate(() => {
      const gl = window.__sr!.app!.renderer.getContext();
      (window as unknown as { __lose: WEBGL_lose_context }).__lose = gl.getExtension('WEBGL_lose_context')!;
      (window as unknown as { __lose: WEBGL_lose_context }).__lose.loseContext();
    });
    await expect.poll(() => page.locator('.sr-notice-error').innerText()).toMatch(/context was lost/);
    const framesWhileLost = await page.evaluate(() => window.__sr!.frames());
    await page.evaluate(() => (window as unknown as { __lose: WEBGL_lose_context }).__lose.restoreContext());
    await expect.poll(() => page.locator('.sr-notices').innerText()).toMatch(/restored/);
    await waitForFrames(page, framesWhileLost + 3);
    const frame = await page.evaluate(() => window.__sr!.measure());
    expect(frame!.lumaStdDev).toBeGreaterThan(0.03);
    // three.js logs the loss and restore as plain messages, not errors.
    expect(log.errors).toEqual([]);
  });

  it('reads the camera from the URL and writes it back after the user orbits', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.url}/?seed=9&mode=explore&cam=0,0,4,0,0,0`);
    await waitForFrames(page, 2);
    const pos = await page.evaluate(() => window.__sr!.app!.camera.position.toArray());
    expect(pos[0]).toBeCloseTo(0, 3);
    expect(pos[2]).toBeCloseTo(4, 3);
    await page.mouse.move(400, 300);
    await page.mouse.down();
    await page.mouse.move(520, 320, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => new URL(page.url()).searchParams.get('cam'), { timeout: 20_000 }).not.toBe('0,0,4,0,0,0');
    const url = new URL(page.url());
    expect(url.searchParams.get('seed')).toBe('9');
    const cam = url.searchParams.get('cam')!.split(',').map(Number);
    expect(cam).toHaveLength(6);
    expect(Math.hypot(cam[0], cam[1], cam[2])).toBeCloseTo(4, 1); // orbiting keeps the distance
  });

  it('?sampling=gpu-worker forces the OffscreenCanvas worker path', async () => {
    const { page, log } = await newPage(browser);
    await page.goto(`${server.url}/?seed=2&sampling=gpu-worker`);
    await expect.poll(() => page.evaluate(() => window.__sr?.samplingPath() ?? null), { timeout: 30_000 }).toBe('gpu-worker');
    expect(log.errors).toEqual([]);
  });

  it('renders the sky cube map once per seed, not per frame', async () => {
    const { page, log } = await newPage(browser);
    await page.goto(`${server.url}/?seed=6`);
    await waitForFrames(page, 5);
    const frames0 = await page.evaluate(() => window.__sr!.frames());
    await waitForFrames(page, frames0 + 5);
    expect(await page.evaluate(() => window.__sr!.app!.sky.renderCount)).toBe(1);
    await page.evaluate(() => window.__sr!.app!.setSeed(7));
    const frames1 = await page.evaluate(() => window.__sr!.frames());
    await waitForFrames(page, frames1 + 5);
    expect(await page.evaluate(() => window.__sr!.app!.sky.renderCount)).toBe(2);
    expect(new URL(page.url()).searchParams.get('seed')).toBe('7');
    expect(log.errors).toEqual([]);
  });

  it('hides every piece of UI in screenshot mode', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.url}/?mode=screenshot&seed=3`);
    await waitForFrames(page, 2);
    expect(await page.locator('.sr-ui').isVisible()).toBe(false);
    expect(await page.locator('.lil-gui.root').isVisible()).toBe(false);
    await page.screenshot({ path: resultPath('app-screenshot-mode.png') });
  });
});
