/**
 * Real-browser test harness: the system Chromium (Debian's `chromium`, never a browser a
 * test tool downloads) driven by playwright-core, against a Vite server on 127.0.0.1.
 *
 * - `startDevServer()` serves the source tree (fast; pages can `import('/src/...')`).
 * - `startPreviewServer()` builds the production app into a temp folder and serves it,
 *   for end-to-end tests of what users get.
 * - `launchChromium()` starts headless Chromium with WebGL2 on SwiftShader here (or the
 *   real GPU elsewhere) and fails with an install hint when no Chromium is found.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { createServer, preview, type PreviewServer, type ViteDevServer } from 'vite';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';

export const ROOT = resolve(import.meta.dirname, '../..');
export const RESULTS_DIR = join(ROOT, 'test-results');

// Finding and launching Chromium is shared with `npm run bench` and `npm run screenshot`.
import { launchChromium } from '../../scripts/chromium';

export { CHROMIUM_ARGS, findChromium, launchChromium } from '../../scripts/chromium';

export interface Served {
  url: string;
  close(): Promise<void>;
}

/** Vite dev server over the source tree on a free port of 127.0.0.1. */
export async function startDevServer(): Promise<Served> {
  const server: ViteDevServer = await createServer({
    root: ROOT,
    configFile: join(ROOT, 'vite.config.ts'),
    logLevel: 'error',
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, watch: null },
    optimizeDeps: { noDiscovery: false },
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('dev server has no address');
  return { url: `http://127.0.0.1:${address.port}`, close: () => server.close() };
}

/** The run's production build (made once by buildOnce.ts), served by `vite preview` on a free port. */
export async function startPreviewServer(): Promise<Served> {
  const outDir = inject('previewDir');
  const server: PreviewServer = await preview({
    root: ROOT,
    configFile: join(ROOT, 'vite.config.ts'),
    logLevel: 'error',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false },
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('preview server has no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((done) => server.httpServer.close(() => done())),
  };
}

const openContexts = new Set<BrowserContext>();

/**
 * Closes every page opened by {@link newPage}. Call it in `afterEach`: a page left open keeps
 * rendering in the background and, on SwiftShader, slows every later test.
 */
export async function closePages(): Promise<void> {
  await Promise.all([...openContexts].map((c) => c.close()));
}

export interface PageLog {
  errors: string[];
  console: string[];
}

/**
 * A new page (fresh context) that records console errors and uncaught exceptions.
 * `viewport` defaults to 800×600 at DPR 1 (small: SwiftShader is slow).
 */
export async function newPage(
  browser: Browser,
  viewport = { width: 800, height: 600 },
  deviceScaleFactor = 1,
): Promise<{ page: Page; log: PageLog }> {
  const context = await browser.newContext({ viewport, deviceScaleFactor });
  openContexts.add(context);
  context.on('close', () => openContexts.delete(context));
  const page = await context.newPage();
  const log: PageLog = { errors: [], console: [] };
  page.on('console', (msg: ConsoleMessage) => {
    const line = `[${msg.type()}] ${msg.text()}`;
    log.console.push(line);
    if (msg.type() === 'error') log.errors.push(line);
  });
  page.on('pageerror', (err) => log.errors.push(`[pageerror] ${err.message}`));
  return { page, log };
}

/**
 * Runs `wait` while the app's frames update the scene but draw nothing (`__sr.draw(false)`), then
 * draws again (two frames) whether it succeeded or not. For waits on what workers build — meshes
 * generated, a planet completed — where the check comes after the wait: SwiftShader's draws would
 * take the two cores from the body worker (explore seed 1 generated in ~half the time undrawn).
 * Frames drawn before the wait (two) leave what the first frame compiles compiled.
 */
export async function undrawn<T>(page: Page, wait: () => Promise<T>): Promise<T> {
  const twoFrames = () => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.waitForFunction(() => window.__sr?.app !== undefined && window.__sr.app !== null, null, { timeout: 120_000, polling: 100 });
  const drew = await page.evaluate(() => window.__sr!.draw());
  await twoFrames();
  if (drew) await page.evaluate(() => window.__sr!.draw(false));
  try {
    return await wait();
  } finally {
    if (drew) {
      await page.evaluate(() => window.__sr!.draw(true));
      await twoFrames();
    }
  }
}

/** `test-results/<name>`, creating the folder. */
export function resultPath(name: string): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  return join(RESULTS_DIR, name);
}

/**
 * Opens a blank page of the dev server, ready for
 * `page.evaluate(async () => (await srImport('/src/...')).fn())` (`srImport` is defined by the
 * page: Vitest would rewrite a literal `import()` inside the callback).
 */
export async function openBlankPage(browser: Browser, server: Served): Promise<{ page: Page; log: PageLog }> {
  const opened = await newPage(browser);
  await opened.page.goto(`${server.url}/test/browser/pages/blank.html`);
  return opened;
}

/**
 * The per-file set-up every browser test shares: Chromium and a server (`dev` for pages that
 * import /src modules, `preview` for the production build) started once, pages closed after
 * each test, both shut down at the end. `ready` receives them once they are up.
 */
export function useBrowser(kind: 'dev' | 'preview', ready: (browser: Browser, server: Served) => void): void {
  let browser: Browser | undefined;
  let server: Served | undefined;
  beforeAll(async () => {
    const [b, s] = await Promise.all([launchChromium(), kind === 'dev' ? startDevServer() : startPreviewServer()]);
    browser = b;
    server = s;
    ready(b, s);
  });
  afterEach(closePages);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
}

/**
 * A dev-server suite whose tests each open a blank page (`await pages.open()`): the page's
 * console must stay free of errors, checked after each test before the page is closed.
 */
export function useBlankPages(): { open(): Promise<Page> } {
  let browser: Browser;
  let server: Served;
  let log: PageLog | null = null;
  useBrowser('dev', (b, s) => ([browser, server] = [b, s]));
  afterEach(() => {
    const errors = log?.errors ?? [];
    log = null;
    expect(errors, 'no console errors').toEqual([]);
  });
  return {
    async open() {
      const opened = await openBlankPage(browser, server);
      log = opened.log;
      return opened.page;
    },
  };
}
