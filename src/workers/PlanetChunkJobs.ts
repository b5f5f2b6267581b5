/**
 * Where a planet's chunk jobs run (issue 15): sampled on the GPU (the sampling worker's grid and
 * edge passes) and then meshed by a body worker, or sampled and meshed in JS by a body worker. One
 * cancellable, re-prioritisable job either way. PlanetView decides what to run; this decides where.
 *
 * - Levels whose cells float32 cannot resolve (planetGpuSamples.gpuSamplesLevel) stay in JS.
 * - A re-mesh (a piece of the chunk exists) asks its worker for the samples it kept (`keptOnly`); when
 *   they are gone the GPU samples the chunk, rather than that worker in JS.
 * - Past about a second of the GPU's measured throughput waiting on it a chunk is sampled in JS
 *   by a free body worker, and past about three seconds by any (GpuQueueLimit.route): the two back
 *   ends share the load without JS sampling taking workers the meshing needs.
 * - Until the planet's programs have linked in the sampling worker (GpuSamplerClient.isReady), chunks
 *   are sampled in JS rather than queued behind the compile.
 * - A failed GPU job is sampled in JS; a shader error turns the GPU path off (told once).
 */
import type { CubeSphereSpace } from '../lod/index';
import type { GpuSamplerClient } from './GpuSamplerClient';
import type { PlanetChunkParams, PlanetChunkReply } from '../jobs/planetChunkJob';
import { GpuQueueLimit, type GpuSpill } from '../jobs/gpuQueueLimit';
import { gpuSamplesLevel } from '../jobs/planetGpuSamples';
import { JobCancelledError, type PoolJob, type WorkerPool } from './WorkerPool';


export interface PlanetChunkJobsOptions {
  /** The planet's id, registered with the workers with its recipe and chunk space (bodyRegistry.ts). */
  body: string;
  chunkSpace: CubeSphereSpace;
  /** Outer radius of the recipe (m): with the level's cell size, whether float32 resolves it. */
  maxRadiusM: number;
  /**
   * The GPU sampler evaluates this planet's field relative to each chunk (src/field/chunkRelative.ts:
   * chunkRelativeEligible of its recipe), so every level may go to it. Default false.
   */
  gpuRelative?: boolean;
  /** A fixed limit on chunks waiting on the GPU (benchmarks); default: from its throughput (GpuQueueLimit). */
  gpuMaxPending?: number;
  /** When a chunk is sampled in JS instead (GpuQueueLimit.route; benchmarks: `?gpuSpill=`). */
  gpuSpill?: GpuSpill;
  onError: (message: string) => void;
}

/** Pool options of one chunk job: its priority and the worker affinity (its chunk). */
export interface ChunkRunOptions {
  priority: number;
  affinity: string;
}

/** What PlanetStats.gpu reports. */
export interface PlanetGpuStats {
  chunks: number;
  failed: number;
  queueFull: number;
  remeshSampled: number;
  meanLatencyMs: number;
  enabled: boolean;
  /** Chunks waiting on the GPU now, and how many may (GpuQueueLimit). */
  pending: number;
  limit: number;
}

export class PlanetChunkJobs {
  /** Set when the GPU path failed for good (a shader error): every later chunk is sampled in JS. */
  private gpuOff = false;
  private gpuPending = 0;
  private readonly queueLimit: GpuQueueLimit;
  private readonly counts = { chunks: 0, failed: 0, latencyMs: 0, queueFull: 0, remeshSampled: 0 };

  /**
   * `gpuSource`: the GPU sampling worker now, or null (asked per chunk: the start-up measurement may
   * move sampling to the GPU after the first chunks ran in JS).
   */
  constructor(
    private readonly pool: WorkerPool,
    private readonly gpuSource: () => GpuSamplerClient | null,
    private readonly options: PlanetChunkJobsOptions,
  ) {
    this.queueLimit = new GpuQueueLimit(options.gpuMaxPending ?? null, options.gpuSpill);
  }

  /** Chunk jobs sampled on the GPU, failed there, sent to JS with the queue full, … */
  gpuStats(): PlanetGpuStats {
    const c = this.counts;
    return {
      chunks: c.chunks, failed: c.failed, queueFull: c.queueFull, remeshSampled: c.remeshSampled, enabled: this.gpu !== null, pending: this.gpuPending,
      limit: this.queueLimit.limit,
      meanLatencyMs: c.chunks > 0 ? c.latencyMs / c.chunks : 0,
    };
  }

  private get gpu(): GpuSamplerClient | null {
    return this.gpuOff ? null : this.gpuSource();
  }

  /** Runs one chunk job; `remesh`: a piece of this chunk exists (its worker may have kept the samples). */
  run(params: PlanetChunkParams, run: ChunkRunOptions, remesh: boolean): PoolJob<PlanetChunkReply> {
    const gpu = this.gpu;
    // Until the planet's programs have linked on the GPU, chunks are sampled in JS, not queued behind the compile.
    // Chunks a brush reaches (issue 19) too: the GPU's programs hold the generated planet, and a dig
    // reaches a handful of chunks a level, where a new program would take a compile per edit.
    if (!gpu || !gpu.isReady(this.options.body) || (params.brushes?.length ?? 0) > 0 ||
      !gpuSamplesLevel(this.options.chunkSpace, params.level, this.options.maxRadiusM, this.options.gpuRelative ?? false)) {
      return this.pool.run<PlanetChunkReply>('meshPlanetChunk', params, run);
    }
    if (remesh) {
      return chainJob(this.pool.run<PlanetChunkReply>('meshPlanetChunk', { ...params, keptOnly: true }, run), run.priority, (r, priority) => {
        if (!r.needsSamples) return null;
        this.counts.remeshSampled++;
        return this.sampleAndMesh(gpu, params, { ...run, priority });
      });
    }
    return this.sampleAndMesh(gpu, params, run);
  }

  /** GPU sampling then meshing, or JS sampling in a body worker while the GPU has a full queue (GpuQueueLimit.route). */
  private sampleAndMesh(gpu: GpuSamplerClient, params: PlanetChunkParams, run: ChunkRunOptions): PoolJob<PlanetChunkReply> {
    const workerFree = this.pool.queued === 0 && this.pool.busy < this.pool.size;
    if (this.queueLimit.route(this.gpuPending, workerFree) === 'gpu') return this.gpuThenMesh(gpu, params, run);
    this.counts.queueFull++;
    return this.pool.run<PlanetChunkReply>('meshPlanetChunk', params, run);
  }

  /**
   * A chunk sampled by the GPU sampling worker, then meshed by a body worker with those samples
   * (planetGpuSamples.ts settles its shared faces). While sampling, cancel drops the GPU job; then
   * the pool job. A failed GPU job falls back to JS sampling.
   */
  private gpuThenMesh(gpu: GpuSamplerClient, params: PlanetChunkParams, run: ChunkRunOptions): PoolJob<PlanetChunkReply> {
    let cancelled = false;
    let meshJob: PoolJob<PlanetChunkReply> | null = null;
    let priority = run.priority;
    const key = `${params.face}/${params.level}/${params.ci}/${params.cj}/${params.ck}`;
    const sampling = gpu.samplePlanetChunk(this.options.body, key);
    this.gpuPending++;
    const promise = sampling.promise.then(
      (samples) => {
        this.gpuPending--;
        this.queueLimit.completed(performance.now());
        if (cancelled) throw new JobCancelledError();
        this.counts.chunks++;
        this.counts.latencyMs += samples.latencyMs;
        const h = samples.hermite;
        const gpuParams: PlanetChunkParams = { ...params, gpu: { values: samples.values, hermite: { count: h.count, edgeIds: h.edgeIds, t: h.t, normals: h.normals } } };
        meshJob = this.pool.run<PlanetChunkReply>('meshPlanetChunk', gpuParams, {
          ...run, priority, transfer: [samples.values.buffer, h.edgeIds.buffer, h.t.buffer, h.normals.buffer] as ArrayBuffer[],
        });
        return meshJob.promise;
      },
      (error: unknown) => {
        this.gpuPending--;
        if (cancelled) throw new JobCancelledError();
        // The GPU path failed (context lost, shader error): this chunk is sampled in JS instead.
        this.counts.failed++;
        meshJob = this.pool.run<PlanetChunkReply>('meshPlanetChunk', params, { ...run, priority });
        if ((error as Error)?.name === 'GpuShaderError' && !this.gpuOff) {
          this.gpuOff = true; // every later chunk would fail the same way
          this.options.onError(`Planet GPU sampling failed, chunks are sampled in JS from now on: ${(error as Error).message}`);
        }
        return meshJob.promise;
      },
    );
    return {
      id: -1,
      promise,
      cancel: () => {
        cancelled = true;
        sampling.cancel();
        meshJob?.cancel();
      },
      setPriority: (p) => {
        priority = p;
        meshJob?.setPriority(p);
      },
    };
  }
}

/**
 * A job, then (when `next` returns one for its result) a second job in its place: one cancellable,
 * re-prioritisable handle for both.
 */
export function chainJob<R>(first: PoolJob<R>, priority: number, next: (result: R, priority: number) => PoolJob<R> | null): PoolJob<R> {
  let second: PoolJob<R> | null = null;
  let cancelled = false;
  const promise = first.promise.then((r) => {
    if (cancelled) throw new JobCancelledError();
    second = next(r, priority);
    return second ? second.promise : r;
  });
  return {
    id: first.id,
    promise,
    cancel: () => {
      cancelled = true;
      first.cancel();
      second?.cancel();
    },
    setPriority: (p) => {
      priority = p;
      first.setPriority(p);
      second?.setPriority(p);
    },
  };
}
