/**
 * Main-thread handle of the GPU sampling worker (gpuSampler.worker.ts): the same
 * `sampleGrid` / `sampleEdges` jobs as GpuFieldSampler, run on the worker's OffscreenCanvas
 * context. Jobs name a body registered with the worker ({@link GpuSamplerClient.registerBody}).
 * Errors keep their names (`GpuContextLostError`, `GpuShaderError`, `RecipeError`),
 * a crashed worker rejects everything pending, and nothing waits forever.
 */
import type { BodyDefinition } from '../jobs/bodyRegistry';
import type { FieldRecipe } from '../field/index';
import type { ChunkGrid, GpuChunkSamples, GpuCollect, EdgeSamples, GpuJob, GridSamples } from '../gpu/GpuFieldSampler';
import type { SamplingMeasurement } from '../jobs/samplingDecision';
import type { PreparedMeasurement } from '../jobs/samplingMeasure';
import type { PlanetMeasureBody } from '../jobs/planetSamplingMeasure';
import { deserializeError, type GpuBodyReadyEvent, type GpuWorkerCapabilities, type GpuWorkerRequest, type GpuWorkerStats, type WorkerResponse } from './protocol';

const PROBE_TIMEOUT_MS = 10_000;

export interface GpuSamplerClientOptions {
  /** Fill output buffers with NaN before each pass (tests). */
  poison?: boolean;
  /**
   * Planet grid passes read the noise permutation tables from a texture (default true) rather than
   * from constant arrays in the shader (benchmarks compare the two: `?gpuPermutation=const`).
   */
  permutationTexture?: boolean;
  /** Most chunks a GPU batch holds (default MAX_BATCH_JOBS; benchmarks compare: `?gpuBatch=1`). */
  maxBatchJobs?: number;
  /**
   * How finished batches are found (GpuFieldSamplerOptions.collect), for both of the worker's samplers;
   * by default bodies `sync` and the planet `poll` (benchmarks compare: `?gpuCollect=`).
   */
  collect?: GpuCollect;
}

export class GpuSamplerClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  private dead: Error | null = null;
  /** Bodies whose programs linked (true) or failed (false), as the worker told. */
  private readonly ready = new Map<string, boolean>();
  private readonly readyWaiters = new Map<string, Array<(ok: boolean) => void>>();
  /** Bodies whose programs were asked for ({@link prepare}). */
  private readonly preparing = new Set<string>();

  private constructor(
    private readonly worker: Worker,
    readonly capabilities: GpuWorkerCapabilities,
  ) {
    worker.onmessage = (event: MessageEvent<WorkerResponse | GpuBodyReadyEvent>) => this.onMessage(event.data);
    worker.onerror = (event) => this.fail(new Error(`GPU sampling worker crashed: ${event.message}`));
  }

  /**
   * Starts the worker and asks it for a WebGL2 context; resolves to null (and terminates the
   * worker) when the worker has no usable GPU path, so the caller falls back.
   */
  static async create(options: GpuSamplerClientOptions = {}): Promise<GpuSamplerClient | null> {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./gpuSampler.worker.ts', import.meta.url), { type: 'module', name: 'gpu-sampler' });
    } catch {
      return null;
    }
    const capabilities = await new Promise<GpuWorkerCapabilities | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), PROBE_TIMEOUT_MS);
      worker.onmessage = (event: MessageEvent<WorkerResponse<GpuWorkerCapabilities>>) => {
        clearTimeout(timer);
        resolve('result' in event.data ? event.data.result : null);
      };
      worker.onerror = () => {
        clearTimeout(timer);
        resolve(null);
      };
      const request: GpuWorkerRequest = { id: 0, kind: 'init', params: { poison: options.poison, permutationTexture: options.permutationTexture, maxBatchJobs: options.maxBatchJobs, collect: options.collect } };
      worker.postMessage(request);
    });
    if (!capabilities || !capabilities.ok) {
      worker.terminate();
      return null;
    }
    return new GpuSamplerClient(worker, capabilities);
  }

  get pendingJobs(): number {
    return this.pending.size;
  }

  /** Tells the worker body `id`'s recipe (and a planet's chunk space): jobs then name it. */
  registerBody(id: string, definition: BodyDefinition): void {
    if (!this.dead) this.worker.postMessage({ id: 0, kind: 'registerBody', params: { body: id, definition } } satisfies GpuWorkerRequest);
  }

  /**
   * Whether body `id`'s programs have linked in the worker: until then its jobs would wait behind
   * the compile (callers run them in JS instead). False for a body whose programs failed.
   */
  isReady(id: string): boolean {
    return this.ready.get(id) === true;
  }

  /** Resolves when body `id`'s programs have linked (true) or failed, or the worker died (false). */
  whenReady(id: string): Promise<boolean> {
    const known = this.ready.get(id);
    if (known !== undefined) return Promise.resolve(known);
    if (this.dead) return Promise.resolve(false);
    return new Promise((resolve) => {
      const list = this.readyWaiters.get(id) ?? [];
      list.push(resolve);
      this.readyWaiters.set(id, list);
    });
  }

  /**
   * Starts compiling body `id`'s programs if nothing has yet (a planet's start at registration);
   * {@link isReady} turns true when they have linked. Cheap to call again.
   */
  prepare(id: string): void {
    if (this.dead || this.preparing.has(id)) return;
    this.preparing.add(id);
    this.worker.postMessage({ id: 0, kind: 'prepareBody', params: { body: id } } satisfies GpuWorkerRequest);
  }

  unregisterBody(id: string): void {
    this.ready.delete(id);
    this.preparing.delete(id);
    if (!this.dead) this.worker.postMessage({ id: 0, kind: 'unregisterBody', params: { body: id } } satisfies GpuWorkerRequest);
  }

  sampleGrid(body: string, grid: ChunkGrid): GpuJob<GridSamples> {
    return this.send<GridSamples>({ id: 0, kind: 'grid', params: { body, grid } });
  }

  /** Grid values and the hermite data of their sign-changing edges, in one round trip. */
  sampleChunk(body: string, grid: ChunkGrid): GpuJob<GpuChunkSamples> {
    return this.send<GpuChunkSamples>({ id: 0, kind: 'chunk', params: { body, grid } });
  }

  /**
   * A chunk of planet `body` (key "face/level/ci/cj/ck" of its cube-sphere space): grid values through
   * the chunk-relative cube-sphere mapping with the level's band limit, and the edge pass's hermite data.
   */
  samplePlanetChunk(body: string, key: string): GpuJob<GpuChunkSamples> {
    return this.send<GpuChunkSamples>({ id: 0, kind: 'planetChunk', params: { body, key } });
  }

  /**
   * Probe chunks timed on this worker's GPU and in JS beside it, for `workers` body workers:
   * `body` a recipe to time (samplingMeasure.ts; default its noisy sphere) or the scene's planet and
   * chunks it draws (planetSamplingMeasure.ts). `quietGpu` is called around the GPU's compile and timed
   * batches (the page pauses its frames and lets its queued GPU work finish; it resolves with the
   * resume): the JS figures come first, outside it.
   */
  async measure(workers: number, body?: FieldRecipe | PlanetMeasureBody, quietGpu: () => Promise<() => void> = () => Promise.resolve(() => {})): Promise<SamplingMeasurement> {
    const source = body && 'keys' in body ? { planet: body } : { recipe: body };
    const prepared = await this.send<PreparedMeasurement>({ id: 0, kind: 'measure', params: { phase: 'prepare', ...source } }).promise;
    // The compile and the timed batches with the page's frames off the GPU: a page whose frames fill
    // it (planet quality=high on the H100) left the probe a fifth of the GPU (compile 6.0 s against
    // 2.0 s, 33³ chunks 62 ms) and it chose JS, cached for every mode.
    const resume = await quietGpu();
    try {
      return await this.send<SamplingMeasurement>({ id: 0, kind: 'measure', params: { phase: 'gpu', prepared, workers, ...source } }).promise;
    } finally {
      resume();
    }
  }

  /** Where the worker's time went so far (benchmarks). */
  stats(): Promise<GpuWorkerStats> {
    return this.send<GpuWorkerStats>({ id: 0, kind: 'stats', params: {} }).promise;
  }

  /** `edgeIds` is copied (not transferred) so the caller keeps its array. */
  sampleEdges(body: string, grid: ChunkGrid, edgeIds: Uint32Array): GpuJob<EdgeSamples> {
    return this.send<EdgeSamples>({ id: 0, kind: 'edges', params: { body, grid, edgeIds } });
  }

  private send<T>(request: GpuWorkerRequest): GpuJob<T> {
    const id = this.nextId++;
    request.id = id;
    const promise = new Promise<T>((resolve, reject) => {
      if (this.dead) {
        reject(this.dead);
        return;
      }
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage(request);
    });
    return {
      promise,
      cancel: () => {
        if (!this.pending.has(id)) return;
        const cancel: GpuWorkerRequest = { id: 0, kind: 'cancel', params: { id } };
        this.worker.postMessage(cancel);
      },
    };
  }

  private onMessage(msg: WorkerResponse | GpuBodyReadyEvent): void {
    if ('event' in msg) {
      this.ready.set(msg.body, msg.ok);
      for (const resolve of this.readyWaiters.get(msg.body) ?? []) resolve(msg.ok);
      this.readyWaiters.delete(msg.body);
      return;
    }
    const entry = this.pending.get(msg.id);
    if (!entry) return;
    this.pending.delete(msg.id);
    if ('error' in msg) entry.reject(deserializeError(msg.error));
    else entry.resolve(msg.result);
  }

  private fail(error: Error): void {
    this.dead = error;
    for (const list of this.readyWaiters.values()) for (const resolve of list) resolve(false);
    this.readyWaiters.clear();
    for (const entry of this.pending.values()) entry.reject(error);
    this.pending.clear();
  }

  dispose(): void {
    this.fail(new Error('GPU sampling worker disposed'));
    this.worker.terminate();
  }
}
