/**
 * `explore/cold-start` (issue 16): page load → settled for the explore scene, each load in a
 * fresh browser (a new profile: no program the GPU process compiled before, no cached file), the
 * seed given, `quality=high` and the sampling path the app picks. Driven from Node by `npm run
 * bench` (run.ts), on the production build it serves; the accelerator machine's route
 * (../shared/gpu-browser) measures the same with its `shot:` task, whose seconds are page load →
 * settled in a fresh browser for its first shot.
 */
import { launchChromium } from '../../scripts/chromium';
import { median, rowFrom, type BenchRow } from './harness';

export const COLD_START_ROW = 'explore/cold-start';
const SEEDS = [3, 1];
/** Longest a load may take before it counts as the cap (a software renderer is slow, not stuck). */
const CAP_S = 300;

/** One fresh browser per seed: seconds from navigation to `__sr.settled()`, and what the page reported. */
export async function coldStartRows(baseUrl: string): Promise<BenchRow[]> {
  const seconds: number[] = [];
  const notes: string[] = [];
  for (const seed of SEEDS) {
    const browser = await launchChromium();
    const began = Date.now();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      const t0 = Date.now();
      await page.goto(`${baseUrl}/index.html?mode=explore&seed=${seed}&quality=high&ui=0`, { timeout: CAP_S * 1000 });
      let settled = false;
      while (!settled && Date.now() - t0 < CAP_S * 1000) {
        settled = await page.evaluate(() => window.__sr?.settled() ?? false);
        if (!settled) await page.waitForTimeout(100);
      }
      const s = (Date.now() - t0) / 1000;
      // A fresh profile starts in JS and measures the GPU once settled: the path is the first answer's.
      const path = await page.evaluate(() => window.__sr?.samplingProbe()?.detail ?? 'none');
      const c = await page.evaluate(() => window.__sr?.frameCompiles() ?? { frames: 0, programs: 0, names: [] });
      const stages = await page.evaluate(() => window.__sr?.startup() ?? {});
      seconds.push(settled ? s : CAP_S);
      notes.push(`seed ${seed}: ${settled ? `${s.toFixed(1)} s` : `CAPPED at ${CAP_S} s (not settled)`} (${path}; ${c.programs} program(s) compiled in ${c.frames} frame(s): ${c.names.join(', ') || 'none'}; stages at ${Object.entries(stages).map(([k, v]) => `${k} ${v} s`).join(', ')})`);
    } catch (e) {
      // A load that failed (a crashed page, a navigation timeout) counts as the cap; the bench goes on.
      seconds.push(CAP_S);
      notes.push(`seed ${seed}: FAILED after ${((Date.now() - began) / 1000).toFixed(1)} s, counted as the cap (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`);
    } finally {
      await browser.close();
    }
  }
  return [rowFrom(COLD_START_ROW, 's', seconds, `page load → settled, fresh browser each, explore quality=high 1280×720 (target ≤ 5 s on a GPU machine); ${notes.join(', ')}; median ${median(seconds).toFixed(1)} s`)];
}
