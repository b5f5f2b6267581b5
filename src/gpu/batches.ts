/**
 * How the GPU sampler groups jobs into batches (issue 15): one fence, one readback and one flush
 * for many chunks, instead of a pair of them per chunk. Pure arithmetic and bookkeeping, shared by
 * the dispatch and the collect of GpuFieldSampler and tested in Node (test/gpu/batches.test.ts).
 *
 * - Grid batch: the chunks' atlases (atlas.ts) side by side in one render target, `cols` per row;
 *   one draw covers them all (each fragment finds its chunk's slot from its block, and the chunk's
 *   values in the chunk block: chunkBlock.ts), then one readPixels of the block rows used.
 * - Edge batch: every chunk's edge ids and slots in one input, one transform-feedback draw into one
 *   output buffer, then one getBufferSubData.
 *
 * Why: on the H100 machine each fence query and each readback is a synchronous round trip to the
 * GPU process, and a 33³ grid fills a sliver of the GPU; one chunk per pass pair delivered ~206
 * chunks/s (docs/lod.md, "Planet chunks sampled on the GPU").
 */
import { SAMPLES_PER_TEXEL, type GridAtlasLayout } from './atlas';

/** Most jobs one batch holds: 32 chunks of 33³ points are a 594 × 594 RGBA32F target (5.6 MB read back). */
export const MAX_BATCH_JOBS = 32;

/**
 * Batches of a kind in flight before the sampler holds new jobs back to grow the next batch. Two
 * keep the GPU busy while one batch is read back; jobs that arrive meanwhile wait and go out together.
 */
export const MAX_INFLIGHT_BATCHES = 2;

/** Where each chunk's atlas lies in a grid batch's render target. */
export interface GridBatchLayout {
  /** The atlas of one chunk (every chunk of a batch has the same). */
  atlas: GridAtlasLayout;
  /** Chunk blocks per target row. */
  cols: number;
  /** Most chunks the target holds (cols × rows of blocks). */
  capacity: number;
  /** Render target size in texels (sized for `capacity`, reused across batches). */
  width: number;
  height: number;
}

/** The target layout for batches of chunks with atlas `atlas`, within `maxTextureSize`. */
export function gridBatchLayout(atlas: GridAtlasLayout, maxTextureSize: number, maxJobs = MAX_BATCH_JOBS): GridBatchLayout {
  const fitX = Math.max(1, Math.floor(maxTextureSize / atlas.width));
  const fitY = Math.max(1, Math.floor(maxTextureSize / atlas.height));
  const cols = Math.max(1, Math.min(fitX, Math.ceil(Math.sqrt(maxJobs))));
  const rows = Math.max(1, Math.min(fitY, Math.ceil(maxJobs / cols)));
  return { atlas, cols, capacity: Math.min(maxJobs, cols * rows), width: cols * atlas.width, height: rows * atlas.height };
}

/** Texel origin of job `index`'s block in the target. */
export function gridBlockOrigin(layout: GridBatchLayout, index: number): [number, number] {
  return [(index % layout.cols) * layout.atlas.width, Math.floor(index / layout.cols) * layout.atlas.height];
}

/** The readback rectangle for a batch of `jobs` chunks: full target width, the block rows used. */
export function gridBatchReadback(layout: GridBatchLayout, jobs: number): { width: number; height: number } {
  return { width: layout.width, height: Math.ceil(jobs / layout.cols) * layout.atlas.height };
}

/**
 * Unpacks job `index`'s grid values (x fastest: i + P (j + P k)) from a batch readback of
 * `readWidth` texels a row (RGBA floats, as readPixels returns them, bottom row first).
 */
export function unpackGridBlock(layout: GridBatchLayout, index: number, texels: Float32Array, readWidth: number, out?: Float32Array): Float32Array {
  const { points: p, tileWidth, tilesX } = layout.atlas;
  const [x0, y0] = gridBlockOrigin(layout, index);
  const values = out ?? new Float32Array(p * p * p);
  for (let k = 0; k < p; k++) {
    const tileX = k % tilesX;
    const tileY = (k / tilesX) | 0;
    for (let j = 0; j < p; j++) {
      const row = y0 + tileY * p + j;
      const rowBase = (row * readWidth + x0 + tileX * tileWidth) * SAMPLES_PER_TEXEL;
      const dst = p * (j + p * k);
      for (let i = 0; i < p; i++) values[dst + i] = texels[rowBase + i];
    }
  }
  return values;
}

/** First edge of each job in an edge batch's concatenated input, and the total. */
export function edgeBatchOffsets(counts: readonly number[]): { offsets: number[]; total: number } {
  const offsets: number[] = [];
  let total = 0;
  for (const c of counts) {
    offsets.push(total);
    total += c;
  }
  return { offsets, total };
}

/**
 * Splits waiting jobs into batches: jobs that share `groupOf` go together, in arrival order, at most
 * `maxJobs` a batch; groups come out in the order their first job arrived.
 */
export function groupIntoBatches<T>(jobs: readonly T[], groupOf: (job: T) => string, maxJobs = MAX_BATCH_JOBS): T[][] {
  const groups = new Map<string, T[][]>();
  for (const job of jobs) {
    const key = groupOf(job);
    let batches = groups.get(key);
    if (!batches) groups.set(key, (batches = [[]]));
    let last = batches[batches.length - 1];
    if (last.length >= maxJobs) batches.push((last = []));
    last.push(job);
  }
  return [...groups.values()].flat();
}
