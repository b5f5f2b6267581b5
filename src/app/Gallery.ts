/**
 * The asteroid gallery (`mode=gallery`): a responsive grid of thumbnails for seeds
 * `start … start+count−1`, each rendered with the real pipeline — the body job on the
 * workers, the Sun with its shadow map, BodyMaterial at high quality or the per-family
 * standard material otherwise — into the app's one WebGL context, then copied into the
 * cell's 2D canvas. No WebGL context per cell.
 *
 * Thumbnails go through the on-screen path (renderer resized to the thumbnail, drawn by the
 * app's FrameOutput to the default framebuffer, read back in the same task), like `captureView`:
 * the same HDR target, MSAA, tone mapping and sRGB output as what the explorer shows.
 *
 * Deterministic: the mesh is a pure function of the seed, the camera and the sun are frozen
 * per seed, and nothing depends on time.
 */
import {
  Color,
  HemisphereLight,
  Mesh,
  PerspectiveCamera,
  Scene,
  Sphere,
  Vector2,
  Vector3,
  type Material,
  type WebGLRenderer,
} from 'three';
import { BodyMaterial, bodyMaterialField } from '../render/BodyMaterial';
import { FamilyMaterials } from '../render/familyMaterial';
import { Sun } from '../render/Sun';
import { createBodyGeometry } from '../render/bodyGeometry';
import { compileForFrames, type FrameOutput } from '../render/FrameOutput';
import { frameMesh } from '../render/frameMesh';
import { asteroidGrid, sceneSpec, type AsteroidSpec } from '../scene/index';
import type { BodyMeshResult } from '../workers/bodyJob';
import type { BodyJob, BodyMesher } from '../workers/BodyMesher';
import type { Progress, ProgressTask } from './progress';
import { flipRows } from './screenshot';
import './gallery.css';
import { BODY_SIMPLIFY } from '../mesher/index';

/** Thumbnail side, pixels (square; CSS scales the cell). */
export const GALLERY_THUMB_PX = 256;
/** Vertical field of view of the frozen thumbnail camera, degrees. */
const THUMB_FOV_DEG = 30;
/** How much of the frame height the bounding sphere fills. */
const FILL = 0.86;
const BACKGROUND = new Color(0x06080c);

export type GalleryQuality = 'low' | 'high';

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
  /** First seed of the page. */
  start: number;
  /** Cells per page (1…60). */
  count: number;
  /** `high`: BodyMaterial (per-pixel field detail); `low`: the per-family standard material. */
  quality: GalleryQuality;
  /** A cell was clicked (or activated with the keyboard). */
  onOpen: (seed: number) => void;
  /** The user paged (prev/next): the new first seed, already shown. The app writes the URL. */
  onPage?: (start: number) => void;
  /** Thumbnail side in pixels; default {@link GALLERY_THUMB_PX}. */
  thumbPx?: number;
  /** Mesh cells per axis: 32 or 64 (default 64: a 256 px thumbnail needs ~50 at 5 px a cell). */
  cells?: 32 | 64;
  /** Show the header with the paging buttons (false for screenshots, `ui=0`); default true. */
  ui?: boolean;
}

/** A rendered thumbnail: pixels and the family shown in the caption. */
interface Thumb {
  image: ImageData;
  family: string;
}

/**
 * Thumbnails by `seed:quality:size:cells`, kept while the page is open (module level, so a
 * new Gallery after a mode switch still finds them). 256² RGBA is 256 KiB: 60 cells ≈ 15 MiB.
 */
const thumbCache = new Map<string, Thumb>();
const THUMB_CACHE_MAX = 240;

/** Cache statistics (tests and the debug overlay). */
export const galleryCacheStats = { hits: 0, misses: 0 };

/** Empties the thumbnail cache (tests). */
export function clearGalleryCache(): void {
  thumbCache.clear();
  galleryCacheStats.hits = 0;
  galleryCacheStats.misses = 0;
}

function cacheKey(seed: number, quality: GalleryQuality, px: number, cells: number): string {
  return `${seed}:${quality}:${px}:${cells}`;
}

interface Cell {
  seed: number;
  element: HTMLButtonElement;
  canvas: HTMLCanvasElement;
  caption: HTMLElement;
  state: 'waiting' | 'meshing' | 'done' | 'failed';
  job: BodyJob | null;
}

/** Public state of one cell (tests, the CLI's readiness poll). */
export interface GalleryCellStatus {
  seed: number;
  family: string;
  state: Cell['state'];
}

/**
 * The grid, its paging header and the progressive fill. `setPage(start)` shows another page
 * (cancelling the old page's jobs); `ready()` is true once every cell is drawn or failed.
 */
export class Gallery {
  readonly root: HTMLElement;
  /** Body jobs submitted (a cache hit submits none). */
  jobsSubmitted = 0;
  private readonly options: GalleryOptions;
  private readonly grid: HTMLElement;
  private readonly title: HTMLElement;
  private readonly prevButton: HTMLButtonElement;
  private readonly nextButton: HTMLButtonElement;
  private readonly thumbPx: number;
  private readonly cells: number;
  private start: number;
  private page: Cell[] = [];
  private task: ProgressTask | null = null;
  /** Results waiting for their draw; drawn one per animation frame so the page stays responsive. */
  private readonly queue: { cell: Cell; spec: AsteroidSpec; result: BodyMeshResult }[] = [];
  private drawing = false;
  private disposed = false;
  private generation = 0;
  /** Per-family standard materials (quality low), owned here. */
  private readonly familyMaterials = new FamilyMaterials();

  constructor(options: GalleryOptions) {
    if (!Number.isInteger(options.count) || options.count < 1 || options.count > 60) {
      throw new RangeError(`gallery count must be 1…60, got ${options.count}`);
    }
    this.options = options;
    this.thumbPx = options.thumbPx ?? GALLERY_THUMB_PX;
    this.cells = options.cells ?? 64;
    this.start = options.start;

    this.root = document.createElement('div');
    this.root.className = 'sr-gallery';
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
    this.title.textContent = `Asteroids ${first} – ${first + count - 1}`;
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
    return this.page.map((c) => ({ seed: c.seed, family: c.element.dataset.family ?? '', state: c.state }));
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
    element.setAttribute('aria-label', `Asteroid seed ${seed}: open in the explorer`);
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = this.thumbPx;
    const caption = document.createElement('span');
    caption.className = 'sr-gallery-caption';
    const family = cellAsteroid(seed).family;
    element.dataset.family = family;
    const seedText = document.createElement('b');
    seedText.textContent = `seed ${seed}`;
    const familyText = document.createElement('span');
    familyText.textContent = family;
    caption.append(seedText, familyText);
    element.append(canvas, caption);
    return { seed, element, canvas, caption, state: 'waiting', job: null };
  }

  private fromCache(cell: Cell): boolean {
    const thumb = thumbCache.get(cacheKey(cell.seed, this.options.quality, this.thumbPx, this.cells));
    if (!thumb) return false;
    galleryCacheStats.hits++;
    this.show(cell, thumb.image);
    return true;
  }

  private request(cell: Cell, priority: number): void {
    galleryCacheStats.misses++;
    const spec = cellAsteroid(cell.seed);
    const grid = asteroidGrid(spec);
    cell.state = 'meshing';
    cell.element.dataset.state = 'meshing';
    // Registered for its one job: released when the job ends (meshed, failed or cancelled).
    const release = this.options.mesher.registerBody(spec.id, { recipe: spec.recipe });
    const job = this.options.mesher.mesh(
      { body: spec.id, cells: this.cells, originM: grid.originM, stepM: grid.extentM / this.cells, simplify: BODY_SIMPLIFY, bvh: false },
      priority,
    );
    cell.job = job;
    this.jobsSubmitted++;
    const generation = this.generation;
    job.promise.finally(release).catch(() => {});
    job.promise.then(
      (result) => {
        if (generation !== this.generation || this.disposed) return;
        cell.job = null;
        this.queue.push({ cell, spec, result });
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
      void this.draw(item.spec, item.result)
        .then(
          (image) => {
            if (this.disposed) return;
            thumbCache.set(cacheKey(item.cell.seed, this.options.quality, this.thumbPx, this.cells), { image, family: item.spec.family });
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

  /**
   * Renders one asteroid at the thumbnail size through the on-screen path and reads it back
   * (same task as the draw, so the drawing buffer is intact). Renderer size and pixel ratio
   * are restored afterwards.
   */
  private async draw(spec: AsteroidSpec, result: BodyMeshResult): Promise<ImageData> {
    const renderer = this.options.renderer;
    const { scene, camera, mesh, sun, material } = this.thumbnailScene(spec, result);
    try {
      if (material instanceof BodyMaterial) {
        // The body's own program: compiled without blocking the frame (KHR_parallel_shader_compile).
        await compileForFrames(renderer, scene, camera);
        if (this.disposed) throw new Error('gallery disposed');
      }
      const px = this.thumbPx;
      const savedSize = renderer.getSize(scratchSize);
      const savedW = savedSize.x;
      const savedH = savedSize.y;
      const savedRatio = renderer.getPixelRatio();
      const pixels = new Uint8ClampedArray(px * px * 4);
      try {
        renderer.setPixelRatio(1);
        renderer.setSize(px, px, false);
        renderer.setRenderTarget(null);
        this.options.output.render(scene, camera);
        const gl = renderer.getContext();
        gl.readPixels(0, 0, px, px, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
      } finally {
        renderer.setPixelRatio(savedRatio);
        renderer.setSize(savedW, savedH, false);
      }
      return flipRows(pixels, px, px);
    } finally {
      mesh.geometry.dispose();
      if (material instanceof BodyMaterial) material.dispose();
      sun.dispose();
    }
  }

  /** The frozen scene of one thumbnail: the asteroid at the origin, its seeded sun, a fixed camera. */
  private thumbnailScene(
    spec: AsteroidSpec,
    result: BodyMeshResult,
  ): { scene: Scene; camera: PerspectiveCamera; mesh: Mesh; sun: Sun; material: Material } {
    const single = sceneSpec(spec.seed, 'asteroid');
    const scene = new Scene();
    scene.background = BACKGROUND;
    const sun = new Sun({ direction: single.sunDirection, shadowMapSize: 1024 });
    scene.add(sun, new HemisphereLight(0x2a3040, 0x050403, 0.25));

    const material = this.materialFor(spec);
    const geometry = createBodyGeometry(result);
    const mesh = new Mesh(geometry, material);
    mesh.castShadow = mesh.receiveShadow = true;
    // Body-local frame with the bounding-sphere center at the world origin.
    mesh.position.set(
      result.originM[0] - spec.bodyCenterM[0],
      result.originM[1] - spec.bodyCenterM[1],
      result.originM[2] - spec.bodyCenterM[2],
    );
    if (material instanceof BodyMaterial) {
      material.bindChunk(mesh, {
        chunkOriginM: result.originM,
        cellSizeM: asteroidGrid(spec).extentM / this.cells,
        fade: 1,
      });
      // BodyMaterial works in body-local metres: keep the body frame, move the whole scene.
    }
    scene.add(mesh);

    // Frozen camera: from beside the sun direction (the terminator shows), looking along a
    // fixed direction and framed on the mesh's own silhouette (a bounding sphere leaves
    // elongated shards tiny in their cell).
    const sunDir = new Vector3(...single.sunDirection);
    const side = new Vector3(0, 1, 0).cross(sunDir).normalize();
    const toCamera = sunDir.multiplyScalar(0.45).add(side.multiplyScalar(0.9)).normalize();
    const camera = new PerspectiveCamera(THUMB_FOV_DEG, 1, 1, 2);
    frameMesh(camera, mesh, toCamera, FILL);
    sun.fitShadow(new Sphere(new Vector3(), spec.radiusM));
    return { scene, camera, mesh, sun, material };
  }

  private materialFor(spec: AsteroidSpec): Material {
    if (this.options.quality === 'high') {
      return new BodyMaterial(bodyMaterialField(spec.recipe), { family: spec.family, seed: spec.seed });
    }
    return this.familyMaterials.get(spec.family);
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
    this.familyMaterials.dispose();
    this.root.remove();
  }
}

const scratchSize = new Vector2();

function pagingButton(text: string, label: string): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'sr-gallery-page';
  b.textContent = text;
  b.setAttribute('aria-label', label);
  return b;
}

/** A cell's asteroid: what `mode=asteroid&seed=…` explores (sceneSpec.ts). */
function cellAsteroid(seed: number): AsteroidSpec {
  return sceneSpec(seed, 'asteroid').asteroids!.asteroids[0];
}
