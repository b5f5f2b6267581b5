/**
 * The gallery (`mode=gallery`): a responsive grid of thumbnails for seeds `start … start+count−1`,
 * of asteroids (asteroidThumbs.ts, the default) or planets (`kind=planets`, planetThumbs.ts), each
 * meshed by a body job on the workers and rendered with the real pipeline into the app's one
 * WebGL context, then copied into the cell's 2D canvas. No WebGL context per cell.
 *
 * Thumbnails go through the on-screen path (renderer resized to the thumbnail, drawn by the
 * app's FrameOutput to the default framebuffer, read back in the same task: galleryThumbs.ts),
 * like `captureView`: the same HDR target, MSAA, tone mapping and sRGB output as the explorer.
 * This file is the grid: cells, captions, paging, the progressive fill and the cache.
 */
import type { WebGLRenderer } from 'three';
import type { FrameOutput } from '../render/FrameOutput';
import type { BodyMesher } from '../workers/BodyMesher';
import type { Progress, ProgressTask } from './progress';
import { AsteroidThumbs, type GalleryQuality } from './asteroidThumbs';
import { PlanetThumbs } from './planetThumbs';
import type { ThumbJob, ThumbSource } from './galleryThumbs';
import type { GalleryKind } from './urlState';
import './gallery.css';

export type { GalleryQuality } from './asteroidThumbs';
export type { GalleryKind } from './urlState';

/** Thumbnail side, pixels (square; CSS scales the cell). */
export const GALLERY_THUMB_PX = 256;

export interface GalleryOptions {
  /** Element the gallery fills (it appends one root element and removes it on dispose). */
  container: HTMLElement;
  /** The app's renderer: every thumbnail is drawn with it (one WebGL context). */
  renderer: WebGLRenderer;
  /** The app's frame output (HDR target, tone mapping): thumbnails look as the explorer does. */
  output: FrameOutput;
  /** Body jobs (the app's mesher, on the sampling path the probe chose). */
  mesher: BodyMesher;
  /** The app's progress: one task per page fill. */
  progress: Progress;
  /** What the cells show: `asteroids` (default) or `planets`. */
  kind?: GalleryKind;
  /** First seed of the page. */
  start: number;
  /** Cells per page (1…60). */
  count: number;
  /** Asteroids: `high` draws BodyMaterial (per-pixel field detail), `low` the per-family standard material. */
  quality: GalleryQuality;
  /** A cell was clicked (or activated with the keyboard). */
  onOpen: (seed: number) => void;
  /** The user paged (prev/next): the new first seed, already shown. The app writes the URL. */
  onPage?: (start: number) => void;
  /** Thumbnail side in pixels; default {@link GALLERY_THUMB_PX}. */
  thumbPx?: number;
  /**
   * Asteroids: mesh cells per axis, 32 or 64 (default 64: a 256 px thumbnail needs ~50 at 5 px a
   * cell). Planets: cells per cube face (default 32, planetThumbs.ts).
   */
  cells?: 32 | 64;
  /** Show the header with the paging buttons (false for screenshots, `ui=0`); default true. */
  ui?: boolean;
}

/**
 * Thumbnails by their source's key (kind, seed, quality, size, cells), kept while the page is open
 * (module level, so a new Gallery after a mode switch still finds them). 256² RGBA is 256 KiB: 60
 * cells ≈ 15 MiB.
 */
const thumbCache = new Map<string, ImageData>();
const THUMB_CACHE_MAX = 240;

/** Cache statistics (tests and the debug overlay). */
export const galleryCacheStats = { hits: 0, misses: 0 };

/** Empties the thumbnail cache (tests). */
export function clearGalleryCache(): void {
  thumbCache.clear();
  galleryCacheStats.hits = 0;
  galleryCacheStats.misses = 0;
}

interface Cell {
  seed: number;
  element: HTMLButtonElement;
  canvas: HTMLCanvasElement;
  state: 'waiting' | 'meshing' | 'done' | 'failed';
  job: ThumbJob<unknown> | null;
}

/** Public state of one cell (tests, the CLI's readiness poll). */
export interface GalleryCellStatus {
  seed: number;
  /** The caption's second word: the asteroid's family, or the planet's class label. */
  label: string;
  state: Cell['state'];
}

/**
 * The grid, its paging header and the progressive fill. `setPage(start)` shows another page
 * (cancelling the old page's jobs); `ready()` is true once every cell is drawn or failed.
 */
export class Gallery {
  readonly root: HTMLElement;
  readonly kind: GalleryKind;
  /** Body jobs submitted (a cache hit submits none). */
  jobsSubmitted = 0;
  private readonly options: GalleryOptions;
  private readonly source: ThumbSource<unknown>;
  private readonly grid: HTMLElement;
  private readonly title: HTMLElement;
  private readonly prevButton: HTMLButtonElement;
  private readonly nextButton: HTMLButtonElement;
  private start: number;
  private page: Cell[] = [];
  private task: ProgressTask | null = null;
  /** Results waiting for their draw; drawn one per animation frame so the page stays responsive. */
  private readonly queue: { cell: Cell; result: unknown }[] = [];
  private drawing = false;
  private disposed = false;
  private generation = 0;

  constructor(options: GalleryOptions) {
    if (!Number.isInteger(options.count) || options.count < 1 || options.count > 60) {
      throw new RangeError(`gallery count must be 1…60, got ${options.count}`);
    }
    this.options = options;
    this.kind = options.kind ?? 'asteroids';
    const thumbPx = options.thumbPx ?? GALLERY_THUMB_PX;
    const { renderer, output, mesher } = options;
    this.source = this.kind === 'planets'
      ? new PlanetThumbs({ renderer, output, mesher, thumbPx, cells: options.cells })
      : new AsteroidThumbs({ renderer, output, mesher, thumbPx, quality: options.quality, cells: options.cells ?? 64 });
    this.start = options.start;

    this.root = document.createElement('div');
    this.root.className = 'sr-gallery';
    this.root.dataset.kind = this.kind;
    const header = document.createElement('header');
    header.className = 'sr-gallery-header';
    header.hidden = options.ui === false;
    this.prevButton = pagingButton('‹ previous', 'Previous page');
    this.nextButton = pagingButton('next ›', 'Next page');
    this.title = document.createElement('h1');
    header.append(this.prevButton, this.title, this.nextButton);
    this.grid = document.createElement('div');
    this.grid.className = 'sr-gallery-grid';
    this.grid.setAttribute('role', 'list');
    this.root.append(header, this.grid);
    // First child: above the app's canvas (the root is positioned, the canvas is not), below
    // its UI layer (progress bar, notices), which comes later in the same stacking context.
    options.container.prepend(this.root);

    this.prevButton.addEventListener('click', () => this.turnPage(-1));
    this.nextButton.addEventListener('click', () => this.turnPage(1));
    this.grid.addEventListener('click', this.onClick);
    this.setPage(options.start);
  }

  /** Cells per page. */
  get pageSize(): number {
    return this.options.count;
  }

  /** First seed shown. */
  get pageStart(): number {
    return this.start;
  }

  /** Shows the page starting at `start` (does not call `onPage`: the caller already knows). */
  setPage(start: number): void {
    const count = this.options.count;
    const first = Math.max(0, Math.min(0xffffffff - count + 1, Math.floor(start)));
    this.cancelPage();
    this.start = first;
    this.generation++;
    this.title.textContent = `${this.source.title} ${first} – ${first + count - 1}`;
    this.prevButton.disabled = first === 0;
    this.nextButton.disabled = first + count > 0xffffffff;
    this.grid.replaceChildren();
    this.page = [];
    for (let i = 0; i < count; i++) this.page.push(this.createCell(first + i));
    this.grid.append(...this.page.map((c) => c.element));

    const missing = this.page.filter((c) => !this.fromCache(c));
    if (missing.length > 0) {
      this.task = this.options.progress.begin('rendering gallery', missing.length);
      // First cells first: the page fills in reading order.
      missing.forEach((cell, i) => this.request(cell, missing.length - i));
    }
    this.updateReady();
  }

  /** Every cell of the page drawn (or failed): what a screenshot waits for. */
  ready(): boolean {
    return this.page.every((c) => c.state === 'done' || c.state === 'failed');
  }

  status(): GalleryCellStatus[] {
    return this.page.map((c) => ({ seed: c.seed, label: c.element.dataset.label ?? '', state: c.state }));
  }

  private turnPage(direction: 1 | -1): void {
    const next = this.start + direction * this.options.count;
    if (next < 0 || next > 0xffffffff) return;
    this.setPage(next);
    this.options.onPage?.(this.start);
  }

  private readonly onClick = (event: MouseEvent): void => {
    const cell = (event.target as HTMLElement).closest<HTMLElement>('.sr-gallery-cell');
    if (!cell || !this.grid.contains(cell)) return;
    this.options.onOpen(Number(cell.dataset.seed));
  };

  private createCell(seed: number): Cell {
    const element = document.createElement('button');
    element.type = 'button';
    element.className = 'sr-gallery-cell';
    element.dataset.seed = String(seed);
    element.dataset.state = 'waiting';
    element.setAttribute('role', 'listitem');
    element.setAttribute('aria-label', this.source.ariaLabel(seed));
    const canvas = document.createElement('canvas');
    const px = this.options.thumbPx ?? GALLERY_THUMB_PX;
    canvas.width = canvas.height = px;
    const caption = document.createElement('span');
    caption.className = 'sr-gallery-caption';
    const label = this.source.label(seed);
    element.dataset.label = label;
    if (this.kind === 'asteroids') element.dataset.family = label;
    const seedText = document.createElement('b');
    seedText.textContent = `seed ${seed}`;
    const labelText = document.createElement('span');
    labelText.textContent = label;
    caption.append(seedText, labelText);
    element.append(canvas, caption);
    return { seed, element, canvas, state: 'waiting', job: null };
  }

  private fromCache(cell: Cell): boolean {
    const image = thumbCache.get(this.source.cacheKey(cell.seed));
    if (!image) return false;
    galleryCacheStats.hits++;
    this.show(cell, image);
    return true;
  }

  private request(cell: Cell, priority: number): void {
    galleryCacheStats.misses++;
    cell.state = 'meshing';
    cell.element.dataset.state = 'meshing';
    const job = this.source.request(cell.seed, priority);
    cell.job = job;
    this.jobsSubmitted++;
    const generation = this.generation;
    job.promise.then(
      (result) => {
        if (generation !== this.generation || this.disposed) return;
        cell.job = null;
        this.queue.push({ cell, result });
        this.pump();
      },
      (error: unknown) => {
        if (generation !== this.generation || this.disposed) return; // cancelled with its page
        cell.job = null;
        this.fail(cell, error);
      },
    );
  }

  /** Draws queued thumbnails, one per animation frame. */
  private pump(): void {
    if (this.drawing || this.queue.length === 0) return;
    this.drawing = true;
    requestAnimationFrame(() => {
      const item = this.queue.shift()!;
      const generation = this.generation;
      const key = this.source.cacheKey(item.cell.seed);
      void this.source
        .draw(item.cell.seed, item.result)
        .then(
          (image) => {
            if (this.disposed) return;
            thumbCache.set(key, image);
            if (thumbCache.size > THUMB_CACHE_MAX) thumbCache.delete(thumbCache.keys().next().value!);
            if (generation !== this.generation) return;
            this.show(item.cell, image);
            this.task?.advance();
            this.updateReady();
          },
          (error: unknown) => {
            if (!this.disposed && generation === this.generation) this.fail(item.cell, error);
          },
        )
        .finally(() => {
          this.drawing = false;
          if (!this.disposed) this.pump();
        });
    });
  }

  private show(cell: Cell, image: ImageData): void {
    const ctx = cell.canvas.getContext('2d');
    ctx?.putImageData(image, 0, 0);
    cell.state = 'done';
    cell.element.dataset.state = 'done';
  }

  private fail(cell: Cell, error: unknown): void {
    cell.state = 'failed';
    cell.element.dataset.state = 'failed';
    const message = error instanceof Error ? error.message : String(error);
    cell.element.title = `failed: ${message}`;
    this.task?.advance();
    this.updateReady();
  }

  private updateReady(): void {
    const ready = this.ready();
    this.root.dataset.ready = String(ready);
    if (ready && this.task) {
      this.task.finish();
      this.task = null;
    }
  }

  private cancelPage(): void {
    for (const c of this.page) c.job?.cancel();
    this.queue.length = 0;
    this.task?.finish();
    this.task = null;
  }

  dispose(): void {
    this.disposed = true;
    this.cancelPage();
    this.generation++;
    this.source.dispose();
    this.root.remove();
  }
}

function pagingButton(text: string, label: string): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'sr-gallery-page';
  b.textContent = text;
  b.setAttribute('aria-label', label);
  return b;
}
