/**
 * The asteroid gallery (src/app/Gallery.ts) in real Chromium: thumbnails from body jobs on
 * the workers, drawn with the Sun and the family material into one WebGL context, copied to
 * per-cell 2D canvases; captions, clicks, paging and the thumbnail cache.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closePages, newPage, type PageLog, resultPath, type Served, startPreviewServer, useBrowser } from './harness';
import { asteroidFamily, PLANET_CLASS_LABELS, planetClassOf } from '../../src/scene';

let browser: Browser;
let server: Served;

useBrowser('dev', (b, s) => ([browser, server] = [b, s]));

const PAGE = '/test/browser/pages/gallery.ts';

async function open(options: { start: number; count: number; quality?: 'low' | 'high'; thumbPx?: number; cells?: 32 | 64 }): Promise<{ page: Page; log: PageLog }> {
  const opened = await newPage(browser, { width: 900, height: 700 });
  await opened.page.goto(`${server.url}/test/browser/pages/blank.html`);
  await opened.page.evaluate(async ([path, o]) => (await srImport(path)).openGallery(o), [PAGE, options] as const);
  return opened;
}

async function waitReady(page: Page): Promise<number> {
  const t0 = Date.now();
  await page.waitForFunction(() => (window as { __galleryReady?: () => boolean }).__galleryReady?.() === true, null, {
    timeout: 150_000,
    polling: 200,
  });
  return Date.now() - t0;
}

type State = Awaited<ReturnType<typeof import('./pages/gallery').galleryState>>;
const state = (page: Page): Promise<State> => page.evaluate(async (path) => (await srImport(path)).galleryState(), PAGE);

describe('gallery', () => {
  it('seeds 1–12 fill every cell with a lit thumbnail, captioned with seed and family; click opens; paging; cache', async () => {
    const { page, log } = await open({ start: 1, count: 12, thumbPx: 160, cells: 32 });
    const ms = await waitReady(page);
    let s = await state(page);
    console.log(`gallery 1–12 (160 px, 32 cells, low): ${ms} ms, ${s.jobsSubmitted} jobs`);
    expect(s.cells.map((c) => c.seed)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    for (const c of s.cells) {
      expect(c.state, `seed ${c.seed}`).toBe('done');
      expect(c.family).toBe(asteroidFamily(c.seed));
      expect(c.caption).toContain(`seed ${c.seed}`);
      expect(c.caption).toContain(asteroidFamily(c.seed));
      // Not blank: a lit rock with a terminator on a dark background.
      expect(c.lumaStdDev, `seed ${c.seed} luma spread`).toBeGreaterThan(0.03);
      expect(c.litFraction, `seed ${c.seed} lit fraction`).toBeGreaterThan(0.03);
    }
    expect(s.rootReady).toBe('true');
    expect(s.jobsSubmitted).toBe(12);
    expect(s.progress.active).toBe(0);
    expect(s.progressMax).toBeGreaterThan(0);
    // One WebGL context: the renderer's canvas is not even in the page, the cells are 2D canvases.
    expect(s.webglCanvases).toBe(0);
    await page.screenshot({ path: resultPath('gallery-seeds-1-12.png') });

    // Click the 5th cell → onOpen(5).
    await page.locator('.sr-gallery-cell[data-seed="5"]').click();
    expect((await state(page)).opened).toEqual([5]);

    // Next page: seeds 13–24, onPage(13).
    await page.locator('.sr-gallery-page', { hasText: 'next' }).click();
    s = await state(page);
    expect(s.paged).toEqual([13]);
    expect(s.start).toBe(13);
    expect(s.cells.map((c) => c.seed)).toEqual([13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]);
    await waitReady(page);
    s = await state(page);
    expect(s.jobsSubmitted).toBe(24);
    expect(s.cells.every((c) => c.state === 'done')).toBe(true);

    // Back to page 1: every thumbnail from the cache, drawn at once, no new job.
    await page.locator('.sr-gallery-page', { hasText: 'previous' }).click();
    s = await state(page);
    expect(s.paged).toEqual([13, 1]);
    expect(s.ready).toBe(true);
    expect(s.jobsSubmitted).toBe(24);
    expect(s.cache.hits).toBe(12);
    expect(s.cells.every((c) => c.state === 'done' && c.lumaStdDev > 0.03)).toBe(true);
    expect(log.errors).toEqual([]);
  });

  it('quality high: each thumbnail drawn with its own BodyMaterial (compiled async), still lit', async () => {
    const { page, log } = await open({ start: 1, count: 3, quality: 'high', thumbPx: 192, cells: 64 });
    const ms = await waitReady(page);
    const s = await state(page);
    console.log(`gallery 1–3 (192 px, 64 cells, high): ${ms} ms`);
    for (const c of s.cells) {
      expect(c.state).toBe('done');
      expect(c.lumaStdDev, `seed ${c.seed} luma spread`).toBeGreaterThan(0.03);
      expect(c.litFraction).toBeGreaterThan(0.03);
    }
    await page.screenshot({ path: resultPath('gallery-seeds-1-3-high.png'), clip: { x: 0, y: 0, width: 900, height: 330 } });
    expect(log.errors).toEqual([]);
  });

  it('thumbnails are deterministic: the same seed gives the same pixels in a fresh page', async () => {
    const hashes: string[] = [];
    for (let run = 0; run < 2; run++) {
      const { page } = await open({ start: 7, count: 2, thumbPx: 128, cells: 32 });
      await waitReady(page);
      hashes.push(
        await page.evaluate(() => {
          let h = 0x811c9dc5;
          for (const c of document.querySelectorAll<HTMLCanvasElement>('.sr-gallery-cell canvas')) {
            const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
            for (let i = 0; i < d.length; i++) h = Math.imul(h ^ d[i], 0x01000193);
          }
          return (h >>> 0).toString(16);
        }),
      );
      await closePages();
    }
    expect(hashes[1]).toBe(hashes[0]);
  });
});

/** The App imports the Gallery once it is wired in (issue 8); until then mode=gallery shows the explorer. */

describe('gallery in the app (production build)', () => {
  it('mode=gallery fills its cells; a click opens mode=asteroid with that seed; Back returns to the gallery, no stats overlay over it', async () => {
    const preview = await startPreviewServer();
    try {
      const { page, log } = await newPage(browser, { width: 640, height: 480 });
      await page.goto(`${preview.url}/?mode=gallery&start=1&count=4`);
      await page.waitForFunction(() => window.__sr?.settled() === true, null, { timeout: 150_000, polling: 250 });
      await page.locator('.sr-gallery-cell[data-seed="3"]').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('mode'), { timeout: 60_000, interval: 250 }).toBe('asteroid');
      expect(new URL(page.url()).searchParams.get('seed')).toBe('3');
      await page.waitForFunction(() => window.__sr?.asteroids()[0]?.level === 0 || window.__sr?.settled() === true, null, { timeout: 150_000 });
      expect(await page.evaluate(() => window.__sr!.asteroids()[0].seed)).toBe(3);
      expect(await page.isVisible('.sr-stats')).toBe(true);
      await page.goBack();
      await expect.poll(() => new URL(page.url()).searchParams.get('mode'), { timeout: 60_000, interval: 250 }).toBe('gallery');
      // Thumbnails come back from the cache: the page is complete at once.
      await page.waitForFunction(() => document.querySelector<HTMLElement>('.sr-gallery')?.dataset.ready === 'true', null, { timeout: 10_000 });
      expect(await page.locator('.sr-gallery-cell').count()).toBe(4);
      // The asteroid's stats overlay went with its mode (issue 45: it stayed frozen over the gallery).
      expect(await page.isVisible('.sr-stats')).toBe(false);
      expect(log.errors).toEqual([]);
    } finally {
      await preview.close();
    }
  });

  it('kind=planets: planets from orbit captioned with seed and class; a click opens mode=planet with that seed', async () => {
    const preview = await startPreviewServer();
    try {
      const { page, log } = await newPage(browser, { width: 480, height: 360 });
      await page.goto(`${preview.url}/?mode=gallery&kind=planets&start=4&count=2`);
      await page.waitForFunction(() => window.__sr?.settled() === true, null, { timeout: 150_000, polling: 250 });
      const cells = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('.sr-gallery-cell')].map((el) => {
          const canvas = el.querySelector('canvas')!;
          const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
          let lit = 0, sum = 0, sum2 = 0;
          for (let i = 0; i < data.length; i += 4) {
            const y = (0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2]) / 255;
            sum += y;
            sum2 += y * y;
            if (y > 0.08) lit++;
          }
          const n = data.length / 4;
          return {
            seed: Number(el.dataset.seed), state: el.dataset.state, caption: el.querySelector('.sr-gallery-caption')!.textContent,
            litFraction: lit / n, lumaStdDev: Math.sqrt(Math.max(0, sum2 / n - (sum / n) ** 2)),
          };
        }),
      );
      console.log('planet gallery cells', JSON.stringify(cells));
      expect(await page.locator('.sr-gallery h1').textContent()).toBe('Planets 4 – 5');
      expect(cells.map((c) => c.seed)).toEqual([4, 5]);
      for (const c of cells) {
        expect(c.state).toBe('done');
        expect(c.caption).toBe(`seed ${c.seed}${PLANET_CLASS_LABELS[planetClassOf(c.seed)]}`);
        // A lit disc with a terminator on a dark background, not a blank cell.
        expect(c.litFraction, `seed ${c.seed} lit fraction`).toBeGreaterThan(0.1);
        expect(c.lumaStdDev, `seed ${c.seed} luma spread`).toBeGreaterThan(0.05);
      }
      await page.screenshot({ path: resultPath('gallery-planets-4-5.png') });

      await page.locator('.sr-gallery-cell[data-seed="5"]').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('mode'), { timeout: 60_000, interval: 250 }).toBe('planet');
      const params = new URL(page.url()).searchParams;
      expect(params.get('seed')).toBe('5');
      expect(params.get('kind')).toBeNull();
      expect(await page.evaluate(() => window.__sr!.planet() !== null)).toBe(true);
      expect(log.errors).toEqual([]);
    } finally {
      await preview.close();
    }
  });
});
