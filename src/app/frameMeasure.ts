import {
  RGBAFormat,
  Vector2,
  UnsignedByteType,
  WebGLRenderTarget,
  type Camera,
  type Scene,
  type WebGLRenderer,
} from 'three';

export interface FrameMeasure {
  width: number;
  height: number;
  /** Standard deviation of luminance (0..1): ~0 for a blank frame. */
  lumaStdDev: number;
  /** Number of distinct colours after quantising to 5 bits a channel. */
  distinctColours: number;
  /** Fraction of pixels brighter than the darkest 2% + 0.02: how much of the view is "something". */
  litFraction: number;
  /** Mean luminance. */
  meanLuma: number;
  /** Luminance per pixel, row-major, 0..1 (only when `keepLuma`). */
  luma?: Float32Array;
}

/**
 * Renders the scene once into an 8-bit target at the canvas size and measures the pixels.
 * Used by browser tests and the debug overlay; never called per frame.
 */
export function measureFrame(
  renderer: WebGLRenderer,
  scene: Scene,
  camera: Camera,
  options: { shadows?: boolean; keepLuma?: boolean } = {},
): FrameMeasure {
  const size = renderer.getDrawingBufferSize(new Vector2());
  const width = Math.max(1, Math.floor(size.x));
  const height = Math.max(1, Math.floor(size.y));
  const target = new WebGLRenderTarget(width, height, { format: RGBAFormat, type: UnsignedByteType });
  const shadowsBefore = renderer.shadowMap.enabled;
  const toggled = options.shadows !== undefined && options.shadows !== shadowsBefore;
  const touchMaterials = (): void =>
    scene.traverse((o) => {
      const m = (o as { material?: { needsUpdate: boolean } }).material;
      if (m) m.needsUpdate = true;
    });
  try {
    if (toggled) {
      renderer.shadowMap.enabled = options.shadows!;
      touchMaterials();
    }
    renderer.setRenderTarget(target);
    renderer.render(scene, camera);
    const pixels = new Uint8Array(width * height * 4);
    renderer.readRenderTargetPixels(target, 0, 0, width, height, pixels);
    return analyse(pixels, width, height, options.keepLuma ?? false);
  } finally {
    renderer.setRenderTarget(null);
    if (toggled) {
      renderer.shadowMap.enabled = shadowsBefore;
      touchMaterials();
    }
    target.dispose();
  }
}

function analyse(pixels: Uint8Array, width: number, height: number, keepLuma: boolean): FrameMeasure {
  const n = width * height;
  const luma = new Float32Array(n);
  const colours = new Set<number>();
  let sum = 0;
  let sumSq = 0;
  for (let i = 0; i < n; i++) {
    const r = pixels[4 * i];
    const g = pixels[4 * i + 1];
    const b = pixels[4 * i + 2];
    const y = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    luma[i] = y;
    sum += y;
    sumSq += y * y;
    colours.add(((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3));
  }
  const mean = sum / n;
  const sorted = Float32Array.from(luma).sort();
  const floor = sorted[Math.floor(0.02 * (n - 1))] + 0.02;
  let lit = 0;
  for (let i = 0; i < n; i++) if (luma[i] > floor) lit++;
  return {
    width,
    height,
    lumaStdDev: Math.sqrt(Math.max(0, sumSq / n - mean * mean)),
    distinctColours: colours.size,
    litFraction: lit / n,
    meanLuma: mean,
    ...(keepLuma ? { luma } : {}),
  };
}

/**
 * Fraction of pixels that shadows darken: renders with shadow maps on and off and counts
 * pixels lit without shadows (linear luma > 0.01: grazing light near a terminator is dim but
 * visible) that are at least 25% darker with them.
 */
export function measureShadowFraction(renderer: WebGLRenderer, scene: Scene, camera: Camera): number {
  const on = measureFrame(renderer, scene, camera, { shadows: true, keepLuma: true }).luma!;
  const off = measureFrame(renderer, scene, camera, { shadows: false, keepLuma: true }).luma!;
  let darker = 0;
  for (let i = 0; i < on.length; i++) if (off[i] > 0.01 && on[i] < 0.75 * off[i]) darker++;
  return darker / on.length;
}
