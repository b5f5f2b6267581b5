/**
 * What a gallery page is made of (src/app/Gallery.ts holds the grid, paging and cache): a source of
 * thumbnails per seed — asteroids (asteroidThumbs.ts) or planets (planetThumbs.ts) — and the one
 * way both draw a thumbnail, through the app's on-screen path.
 */
import { Vector2, type PerspectiveCamera, type Scene, type WebGLRenderer } from 'three';
import type { FrameOutput } from '../render/FrameOutput';
import { flipRows } from './screenshot';

/** A thumbnail's mesh job: cancelled with its page. */
export interface ThumbJob<R> {
  readonly promise: Promise<R>;
  cancel(): void;
}

/**
 * One kind of thumbnail: the words around a cell, the job that meshes a seed's body in the workers
 * and the draw of its result. Pure of the grid: the gallery asks, in that order, `label`,
 * `request`, then `draw` once per finished job (one per animation frame).
 */
export interface ThumbSource<R> {
  /** The page title's noun ("Asteroids", "Planets"). */
  readonly title: string;
  /** The caption's second word for a seed (asteroid family, planet class) and the cell's aria label. */
  label(seed: number): string;
  ariaLabel(seed: number): string;
  /** The key of a seed's thumbnail in the page-lifetime cache (quality, size and cells in it). */
  cacheKey(seed: number): string;
  /** Starts meshing seed `seed`'s body; higher `priority` first. */
  request(seed: number, priority: number): ThumbJob<R>;
  /** Renders a finished job at the thumbnail size and reads it back. */
  draw(seed: number, result: R): Promise<ImageData>;
  dispose(): void;
}

const scratchSize = new Vector2();

/**
 * Renders `scene` at `px`×`px` through the on-screen path (the app's FrameOutput to the default
 * framebuffer: the explorer's HDR target, MSAA, tone mapping and sRGB) and reads it back in the
 * same task, so the drawing buffer is intact. Renderer size and pixel ratio are restored after.
 */
export function renderThumbnail(renderer: WebGLRenderer, output: FrameOutput, scene: Scene, camera: PerspectiveCamera, px: number): ImageData {
  const savedSize = renderer.getSize(scratchSize);
  const savedW = savedSize.x;
  const savedH = savedSize.y;
  const savedRatio = renderer.getPixelRatio();
  const pixels = new Uint8ClampedArray(px * px * 4);
  try {
    renderer.setPixelRatio(1);
    renderer.setSize(px, px, false);
    renderer.setRenderTarget(null);
    output.render(scene, camera);
    const gl = renderer.getContext();
    gl.readPixels(0, 0, px, px, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  } finally {
    renderer.setPixelRatio(savedRatio);
    renderer.setSize(savedW, savedH, false);
  }
  return flipRows(pixels, px, px);
}
