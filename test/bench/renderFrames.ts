/**
 * `render/explore/1280x720` and `render/planet-surface/1280x720` (issue 20): the app's frame, finished
 * on the GPU (`window.__sr.renderTiming`: renders one task each, each waiting on a 1-pixel readback),
 * with everything on (`quality=high`), once the view has settled. Explore: seed 1's default view;
 * planet surface: seed 4, 20 m over the ground looking at the horizon (the screenshot CLI's
 * `--altitude 20`, src/scene/planetSurfaceView.ts). The camera holds still, so the sun's cached
 * cascades render no map (Sun.fitCascades `castersVersion`); `…/moving` steps it 1 m to the side a
 * frame (60 m/s at 60 Hz), so the maps follow as in flight. Each view's `…/pipelined` row draws its frames
 * back to back (CPU and GPU overlap, as in the app's loop) and `…/gpu` is the GPU's time alone from
 * timer queries (absent where the context has none; SwiftShader has them). Driven from Node by
 * `npm run bench` (run.ts).
 */
import type { Page } from 'playwright-core';
import { launchChromium } from '../../scripts/chromium';
import { screenshotUrl } from '../../scripts/screenshot';
import { median, rowFrom, type BenchRow } from './harness';

export const RENDER_ROWS = [
  'render/explore/1280x720', 'render/planet-surface/1280x720', 'render/planet-surface/1280x720/air-off', 'render/planet-surface/1280x720/moving',
];
/** Per view (after the view's row): frames back to back, and GPU time alone (src/app/frameTiming.ts). */
const SPLIT_ROWS = ['pipelined', 'gpu'] as const;
const FRAMES = 15;
const SETTLE_CAP_MS = 400_000;

async function timeFrames(page: Page, url: string): Promise<number[]> {
  await page.goto(url);
  await page.waitForFunction(() => window.__sr?.settled() === true, null, { timeout: SETTLE_CAP_MS, polling: 250 });
  await page.evaluate((n) => window.__sr!.renderTiming(n), 3); // warm-up: anything left to compile
  return page.evaluate((n) => window.__sr!.renderTiming(n), FRAMES);
}

/** `<view>/pipelined` and `<view>/gpu` (see the module comment). */
async function splitRows(page: Page, view: string, serialMs: number): Promise<BenchRow[]> {
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await page.evaluate((n) => window.__sr!.gpuTiming(n), FRAMES));
  const pipelined = runs.map((r) => r.pipelinedMs);
  const cpu = median(runs.flatMap((r) => r.cpuMs));
  const rows = [rowFrom(`${view}/${SPLIT_ROWS[0]}`, 'ms', pipelined,
    `${FRAMES} frames back to back, finished once (a frame loop's rate); the CPU records one in ${cpu.toFixed(1)} ms; ${(median(pipelined) / serialMs).toFixed(2)}× the serial frame`)];
  const gpu = runs.flatMap((r) => r.gpuMs ?? []);
  if (gpu.length > 0) rows.push(rowFrom(`${view}/${SPLIT_ROWS[1]}`, 'ms', gpu, `GPU time of one frame (EXT_disjoint_timer_query_webgl2); ${(median(gpu) / serialMs).toFixed(2)}× the serial frame`));
  return rows;
}

export async function renderRows(baseUrl: string, filter: string): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const browser = await launchChromium();
  try {
    const views: [string, string, string][] = [
      [RENDER_ROWS[0], `${baseUrl}/index.html?mode=explore&seed=1&ui=0&t=0&quality=high`, "explore seed 1's default view"],
      [RENDER_ROWS[1], `${baseUrl}${screenshotUrl({ seed: 4, mode: 'planet', count: null, quality: 'high', altitudeM: 20 })}`, 'planet seed 4, 20 m over the ground, at the horizon'],
    ];
    for (const [name, url, what] of views) {
      if (filter && !name.includes(filter)) continue;
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      const ms = await timeFrames(page, url);
      const drawn = await page.evaluate(() => window.__sr!.app!.renderer.info.render.triangles);
      rows.push(rowFrom(name, 'ms', ms, `${what}, quality=high, one frame finished on the GPU (${drawn.toLocaleString('en')} triangles); median ${median(ms).toFixed(1)} ms; target ≤ 8 ms on the H100`));
      rows.push(...(await splitRows(page, name, median(ms))));
      if (name === RENDER_ROWS[1] && (!filter || RENDER_ROWS[2].includes(filter))) {
        // The same view with the planet's atmosphere switched off (a uniform: same programs): what the air costs.
        await page.evaluate(() => window.__sr!.atmosphere(false));
        await page.evaluate((n) => window.__sr!.renderTiming(n), 3);
        const off = await page.evaluate((n) => window.__sr!.renderTiming(n), FRAMES);
        await page.evaluate(() => window.__sr!.atmosphere(true));
        rows.push(rowFrom(RENDER_ROWS[2], 'ms', off, `the same view, atmosphere off: ${(median(ms) / median(off)).toFixed(2)}× with it on`));
      }
      if (name === RENDER_ROWS[1] && (!filter || RENDER_ROWS[3].includes(filter))) {
        await page.evaluate(() => window.__sr!.renderTiming(3, 1));
        const moving = await page.evaluate((n) => window.__sr!.renderTiming(n, 1), FRAMES);
        rows.push(rowFrom(RENDER_ROWS[3], 'ms', moving, `the same view, the camera 1 m further right each frame (shadow maps re-fitted): ${(median(moving) / median(ms)).toFixed(2)}× the still one`));
      }
      await page.close();
    }
  } finally {
    await browser.close();
  }
  return rows;
}
