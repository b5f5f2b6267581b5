/**
 * Body meshing service for the main thread: body jobs on the worker pool, with the grid
 * values and hermite data sampled first on the GPU when the start-up probe chose a GPU path.
 * One job = one cancellable promise of a {@link BodyMeshResult}.
 */
import type { FieldRecipe } from '../field/recipe';
import type { GpuJob } from '../gpu/GpuFieldSampler';
import type { BodyMeshParams, BodyMeshResult } from './bodyJob';
import type { GpuSamplerClient } from './GpuSamplerClient';
import { JobCancelledError, WorkerPool, type PoolJob } from './WorkerPool';
import type { SamplingPath } from './samplingPath';

export interface BodyMesherOptions {
  /** Where grid values come from (the probe's choice). `gpu-main` falls back to JS here. */
  sampling: SamplingPath;
  /** The GPU sampling worker, required for `gpu-worker`. */
  gpuWorker?: GpuSamplerClient | null;
  /** Body workers (default: hardwareConcurrency − 1, at least 1). */
  workers?: number;
  /** Told when a body worker died or stopped answering and was replaced (WorkerPool's words). */
  onWorkerLost?: (why: string) => void;
}

export interface BodyJob {
  readonly promise: Promise<BodyMeshResult>;
  cancel(): void;
  setPriority(priority: number): void;
}

export class BodyMesher {
  readonly pool: WorkerPool;
  /** The GPU sampling worker when sampling is `gpu-worker` (planets send their chunks there too). */
  readonly gpuWorker: GpuSamplerClient | null;
  readonly sampling: SamplingPath;
  /** Jobs cancelled before they finished (stale LOD requests). */
  cancelled = 0;

  constructor(options: BodyMesherOptions) {
    this.pool = new WorkerPool({
      name: 'body workers',
      size: options.workers,
      // Planet jobs take 5-150 ms and a software-rendered frame 150-250 ms: a worker needs about a
      // frame's worth of jobs in hand not to idle between the main thread's visits (it runs them
      // by priority and drops cancelled ones itself).
      jobsPerWorker: 16,
      create: () => new Worker(new URL('./body.worker.ts', import.meta.url), { type: 'module', name: 'body-mesher' }),
      onWorkerLost: options.onWorkerLost,
    });
    this.gpuWorker = options.sampling === 'gpu-worker' ? (options.gpuWorker ?? null) : null;
    this.sampling = this.gpuWorker ? 'gpu-worker' : 'js-worker';
  }

  /** Meshes a body over a cartesian grid; higher `priority` runs first. */
  mesh(params: BodyMeshParams, priority = 0): BodyJob {
    if (!this.gpuWorker) return this.track(this.pool.run<BodyMeshResult>('meshBody', params, { priority }));

    // GPU first (grid + edges in the sampling worker), then Dual Contouring in a body worker.
    let cancelled = false;
    let gpuJob: GpuJob<{ values: Float32Array; hermite: BodyMeshParams['hermite'] }> | null = null;
    let poolJob: PoolJob<BodyMeshResult> | null = null;
    const recipe: FieldRecipe = params.recipe;
    const grid = { originM: params.originM, stepM: params.stepM, points: params.cells + 1 };
    gpuJob = this.gpuWorker.sampleChunk(recipe, grid);
    const promise = gpuJob.promise.then(({ values, hermite }) => {
      if (cancelled) throw new JobCancelledError();
      const transfer: Transferable[] = [values.buffer as ArrayBuffer];
      if (hermite) transfer.push(hermite.edgeIds.buffer as ArrayBuffer, hermite.t.buffer as ArrayBuffer, hermite.normals.buffer as ArrayBuffer);
      poolJob = this.pool.run<BodyMeshResult>('meshBody', { ...params, values, hermite }, { priority, transfer });
      return poolJob.promise;
    });
    return this.track({
      promise,
      cancel: () => {
        cancelled = true;
        gpuJob?.cancel();
        poolJob?.cancel();
      },
      setPriority: (p) => poolJob?.setPriority(p),
    });
  }

  private track(job: BodyJob): BodyJob {
    return {
      promise: job.promise,
      cancel: () => {
        this.cancelled++;
        job.cancel();
      },
      setPriority: (p) => job.setPriority(p),
    };
  }

  dispose(): void {
    this.pool.dispose();
  }
}
