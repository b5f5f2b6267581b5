import type { GridAtlasLayout } from '../../src/gpu/atlas';

/** What glsl/gpu_grid.frag.glsl writes at pixel (x, y) of a batch, rewritten in JS: [slot, i, j, k] per channel, or null (0). */
export function shaderSample(l: GridAtlasLayout, x: number, y: number, c: number): [number, number, number, number] | null {
  const p = l.points;
  const slot = Math.floor(y / l.height);
  const n = ((y - slot * l.height) * l.width + x) * 4 + c;
  if (n >= p ** 3) return null;
  const row = Math.floor(n / p);
  return [slot, n - row * p, row % p, Math.floor(row / p)];
}
