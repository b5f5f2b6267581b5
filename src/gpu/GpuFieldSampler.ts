/**
 * GPU field sampling on a raw WebGL2 context (Gildea 2015's GPU pipeline, Sockalingam 2017's
 * compute pass, in WebGL2 form; docs/design.md, "Sources"):
 *
 * - grid pass: a fragment shader evaluates the recipe's `sr_field` at every corner of a
 *   chunk's (N+1)³ grid into an RGBA32F target (glsl/gpu_grid.frag.glsl, layout in atlas.ts: the values in their own order);
 * - edge pass: a transform-feedback vertex shader finds the zero crossing and the gradient on
 *   each sign-changing edge (glsl/gpu_edges.vert.glsl) — hermite data for Dual Contouring.
 *
 * Never a stall: work is split into dispatch (draw + readPixels into a PIXEL_PACK_BUFFER or
 * transform feedback, then a fence) and collect (in {@link GpuFieldSampler.poll}, only once
 * the fence has signalled, `getBufferSubData` copies the finished bytes). Programs compile
 * with KHR_parallel_shader_compile when present, and are only queried once complete. The
 * owner calls `poll()` once a frame (or lets `autoPoll` do it) — nothing here waits.
 *
 * Runs unchanged on a main-thread canvas or on an OffscreenCanvas in a worker. This file is the
 * job queue and its policy (batches, polling, timing, context loss); the recipes' programs and GPU
 * data are kept by RecipeProgramCache.ts and built in fieldPrograms.ts, the passes drawn and read
 * back in samplerPasses.ts, the types in samplerTypes.ts.
 */
import type { CompiledGlsl } from '../field/compileGlsl';
import type { FieldRecipe } from '../field/recipe';
import { gridAtlasLayout } from './atlas';
import { groupIntoBatches, MAX_BATCH_JOBS, MAX_INFLIGHT_BATCHES } from './batches';
import { splitByRecipes } from './recipeSlots';
import { signChangingEdges } from './edgeList';
import { PollTimer } from './pollTimer';
import { RecipeProgramCache } from './RecipeProgramCache';
import { SamplerPasses } from './samplerPasses';
import {
  GpuContextLostError, GpuJobCancelledError, passTiming, SPIN_MS,
  type Batch, type ChunkGrid, type EdgeSamples, type GpuChunkSamples, type GpuFieldSamplerOptions, type GpuJob, type GpuSamplerTiming,
  type GridSamples, type Job,
} from './samplerTypes';
import mapCartesian from '../../glsl/sr_map_cartesian.glsl?raw';

export { GpuShaderError } from './glProgram';
export {
  GpuContextLostError, GpuJobCancelledError,
  type ChunkGrid, type EdgeSamples, type GpuChunkSamples, type GpuCollect, type GpuFieldSamplerOptions, type GpuJob, type GpuPassTiming,
  type GpuSamplerTiming, type GridSamples,
} from './samplerTypes';

const PARALLEL_COMPILE = 'KHR_parallel_shader_compile';

export class GpuFieldSampler {
  readonly gl: WebGL2RenderingContext;
  private readonly options: Required<GpuFieldSamplerOptions>;
  /** Each recipe's compiled field, program set and own GPU data (RecipeProgramCache.ts). */
  private readonly recipes: RecipeProgramCache;
  /** Jobs waiting or in flight, in arrival order. */
  private jobs: Job[] = [];
  /** Batches dispatched, in dispatch (= fence) order. */
  private readonly inflight: Batch[] = [];
  private readonly passes: SamplerPasses;
  private readonly timer = new PollTimer();
  private lost = false;
  private lastSignalAt = 0;
  /** Where the time went (cumulative). */
  readonly timing: GpuSamplerTiming = { grid: passTiming(), edges: passTiming(), polls: 0, pollMs: 0, edgeListMs: 0 };

  constructor(gl: WebGL2RenderingContext, options: GpuFieldSamplerOptions = {}) {
    this.gl = gl;
    this.options = {
      label: options.label ?? 'field',
      poison: options.poison ?? false,
      autoPoll: options.autoPoll ?? true,
      gradientStepCells: options.gradientStepCells ?? 0.02,
      mappingGlsl: options.mappingGlsl ?? mapCartesian,
      fieldOptions: options.fieldOptions ?? {},
      maxBatchJobs: Math.max(1, Math.floor(options.maxBatchJobs ?? MAX_BATCH_JOBS)),
      collect: options.collect ?? 'poll',
    };
    if (!gl.getExtension('EXT_color_buffer_float')) {
      throw new Error('GPU field sampling needs EXT_color_buffer_float (float render targets)');
    }
    this.recipes = new RecipeProgramCache(gl, this.options, gl.getExtension(PARALLEL_COMPILE) !== null);
    this.passes = new SamplerPasses(gl, this.options);
  }

  /** Jobs dispatched or waiting. */
  get pending(): number {
    return this.jobs.length;
  }

  /** Largest grid (points per axis) this context can sample in one pass. */
  maxGridPoints(): number {
    const max = this.gl.getParameter(this.gl.MAX_TEXTURE_SIZE) as number;
    let p = 2;
    while (p < 1024) {
      try {
        gridAtlasLayout(p + 1, max);
        p++;
      } catch {
        break;
      }
    }
    return p;
  }

  /** Samples the field at every point of `grid`. */
  sampleGrid(recipe: FieldRecipe, grid: ChunkGrid): GpuJob<GridSamples> {
    return this.enqueue('grid', recipe, grid);
  }

  /**
   * Finds crossing and gradient on each listed sign-changing edge of `grid`; `edgeEnds` (2 per
   * edge, optional): the grid values at its ends, which the pass then need not evaluate.
   */
  sampleEdges(recipe: FieldRecipe, grid: ChunkGrid, edgeIds: Uint32Array, edgeEnds?: Float32Array): GpuJob<EdgeSamples> {
    return this.enqueue('edges', recipe, grid, edgeIds, edgeEnds);
  }

  /**
   * Grid pass, then the edge pass over the grid's sign-changing edges: everything the mesher
   * needs, without the values visiting another thread in between.
   */
  sampleChunk(recipe: FieldRecipe, grid: ChunkGrid): GpuJob<GpuChunkSamples> {
    const start = performance.now();
    const gridJob = this.sampleGrid(recipe, grid);
    let edgeJob: GpuJob<EdgeSamples> | null = null;
    let cancelled = false;
    const promise = gridJob.promise.then(async ({ values, points }) => {
      if (cancelled) throw new GpuJobCancelledError();
      const listStart = performance.now();
      const { ids: edgeIds, ends: edgeEnds } = signChangingEdges(values, points);
      this.timing.edgeListMs += performance.now() - listStart;
      edgeJob = this.sampleEdges(recipe, grid, edgeIds, edgeEnds);
      const hermite = await edgeJob.promise;
      return { values, points, hermite, latencyMs: performance.now() - start };
    });
    return {
      promise,
      cancel: () => {
        cancelled = true;
        gridJob.cancel();
        edgeJob?.cancel();
      },
    };
  }

  private enqueue<T>(kind: Job['kind'], recipe: FieldRecipe, grid: ChunkGrid, edgeIds?: Uint32Array, edgeEnds?: Float32Array): GpuJob<T> {
    let job!: Job;
    const promise = new Promise<T>((resolve, reject) => {
      job = {
        kind,
        recipeKey: '',
        grid,
        edgeIds,
        edgeEnds: edgeEnds && edgeIds && edgeEnds.length === 2 * edgeIds.length ? edgeEnds : undefined,
        state: 'waiting',
        batch: null,
        layout: null,
        startMs: performance.now(),
        resolve: resolve as (value: never) => void,
        reject,
      };
    });
    try {
      if (this.lost || this.gl.isContextLost()) throw new GpuContextLostError();
      if (!(grid.stepM > 0) || !grid.originM.every(Number.isFinite)) throw new RangeError('grid needs a finite origin and a step > 0');
      if (kind === 'grid') job.layout = gridAtlasLayout(grid.points, this.gl.getParameter(this.gl.MAX_TEXTURE_SIZE) as number);
      job.recipeKey = this.recipes.keyOf(recipe);
      this.jobs.push(job);
      this.schedulePoll();
    } catch (e) {
      job.reject(e);
    }
    return {
      promise,
      cancel: () => {
        if (!this.jobs.includes(job)) return;
        this.fail(job, new GpuJobCancelledError());
      },
    };
  }

  /**
   * Advances every job without waiting: collects the batches whose fences have signalled, then
   * dispatches waiting jobs whose programs are ready, in batches (batches.ts). Returns the number
   * of jobs still pending.
   *
   * Fences signal in the order they were issued (one context, one command stream), so only the
   * oldest batch in flight is asked: each `getSyncParameter` is a synchronous round trip to the GPU
   * process, and asking all of ~100 planet passes in flight every poll kept the sampling worker
   * busy with queries (177 ms mean latency a chunk on the H100 machine).
   */
  poll(): number {
    this.timer.cancel();
    const gl = this.gl;
    if (this.lost || gl.isContextLost()) {
      this.contextLost();
      return 0;
    }
    const start = performance.now();
    this.timing.polls++;
    this.collectSignalled();
    const dispatched = this.dispatchWaiting();
    for (const job of this.jobs.filter((j) => j.state === 'failed')) this.fail(job, job.error);
    // One flush for every batch dispatched in this poll: their fences go to the GPU together.
    if (dispatched) gl.flush();
    if (dispatched && this.options.collect === 'spin') this.spinCollect();
    if (dispatched && this.options.collect === 'sync') this.collectSignalled(true);
    if (this.jobs.length > 0 && this.options.autoPoll) this.timer.after(1, () => this.poll());
    this.sweepReleased();
    this.timing.pollMs += performance.now() - start;
    return this.jobs.length;
  }

  /**
   * Collects the batches whose fences have signalled, oldest first (fences signal in order); with
   * `waitForGpu` (collect: 'sync') every batch in flight, each read waiting for the GPU to finish it.
   */
  private collectSignalled(waitForGpu = false): void {
    const gl = this.gl;
    while (this.inflight.length > 0) {
      const batch = this.inflight[0];
      if (!waitForGpu && gl.getSyncParameter(batch.fence!, gl.SYNC_STATUS) !== gl.SIGNALED) break;
      this.inflight.shift();
      const t = this.timing[batch.kind];
      const seen = performance.now();
      t.gpuBusyMs += seen - Math.max(batch.dispatchedAt, this.lastSignalAt);
      this.lastSignalAt = seen;
      try {
        const done = this.passes.collect(batch, t);
        if (done.size > 0) this.jobs = this.jobs.filter((j) => !done.has(j));
      } catch (e) {
        for (const job of batch.jobs) if (job.state === 'inflight') this.fail(job, e);
      }
      this.passes.release(batch);
      t.collectMs += performance.now() - seen;
    }
  }

  /** `collect: 'spin'`: asks the fences every ~0.1 ms for up to SPIN_MS after a dispatch. */
  private spinCollect(): void {
    const until = performance.now() + SPIN_MS;
    while (this.inflight.length > 0 && performance.now() < until) {
      const next = performance.now() + 0.1;
      while (performance.now() < next) {
        // a short busy wait: each fence query is a round trip to the GPU process
      }
      this.collectSignalled();
    }
  }

  /**
   * Waiting jobs whose programs are ready go out in batches of one recipe, kind and grid size; edge
   * passes first (they finish chunks already half done). While {@link MAX_INFLIGHT_BATCHES} batches
   * of a kind are in flight, a batch that is not full waits to grow.
   */
  private dispatchWaiting(): boolean {
    const ready: Job[] = [];
    for (const job of this.jobs) {
      if (job.state !== 'waiting') continue;
      try {
        if (this.recipes.ready(job.recipeKey, job.kind)) ready.push(job);
      } catch (e) {
        job.state = 'failed';
        job.error = e;
      }
    }
    if (ready.length === 0) return false;
    const max = this.options.maxBatchJobs;
    // A shape whose chunks read their own recipe's numbers (recipeSlots.ts) batches its recipes together.
    const slotsOf = (j: Job) => this.recipes.programsOf(j.recipeKey).slots;
    const groupOf = (j: Job) => (slotsOf(j) ? `shape ${this.recipes.programsKeyOf(j.recipeKey)}` : j.recipeKey);
    const batches = groupIntoBatches(ready, (j) => `${j.kind === 'edges' ? 0 : 1}|${groupOf(j)}|${j.grid.points}|${j.edgeEnds ? 1 : 0}`, max)
      .flatMap((jobs) => {
        const slots = slotsOf(jobs[0]);
        return slots ? splitByRecipes(jobs, (j) => j.recipeKey, slots.recipes, max) : [jobs];
      });
    batches.sort((x, y) => (x[0].kind === y[0].kind ? 0 : x[0].kind === 'edges' ? -1 : 1));
    let dispatched = false;
    for (let jobs of batches) {
      const kind = jobs[0].kind;
      const inflight = this.inflight.reduce((n, b) => n + (b.kind === kind ? 1 : 0), 0);
      if (inflight >= MAX_INFLIGHT_BATCHES && jobs.length < max) continue;
      const programs = this.recipes.programsOf(jobs[0].recipeKey);
      let batch: Batch | null = null;
      const started = performance.now();
      const dataOf = (job: Job) => this.recipes.dataOf(job.recipeKey);
      try {
        jobs = jobs.slice(0, programs.block.slots);
        if (kind === 'grid') {
          const layout = this.passes.batchLayout(jobs[0].layout!, max);
          jobs = jobs.slice(0, layout.capacity);
          batch = this.newBatch(kind, jobs);
          this.passes.dispatchGrid(batch, layout, programs, dataOf);
        } else {
          batch = this.newBatch(kind, jobs);
          this.passes.dispatchEdges(batch, programs, dataOf);
        }
        this.fence(batch);
        dispatched = true;
        const t = this.timing[kind];
        t.batches++;
        t.jobs += jobs.length;
        for (const job of jobs) t.queueMs += started - job.startMs;
        t.dispatchMs += performance.now() - started;
      } catch (e) {
        for (const job of jobs) {
          job.state = 'failed';
          job.error = e;
        }
        if (batch) this.passes.release(batch);
      }
    }
    return dispatched;
  }

  private newBatch(kind: Job['kind'], jobs: Job[]): Batch {
    const batch: Batch = { kind, jobs, fence: null, buffer: null, bufferBytes: 0, layout: null, offsets: [], dispatchedAt: 0 };
    for (const job of jobs) {
      job.state = 'inflight';
      job.batch = batch;
    }
    return batch;
  }

  private schedulePoll(): void {
    // A task, not a synchronous poll: jobs posted in one burst of messages go out as one batch.
    if (this.options.autoPoll && !this.timer.pending) this.timer.soon(() => this.poll());
  }

  private fail(job: Job, error: unknown): void {
    const i = this.jobs.indexOf(job);
    if (i >= 0) this.jobs.splice(i, 1);
    // A job in flight stays in its batch (the batch still reads back the others); it is just not resolved.
    if (job.state === 'inflight') job.state = 'cancelled';
    job.reject(error);
  }

  /** Call when the context is lost: every pending job rejects with {@link GpuContextLostError}. */
  contextLost(): void {
    this.lost = true;
    this.timer.cancel();
    const jobs = this.jobs.splice(0);
    this.inflight.length = 0;
    for (const job of jobs) job.reject(new GpuContextLostError());
    // Every GL object died with the context: forget them without deleting.
    this.recipes.forget();
    this.passes.forget();
  }

  /** Call after `webglcontextrestored`: the sampler accepts jobs again. */
  contextRestored(): void {
    this.lost = false;
  }

  // --- programs (RecipeProgramCache.ts) ------------------------------------------------------

  /** Programs built so far (grid + edge pass each), the bench's `programs-compiled`. */
  get programsBuilt(): number {
    return this.recipes.programsBuilt;
  }

  /** The compiled field of a recipe (its programs start compiling if they had not). */
  compiledField(recipe: FieldRecipe): CompiledGlsl {
    return this.recipes.compiled(this.recipes.keyOf(recipe));
  }

  /**
   * Starts compiling the programs `recipe` needs, ahead of its first job (nothing if they exist).
   * A compile error surfaces with the first job, as it would without this.
   */
  prepare(recipe: FieldRecipe): void {
    if (this.lost || this.gl.isContextLost()) return;
    try {
      this.recipes.hold(recipe);
    } catch {
      // A recipe that does not compile: its jobs reject with the error.
    }
  }

  /**
   * Undoes one {@link prepare}: when no holder is left, the recipe's own GPU data (permutation
   * texture, params buffer) is deleted as soon as none of its jobs waits; its shape's programs stay
   * for the next recipe of that shape. A later job of the recipe builds its data again.
   */
  release(recipe: FieldRecipe): void {
    this.recipes.release(recipe);
    this.sweepReleased();
  }

  /** Recipes the sampler holds own GPU data for (tests: released recipes leave). */
  get recipeCount(): number {
    return this.recipes.recipeCount;
  }

  private sweepReleased(): void {
    this.recipes.sweep((key) => this.jobs.some((j) => j.recipeKey === key && j.state === 'waiting'));
  }

  /**
   * Whether the recipe's grid and edge programs have linked, so its jobs run without waiting on a
   * compile. With KHR_parallel_shader_compile this never blocks; without it, asking waits for the
   * link (call it from a worker). Throws the recipe's compile or link error.
   */
  programsReady(recipe: FieldRecipe): boolean {
    const key = this.recipes.keyOf(recipe);
    return this.recipes.ready(key, 'grid') && this.recipes.ready(key, 'edges');
  }

  /** Distinct program sets (grid + edge pass each) this sampler holds. */
  get programCount(): number {
    return this.recipes.programCount;
  }

  private fence(batch: Batch): void {
    const gl = this.gl;
    batch.fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    batch.dispatchedAt = performance.now();
    this.inflight.push(batch); // poll() flushes once for all the batches it dispatched
  }

  /** Rejects pending jobs and frees every GL object this sampler created. */
  dispose(): void {
    this.timer.close();
    for (const batch of this.inflight.splice(0)) this.passes.release(batch);
    for (const job of this.jobs.splice(0)) job.reject(new GpuJobCancelledError());
    this.recipes.dispose();
    this.passes.dispose();
  }
}
