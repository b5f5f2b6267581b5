/**
 * Headless screenshots (and mesh exports) of the app:
 *
 *   npm run screenshot -- --seed 42 --mode explore|asteroid|planet|gallery --width 1920 --height 1080 --out shot.png
 *     [--scale 1…4] [--count <cells>] [--quality auto|low|high] [--export glb|obj] [--timeout <s>]
 *     [--altitude <m>]   (planet: the camera that high over the ground, looking at the horizon)
 *     [--cam px,py,pz,tx,ty,tz]   (planet: any camera in the planet's frame, the URL's `cam`)
 *     [--class <name>]   (planet: draw the seed's planet as that class, the URL's `class`)
 *     [--kind asteroids|planets]   (gallery: what the cells show, the URL's `kind`)
 *
 * Builds the app with Vite into a temp folder, serves it on 127.0.0.1, opens it in headless
 * Chromium at a width×height viewport, waits until generation is complete (the app's
 * readiness hooks, polled — never a fixed sleep) and writes the PNG:
 *
 * - `explore`: `?mode=screenshot&seed=S` (explore with the UI hidden and time frozen at 0),
 *   saved through `window.__sr.capture(w, h)`: the app renders at exactly that size (tiled
 *   past the GPU's limits);
 * - `asteroid`: `?mode=asteroid&seed=S&ui=0&t=0`, the same way;
 * - `planet`: `?mode=planet&seed=S&ui=0&t=0` (the LOD planet alone, from three radii), the same way
 *   once the planet's LOD is complete; with `--altitude <m>`, `cam=` puts the camera that high over
 *   the ground at the planet's pole looking at the level horizon, the sun to the side
 *   (src/scene/planetSurfaceView.ts); `--cam` passes a camera of your own (a cave, a coast), checked
 *   as the app checks the URL's; `--class <name>` adds `class=<name>`;
 * - `gallery`: `?mode=gallery&start=S&ui=0` (`&kind=planets` with `--kind planets`), a page
 *   screenshot once every cell is drawn.
 *
 * `--export glb|obj` also writes the asteroid in view as a mesh next to the PNG (same name,
 * the format's extension); when `--out` itself ends in `.glb`/`.obj` only the mesh is written.
 *
 * The same arguments on the same machine give the same PNG bytes (seeded generation, frozen
 * time and camera, deterministic readback and PNG encoding).
 *
 * Exit codes: 0 done, 1 failure (no Chromium, build or page error, timeout), 2 bad arguments.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { PLANET_CLASSES, parsePlanetClass, planetSurfaceView, type PlanetClass } from '../src/scene/index';
import { CAMERA_EXPECTED, GALLERY_KINDS, parseCamera, type GalleryKind } from '../src/app/urlState';
import { findChromium, launchChromium } from './chromium';
import { serveStatic } from './staticServer';

const ROOT = resolve(import.meta.dirname, '..');

export const SCREENSHOT_MODES = ['explore', 'asteroid', 'planet', 'gallery'] as const;
export type ScreenshotMode = (typeof SCREENSHOT_MODES)[number];
export const EXPORT_FORMATS = ['glb', 'obj'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** Smallest and largest side, pixels (the app caps captures at 16384; Chromium viewports too). */
export const MIN_SIDE_PX = 16;
export const MAX_SIDE_PX = 16384;

export const USAGE = `usage: npm run screenshot -- [--seed <0…4294967295>] [--mode explore|screenshot|asteroid|planet|gallery]
         [--width <px>] [--height <px>] [--scale 1|2|3|4] [--out <file.png>] [--count <1…60>]
         [--quality auto|low|high] [--export glb|obj] [--timeout <seconds>] [--altitude <m> | --cam px,py,pz,tx,ty,tz (planet)]
         [--class ${PLANET_CLASSES.join('|')} (planet)] [--kind ${GALLERY_KINDS.join('|')} (gallery)]
--width/--height set the window (viewport); the PNG is --scale times that (default 1)
defaults: --seed 1 --mode explore --width 1920 --height 1080 --scale 1 --out sr-<mode>-seed<seed>-<w>x<h>.png`;

export interface ScreenshotArgs {
  seed: number;
  mode: ScreenshotMode;
  /** Window (viewport) size, CSS pixels. */
  widthPx: number;
  heightPx: number;
  /** PNG size = window size × scale (the app's "2× window" screenshots). */
  scale: number;
  /** PNG path, or null when only a mesh is written. */
  out: string | null;
  /** Gallery cells (the URL's `count`); null: the app's default. */
  count: number | null;
  quality: 'auto' | 'low' | 'high';
  export: { format: ExportFormat; out: string } | null;
  timeoutS: number;
  /** Planet mode: the camera this high over the ground, looking at the horizon; null: the orbit view. */
  altitudeM: number | null;
  /** Planet mode: a camera of its own, `cam=`'s six numbers (position, target); null: none. */
  camera: readonly number[] | null;
  /** Planet mode: the class to draw the planet as (`class=`); null: the seed's own. */
  planetClass: PlanetClass | null;
  /** Gallery: what the cells show (`kind=`). */
  kind: GalleryKind;
  help: boolean;
}

/** Bad command-line arguments: the message is shown with the usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

const FLAGS = ['seed', 'mode', 'width', 'height', 'scale', 'out', 'count', 'quality', 'export', 'timeout', 'altitude', 'cam', 'class', 'kind'] as const;

function wholeNumber(flag: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`--${flag} must be a whole number, got "${value}"`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`--${flag} must be from ${min} to ${max}, got ${value}`);
  return n;
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}, got "${value}"`);
  }
  return value as T;
}

/** Parses the command line (`process.argv.slice(2)`); throws {@link UsageError}. */
export function parseScreenshotArgs(argv: readonly string[]): ScreenshotArgs {
  const values = new Map<string, string>();
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m) throw new UsageError(`unexpected argument "${arg}"`);
    const flag = m[1];
    if (!(FLAGS as readonly string[]).includes(flag)) throw new UsageError(`unknown flag --${flag}`);
    let value = m[2];
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`--${flag} needs a value`);
      value = next;
      i++;
    }
    if (values.has(flag)) throw new UsageError(`--${flag} given twice`);
    values.set(flag, value);
  }
  const get = (flag: string): string | undefined => values.get(flag);
  const seed = get('seed') !== undefined ? wholeNumber('seed', get('seed')!, 0, 0xffffffff) : 1;
  // 'screenshot' is the app's URL mode of the same view as --mode explore (README): an alias.
  const modeArg = get('mode') === 'screenshot' ? 'explore' : get('mode');
  const mode = modeArg !== undefined ? oneOf('mode', modeArg, SCREENSHOT_MODES) : 'explore';
  const widthPx = get('width') !== undefined ? wholeNumber('width', get('width')!, MIN_SIDE_PX, MAX_SIDE_PX) : 1920;
  const heightPx = get('height') !== undefined ? wholeNumber('height', get('height')!, MIN_SIDE_PX, MAX_SIDE_PX) : 1080;
  const scale = get('scale') !== undefined ? wholeNumber('scale', get('scale')!, 1, 4) : 1;
  if (widthPx * scale > MAX_SIDE_PX || heightPx * scale > MAX_SIDE_PX) {
    throw new UsageError(`--width/--height × --scale must stay within ${MAX_SIDE_PX} pixels`);
  }
  const count = get('count') !== undefined ? wholeNumber('count', get('count')!, 1, 60) : null;
  if (count !== null && mode !== 'gallery') throw new UsageError('--count only applies to --mode gallery');
  const quality = get('quality') !== undefined ? oneOf('quality', get('quality')!, ['auto', 'low', 'high'] as const) : 'auto';
  const timeoutS = get('timeout') !== undefined ? wholeNumber('timeout', get('timeout')!, 1, 3600) : 600;
  const altitudeM = get('altitude') !== undefined ? wholeNumber('altitude', get('altitude')!, 1, 10_000_000) : null;
  if (altitudeM !== null && mode !== 'planet') throw new UsageError('--altitude only applies to --mode planet');
  const camArg = get('cam');
  const parsedCamera = camArg !== undefined ? parseCamera(camArg) : null;
  if (camArg !== undefined && parsedCamera === null) throw new UsageError(`--cam must be ${CAMERA_EXPECTED}, got "${camArg}"`);
  if (parsedCamera !== null && mode !== 'planet') throw new UsageError('--cam only applies to --mode planet');
  if (parsedCamera !== null && altitudeM !== null) throw new UsageError('--cam and --altitude both place the camera: give one');
  const camera = parsedCamera ? [...parsedCamera.position, ...parsedCamera.target] : null;
  const classArg = get('class');
  const planetClass = classArg !== undefined ? parsePlanetClass(classArg) : null;
  if (classArg !== undefined && planetClass === null) throw new UsageError(`--class must be one of ${PLANET_CLASSES.join(', ')}, got "${classArg}"`);
  if (planetClass !== null && mode !== 'planet') throw new UsageError('--class only applies to --mode planet');
  const kind = get('kind') !== undefined ? oneOf('kind', get('kind')!, GALLERY_KINDS) : 'asteroids';
  if (get('kind') !== undefined && mode !== 'gallery') throw new UsageError('--kind only applies to --mode gallery');
  const format = get('export') !== undefined ? oneOf('export', get('export')!, EXPORT_FORMATS) : null;
  if (format && (mode === 'gallery' || mode === 'planet')) throw new UsageError(`--export needs --mode explore or asteroid (${mode === 'planet' ? 'planet chunks are not exported' : 'the gallery has no asteroid in view'})`);

  const variant = planetClass ?? (kind === 'planets' ? 'planets' : null);
  const outArg = get('out') ?? `sr-${mode}${variant ? `-${variant}` : ''}-seed${seed}-${widthPx * scale}x${heightPx * scale}.png`;
  if (outArg === '') throw new UsageError('--out needs a file name');
  const outExt = extname(outArg).toLowerCase();
  let out: string | null = outArg;
  let exportOut: string | null = null;
  if (format) {
    if (outExt === '.glb' || outExt === '.obj') {
      if (outExt !== `.${format}`) throw new UsageError(`--out ${outArg} does not match --export ${format}`);
      out = null;
      exportOut = outArg;
    } else {
      exportOut = (outExt ? outArg.slice(0, -outExt.length) : outArg) + `.${format}`;
    }
  } else if (outExt !== '.png') {
    throw new UsageError(`--out must end in .png (or .glb/.obj with --export), got "${outArg}"`);
  }
  return {
    seed,
    mode,
    widthPx,
    heightPx,
    scale,
    out: out && resolve(out),
    count,
    quality,
    export: format ? { format, out: resolve(exportOut!) } : null,
    timeoutS,
    altitudeM,
    camera,
    planetClass,
    kind,
    help,
  };
}

/** The page the mode opens (relative to the served build). */
export function screenshotUrl(
  args: Pick<ScreenshotArgs, 'seed' | 'mode' | 'count' | 'quality'> & Partial<Pick<ScreenshotArgs, 'altitudeM' | 'camera' | 'planetClass' | 'kind'>>,
): string {
  const params = new URLSearchParams();
  if (args.mode === 'explore') {
    params.set('mode', 'screenshot');
    params.set('seed', String(args.seed));
  } else if (args.mode === 'asteroid' || args.mode === 'planet') {
    params.set('mode', args.mode);
    params.set('seed', String(args.seed));
    params.set('ui', '0');
    params.set('t', '0');
    // A picture is full detail however long it takes: no time budget (src/lod/timeFactor.ts).
    if (args.mode === 'planet') params.set('lodTime', '0');
  } else {
    params.set('mode', 'gallery');
    params.set('seed', String(args.seed));
    if (args.kind === 'planets') params.set('kind', 'planets');
    params.set('start', String(args.seed));
    if (args.count !== null) params.set('count', String(args.count));
    params.set('ui', '0');
  }
  if (args.mode === 'planet' && args.planetClass) params.set('class', args.planetClass);
  if (args.quality !== 'auto') params.set('quality', args.quality);
  if (args.mode === 'planet' && args.altitudeM != null) {
    const view = planetSurfaceView(args.seed, args.altitudeM, args.planetClass ? { planetClass: args.planetClass } : {});
    params.set('cam', [...view.position, ...view.target].map((v) => Number(v.toFixed(4))).join(','));
  } else if (args.mode === 'planet' && args.camera) {
    params.set('cam', args.camera.join(','));
  }
  return `/index.html?${params.toString().replace(/%2C/g, ',')}`;
}

type Log = (line: string) => void;

/** Waits until the page says generation is complete (polled in the page; no fixed sleep). */
async function waitReady(page: Page, mode: ScreenshotMode, timeoutMs: number, pageErrors: string[]): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await page.evaluate((galleryMode) => {
      const sr = window.__sr;
      if (!sr) return { ready: false, fatal: null as string | null, why: 'the app has not started' };
      if (sr.fatal) return { ready: false, fatal: sr.fatal, why: '' };
      if (galleryMode) {
        // The gallery's own readiness (src/app/Gallery.ts sets data-ready on its root).
        const root = document.querySelector<HTMLElement>('.sr-gallery');
        const failed = document.querySelectorAll('.sr-gallery-cell[data-state="failed"]').length;
        if (failed > 0) return { ready: false, fatal: `${failed} gallery cell(s) failed to render`, why: '' };
        return { ready: root?.dataset.ready === 'true', fatal: null, why: root ? 'cells still rendering' : 'no gallery on the page' };
      }
      return { ready: sr.settled(), fatal: null, why: 'generation not settled' };
    }, mode === 'gallery');
    if (state.fatal) throw new Error(`the app cannot render: ${state.fatal}`);
    if (pageErrors.length > 0) throw new Error(`the page failed: ${pageErrors[0]}`);
    if (state.ready) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s: ${state.why}`);
    await page.waitForTimeout(250);
  }
}

/** Builds, serves, renders and writes the files. Returns the paths written. */
export async function runScreenshot(args: ScreenshotArgs, log: Log = console.log): Promise<string[]> {
  findChromium(); // fail before the build when there is no browser
  const { build } = await import('vite');
  const outDir = mkdtempSync(join(tmpdir(), 'sr-shot-'));
  const written: string[] = [];
  try {
    const t0 = Date.now();
    await build({ root: ROOT, configFile: join(ROOT, 'vite.config.ts'), logLevel: 'error', build: { outDir, emptyOutDir: true } });
    log(`built the app in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const server = await serveStatic(outDir);
    const browser = await launchChromium();
    try {
      // The gallery is HTML: a scaled page screenshot is a higher device-pixel ratio. The 3D
      // modes render the capture at the scaled size themselves, from a DPR-1 window.
      const dpr = args.mode === 'gallery' ? args.scale : 1;
      const context = await browser.newContext({ viewport: { width: args.widthPx, height: args.heightPx }, deviceScaleFactor: dpr });
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (e) => pageErrors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') log(`[page ${m.type()}] ${m.text()}`);
      });
      const url = `${server.url}${screenshotUrl(args)}`;
      log(`opening ${url} at ${args.widthPx}×${args.heightPx}${args.scale > 1 ? `, saving ${args.scale}×` : ''}`);
      await page.goto(url);
      const t1 = Date.now();
      await waitReady(page, args.mode, args.timeoutS * 1000, pageErrors);
      log(`generation complete in ${((Date.now() - t1) / 1000).toFixed(1)} s`);

      if (args.out) {
        let png: Buffer;
        if (args.mode === 'gallery') {
          // The grid scrolls inside the window: grow the window to the grid's full height (within
          // the capture limit) so every cell is in the PNG, not only those above the fold.
          const fullPx = await page.evaluate(() => document.querySelector('.sr-gallery')?.scrollHeight ?? 0);
          const heightPx = Math.min(Math.max(fullPx, args.heightPx), Math.floor(MAX_SIDE_PX / dpr));
          if (heightPx > args.heightPx) {
            await page.setViewportSize({ width: args.widthPx, height: heightPx });
            await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
            log(`gallery: the grid is ${fullPx} px tall; captured ${args.widthPx}×${heightPx}${fullPx > heightPx ? ` (cut at the ${MAX_SIDE_PX} px limit)` : ''}`);
          }
          png = await page.screenshot({ type: 'png', timeout: args.timeoutS * 1000 });
        } else {
          const size = [args.widthPx * args.scale, args.heightPx * args.scale] as const;
          const shot = await page.evaluate(([w, h]) => window.__sr!.capture(w, h), size);
          if (shot.capped) log(`warning: ${shot.capped}`);
          png = Buffer.from(shot.base64, 'base64');
          log(`app file name: ${shot.name}`);
        }
        writeFileSync(args.out, png);
        written.push(args.out);
      }
      if (args.export) {
        const mesh = await page.evaluate(async (format) => {
          const hook = (window.__sr as { exportMesh?: (f: string) => Promise<{ base64: string; name: string; triangles: number }> } | undefined)
            ?.exportMesh;
          if (!hook) return null;
          return hook(format);
        }, args.export.format);
        if (!mesh) throw new Error('this build of the app has no window.__sr.exportMesh hook, so it cannot export meshes');
        writeFileSync(args.export.out, Buffer.from(mesh.base64, 'base64'));
        log(`mesh: ${mesh.triangles} triangles (${mesh.name})`);
        written.push(args.export.out);
      }
      await context.close();
    } finally {
      await browser.close();
      server.close();
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
  return written;
}

async function main(): Promise<number> {
  let args: ScreenshotArgs;
  try {
    args = parseScreenshotArgs(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`screenshot: ${e.message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  try {
    for (const path of [args.out, args.export?.out]) if (path) checkFolder(path);
    const written = await runScreenshot(args);
    for (const path of written) console.log(`wrote ${path}`);
    return 0;
  } catch (e) {
    console.error(`screenshot: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

/** Fails early (before the build and the render) when the output folder is missing. */
function checkFolder(path: string): void {
  if (!existsSync(dirname(path))) throw new Error(`the folder of ${path} does not exist`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  void main().then((code) => process.exit(code));
}
