/**
 * The GPU sampler's types (GpuFieldSampler.ts re-exports the public ones): what a job asks for and
 * gets back, its options and timing, and the internal job and batch records its passes work on.
 */
import type { GridAtlasLayout } from './atlas';
import type { GridBatchLayout } from './batches';
import type { CompileGlslOptions } from '../field/compileGlsl';

/** Rejection reason of every job pending when the WebGL context is lost. Retry after restore. */
export class GpuContextLostError extends Error {
  constructor(message = 'the WebGL context was lost; the sampling job was dropped (retry it)') {
    super(message);
    this.name = 'GpuContextLostError';
  }
}

/** Rejection reason of a cancelled job. */
export class GpuJobCancelledError extends Error {
  constructor() {
    super('the sampling job was cancelled');
    this.name = 'GpuJobCancelledError';
  }
}

/** Where a chunk's grid lies: local index (i, j, k) ↦ originM + stepM · (i, j, k) (cartesian mapping). */
export interface ChunkGrid {
  /** Body-local position of grid point (0, 0, 0), metres. */
  originM: readonly [number, number, number];
  /** Distance between neighbouring grid points, metres. */
  stepM: number;
  /** Points per axis, P = N + 1 (N cells). */
  points: number;
  /**
   * Per-job uniforms of the mapping and the field, by GLSL name (e.g. the cube-sphere chunk's
   * `sr_cs*`, a band-limited field's `sr_band`): numbers for scalars, arrays for vectors, matrices
   * (column-major) and uniform arrays. Names the program does not use are ignored.
   */
  uniforms?: Readonly<Record<string, number | ArrayLike<number>>>;
}

export interface GridSamples {
  /** P³ field values, x fastest: i + P · (j + P · k). */
  values: Float32Array;
  points: number;
  /** Wall time from dispatch to collect, ms (includes waiting for earlier GPU work). */
  latencyMs: number;
}

/** Hermite data in the mesher's `HermiteEdges` layout. */
export interface EdgeSamples {
  count: number;
  /** axis · P³ + i + P · (j + P · k), as given. */
  edgeIds: Uint32Array;
  /** Crossing parameter in [0, 1] from the edge's lower end; −1 when the re-evaluated ends no longer differ in sign. */
  t: Float32Array;
  /** 3 per edge: unit gradient with respect to grid coordinates. */
  normals: Float32Array;
  latencyMs: number;
}

/** A chunk's grid values and the hermite data of its sign-changing edges. */
export interface GpuChunkSamples {
  values: Float32Array;
  points: number;
  hermite: EdgeSamples;
  latencyMs: number;
}

/** Where a sampler's time went, per pass kind (cumulative; benchmarks read it). */
export interface GpuPassTiming {
  batches: number;
  jobs: number;
  /** Summed over jobs: from the job's submission to its batch's dispatch (waiting for a poll, a program or room). */
  queueMs: number;
  /** Main-thread (or worker) time issuing the passes: uniforms, draws, readPixels, fence. */
  dispatchMs: number;
  /** Time reading back and splitting finished batches (getBufferSubData, unpacking). */
  collectMs: number;
  /** Of `collectMs`, the getBufferSubData calls alone. */
  readMs: number;
  /**
   * Time with a batch of this kind on the GPU, seen from poll(): from its dispatch (or the previous
   * batch's signal, if later) to the poll that saw its fence signalled — an upper bound on GPU time.
   */
  gpuBusyMs: number;
}

export interface GpuSamplerTiming {
  grid: GpuPassTiming;
  edges: GpuPassTiming;
  polls: number;
  /** Time inside poll(), dispatch and collect included. */
  pollMs: number;
  /** Time listing each chunk's sign-changing edges between its grid and edge passes. */
  edgeListMs: number;
}

export interface GpuJob<T> {
  readonly promise: Promise<T>;
  /** Drops the job; its promise rejects with {@link GpuJobCancelledError}. */
  cancel(): void;
}

export interface GpuFieldSamplerOptions {
  /** Label used in errors, e.g. the body's name. */
  label?: string;
  /** Fill output buffers with NaN before each pass (tests: proves every element is written). */
  poison?: boolean;
  /**
   * Poll by itself with `setTimeout` while jobs are pending (default true). Turn it off when
   * the owner polls once a frame.
   */
  autoPoll?: boolean;
  /** Central-difference step of the edge pass gradient, in cells (default 0.02). */
  gradientStepCells?: number;
  /**
   * The chunk-space mapping as GLSL: defines `vec3 sr_chunkPointM(vec3 localIndex)` (chunk-local
   * grid coordinates → body-local metres). Default: glsl/sr_map_cartesian.glsl, whose uniforms
   * `sr_chunkOriginM` / `sr_chunkStepM` take the job's {@link ChunkGrid}. The cube-sphere warp
   * plugs in here.
   */
  mappingGlsl?: string;
  /**
   * How the field is compiled (e.g. `bandUniforms`: one program for every band limit, chosen by `sr_band`;
   * `numbersAsData`: one program for every recipe of a shape, its numbers in the `SrParams` block).
   */
  fieldOptions?: Pick<CompileGlslOptions, 'bandUniforms' | 'permutationTexture' | 'numbersAsData' | 'chunkRelative'>;
  /** Most jobs one batch holds (default {@link MAX_BATCH_JOBS}; 1 = a fence and a readback per job). */
  maxBatchJobs?: number;
  /**
   * How finished batches are found (issue 16's latency): `poll` (default) asks the oldest fence on
   * each timer poll; `spin` also asks right after a dispatch, every ~0.1 ms for up to
   * {@link SPIN_MS}, before going back to the timer (for a worker that owns its thread: a timer
   * poll waits 4 ms or more once timers nest); `sync` reads every batch back right after its
   * dispatch, without asking its fence: `getBufferSubData` then waits for the GPU. It blocks the
   * thread for the GPU's time, so it is for a worker that owns its thread: on the H100 a polled 65³
   * grid took 4.9–6.1 ms to its values (Chromium's GPU process reports the fence late) against
   * 2.3–3.2 ms read at once.
   */
  collect?: GpuCollect;
}

/** How a sampler finds its finished batches (GpuFieldSamplerOptions.collect). */
export type GpuCollect = 'poll' | 'spin' | 'sync';

/** Longest a `spin` collect asks a fence after a dispatch, ms. */
export const SPIN_MS = 4;

export interface Job {
  kind: 'grid' | 'edges';
  recipeKey: string;
  grid: ChunkGrid;
  edgeIds?: Uint32Array;
  /** Grid values at each edge's ends (2 per edge), when the caller has them: the pass skips evaluating them. */
  edgeEnds?: Float32Array;
  /** waiting → inflight (in `batch`) → resolved; failed / cancelled reject. */
  state: 'waiting' | 'inflight' | 'failed' | 'cancelled';
  error?: unknown;
  batch: Batch | null;
  layout: GridAtlasLayout | null;
  startMs: number;
  resolve: (value: never) => void;
  reject: (reason: unknown) => void;
}

/** Passes dispatched together: one fence, one output buffer, one readback (batches.ts). */
export interface Batch {
  kind: Job['kind'];
  jobs: Job[];
  fence: WebGLSync | null;
  buffer: WebGLBuffer | null;
  bufferBytes: number;
  /** Grid batches: where each job's rows lie. */
  layout: GridBatchLayout | null;
  /** Edge batches: each job's first edge in the output. */
  offsets: number[];
  dispatchedAt: number;
}

export function passTiming(): GpuPassTiming {
  return { batches: 0, jobs: 0, queueMs: 0, dispatchMs: 0, collectMs: 0, readMs: 0, gpuBusyMs: 0 };
}
