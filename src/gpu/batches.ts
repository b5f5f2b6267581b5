/**
 * How the GPU sampler groups jobs into batches (issue 15): one fence, one readback and one flush
 * for many chunks, instead of a pair of them per chunk. Pure arithmetic and bookkeeping, shared by
 * the dispatch and the collect of GpuFieldSampler and tested in Node (test/gpu/batches.test.ts).
 *
 * - Grid batch: the chunks' rows (atlas.ts) one above the other in one render target; one draw
 *   covers them all (each fragment finds its chunk's slot from its row, and the chunk's values in
 *   the chunk block: chunkBlock.ts), then one readPixels of the rows used: nothing but the batch's
 *   values, each chunk's a run of floats.
 * - Edge batch: every chunk's edge ids and slots in one input, one transform-feedback draw into one
 *   output buffer, then one getBufferSubData.
 *
 * Why: on the H100 machine each fence query and each readback is a synchronous round trip to the
 * GPU process, and a 33³ grid fills a sliver of the GPU; one chunk per pass pair delivered ~206
 * chunks/s (docs/lod.md, "Planet chunks sampled on the GPU").
 */
import { gridValuesAt, SAMPLES_PER_TEXEL, type GridAtlasLayout } from './atlas';

/** Most jobs one batch holds: 32 chunks of 33³ points are a 33 × 8736 RGBA32F target (4.6 MB read back). */
export const MAX_BATCH_JOBS = 32;

/**
 * Batches of a kind in flight before the sampler holds new jobs back to grow the next batch. Two
 * keep the GPU busy while one batch is read back; jobs that arrive meanwhile wait and go out together.
 */
export const MAX_INFLIGHT_BATCHES = 2;

/** Where each chunk's rows lie in a grid batch's render target: one above the other. */
export interface GridBatchLayout {
  /** The rows of one chunk (every chunk of a batch has the same). */
  atlas: GridAtlasLayout;
  /** Most chunks the target holds. */
  capacity: number;
  /** Render target size in texels (sized for `capacity`, reused across batches). */
  width: number;
  height: number;
}

/** The target layout for batches of chunks with rows `atlas`, within `maxTextureSize`. */
export function gridBatchLayout(atlas: GridAtlasLayout, maxTextureSize: number, maxJobs = MAX_BATCH_JOBS): GridBatchLayout {
  const capacity = Math.max(1, Math.min(maxJobs, Math.floor(maxTextureSize / atlas.height)));
  return { atlas, capacity, width: atlas.width, height: capacity * atlas.height };
}

/** The readback rectangle of a batch of `jobs` chunks: their rows and nothing else. */
export function gridBatchReadback(layout: GridBatchLayout, jobs: number): { width: number; height: number } {
  return { width: layout.width, height: Math.max(1, jobs) * layout.atlas.height };
}

/** Job `index`'s values (x fastest: i + P (j + P k)) from its batch's readback: one copy of its run of floats. */
export function gridBlockValues(layout: GridBatchLayout, index: number, texels: Float32Array): Float32Array {
  return gridValuesAt(layout.atlas, texels, index * layout.atlas.height * layout.width * SAMPLES_PER_TEXEL);
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
