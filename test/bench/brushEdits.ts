/**
 * `physics/brush/…/click-to-drawn` (issue 19): time from a dig to the frame that draws the edited
 * mesh, in the app (`window.__sr.brush` resolves on that frame), on an asteroid (seed 6, asteroid
 * mode) and on a planet (seed 4, 400 m over the ground). Driven from Node by `npm run bench` (run.ts)
 * on the production build it serves; five digs each, at points around the view's centre.
 */
import { launchChromium } from '../../scripts/chromium';
import { above } from '../browser/planetCamera';
import { cappedNote, CAPPED, gotoCapped, settleWithin, withinCap } from './capped';
import { failedRow, median, rowFrom, type BenchRow } from './harness';

export const BRUSH_ROWS = ['physics/brush/asteroid-dig/click-to-drawn', 'physics/brush/planet-dig/click-to-drawn'];
const DIGS = 5;
/** A wait for the view to settle, and a dig's wait for its drawn frame: past it the row is capped. */
const SETTLE_CAP_MS = 300_000;

import type { Page } from 'playwright-core';

/** Whether the view settled (the planet: its LOD complete) within the cap. */
function settled(page: Page, planet: boolean): Promise<boolean> {
  return settleWithin(page, (p) => (p ? window.__sr?.planet()?.complete === true : window.__sr?.settled() === true), planet, SETTLE_CAP_MS, 100);
}

/**
 * Digs at pixels around the centre of the view; the times from each dig to its drawn frame (ms), a
 * dig whose frame did not come within the cap counting as the cap; `capped` says what was capped.
 */
async function digs(page: Page, radiusM: number, planet: boolean): Promise<{ ms: number[]; capped: string[] }> {
  const out: number[] = [];
  const capped: string[] = [];
  for (let i = 0; i < DIGS && capped.length === 0; i++) {
    const angle = (i / DIGS) * 2 * Math.PI;
    const at = await page.evaluate(([a]) => {
      const c = window.__sr!.app!.renderer.domElement;
      return window.__sr!.pick(c.clientWidth * (0.5 + 0.12 * Math.cos(a)), c.clientHeight * (0.5 + 0.12 * Math.sin(a)))?.pointM ?? null;
    }, [angle] as const);
    if (!at) continue;
    const r = await withinCap(page.evaluate(([p, radius]) => window.__sr!.brush({ op: 'dig', at: p, radiusM: radius }), [at, radiusM] as const), SETTLE_CAP_MS);
    if (r === CAPPED) {
      out.push(SETTLE_CAP_MS);
      capped.push(`dig ${i + 1} not drawn`);
    } else {
      out.push(r.drawnMs);
      if (!(await settled(page, planet))) capped.push(`the view had not settled after dig ${i + 1} (the digs stopped there)`);
    }
  }
  return { ms: out, capped };
}

/** The row of a brush view: CAPPED in its notes where a wait reached the cap; FAILED where it threw or dug nowhere. */
function digRow(name: string, d: { ms: number[]; capped: string[] }, what: string): BenchRow {
  if (d.ms.length === 0) return failedRow(name, 'ms', new Error(`no dig hit the body (${d.capped.join('; ') || 'nothing picked'})`));
  const cap = d.capped.length > 0 ? `${cappedNote(SETTLE_CAP_MS, d.capped.join('; '))}; ` : '';
  return rowFrom(name, 'ms', d.ms, `${cap}${what}; median ${median(d.ms).toFixed(0)} ms`);
}

export async function brushRows(baseUrl: string, filter: string): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const browser = await launchChromium();
  try {
    if (!filter || BRUSH_ROWS[0].includes(filter)) {
      const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
      try {
        await gotoCapped(page, `${baseUrl}/index.html?mode=asteroid&seed=6&t=0&ui=0`, SETTLE_CAP_MS);
        const first = await settled(page, false);
        const d = await digs(page, 20, false);
        if (!first) d.capped.unshift('the view had not settled before the first dig');
        const level = await page.evaluate(() => window.__sr!.asteroids()[0]);
        rows.push(digRow(BRUSH_ROWS[0], d, `20 m digs on seed 6's asteroid (r 152 m) at level ${level?.level} (${level?.triangles} triangles)`));
      } catch (e) {
        rows.push(failedRow(BRUSH_ROWS[0], 'ms', e));
      } finally {
        await page.close().catch(() => {});
      }
    }
    if (!filter || BRUSH_ROWS[1].includes(filter)) {
      const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
      try {
        await gotoCapped(page, `${baseUrl}/index.html?mode=planet&seed=4&ui=0`, SETTLE_CAP_MS);
        const drawn = await settleWithin(page, () => (window.__sr?.planet()?.drawn ?? 0) > 0, null, SETTLE_CAP_MS);
        if (!drawn) throw new Error(`the planet drew nothing in ${SETTLE_CAP_MS / 1000} s`);
        await above(page, 400, 0.6);
        await page.waitForTimeout(500);
        const first = await settled(page, true);
        const d = await digs(page, 30, true);
        if (!first) d.capped.unshift('the planet was not complete before the first dig');
        const s = await page.evaluate(() => window.__sr!.planet()!);
        rows.push(digRow(BRUSH_ROWS[1], d, `30 m digs on seed 4's planet from 400 m (${s.drawn} chunks drawn, ${s.seams} seams)`));
      } catch (e) {
        rows.push(failedRow(BRUSH_ROWS[1], 'ms', e));
      } finally {
        await page.close().catch(() => {});
      }
    }
  } finally {
    await browser.close();
  }
  return rows;
}
