/**
 * Layout of the grid pass's float target (see glsl/gpu_grid.frag.glsl): a chunk's grid values in
 * their own order, x fastest (index i + P (j + P k)), four to an RGBA32F texel, `width` texels a
 * row, from the bottom row up, as readPixels returns them. A chunk fills `height` rows; the last
 * row's spare samples are 0. So a readback needs no unpacking: a chunk's values are one run of
 * floats (issue 16: the tiled layout this replaced cost ~1 ms of unpacking a 65³ grid in JS and
 * read a fifth more bytes). Pure arithmetic, shared by the dispatch (sizes, uniforms) and the
 * readback.
 */

export const SAMPLES_PER_TEXEL = 4;

export interface GridAtlasLayout {
  /** Grid points per axis, P = N + 1. */
  points: number;
  /** Texels a row. */
  width: number;
  /** Rows one chunk fills: ceil(P³ / 4 / width). */
  height: number;
}

/**
 * P texels a row (four x-rows of the grid), so the pixels of a fragment warp sample nearby points:
 * a near-square row of √(P³/4) texels spans ~16 x-rows, and the pixel above a pixel was 16 rows of
 * the grid away. On the H100 machine a batch of four 65³ probe chunks drew in 4.9 ms with P texels
 * a row against 5.7 ms near-square (4.6 ms for the tiled layout this replaced).
 */
export function gridAtlasLayout(points: number, maxTextureSize: number): GridAtlasLayout {
  if (!Number.isInteger(points) || points < 2) throw new RangeError(`grid needs ≥ 2 points per axis, got ${points}`);
  const texels = Math.ceil(points ** 3 / SAMPLES_PER_TEXEL);
  const width = Math.min(maxTextureSize, points);
  const height = Math.ceil(texels / width);
  if (height > maxTextureSize) {
    throw new RangeError(`a ${points}³ grid needs a ${width}×${height} atlas, over this GPU's ${maxTextureSize}`);
  }
  return { points, width, height };
}

/** A chunk's values from a readback that holds its rows from float `offset` on: a copy, no unpacking. */
export function gridValuesAt(layout: GridAtlasLayout, texels: Float32Array, offset = 0): Float32Array {
  return texels.slice(offset, offset + layout.points ** 3);
}
