/**
 * Body meshing service for the main thread: body jobs on the worker pool, with the grid
 * values and hermite data sampled first on the GPU when the start-up probe chose a GPU path.
 * One job = one cancellable promise of a {@link BodyMeshResult}.
 *
 * Bodies are registered once ({@link BodyMesher.registerBody}) with every body worker (and their
 * replacements) and with the GPU sampling worker; jobs name the body. Registrations are counted:
 * the workers forget a body when its last holder releases it.
 */
import type { GpuJob } from '../gpu/GpuFieldSampler';
import type { BodyMeshParams, BodyMeshResult } from './bodyJob';
import type { BodyDefinition, BodyRegistrationMessage } from './bodyRegistry';
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
  /** Holders per registered body id. */
  private readonly holders = new Map<string, number>();

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

  /**
   * Registers body `id` with every worker (once, however many hold it); returns the release. An id
   * names one definition (sceneSpec.ts's body ids are a function of the generator and seed).
   */
  registerBody(id: string, definition: BodyDefinition): () => void {
    const n = this.holders.get(id) ?? 0;
    this.holders.set(id, n + 1);
    if (n === 0) {
      const message: BodyRegistrationMessage = { id: 0, kind: 'registerBody', params: { body: id, definition } };
      this.pool.broadcast(`body:${id}`, message);
      this.gpuWorker?.registerBody(id, definition);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.holders.get(id)! - 1;
      if (left > 0) {
        this.holders.set(id, left);
        return;
      }
      this.holders.delete(id);
      const message: BodyRegistrationMessage = { id: 0, kind: 'unregisterBody', params: { body: id } };
      this.pool.retract(`body:${id}`, message);
      this.gpuWorker?.unregisterBody(id);
    };
  }

  /** Meshes a body (registered: {@link registerBody}) over a cartesian grid; higher `priority` runs first. */
  mesh(params: BodyMeshParams, priority = 0): BodyJob {
    if (!this.gpuWorker) return this.track(this.pool.run<BodyMeshResult>('meshBody', params, { priority }));

    // GPU first (grid + edges in the sampling worker), then Dual Contouring in a body worker.
    let cancelled = false;
    let gpuJob: GpuJob<{ values: Float32Array; hermite: BodyMeshParams['hermite'] }> | null = null;
    let poolJob: PoolJob<BodyMeshResult> | null = null;
    const grid = { originM: params.originM, stepM: params.stepM, points: params.cells + 1 };
    gpuJob = this.gpuWorker.sampleChunk(params.body, grid);
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
