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
import type { BodyMeshParams, BodyMeshResult } from '../jobs/bodyJob';
import type { BodyDefinition, BodyRegistrationMessage } from '../jobs/bodyRegistry';
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
  /**
   * A body's jobs before its GPU programs have linked: `js` (default) samples them in JS in the
   * body worker rather than queue them behind the compile; `wait` sends them to the GPU anyway
   * (tests that compare the two paths).
   */
  gpuBeforeReady?: 'js' | 'wait';
}

export interface BodyJob {
  readonly promise: Promise<BodyMeshResult>;
  cancel(): void;
  setPriority(priority: number): void;
}

/** Longest a GPU client handed back to JS (`useJs`) waits for its jobs before it is disposed (ms). */
const GPU_HANDBACK_CAP_MS = 10_000;

export class BodyMesher {
  readonly pool: WorkerPool;
  private gpu: GpuSamplerClient | null;
  /** Jobs cancelled before they finished (stale LOD requests). */
  cancelled = 0;
  /** Holders and definition per registered body id. */
  private readonly holders = new Map<string, { count: number; definition: BodyDefinition }>();

  private readonly gpuBeforeReady: 'js' | 'wait';

  constructor(options: BodyMesherOptions) {
    this.gpuBeforeReady = options.gpuBeforeReady ?? 'js';
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
    this.gpu = options.sampling === 'gpu-worker' ? (options.gpuWorker ?? null) : null;
  }

  /** The GPU sampling worker when sampling runs there (planets send their chunks there too). */
  get gpuWorker(): GpuSamplerClient | null {
    return this.gpu;
  }

  get sampling(): SamplingPath {
    return this.gpu ? 'gpu-worker' : 'js-worker';
  }

  /**
   * Moves sampling to the GPU worker from the next job on (the start-up measurement found it
   * faster after generation had started in JS): the bodies held now are registered with it. Jobs
   * already running finish where they are. The mesher owns `client` from here.
   */
  useGpu(client: GpuSamplerClient): void {
    if (this.gpu) {
      if (this.gpu !== client) client.dispose();
      return;
    }
    this.gpu = client;
    for (const [id, { definition }] of this.holders) client.registerBody(id, definition);
  }

  /**
   * Moves sampling back to JS from the next job on (the measurement after a provisional GPU start,
   * samplingStart.ts, found JS faster). GPU jobs already out finish (a failed one is sampled in JS);
   * the client is disposed once none is left, or after {@link GPU_HANDBACK_CAP_MS} whatever is left.
   */
  useJs(): void {
    const gpu = this.gpu;
    if (!gpu) return;
    this.gpu = null;
    const since = performance.now();
    const drop = (): void => {
      if (gpu.pendingJobs === 0 || performance.now() - since > GPU_HANDBACK_CAP_MS) gpu.dispose();
      else setTimeout(drop, 250);
    };
    drop();
  }

  /**
   * Registers body `id` with every worker (once, however many hold it); returns the release. An id
   * names one definition (sceneSpec.ts's body ids are a function of the generator and seed).
   */
  registerBody(id: string, definition: BodyDefinition): () => void {
    const held = this.holders.get(id);
    if (held) held.count++;
    else {
      this.holders.set(id, { count: 1, definition });
      const message: BodyRegistrationMessage = { id: 0, kind: 'registerBody', params: { body: id, definition } };
      this.pool.broadcast(`body:${id}`, message);
      this.gpu?.registerBody(id, definition);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const entry = this.holders.get(id)!;
      if (--entry.count > 0) return;
      this.holders.delete(id);
      const message: BodyRegistrationMessage = { id: 0, kind: 'unregisterBody', params: { body: id } };
      this.pool.retract(`body:${id}`, message);
      this.gpu?.unregisterBody(id);
    };
  }

  /**
   * Meshes a body (registered: {@link registerBody}) over a cartesian grid; higher `priority` runs
   * first. Sampled on the GPU once the body's programs there have linked, in JS until then.
   */
  mesh(params: BodyMeshParams, priority = 0): BodyJob {
    const gpu = this.gpu;
    gpu?.prepare(params.body); // its programs compile from the first job on (an asteroid's: gpuSampler.worker.ts)
    if (!gpu || (this.gpuBeforeReady === 'js' && !gpu.isReady(params.body))) {
      return this.track(this.pool.run<BodyMeshResult>('meshBody', params, { priority }));
    }

    // GPU first (grid + edges in the sampling worker), then Dual Contouring in a body worker.
    let cancelled = false;
    let gpuJob: GpuJob<{ values: Float32Array; hermite: BodyMeshParams['hermite'] }> | null = null;
    let poolJob: PoolJob<BodyMeshResult> | null = null;
    const grid = { originM: params.originM, stepM: params.stepM, points: params.cells + 1 };
    gpuJob = gpu.sampleChunk(params.body, grid);
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
    this.gpu?.dispose();
  }
}
