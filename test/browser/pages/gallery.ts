/**
 * Page-side set-up for test/browser/gallery.test.ts (dev server, srImport): the Gallery on
 * its own, with App's renderer and frame output, a JS-worker BodyMesher and a Progress —
 * what App passes it once wired.
 */
import type { WebGLRenderer } from 'three';
import { Gallery, clearGalleryCache, galleryCacheStats, type GalleryQuality } from '../../../src/app/Gallery';
import { Progress } from '../../../src/app/progress';
import { createRenderer } from '../../../src/app/renderer';
import { FrameOutput } from '../../../src/render/FrameOutput';
import { BodyMesher } from '../../../src/workers/BodyMesher';

interface Env {
  gallery: Gallery;
  renderer: WebGLRenderer;
  output: FrameOutput;
  mesher: BodyMesher;
  progress: Progress;
  opened: number[];
  paged: number[];
  progressMax: number;
}

let env: Env | null = null;

export function openGallery(options: { start: number; count: number; quality?: GalleryQuality; thumbPx?: number; cells?: 32 | 64 }): void {
  clearGalleryCache();
  const container = document.createElement('div');
  container.style.cssText = 'position:fixed;inset:0';
  document.body.style.margin = '0';
  document.body.style.background = '#000';
  document.body.appendChild(container);
  const renderer = createRenderer();
  renderer.setSize(640, 480, false);
  const output = new FrameOutput(renderer);
  const mesher = new BodyMesher({ sampling: 'js-worker' });
  const progress = new Progress();
  const opened: number[] = [];
  const paged: number[] = [];
  const gallery = new Gallery({
    container,
    renderer,
    output,
    mesher,
    progress,
    start: options.start,
    count: options.count,
    quality: options.quality ?? 'low',
    thumbPx: options.thumbPx,
    cells: options.cells,
    onOpen: (seed) => opened.push(seed),
    onPage: (start) => paged.push(start),
  });
  env = { gallery, renderer, output, mesher, progress, opened, paged, progressMax: 0 };
  // For page.waitForFunction (it cannot import modules).
  (window as { __galleryReady?: () => boolean }).__galleryReady = () => env?.gallery.ready() ?? false;
  progress.subscribe((s) => {
    if (env && s.active > 0) env.progressMax = Math.max(env.progressMax, s.fraction);
  });
}

/** Luminance spread and lit fraction of one cell's thumbnail (non-blank check). */
function measureCell(canvas: HTMLCanvasElement): { lumaStdDev: number; litFraction: number } {
  const ctx = canvas.getContext('2d')!;
  const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
  let sum = 0;
  let sum2 = 0;
  let lit = 0;
  const n = data.length / 4;
  for (let i = 0; i < data.length; i += 4) {
    const y = (0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2]) / 255;
    sum += y;
    sum2 += y * y;
    if (y > 0.08) lit++;
  }
  const mean = sum / n;
  return { lumaStdDev: Math.sqrt(Math.max(0, sum2 / n - mean * mean)), litFraction: lit / n };
}

export function galleryState() {
  const e = env!;
  const cells = [...document.querySelectorAll<HTMLElement>('.sr-gallery-cell')].map((el) => ({
    seed: Number(el.dataset.seed),
    state: el.dataset.state,
    caption: el.querySelector('.sr-gallery-caption')!.textContent,
    family: el.dataset.family,
    ...measureCell(el.querySelector('canvas')!),
  }));
  return {
    ready: e.gallery.ready(),
    rootReady: e.gallery.root.dataset.ready,
    start: e.gallery.pageStart,
    cells,
    jobsSubmitted: e.gallery.jobsSubmitted,
    cache: { ...galleryCacheStats },
    opened: [...e.opened],
    paged: [...e.paged],
    progress: e.progress.snapshot(),
    progressMax: e.progressMax,
    contexts: document.querySelectorAll('canvas').length,
    webglCanvases: [...document.querySelectorAll('canvas')].filter((c) => c === e.renderer.domElement).length,
  };
}

/** True when the gallery is ready (cheap: for waitForFunction). */
export function galleryReady(): boolean {
  return env?.gallery.ready() ?? false;
}

export function setPage(start: number): boolean {
  env!.gallery.setPage(start);
  return env!.gallery.ready();
}

export function closeGallery(): void {
  if (!env) return;
  env.gallery.dispose();
  env.mesher.dispose();
  env.output.dispose();
  env.renderer.dispose();
  env = null;
}
