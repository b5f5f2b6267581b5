/**
 * The sampling-path measurement (issue 16), run inside the GPU sampling worker: one asteroid
 * chunk's grid values and hermite edges, on this worker's GPU sampler and with the JS back end in
 * this same worker (the body workers run the same JS on the same kind of thread). Medians of
 * warm runs; the first GPU run (its program compile) is reported apart. samplingDecision.ts
 * compares the figures.
 *
 * The probe body is a small recipe of the scene's kind of work — a sphere under ten octaves of
 * noise, as many as a blob asteroid's two layers — rather than a scene body: its program compiles
 * in a fraction of an asteroid's (SwiftShader took 4.2 s over the potato shape's, 7.8 s beside
 * generation), and what is measured is the GPU's speed against JS, not the scene's compiles. JS
 * is timed first; the GPU's warm runs stop once one has lost by twice the JS figure.
 */
import { compileToJs, parseRecipe, recipeBounds, type FieldRecipe } from '../field/index';
import type { GpuFieldSampler, ChunkGrid } from '../gpu/GpuFieldSampler';
import { computedEdges, signGrid } from '../mesher/hermite';
import { cartesianMapping } from '../mesher/index';
import type { SamplingMeasurement } from './samplingDecision';

/** Cells per axis of the probe chunk: an asteroid's middle level (asteroidLevels.ts). */
export const PROBE_CELLS = 32;
const WARM_RUNS = 3;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** The probe chunk: the recipe's bounding box in PROBE_CELLS³ cells. */
export function probeChunk(recipe: FieldRecipe, cells = PROBE_CELLS): ChunkGrid {
  const b = recipeBounds(recipe);
  const extent = Math.max(b.boxMax[0] - b.boxMin[0], b.boxMax[1] - b.boxMin[1], b.boxMax[2] - b.boxMin[2]);
  return { originM: [b.boxMin[0], b.boxMin[1], b.boxMin[2]], stepM: extent / cells, points: cells + 1 };
}

/** A 100 m sphere under 6 + 4 octaves of noise (fixed seeds): a blob asteroid's noise load. */
export function probeRecipe(): FieldRecipe {
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

/** JS: the grid values and the hermite edges the body worker would compute without the GPU, ms. */
export function timeJsChunk(recipe: FieldRecipe, grid: ChunkGrid): number {
  const field = compileToJs(recipe);
  const cells = grid.points - 1;
  const start = performance.now();
  const values = new Float32Array(grid.points ** 3);
  const [ox, oy, oz] = grid.originM;
  let n = 0;
  for (let z = 0; z < grid.points; z++)
    for (let y = 0; y < grid.points; y++)
      for (let x = 0; x < grid.points; x++) values[n++] = field(ox + grid.stepM * x, oy + grid.stepM * y, oz + grid.stepM * z);
  const input = { originGrid: [0, 0, 0] as [number, number, number], level: 0, cells, values, field, mapping: cartesianMapping(grid.stepM, grid.originM) };
  const edges = computedEdges(input, signGrid(input));
  if (edges.count === 0) throw new Error('sampling probe: the probe chunk has no surface');
  return performance.now() - start;
}

/**
 * Times both paths on the probe chunk, for `workers` body workers (the JS figure they divide).
 * Rejects when the GPU job fails (the caller falls back to JS).
 */
export async function measureSamplingPaths(sampler: GpuFieldSampler, workers: number, recipe = probeRecipe()): Promise<SamplingMeasurement> {
  const grid = probeChunk(recipe);
  timeJsChunk(recipe, grid); // JIT warm-up, not counted
  const js: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) js.push(timeJsChunk(recipe, grid));
  const jsMs = median(js);
  const gpuRun = async (): Promise<number> => {
    const start = performance.now();
    await sampler.sampleChunk(recipe, grid).promise;
    return performance.now() - start;
  };
  const gpuFirstMs = await gpuRun();
  const gpu: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) {
    gpu.push(await gpuRun());
    if (gpu[i] > (2 * jsMs) / Math.max(1, workers)) break; // lost already: no need to load a software GPU more
  }
  return { points: grid.points, gpuMs: median(gpu), gpuFirstMs, jsMs };
}
