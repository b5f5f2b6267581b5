/**
 * Screenshots at any size the GPU allows: the view is rendered in tiles (camera view
 * offsets) through the normal on-screen path (FrameOutput: HDR target, bloom, tone mapping and
 * colour space as the user sees them), each tile read back right after it is drawn, and stitched
 * into one PNG. Bloom is per tile: past one tile (4,096 px) a glow near a tile edge is cut there.
 */
import { Vector2, type Camera, type PerspectiveCamera, type Scene, type WebGLRenderer } from 'three';
import type { FrameOutput } from '../render/FrameOutput';

export interface CaptureResult {
  blob: Blob;
  width: number;
  height: number;
  tiles: number;
  /** Why the size was reduced (GPU or canvas limits), or null. */
  capped: string | null;
}

/** Largest PNG side we assemble: browsers refuse 2D canvases much beyond this. */
const MAX_CANVAS_SIDE = 16384;

export function captureLimits(renderer: WebGLRenderer): { tile: number; max: number } {
  const gl = renderer.getContext();
  const viewport = gl.getParameter(gl.MAX_VIEWPORT_DIMS) as Int32Array;
  const renderbuffer = gl.getParameter(gl.MAX_RENDERBUFFER_SIZE) as number;
  const tile = Math.min(4096, viewport[0], viewport[1], renderbuffer);
  return { tile, max: MAX_CANVAS_SIDE };
}

/** Caps a requested size to what can be assembled, keeping the aspect ratio. */
export function capSize(width: number, height: number, max: number): { width: number; height: number; capped: string | null } {
  const w = Math.max(1, Math.round(width));
  const h = Math.max(1, Math.round(height));
  const scale = Math.min(1, max / w, max / h);
  if (scale === 1) return { width: w, height: h, capped: null };
  const cw = Math.max(1, Math.floor(w * scale));
  const ch = Math.max(1, Math.floor(h * scale));
  return { width: cw, height: ch, capped: `${w}×${h} is over this browser's ${max}-pixel limit; saved ${cw}×${ch}` };
}

export async function captureView(
  output: FrameOutput,
  scene: Scene,
  camera: PerspectiveCamera,
  requestedWidth: number,
  requestedHeight: number,
): Promise<CaptureResult> {
  const renderer = output.renderer;
  const limits = captureLimits(renderer);
  const { width, height, capped } = capSize(requestedWidth, requestedHeight, limits.max);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas to assemble the screenshot');

  const gl = renderer.getContext();
  const savedSize = renderer.getSize(new Vector2());
  const savedRatio = renderer.getPixelRatio();
  const savedAspect = camera.aspect;
  let tiles = 0;
  try {
    renderer.setPixelRatio(1);
    camera.aspect = width / height;
    for (let y = 0; y < height; y += limits.tile) {
      for (let x = 0; x < width; x += limits.tile) {
        const tw = Math.min(limits.tile, width - x);
        const th = Math.min(limits.tile, height - y);
        renderer.setSize(tw, th, false);
        camera.setViewOffset(width, height, x, y, tw, th);
        camera.updateProjectionMatrix();
        renderer.setRenderTarget(null);
        output.render(scene, camera as Camera);
        // Same task as the draw: the drawing buffer is still intact.
        const pixels = new Uint8ClampedArray(tw * th * 4);
        gl.readPixels(0, 0, tw, th, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
        ctx.putImageData(flipRows(pixels, tw, th), x, y);
        tiles++;
      }
    }
  } finally {
    camera.clearViewOffset();
    camera.aspect = savedAspect;
    camera.updateProjectionMatrix();
    renderer.setPixelRatio(savedRatio);
    renderer.setSize(savedSize.x, savedSize.y, false);
  }
  const blob = await new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'),
  );
  return { blob, width, height, tiles, capped };
}

/** readPixels rows run bottom-up; ImageData rows top-down. */
export function flipRows(pixels: Uint8ClampedArray, width: number, height: number): ImageData {
  const out = new ImageData(width, height);
  const row = width * 4;
  for (let y = 0; y < height; y++) out.data.set(pixels.subarray((height - 1 - y) * row, (height - y) * row), y * row);
  return out;
}

/** Offers a blob as a download with the given file name. */
export function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
