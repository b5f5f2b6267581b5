/**
 * GPU field sampling (src/gpu) side by side with its peers, in one run on this browser's
 * GPU: the 65³ grid pass (latency, points/s) on the main-thread context and in the
 * OffscreenCanvas worker, the JS back end filling the same grid in one worker, and the
 * transform-feedback edge pass (edges/s). On SwiftShader the ratios are the figure.
 */
import { median, type Benchmark } from '../harness';
import { GpuFieldSampler, type ChunkGrid, type GpuCollect, type GpuSamplerTiming } from '../../../src/gpu/GpuFieldSampler';
import { signChangingEdges } from '../../../src/gpu/edgeList';
import { GpuSamplerClient } from '../../../src/workers/GpuSamplerClient';
import { ASTEROID6, benchGrid, GRID_N } from '../field.bench';

const POINTS = GRID_N ** 3;
const { originM, stepM } = benchGrid(ASTEROID6);
const GRID: ChunkGrid = { originM, stepM, points: GRID_N };

/**
 * The field as the GPU worker's bodies sampler compiles it: numbers as data, noise tables in a
 * texture. (The literal default bakes the tables into a constant array, which a GPU indexes per
 * thread: a 65³ six-octave grid drew in 1.9 ms on the H100 against 0.8 ms from the texture.)
 */
const BODY_FIELD = { permutationTexture: true, numbersAsData: true };

let sampler: GpuFieldSampler | null = null;
let jsWorker: Worker | null = null;
let edgeIds: Uint32Array = new Uint32Array(0);
const medians: Record<string, number> = {};

function mainSampler(): GpuFieldSampler {
  if (!sampler) {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) throw new Error('no WebGL2');
    sampler = new GpuFieldSampler(gl, { label: 'bench', fieldOptions: BODY_FIELD });
  }
  return sampler;
}

/** Where a grid job's time went, per batch: issuing it, until a poll saw its fence, reading it back. */
function breakdown(t: GpuSamplerTiming): string {
  const g = t.grid;
  const per = (ms: number) => (g.batches > 0 ? (ms / g.batches).toFixed(2) : '-');
  const queue = g.jobs > 0 ? (g.queueMs / g.jobs).toFixed(2) : '-';
  return `per batch: dispatch→values ${per(g.dispatchMs + g.gpuBusyMs + g.collectMs)} ms; queued ${queue} ms a job, dispatch ${per(g.dispatchMs)} ms, dispatch→signal seen ${per(g.gpuBusyMs)} ms, collect ${per(g.collectMs)} ms (getBufferSubData ${per(g.readMs)} ms); ${(t.polls / Math.max(1, g.batches)).toFixed(1)} polls`;
}

/** The counters since `before` (the setup's compile run left out). */
function since(t: GpuSamplerTiming, before: GpuSamplerTiming | null): GpuSamplerTiming {
  if (!before) return t;
  const d = structuredClone(t);
  for (const k of ['grid', 'edges'] as const) for (const f of Object.keys(d[k]) as (keyof typeof d.grid)[]) d[k][f] -= before[k][f];
  d.polls -= before.polls;
  return d;
}

function timed(name: string, run: () => Promise<unknown>): () => Promise<unknown> {
  const times: number[] = [];
  return async () => {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
    medians[name] = [...times].sort((a, b) => a - b)[times.length >> 1];
  };
}

const ratio = (a: string, b: string): string =>
  medians[a] && medians[b] ? `${(medians[b] / medians[a]).toFixed(2)}× faster than ${b}` : '';

/** A 65³ grid row on a main-thread sampler of its own, finding finished batches by `collect`. */
function mainThreadRow(key: string, collect: GpuCollect, what: string): Benchmark {
  let own: GpuFieldSampler | null = null;
  let afterSetup: GpuSamplerTiming | null = null;
  const inSampler: number[] = [];
  const get = (): GpuFieldSampler => {
    if (collect === 'poll') return mainSampler(); // shared with the edge row
    if (own) return own;
    // One context a row: a context per call ran past the browser's limit and lost the oldest.
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) throw new Error('no WebGL2');
    return (own = new GpuFieldSampler(gl, { label: `bench (${collect})`, collect, fieldOptions: BODY_FIELD }));
  };
  return {
    name: `sampling/${key}/grid/65^3/asteroid6`,
    unit: 'ms',
    runs: 5,
    warmup: 1,
    setup: async () => {
      // Compile once outside the timing (compiles are cached per recipe).
      await get().sampleGrid(ASTEROID6, { ...GRID, points: 2 }).promise;
      afterSetup = structuredClone(get().timing);
    },
    run: timed(key, async () => {
      const before = structuredClone(get().timing.grid);
      await get().sampleGrid(ASTEROID6, GRID).promise;
      const g = get().timing.grid;
      inSampler.push(g.dispatchMs + g.gpuBusyMs + g.collectMs - (before.dispatchMs + before.gpuBusyMs + before.collectMs));
    }),
    // The sampler's own dispatch→values per run, median (the breakdown's means include the warm-up run).
    notes: () => `${what}, ${(POINTS / (medians[key] / 1000)).toExponential(3)} points/s; dispatch→values in the sampler ${median(inSampler.slice(1)).toFixed(2)} ms (median); ${breakdown(since(get().timing, afterSetup))}`,
  };
}

/** A 65³ grid row on an OffscreenCanvas sampling worker of its own, finding finished batches by `collect`. */
function workerRow(key: string, collect: GpuCollect, what: string): Benchmark {
  let client: GpuSamplerClient | null = null;
  let afterSetup: GpuSamplerTiming | null = null;
  let timing: GpuSamplerTiming | null = null;
  return {
    name: `sampling/${key}/grid/65^3/asteroid6`,
    unit: 'ms',
    runs: 5,
    warmup: 1,
    setup: async () => {
      client = await GpuSamplerClient.create({ collect });
      if (!client) throw new Error('no OffscreenCanvas WebGL2 worker in this browser');
      client.registerBody('asteroid6', { recipe: ASTEROID6 });
      await client.sampleGrid('asteroid6', { ...GRID, points: 2 }).promise;
      afterSetup = (await client.stats()).bodies;
    },
    run: timed(key, () => client!.sampleGrid('asteroid6', GRID).promise),
    teardown: async () => {
      const t = (await client!.stats()).bodies;
      timing = t && since(t, afterSetup);
    },
    notes: () => `${what}, ${(POINTS / (medians[key] / 1000)).toExponential(3)} points/s${timing ? `; ${breakdown(timing)}` : ''}`,
  };
}

export const benchmarks: Benchmark[] = [
  mainThreadRow('gpu-main', 'poll', 'dispatch→collect latency'),
  mainThreadRow('gpu-main-spin', 'spin', "fences asked every ~0.1 ms after a dispatch (collect: 'spin')"),
  mainThreadRow('gpu-main-sync', 'sync', "read back at once, waiting for the GPU (collect: 'sync')"),
  workerRow('gpu-worker', 'poll', 'OffscreenCanvas worker incl. postMessage'),
  workerRow('gpu-worker-spin', 'spin', "collect: 'spin'"),
  workerRow('gpu-worker-sync', 'sync', "collect: 'sync' (read back at once, waiting for the GPU)"),
  {
    name: 'sampling/js-worker/grid/65^3/asteroid6',
    unit: 'ms',
    runs: 3,
    warmup: 1,
    setup: () => {
      jsWorker = new Worker(new URL('./jsGrid.worker.ts', import.meta.url), { type: 'module' });
    },
    run: timed(
      'js-worker',
      () =>
        new Promise<Float32Array>((resolve) => {
          jsWorker!.onmessage = (e: MessageEvent<Float32Array>) => resolve(e.data);
          jsWorker!.postMessage({ recipe: ASTEROID6, originM, stepM, points: GRID_N });
        }),
    ),
    notes: () =>
      `peer of the GPU grid pass, ${(POINTS / (medians['js-worker'] / 1000)).toExponential(3)} points/s; GPU main thread ${ratio('gpu-main', 'js-worker')}, GPU worker ${ratio('gpu-worker', 'js-worker')}`,
  },
  {
    name: 'sampling/gpu-main/edges/65^3/asteroid6',
    unit: 'edges/s',
    runs: 5,
    warmup: 1,
    setup: async () => {
      const { values } = await mainSampler().sampleGrid(ASTEROID6, GRID).promise;
      edgeIds = signChangingEdges(values, GRID_N).ids;
    },
    run: () => mainSampler().sampleEdges(ASTEROID6, GRID, edgeIds).promise,
    toValue: (ms) => edgeIds.length / (ms / 1000),
    notes: () => `${edgeIds.length} sign-changing edges, 10 regula-falsi steps + 6 gradient taps each`,
  },
];
