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
import { cappedNote, CAPPED, gotoCapped, settleWithin, withinCap } from './capped';
import { failedRow, median, rowFrom, type BenchRow } from './harness';

export const RENDER_ROWS = [
  'render/explore/1280x720', 'render/planet-surface/1280x720', 'render/planet-surface/1280x720/air-off', 'render/planet-surface/1280x720/moving',
];
/** Per view (after the view's row): frames back to back, and GPU time alone (src/app/frameTiming.ts). */
const SPLIT_ROWS = ['pipelined', 'gpu'] as const;
const FRAMES = 15;
/** The view's settling cap: past it the frames are timed as the view is, and the row's notes say CAPPED. */
const SETTLE_CAP_MS = 400_000;
/** A timing call's cap (a software renderer takes seconds a frame; more is a stuck page). */
const TIMING_CAP_MS = 180_000;

/** The view's frame times, and whether it settled within the cap (capped: null where even the timing was). */
async function timeFrames(page: Page, url: string): Promise<{ ms: number[] | null; settled: boolean }> {
  await gotoCapped(page, url, SETTLE_CAP_MS);
  const settled = await settleWithin(page, () => window.__sr?.settled() === true, null, SETTLE_CAP_MS);
  await batchesBuilt(page);
  const ms = await withinCap((async () => {
    await page.evaluate((n) => window.__sr!.renderTiming(n), 3); // warm-up: anything left to compile
    return page.evaluate((n) => window.__sr!.renderTiming(n), FRAMES);
  })(), TIMING_CAP_MS);
  return { ms: ms === CAPPED ? null : ms, settled };
}

/**
 * Waits (at most {@link BATCH_WAIT_MS}) until the planet's batched pieces have stopped changing for
 * 2 s: still pieces are merged into batches over the seconds after the view settles
 * (src/render/pieceBatches.ts), and a frame timed before that draws ~800 calls instead of ~140 (15–17
 * against 8–9 ms on the H100, docs/rendering.md "What the 36 waves cost"). Frames are drawn meanwhile
 * by the app's own loop; the timing calls draw without updating, so they would never build them.
 */
async function batchesBuilt(page: Page): Promise<void> {
  const t0 = Date.now();
  let last = -1, since = Date.now();
  while (Date.now() - t0 < BATCH_WAIT_MS) {
    const n = await page.evaluate(() => window.__sr?.planet()?.batched ?? 0);
    if (n !== last) [last, since] = [n, Date.now()];
    else if (Date.now() - since >= 2000) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The most a row waits for the planet's batches (a software renderer's frames are slow). */
const BATCH_WAIT_MS = 60_000;

/** Frames timed within the cap, or null (the row is then reported capped). */
async function timed<T>(work: () => Promise<T>): Promise<T | null> {
  const r = await withinCap(work(), TIMING_CAP_MS);
  return r === CAPPED ? null : r;
}

/** A row whose timing did not finish within {@link TIMING_CAP_MS}: the cap as its value, no runs. */
function cappedRow(name: string, what: string): BenchRow {
  return { name, unit: 'ms', median: TIMING_CAP_MS, min: TIMING_CAP_MS, max: TIMING_CAP_MS, runs: 0, notes: cappedNote(TIMING_CAP_MS, what) };
}

/** `<view>/pipelined` and `<view>/gpu` (see the module comment). */
async function splitRows(page: Page, view: string, serialMs: number): Promise<BenchRow[]> {
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const r = await timed(() => page.evaluate((n) => window.__sr!.gpuTiming(n), FRAMES));
    if (!r) return [cappedRow(`${view}/${SPLIT_ROWS[0]}`, `${FRAMES} frames back to back did not finish`)];
    runs.push(r);
  }
  const pipelined = runs.map((r) => r.pipelinedMs);
  const cpu = median(runs.flatMap((r) => r.cpuMs));
  const rows = [rowFrom(`${view}/${SPLIT_ROWS[0]}`, 'ms', pipelined,
    `${FRAMES} frames back to back, finished once (a frame loop's rate); the CPU records one in ${cpu.toFixed(1)} ms; ${(median(pipelined) / serialMs).toFixed(2)}× the serial frame`)];
  const gpu = runs.flatMap((r) => r.gpuMs ?? []);
  if (gpu.length > 0) rows.push(rowFrom(`${view}/${SPLIT_ROWS[1]}`, 'ms', gpu, `GPU time of one frame (EXT_disjoint_timer_query_webgl2); ${(median(gpu) / serialMs).toFixed(2)}× the serial frame`));
  return rows;
}

/** One view's rows (the module comment); capped where the view did not settle or a timing did not finish. */
async function viewRows(page: Page, name: string, url: string, what: string, filter: string): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const { ms, settled } = await timeFrames(page, url);
  if (!ms) return [cappedRow(name, `${what}: ${FRAMES} frames did not finish${settled ? '' : `; the view had not settled in ${SETTLE_CAP_MS / 1000} s`}`)];
  const capped = settled ? '' : `${cappedNote(SETTLE_CAP_MS, 'the view had not settled; frames timed as it was')}; `;
  const drawn = await page.evaluate(() => window.__sr!.app!.renderer.info.render.triangles);
  rows.push(rowFrom(name, 'ms', ms, `${capped}${what}, quality=high, one frame finished on the GPU (${drawn.toLocaleString('en')} triangles); median ${median(ms).toFixed(1)} ms; target ≤ 8 ms on the H100`));
  rows.push(...(await splitRows(page, name, median(ms))));
  if (name === RENDER_ROWS[1] && (!filter || RENDER_ROWS[2].includes(filter))) {
    // The same view with the planet's atmosphere switched off (a uniform: same programs): what the air costs.
    const off = await timed(async () => {
      await page.evaluate(() => window.__sr!.atmosphere(false));
      await page.evaluate((n) => window.__sr!.renderTiming(n), 3);
      const t = await page.evaluate((n) => window.__sr!.renderTiming(n), FRAMES);
      await page.evaluate(() => window.__sr!.atmosphere(true));
      return t;
    });
    rows.push(off ? rowFrom(RENDER_ROWS[2], 'ms', off, `${capped}the same view, atmosphere off: ${(median(ms) / median(off)).toFixed(2)}× with it on`) : cappedRow(RENDER_ROWS[2], 'atmosphere off: the frames did not finish'));
  }
  if (name === RENDER_ROWS[1] && (!filter || RENDER_ROWS[3].includes(filter))) {
    const moving = await timed(async () => {
      await page.evaluate(() => window.__sr!.renderTiming(3, 1));
      return page.evaluate((n) => window.__sr!.renderTiming(n, 1), FRAMES);
    });
    rows.push(moving ? rowFrom(RENDER_ROWS[3], 'ms', moving, `${capped}the same view, the camera 1 m further right each frame (shadow maps re-fitted): ${(median(moving) / median(ms)).toFixed(2)}× the still one`) : cappedRow(RENDER_ROWS[3], 'moving: the frames did not finish'));
  }
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
      try {
        rows.push(...(await viewRows(page, name, url, what, filter)));
      } catch (e) {
        rows.push(failedRow(name, 'ms', e));
      } finally {
        await page.close().catch(() => {});
      }
    }
  } finally {
    await browser.close();
  }
  return rows;
}
