/**
 * The one protocol module between the main thread and our workers: the envelope (docs/design.md,
 * house rule 11) — `{ id, kind, params }` → `{ id, result }` or `{ id, error }` — and the messages
 * each worker takes, which its entry file (`*.worker.ts`) and the client that posts to it both
 * import from here. Errors cross as plain `{ name, message, stack }` and are rebuilt on the other
 * side so callers can tell a lost context from a shader error by `name`. A job's own params and
 * result are its job module's (src/jobs/), the only thing here that names them is a request union.
 */
import type { ChunkGrid, GpuCollect, GpuSamplerTiming } from '../gpu/GpuFieldSampler';
import type { Brush, FieldRecipe } from '../field/index';
import type { ChunkKey, CubeSphereOptions, LodView, SelectOptions } from '../lod/index';
import type { BodyRegistrationMessage } from '../jobs/bodyRegistry';
import type { PlanetMeasureBody } from '../jobs/planetSamplingMeasure';
import type { PreparedMeasurement } from '../jobs/samplingMeasure';

export interface WorkerRequest<K extends string = string, P = unknown> {
  id: number;
  kind: K;
  params: P;
}

export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
}

export type WorkerResponse<R = unknown> = { id: number; result: R } | { id: number; error: SerializedError };

/**
 * What a pooled worker sends (src/jobs/jobQueue.ts): answers, and `started` as it starts job `id`, with the
 * time it has spent with no job to run so far (ms).
 */
export type PoolWorkerMessage<R = unknown> = WorkerResponse<R> | { id: number; started: true; idleMs: number };

export function serializeError(e: unknown): SerializedError {
  if (e instanceof Error) return { name: e.name, message: e.message, stack: e.stack };
  return { name: 'Error', message: String(e) };
}

/** An Error with the original name, message and (worker-side) stack. */
export function deserializeError(s: SerializedError): Error {
  const e = new Error(s.message);
  e.name = s.name;
  if (s.stack) e.stack = s.stack;
  return e;
}

/** What a pooled worker's job handler returns (src/jobs/jobQueue.ts): the result and the buffers to transfer with it. */
export interface JobOutput {
  result: unknown;
  transfer?: Transferable[];
}

// --- The GPU sampling worker (gpuSampler.worker.ts; its client GpuSamplerClient.ts) ---

export interface GpuWorkerCapabilities {
  ok: boolean;
  renderer: string;
  reason: string;
}

export type GpuWorkerRequest =
  | WorkerRequest<'init', { poison?: boolean; permutationTexture?: boolean; maxBatchJobs?: number; collect?: GpuCollect }>
  | BodyRegistrationMessage
  | WorkerRequest<'grid', { body: string; grid: ChunkGrid }>
  | WorkerRequest<'edges', { body: string; grid: ChunkGrid; edgeIds: Uint32Array }>
  | WorkerRequest<'chunk', { body: string; grid: ChunkGrid }>
  | WorkerRequest<'planetChunk', { body: string; key: string }>
  | WorkerRequest<'cancel', { id: number }>
  | WorkerRequest<'stats', Record<string, never>>
  | WorkerRequest<'prepareBody', { body: string }>
  | WorkerRequest<'measure', { phase: 'prepare'; recipe?: FieldRecipe; planet?: PlanetMeasureBody } | { phase: 'gpu'; prepared: PreparedMeasurement; workers: number; recipe?: FieldRecipe; planet?: PlanetMeasureBody }>;

/** Where the sampling worker's time went (benchmarks): the planet sampler's passes and this loop. */
export interface GpuWorkerStats {
  planet: GpuSamplerTiming | null;
  /** The bodies' (asteroids') sampler. */
  bodies: GpuSamplerTiming | null;
  /**
   * Program sets (a grid and an edge pass each) the bodies' and the planet's samplers built: with
   * numbers as data, one per recipe shape, not per recipe (issue 16).
   */
  programSets: { bodies: number; planet: number };
  /** Time handling requests (planet chunk setup, enqueueing) and replying (posting results). */
  handlerMs: number;
  replyMs: number;
}

/** What the worker tells unasked: a body's programs linked (`ok`) or failed to (`reason`). */
export interface GpuBodyReadyEvent {
  event: 'bodyReady';
  body: string;
  ok: boolean;
  reason: string;
}

// --- The planet LOD worker (lod.worker.ts; its client PlanetLodClient.ts) ---

export type LodWorkerRequest =
  | WorkerRequest<'init', { recipe: FieldRecipe; space: CubeSphereOptions; select: SelectOptions }>
  /** `errorFactor`: the renderer's memory factor on the error threshold (≥ 1). */
  | WorkerRequest<'select', { view: LodView; errorFactor: number }>
  | WorkerRequest<'ready', { keys: ChunkKey[] }>
  | WorkerRequest<'evicted', { keys: ChunkKey[] }>
  | WorkerRequest<'homogeneous', { key: ChunkKey; state: 'empty' | 'full'; proven: boolean }>
  /** The user's brushes, all of them in order, and those this edit added or took back (issue 19). */
  | WorkerRequest<'edit', { brushes: Brush[]; changed: Brush[] }>
  /** Test hook (issue 45): the worker stops answering, as a hung one would. */
  | WorkerRequest<'debugHang', Record<string, never>>;
