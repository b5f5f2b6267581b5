/**
 * Layout of the grid pass's float atlas (see glsl/gpu_grid.frag.glsl): four consecutive x
 * samples per RGBA32F texel, one z-slice per tile of ceil(P/4) × P texels, tiles row by row.
 * Pure arithmetic, shared by the dispatch (sizes, uniforms) and the readback (unpacking).
 */

export const SAMPLES_PER_TEXEL = 4;

export interface GridAtlasLayout {
  /** Grid points per axis, P = N + 1. */
  points: number;
  /** Texels per tile row: ceil(P / 4). */
  tileWidth: number;
  /** Tiles per atlas row. */
  tilesX: number;
  tilesY: number;
  /** Atlas size in texels. */
  width: number;
  height: number;
}

export function gridAtlasLayout(points: number, maxTextureSize: number): GridAtlasLayout {
  if (!Number.isInteger(points) || points < 2) throw new RangeError(`grid needs ≥ 2 points per axis, got ${points}`);
  const tileWidth = Math.ceil(points / SAMPLES_PER_TEXEL);
  // Near-square atlas: width tilesX·w ≈ height (P / tilesX)·P  ⇒  tilesX ≈ P / √w.
  const tilesX = Math.max(
    1,
    Math.min(points, Math.floor(maxTextureSize / tileWidth), Math.round(points / Math.sqrt(tileWidth))),
  );
  const tilesY = Math.ceil(points / tilesX);
  const width = tilesX * tileWidth;
  const height = tilesY * points;
  if (width > maxTextureSize || height > maxTextureSize) {
    throw new RangeError(`a ${points}³ grid needs a ${width}×${height} atlas, over this GPU's ${maxTextureSize}`);
  }
  return { points, tileWidth, tilesX, tilesY, width, height };
}

/**
 * Unpacks an atlas readback (RGBA floats, row-major from the bottom row, as readPixels
 * returns them) into grid values, x fastest: index i + P * (j + P * k).
 */
export function unpackGridAtlas(layout: GridAtlasLayout, texels: Float32Array, out?: Float32Array): Float32Array {
  const { points: p, tileWidth, tilesX, width } = layout;
  const values = out ?? new Float32Array(p * p * p);
  for (let k = 0; k < p; k++) {
    const tileX = k % tilesX;
    const tileY = (k / tilesX) | 0;
    for (let j = 0; j < p; j++) {
      const row = tileY * p + j;
      const rowBase = (row * width + tileX * tileWidth) * SAMPLES_PER_TEXEL;
      const dst = p * (j + p * k);
      for (let i = 0; i < p; i++) values[dst + i] = texels[rowBase + i];
    }
  }
  return values;
}
