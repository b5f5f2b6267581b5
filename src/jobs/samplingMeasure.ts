/**
 * The sampling-path measurement (issue 16), run inside the GPU sampling worker: probe chunks'
 * grid values and hermite edges on this worker's GPU sampler, and the same chunk meshed by the JS
 * back end in this same worker (the body workers run the same JS on the same kind of thread),
 * sampling and meshing timed apart (samplingDecision.ts weighs them). Each figure is the best of
 * its warm runs — the page still draws and the workers may still run jobs — and the compile is
 * reported apart.
 *
 * The probe body is the caller's (the app passes a blob asteroid where the scene has no planet, so
 * the programs it compiles are the ones the scene's blob asteroids use next; a scene's planet is
 * timed by planetSamplingMeasure.ts instead), else a sphere under ten octaves of noise, as many as a blob
 * asteroid's two layers.
 */
import { compileToJs, parseRecipe, recipeBounds, type FieldRecipe } from '../field/index';
import type { GpuFieldSampler, ChunkGrid } from '../gpu/GpuFieldSampler';
import { BODY_SIMPLIFY, cartesianMapping, meshChunk, sampleChunk } from '../mesher/index';
import type { SamplingMeasurement } from './samplingDecision';

/** Cells per axis of the first probe chunk: an asteroid's middle level (asteroidLevels.ts). */
export const MEASURE_CELLS = 32;
const WARM_RUNS = 3;
/** Cells per axis of the fine probe chunk: an asteroid's finest level, where most of its work is. */
export const FINE_CELLS = 64;
/**
 * The 65³ timed runs stop early once one is this many times slower than the JS path: the page may
 * still be busy beside the probe, so one slow run alone proves little; each path's figure is its
 * best run.
 */
const LOST_BY = 8;
/**
 * At 33³ a real GPU's round trips weigh most, and the H100 stayed within 1.6× of the JS path there;
 * SwiftShader was 3.6–6× behind (and its 65³ chunks cost it seconds more): it stops at this.
 */
const COARSE_LOST_BY = 3;
/**
 * The 33³ chunks go out as one batch of this many: a real GPU pays its round trips once a batch
 * (in batches of 2 the H100 measured 15–35 ms a chunk, 3.2–4× behind 15 JS workers, and the probe
 * stopped there in 2 of 3 explore loads that the 65³ stage then showed the GPU winning 111/s to
 * 19/s), while a software GPU's cost is per sample and a batch does not hide it.
 */
const COARSE_BATCH = 8;

/** The probe chunk: the recipe's bounding box in PROBE_CELLS³ cells. */
export function measureChunk(recipe: FieldRecipe, cells = MEASURE_CELLS): ChunkGrid {
  const b = recipeBounds(recipe);
  const extent = Math.max(b.boxMax[0] - b.boxMin[0], b.boxMax[1] - b.boxMin[1], b.boxMax[2] - b.boxMin[2]);
  return { originM: [b.boxMin[0], b.boxMin[1], b.boxMin[2]], stepM: extent / cells, points: cells + 1 };
}

/** A 100 m sphere under 6 + 4 octaves of noise (fixed seeds): a blob asteroid's noise load. */
export function measureRecipe(): FieldRecipe {
  return parseRecipe({
    version: 1,
    name: 'sampling probe',
    root: {
      type: 'sphere', radius: 100, noise: [
        { kind: 'fbm', seed: 7, frequency: 1 / 120, octaves: 6, lacunarity: 2, gain: 0.5, amplitude: 14 },
        { kind: 'fbm', seed: 8, frequency: 1 / 20, octaves: 4, lacunarity: 2, gain: 0.5, amplitude: 1.5 },
      ],
    },
    brushes: [],
  });
}

/** JS: the chunk as a body worker meshes it without the GPU: sampling (grid + hermite edges) and the rest, ms. */
export function timeJsChunk(recipe: FieldRecipe, grid: ChunkGrid): { sampleMs: number; meshMs: number } {
  const field = compileToJs(recipe);
  const cells = grid.points - 1;
  const spec = { originGrid: [0, 0, 0] as [number, number, number], level: 0, cells };
  const mapping = cartesianMapping(grid.stepM, grid.originM);
  const start = performance.now();
  const values = sampleChunk(spec, field, mapping);
  const gridMs = performance.now() - start;
  const { stats } = meshChunk({ ...spec, values, field, mapping, simplify: BODY_SIMPLIFY });
  if (stats.triangles === 0) throw new Error('sampling probe: the probe chunk has no surface');
  return { sampleMs: gridMs + stats.hermiteMs, meshMs: stats.totalMs - stats.hermiteMs };
}

/** What the first phase measured: the JS figures at both sizes. */
export interface PreparedMeasurement {
  /** Best of warm runs of a PROBE_CELLS³ chunk, and one run of a FINE_CELLS³ chunk. */
  js: Record<'coarse' | 'fine', { points: number; sampleMs: number; meshMs: number }>;
  /** The GPU compile when the first phase did it (the planet probe, planetSamplingMeasure.ts), ms. */
  gpuFirstMs?: number;
}

/**
 * Phase 1, the JS figures (in the GPU worker's thread: the page's frames may run meanwhile, they
 * share no GPU with it).
 */
export function prepareMeasurement(recipe: FieldRecipe = measureRecipe()): PreparedMeasurement {
  const grid = measureChunk(recipe);
  timeJsChunk(recipe, grid); // JIT warm-up, not counted
  const runs: Array<{ sampleMs: number; meshMs: number }> = [];
  for (let i = 0; i < WARM_RUNS; i++) runs.push(timeJsChunk(recipe, grid));
  const fineGrid = measureChunk(recipe, FINE_CELLS);
  const fine = { points: fineGrid.points, ...timeJsChunk(recipe, fineGrid) };
  const coarse = { points: grid.points, sampleMs: Math.min(...runs.map((r) => r.sampleMs)), meshMs: Math.min(...runs.map((r) => r.meshMs)) };
  return { js: { coarse, fine } };
}

/**
 * The GPU programs compiled, linked and drawn once, ms — both passes: a 2³ grid has no surface, so
 * it would not wait for the edge pass's link, and the first timed batch would (on the H100 that
 * batch measured 11 ms a chunk).
 */
async function compileGpu(sampler: GpuFieldSampler, recipe: FieldRecipe): Promise<number> {
  const grid = measureChunk(recipe);
  const start = performance.now();
  await sampler.sampleChunk(recipe, { ...grid, points: 2 }).promise;
  while (!sampler.programsReady(recipe)) await new Promise((resolve) => setTimeout(resolve, 5));
  // One real chunk, untimed: the first draws of each pass also build the driver's pipelines (ANGLE
  // on Vulkan does it at the first draw), which the H100 paid inside explore's first timed batch:
  // 358 ms a chunk, against 6 ms after.
  await sampler.sampleChunk(recipe, grid).promise;
  return performance.now() - start;
}

/** The best per-chunk time over batches of `sizes` chunks; stops after a batch slower than `lostAboveMs` a chunk. */
async function gpuPerChunk(sampler: GpuFieldSampler, recipe: FieldRecipe, grid: ChunkGrid, sizes: readonly number[], lostAboveMs: number): Promise<{ ms: number; batch: number }> {
  let best = { ms: Infinity, batch: 0 };
  for (const size of sizes) {
    const start = performance.now();
    await Promise.all(Array.from({ length: size }, () => sampler.sampleChunk(recipe, grid).promise));
    const ms = (performance.now() - start) / size;
    if (ms < best.ms) best = { ms, batch: size };
    if (ms > lostAboveMs) break;
  }
  return best;
}

/**
 * Phase 2, the GPU's compile and timed batches (the caller keeps the page's own frames off the GPU
 * meanwhile: beside explore's frames on the H100 a chunk took 470 ms, and beside planet quality=high's
 * the compile took 6.0 s instead of 2.0 s). First a batch of COARSE_BATCH
 * PROBE_CELLS³ chunks: a software GPU far behind the JS path stops there. A real GPU is then timed on FINE_CELLS³ chunks,
 * the asteroid level that holds most of the work: at 33³ its fence and readback round trips
 * weigh more than its passes, and the two paths tied on the H100 (183 vs 172/s) where the
 * asteroids bench ran the GPU path 2.5× faster.
 */
export async function measureGpu(sampler: GpuFieldSampler, prepared: PreparedMeasurement, workers: number, recipe: FieldRecipe = measureRecipe()): Promise<SamplingMeasurement> {
  const w = Math.max(1, workers);
  const { coarse, fine } = prepared.js;
  const gpuFirstMs = await compileGpu(sampler, recipe);
  const first = await gpuPerChunk(sampler, recipe, measureChunk(recipe), [COARSE_BATCH], Infinity);
  const result = (js: typeof coarse, gpu: { ms: number; batch: number }): SamplingMeasurement => ({
    body: 'asteroid', points: js.points, batch: gpu.batch, gpuMs: gpu.ms, gpuFirstMs, jsSampleMs: js.sampleMs, jsMeshMs: js.meshMs,
  });
  if (first.ms > (COARSE_LOST_BY * (coarse.sampleMs + coarse.meshMs)) / w) return result(coarse, first);
  const fineGpu = await gpuPerChunk(sampler, recipe, measureChunk(recipe, FINE_CELLS), [2, 4], (LOST_BY * (fine.sampleMs + fine.meshMs)) / w);
  return result(fine, fineGpu);
}
