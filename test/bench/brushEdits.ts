/**
 * `physics/brush/…/click-to-drawn` (issue 19): time from a dig to the frame that draws the edited
 * mesh, in the app (`window.__sr.brush` resolves on that frame), on an asteroid (seed 6, asteroid
 * mode) and on a planet (seed 4, 400 m over the ground). Driven from Node by `npm run bench` (run.ts)
 * on the production build it serves; five digs each, at points around the view's centre.
 */
import { launchChromium } from '../../scripts/chromium';
import { above } from '../browser/planetCamera';
import { median, rowFrom, type BenchRow } from './harness';

export const BRUSH_ROWS = ['physics/brush/asteroid-dig/click-to-drawn', 'physics/brush/planet-dig/click-to-drawn'];
const DIGS = 5;
const SETTLE_CAP_MS = 300_000;

import type { Page } from 'playwright-core';

async function settled(page: Page, planet: boolean): Promise<void> {
  await page.waitForFunction(
    (p) => (p ? window.__sr?.planet()?.complete === true : window.__sr?.settled() === true),
    planet, { timeout: SETTLE_CAP_MS, polling: 100 },
  );
}

/** Digs at pixels around the centre of the view; the times from each dig to its drawn frame (ms). */
async function digs(page: Page, radiusM: number, planet: boolean): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < DIGS; i++) {
    const angle = (i / DIGS) * 2 * Math.PI;
    const at = await page.evaluate(([a]) => {
      const c = window.__sr!.app!.renderer.domElement;
      return window.__sr!.pick(c.clientWidth * (0.5 + 0.12 * Math.cos(a)), c.clientHeight * (0.5 + 0.12 * Math.sin(a)))?.pointM ?? null;
    }, [angle] as const);
    if (!at) continue;
    const r = await page.evaluate(([p, radius]) => window.__sr!.brush({ op: 'dig', at: p, radiusM: radius }), [at, radiusM] as const);
    out.push(r.drawnMs);
    await settled(page, planet);
  }
  return out;
}

export async function brushRows(baseUrl: string, filter: string): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const browser = await launchChromium();
  try {
    if (!filter || BRUSH_ROWS[0].includes(filter)) {
      const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
      await page.goto(`${baseUrl}/index.html?mode=asteroid&seed=6&t=0&ui=0`);
      await settled(page, false);
      const ms = await digs(page, 20, false);
      const level = await page.evaluate(() => window.__sr!.asteroids()[0]);
      rows.push(rowFrom(BRUSH_ROWS[0], 'ms', ms, `20 m digs on seed 6's asteroid (r 152 m) at level ${level.level} (${level.triangles} triangles); median ${median(ms).toFixed(0)} ms`));
      await page.close();
    }
    if (!filter || BRUSH_ROWS[1].includes(filter)) {
      const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
      await page.goto(`${baseUrl}/index.html?mode=planet&seed=4&ui=0`);
      await page.waitForFunction(() => (window.__sr?.planet()?.drawn ?? 0) > 0, null, { timeout: SETTLE_CAP_MS, polling: 250 });
      await above(page, 400, 0.6);
      await page.waitForTimeout(500);
      await settled(page, true);
      const ms = await digs(page, 30, true);
      const s = await page.evaluate(() => window.__sr!.planet()!);
      rows.push(rowFrom(BRUSH_ROWS[1], 'ms', ms, `30 m digs on seed 4's planet from 400 m (${s.drawn} chunks drawn, ${s.seams} seams); median ${median(ms).toFixed(0)} ms`));
      await page.close();
    }
  } finally {
    await browser.close();
  }
  return rows;
}
