/**
 * GPU field sampling on a raw WebGL2 context (seed 001's GPU pipeline, seed 004's compute
 * pass, in WebGL2 form):
 *
 * - grid pass: a fragment shader evaluates the recipe's `sr_field` at every corner of a
 *   chunk's (N+1)³ grid into an RGBA32F atlas (glsl/gpu_grid.frag.glsl, layout in atlas.ts);
 * - edge pass: a transform-feedback vertex shader finds the zero crossing and the gradient on
 *   each sign-changing edge (glsl/gpu_edges.vert.glsl) — hermite data for Dual Contouring.
 *
 * Never a stall: work is split into dispatch (draw + readPixels into a PIXEL_PACK_BUFFER or
 * transform feedback, then a fence) and collect (in {@link GpuFieldSampler.poll}, only once
 * the fence has signalled, `getBufferSubData` copies the finished bytes). Programs compile
 * with KHR_parallel_shader_compile when present, and are only queried once complete. The
 * owner calls `poll()` once a frame (or lets `autoPoll` do it) — nothing here waits.
 *
 * Runs unchanged on a main-thread canvas or on an OffscreenCanvas in a worker.
 */
import { compileToGlsl, type CompiledGlsl, type CompileGlslOptions } from '../field/compileGlsl';
import { GLSL_CHUNKS } from '../field/glslChunks';
import { resolveIncludes } from '../field/glslInclude';
import type { FieldRecipe } from '../field/recipe';
import { gridAtlasLayout, type GridAtlasLayout } from './atlas';
import { chunkBlockGlsl, chunkBlockLayout, extractChunkUniforms, packChunkBlock, CHUNK_BLOCK_BINDING, type ChunkBlockLayout } from './chunkBlock';
import { edgeBatchOffsets, gridBatchLayout, gridBatchReadback, groupIntoBatches, unpackGridBlock, MAX_BATCH_JOBS, MAX_INFLIGHT_BATCHES, type GridBatchLayout } from './batches';
import { signChangingEdgesWithEnds } from './edgeList';
import { describeShaderLog, GpuShaderError } from './glProgram';
import mapCartesian from '../../glsl/sr_map_cartesian.glsl?raw';
import quadVert from '../../glsl/sr_field_quad.vert.glsl?raw';
import gridFrag from '../../glsl/gpu_grid.frag.glsl?raw';
import edgesVert from '../../glsl/gpu_edges.vert.glsl?raw';
import edgesFrag from '../../glsl/gpu_edges.frag.glsl?raw';

export { GpuShaderError } from './glProgram';

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
  /** Main-thread (or worker) time issuing the passes: uniforms, draws, readPixels, fence. */
  dispatchMs: number;
  /** Time reading back and splitting finished batches (getBufferSubData, unpacking). */
  collectMs: number;
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
  /** How the field is compiled (e.g. `bandUniforms`: one program for every band limit, chosen by `sr_band`). */
  fieldOptions?: Pick<CompileGlslOptions, 'bandUniforms' | 'permutationTexture'>;
  /** Most jobs one batch holds (default {@link MAX_BATCH_JOBS}; 1 = a fence and a readback per job). */
  maxBatchJobs?: number;
}

const CHUNK_MAP = 'sr_chunk_map';
const CHUNK_BLOCK = 'sr_chunk_block';
const PARALLEL_COMPILE = 'KHR_parallel_shader_compile';
const COMPLETION_STATUS_KHR = 0x91b1;
const EDGE_OUTPUT_FLOATS = 4;

interface FieldPrograms {
  label: string;
  compiled: CompiledGlsl;
  /** The per-chunk values (field band, mapping) as one uniform block: how many chunks one draw samples. */
  block: ChunkBlockLayout;
  /** The permutation tables as an R8UI texture (`permutationTexture` compiles), bound to unit 0 in both passes. */
  permutation: WebGLTexture | null;
  grid: PendingProgram;
  edges: PendingProgram;
}

interface PendingProgram {
  program: WebGLProgram;
  shaders: WebGLShader[];
  sources: { vertex: string; fragment: string };
  chunks: Record<string, string>;
  label: string;
  /** null: still compiling; then the active uniforms (array names without "[0]") once linked. */
  uniforms: Map<string, WebGLUniformLocation | null> | null;
  error: GpuShaderError | null;
}

interface Job {
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
interface Batch {
  kind: Job['kind'];
  jobs: Job[];
  fence: WebGLSync | null;
  buffer: WebGLBuffer | null;
  bufferBytes: number;
  /** Grid batches: where each job's atlas lies, and the readback's width in texels. */
  layout: GridBatchLayout | null;
  readWidth: number;
  /** Edge batches: each job's first edge in the output. */
  offsets: number[];
  dispatchedAt: number;
}

export class GpuFieldSampler {
  readonly gl: WebGL2RenderingContext;
  private readonly options: Required<GpuFieldSamplerOptions>;
  private readonly parallelCompile: boolean;
  private readonly programs = new Map<string, FieldPrograms>();
  /** Jobs waiting or in flight, in arrival order. */
  private jobs: Job[] = [];
  /** Batches dispatched, in dispatch (= fence) order. */
  private readonly inflight: Batch[] = [];
  private readonly freeBuffers: { buffer: WebGLBuffer; bytes: number }[] = [];
  private readonly targets = new Map<string, { texture: WebGLTexture; framebuffer: WebGLFramebuffer }>();
  private readonly batchLayouts = new Map<string, GridBatchLayout>();
  private emptyVao: WebGLVertexArrayObject | null = null;
  private edgeVao: WebGLVertexArrayObject | null = null;
  private edgeInput: WebGLBuffer | null = null;
  private edgeSlots: WebGLBuffer | null = null;
  private edgeEnds: WebGLBuffer | null = null;
  private chunkBuffer: WebGLBuffer | null = null;
  private feedback: WebGLTransformFeedback | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lost = false;
  private lastSignalAt = 0;
  private readback = new Float32Array(0);
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
    };
    if (!gl.getExtension('EXT_color_buffer_float')) {
      throw new Error('GPU field sampling needs EXT_color_buffer_float (float render targets)');
    }
    this.parallelCompile = gl.getExtension(PARALLEL_COMPILE) !== null;
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
      const { ids: edgeIds, ends: edgeEnds } = signChangingEdgesWithEnds(values, points);
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
      job.recipeKey = this.programsFor(recipe);
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
    clearTimeout(this.timer);
    this.timer = undefined;
    const gl = this.gl;
    if (this.lost || gl.isContextLost()) {
      this.contextLost();
      return 0;
    }
    const start = performance.now();
    this.timing.polls++;
    while (this.inflight.length > 0) {
      const batch = this.inflight[0];
      if (gl.getSyncParameter(batch.fence!, gl.SYNC_STATUS) !== gl.SIGNALED) break;
      this.inflight.shift();
      const t = this.timing[batch.kind];
      const seen = performance.now();
      t.gpuBusyMs += seen - Math.max(batch.dispatchedAt, this.lastSignalAt);
      this.lastSignalAt = seen;
      try {
        this.collect(batch);
      } catch (e) {
        for (const job of batch.jobs) if (job.state === 'inflight') this.fail(job, e);
      }
      this.release(batch);
      t.collectMs += performance.now() - seen;
    }
    const dispatched = this.dispatchWaiting();
    for (const job of this.jobs.filter((j) => j.state === 'failed')) this.fail(job, job.error);
    // One flush for every batch dispatched in this poll: their fences go to the GPU together.
    if (dispatched) gl.flush();
    if (this.jobs.length > 0 && this.options.autoPoll) this.timer = setTimeout(() => this.poll(), 1);
    this.timing.pollMs += performance.now() - start;
    return this.jobs.length;
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
        const programs = this.programs.get(job.recipeKey)!;
        if (this.ready(job.kind === 'grid' ? programs.grid : programs.edges)) ready.push(job);
      } catch (e) {
        job.state = 'failed';
        job.error = e;
      }
    }
    if (ready.length === 0) return false;
    const max = this.options.maxBatchJobs;
    const batches = groupIntoBatches(ready, (j) => `${j.kind === 'edges' ? 0 : 1}|${j.recipeKey}|${j.grid.points}|${j.edgeEnds ? 1 : 0}`, max);
    batches.sort((x, y) => (x[0].kind === y[0].kind ? 0 : x[0].kind === 'edges' ? -1 : 1));
    let dispatched = false;
    for (let jobs of batches) {
      const kind = jobs[0].kind;
      const inflight = this.inflight.reduce((n, b) => n + (b.kind === kind ? 1 : 0), 0);
      if (inflight >= MAX_INFLIGHT_BATCHES && jobs.length < max) continue;
      const programs = this.programs.get(jobs[0].recipeKey)!;
      let batch: Batch | null = null;
      const started = performance.now();
      try {
        jobs = jobs.slice(0, programs.block.slots);
        if (kind === 'grid') {
          const layout = this.batchLayout(jobs[0].layout!, max);
          jobs = jobs.slice(0, layout.capacity);
          batch = this.newBatch(kind, jobs);
          this.dispatchGrid(batch, layout, programs.grid);
        } else {
          batch = this.newBatch(kind, jobs);
          this.dispatchEdges(batch, programs.edges);
        }
        this.fence(batch);
        dispatched = true;
        const t = this.timing[kind];
        t.batches++;
        t.jobs += jobs.length;
        t.dispatchMs += performance.now() - started;
      } catch (e) {
        for (const job of jobs) {
          job.state = 'failed';
          job.error = e;
        }
        if (batch) this.release(batch);
      }
    }
    return dispatched;
  }

  private newBatch(kind: Job['kind'], jobs: Job[]): Batch {
    const batch: Batch = { kind, jobs, fence: null, buffer: null, bufferBytes: 0, layout: null, readWidth: 0, offsets: [], dispatchedAt: 0 };
    for (const job of jobs) {
      job.state = 'inflight';
      job.batch = batch;
    }
    return batch;
  }

  private schedulePoll(): void {
    // A timer, not a synchronous poll: jobs posted in one burst of messages go out as one batch.
    if (this.options.autoPoll && this.timer === undefined) this.timer = setTimeout(() => this.poll(), 0);
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
    clearTimeout(this.timer);
    this.timer = undefined;
    const jobs = this.jobs.splice(0);
    this.inflight.length = 0;
    for (const job of jobs) job.reject(new GpuContextLostError());
    // Every GL object died with the context: forget them without deleting.
    this.programs.clear();
    this.freeBuffers.length = 0;
    this.targets.clear();
    this.emptyVao = this.edgeVao = this.edgeInput = this.edgeSlots = this.edgeEnds = this.chunkBuffer = this.feedback = null;
  }

  /** Call after `webglcontextrestored`: the sampler accepts jobs again. */
  contextRestored(): void {
    this.lost = false;
  }

  // --- programs -------------------------------------------------------------------------

  /** The compiled field of a recipe (its programs start compiling if they had not). */
  compiledField(recipe: FieldRecipe): CompiledGlsl {
    return this.programs.get(this.programsFor(recipe))!.compiled;
  }

  private programsFor(recipe: FieldRecipe): string {
    const key = JSON.stringify(recipe);
    if (this.programs.has(key)) return key;
    const compiled = compileToGlsl(recipe, this.options.fieldOptions);
    const label = `${this.options.label}, recipe "${recipe.name ?? 'unnamed'}" (${shortHash(key)})`;
    const textured = this.options.fieldOptions.permutationTexture === true && compiled.noiseSeeds.length > 0;
    // Both passes read the same field (the permutation tables from the texture, where asked). The
    // edge pass once kept them as constants: a texelFetch in its transform-feedback vertex shader
    // lost the context on SwiftShader, until grad3 became arithmetic and shared modifiers branch-free.
    // Per-chunk uniforms of the field and the mapping become one uniform block (chunkBlock.ts).
    const perChunk = extractChunkUniforms([compiled.source, this.options.mappingGlsl]);
    const block = chunkBlockLayout(perChunk.declarations, this.gl.getParameter(this.gl.MAX_UNIFORM_BLOCK_SIZE) as number, this.options.maxBatchJobs);
    const chunks = { ...GLSL_CHUNKS, sr_field: perChunk.sources[0], [CHUNK_MAP]: perChunk.sources[1], [CHUNK_BLOCK]: chunkBlockGlsl(block) };
    this.programs.set(key, {
      label,
      compiled,
      block,
      permutation: textured ? this.permutationTexture(compiled.permutation) : null,
      grid: this.startProgram(`grid pass for ${label}`, quadVert, gridFrag, chunks),
      edges: this.startProgram(`edge pass for ${label}`, edgesVert, edgesFrag, chunks, ['sr_hermite']),
    });
    return key;
  }

  private startProgram(
    label: string,
    vertex: string,
    fragment: string,
    chunks: Record<string, string>,
    feedbackVaryings?: string[],
  ): PendingProgram {
    const gl = this.gl;
    const sources = {
      vertex: resolveIncludes(vertex, chunks, { sourceName: `${label}:vertex` }),
      fragment: resolveIncludes(fragment, chunks, { sourceName: `${label}:fragment` }),
    };
    const program = gl.createProgram()!;
    const shaders = [
      [gl.VERTEX_SHADER, sources.vertex],
      [gl.FRAGMENT_SHADER, sources.fragment],
    ].map(([type, source]) => {
      const shader = gl.createShader(type as number)!;
      gl.shaderSource(shader, source as string);
      gl.compileShader(shader);
      gl.attachShader(program, shader);
      return shader;
    });
    gl.bindAttribLocation(program, 0, 'sr_edgeId');
    gl.bindAttribLocation(program, 1, 'sr_slot');
    gl.bindAttribLocation(program, 2, 'sr_ends');
    if (feedbackVaryings) gl.transformFeedbackVaryings(program, feedbackVaryings, gl.INTERLEAVED_ATTRIBS);
    gl.linkProgram(program);
    return { program, shaders, sources, chunks, label, uniforms: null, error: null };
  }

  /** True once linked; throws the compile/link error (with GLSL lines) if it failed. */
  private ready(p: PendingProgram): boolean {
    if (p.error) throw p.error;
    if (p.uniforms) return true;
    const gl = this.gl;
    if (this.parallelCompile && !gl.getProgramParameter(p.program, COMPLETION_STATUS_KHR)) return false;
    if (!gl.getProgramParameter(p.program, gl.LINK_STATUS)) {
      p.error = this.programError(p);
      throw p.error;
    }
    for (const s of p.shaders) gl.deleteShader(s);
    p.shaders = [];
    const blockIndex = gl.getUniformBlockIndex(p.program, 'SrChunks');
    if (blockIndex !== gl.INVALID_INDEX) gl.uniformBlockBinding(p.program, blockIndex, CHUNK_BLOCK_BINDING);
    const uniforms = new Map<string, WebGLUniformLocation | null>();
    const n = gl.getProgramParameter(p.program, gl.ACTIVE_UNIFORMS) as number;
    for (let i = 0; i < n; i++) {
      const info = gl.getActiveUniform(p.program, i)!;
      const name = info.name.endsWith('[0]') ? info.name.slice(0, -3) : info.name;
      uniforms.set(name, gl.getUniformLocation(p.program, info.name));
    }
    p.uniforms = uniforms;
    return true;
  }

  private programError(p: PendingProgram): GpuShaderError {
    const gl = this.gl;
    for (const [shader, kind, source] of [
      [p.shaders[0], 'vertex', p.sources.vertex],
      [p.shaders[1], 'fragment', p.sources.fragment],
    ] as const) {
      if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) {
        const log = describeShaderLog(gl.getShaderInfoLog(shader) ?? '', p.chunks, `${p.label}:${kind}`, source);
        return new GpuShaderError(`${p.label}: ${kind} shader failed to compile:\n${log}`, log);
      }
    }
    const log = gl.getProgramInfoLog(p.program) ?? '';
    return new GpuShaderError(`${p.label}: program failed to link:\n${log}`, log);
  }

  // --- passes ---------------------------------------------------------------------------

  /** Render-target layout of grid batches whose chunks have atlas `atlas` (one per atlas size). */
  private batchLayout(atlas: GridAtlasLayout, maxJobs: number): GridBatchLayout {
    const key = `${atlas.points}/${maxJobs}`;
    let layout = this.batchLayouts.get(key);
    if (!layout) this.batchLayouts.set(key, (layout = gridBatchLayout(atlas, this.gl.getParameter(this.gl.MAX_TEXTURE_SIZE) as number, maxJobs)));
    return layout;
  }

  /** One draw for every chunk of the batch, each into its block of one target; one readPixels of the rows used. */
  private dispatchGrid(batch: Batch, layout: GridBatchLayout, p: PendingProgram): void {
    const gl = this.gl;
    const atlas = layout.atlas;
    const target = this.target(layout.width, layout.height);
    const read = gridBatchReadback(layout, batch.jobs.length);
    gl.useProgram(p.program);
    this.bindChunkBlock(batch);
    const u = p.uniforms!;
    gl.uniform1i(u.get('sr_gridPoints')!, atlas.points);
    gl.uniform1i(u.get('sr_tileWidth')!, atlas.tileWidth);
    gl.uniform1i(u.get('sr_tilesX')!, atlas.tilesX);
    gl.uniform2i(u.get('sr_blockSize')!, atlas.width, atlas.height);
    gl.uniform1i(u.get('sr_blockCols')!, layout.cols);
    gl.uniform1i(u.get('sr_jobs')!, batch.jobs.length);
    gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
    gl.disable(gl.BLEND);
    gl.disable(gl.DEPTH_TEST);
    gl.disable(gl.SCISSOR_TEST);
    gl.viewport(0, 0, read.width, read.height);
    if (this.options.poison) gl.clearBufferfv(gl.COLOR, 0, [NaN, NaN, NaN, NaN]);
    gl.bindVertexArray(this.emptyVao ??= gl.createVertexArray());
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    gl.bindVertexArray(null);

    batch.layout = layout;
    batch.readWidth = read.width;
    batch.bufferBytes = read.width * read.height * 4 * 4;
    batch.buffer = this.acquireBuffer(batch.bufferBytes);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, batch.buffer);
    gl.readPixels(0, 0, read.width, read.height, gl.RGBA, gl.FLOAT, 0);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  }

  /** Every job's edge ids and chunk slots in one input; one transform-feedback draw for the batch. */
  private dispatchEdges(batch: Batch, p: PendingProgram): void {
    const gl = this.gl;
    const { offsets, total } = edgeBatchOffsets(batch.jobs.map((j) => j.edgeIds!.length));
    batch.offsets = offsets;
    batch.bufferBytes = Math.max(16, total * EDGE_OUTPUT_FLOATS * 4);
    batch.buffer = this.acquireBuffer(batch.bufferBytes);
    if (total === 0) return;
    const ids = new Uint32Array(total);
    const slots = new Uint32Array(total);
    const endsGiven = batch.jobs[0].edgeEnds !== undefined;
    const ends = new Float32Array(endsGiven ? 2 * total : 2);
    batch.jobs.forEach((job, n) => {
      ids.set(job.edgeIds!, offsets[n]);
      slots.fill(n, offsets[n], offsets[n] + job.edgeIds!.length);
      if (endsGiven) ends.set(job.edgeEnds!, 2 * offsets[n]);
    });

    gl.useProgram(p.program);
    this.bindChunkBlock(batch);
    const u = p.uniforms!;
    gl.uniform1i(u.get('sr_gridPoints')!, batch.jobs[0].grid.points);
    gl.uniform1f(u.get('sr_gradientStepCells')!, this.options.gradientStepCells);
    gl.uniform1i(u.get('sr_endsGiven') ?? null, endsGiven ? 1 : 0);
    if (!this.edgeVao) {
      this.edgeVao = gl.createVertexArray();
      this.edgeInput = gl.createBuffer();
      this.edgeSlots = gl.createBuffer();
      this.edgeEnds = gl.createBuffer();
      gl.bindVertexArray(this.edgeVao);
      gl.bindBuffer(gl.ARRAY_BUFFER, this.edgeInput);
      gl.enableVertexAttribArray(0);
      gl.vertexAttribIPointer(0, 1, gl.UNSIGNED_INT, 0, 0);
      gl.bindBuffer(gl.ARRAY_BUFFER, this.edgeSlots);
      gl.enableVertexAttribArray(1);
      gl.vertexAttribIPointer(1, 1, gl.UNSIGNED_INT, 0, 0);
    } else {
      gl.bindVertexArray(this.edgeVao);
    }
    gl.bindBuffer(gl.ARRAY_BUFFER, this.edgeInput);
    gl.bufferData(gl.ARRAY_BUFFER, ids, gl.STREAM_DRAW);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.edgeSlots);
    gl.bufferData(gl.ARRAY_BUFFER, slots, gl.STREAM_DRAW);
    // Ends: one vec2 an edge, or a constant attribute (the pass evaluates them) when not given.
    if (endsGiven) {
      gl.bindBuffer(gl.ARRAY_BUFFER, this.edgeEnds);
      gl.bufferData(gl.ARRAY_BUFFER, ends, gl.STREAM_DRAW);
      gl.enableVertexAttribArray(2);
      gl.vertexAttribPointer(2, 2, gl.FLOAT, false, 0, 0);
    } else {
      gl.disableVertexAttribArray(2);
      gl.vertexAttrib2f(2, 0, 0);
    }
    gl.bindBuffer(gl.ARRAY_BUFFER, null);

    if (this.options.poison) {
      gl.bindBuffer(gl.COPY_WRITE_BUFFER, batch.buffer);
      gl.bufferSubData(gl.COPY_WRITE_BUFFER, 0, new Float32Array(total * EDGE_OUTPUT_FLOATS).fill(NaN));
      gl.bindBuffer(gl.COPY_WRITE_BUFFER, null);
    }
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, (this.feedback ??= gl.createTransformFeedback()));
    gl.bindBufferRange(gl.TRANSFORM_FEEDBACK_BUFFER, 0, batch.buffer, 0, total * EDGE_OUTPUT_FLOATS * 4);
    gl.enable(gl.RASTERIZER_DISCARD);
    gl.beginTransformFeedback(gl.POINTS);
    gl.drawArrays(gl.POINTS, 0, total);
    gl.endTransformFeedback();
    gl.disable(gl.RASTERIZER_DISCARD);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, null);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
    gl.bindVertexArray(null);
  }

  /**
   * The batch's per-chunk values (chunk origin and step, the job's uniforms by GLSL name) into the
   * chunk block, and the permutation texture on unit 0 where the program reads it.
   */
  private bindChunkBlock(batch: Batch): void {
    const gl = this.gl;
    const programs = this.programs.get(batch.jobs[0].recipeKey)!;
    const program = batch.kind === 'grid' ? programs.grid : programs.edges;
    const bytes = packChunkBlock(programs.block, batch.jobs.map((j) => ({
      sr_chunkOriginM: j.grid.originM, sr_chunkStepM: j.grid.stepM, ...j.grid.uniforms,
    })));
    gl.bindBuffer(gl.UNIFORM_BUFFER, (this.chunkBuffer ??= gl.createBuffer()));
    // Sized for every slot: a block bound smaller than the program declares is an error.
    gl.bufferData(gl.UNIFORM_BUFFER, programs.block.slotBytes * programs.block.slots, gl.DYNAMIC_DRAW);
    gl.bufferSubData(gl.UNIFORM_BUFFER, 0, new Uint8Array(bytes));
    gl.bindBuffer(gl.UNIFORM_BUFFER, null);
    gl.bindBufferBase(gl.UNIFORM_BUFFER, CHUNK_BLOCK_BINDING, this.chunkBuffer);
    if (programs.permutation) {
      gl.activeTexture(gl.TEXTURE0);
      gl.bindTexture(gl.TEXTURE_2D, programs.permutation);
      gl.uniform1i(program.uniforms!.get('sr_permutation') ?? null, 0);
    }
  }

  /** R8UI texture 256 × tables of the noise permutation tables (sampled with texelFetch only). */
  private permutationTexture(bytes: Uint8Array): WebGLTexture {
    const gl = this.gl;
    const texture = gl.createTexture()!;
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.R8UI, 256, bytes.length / 256, 0, gl.RED_INTEGER, gl.UNSIGNED_BYTE, bytes);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.bindTexture(gl.TEXTURE_2D, null);
    return texture;
  }

  private fence(batch: Batch): void {
    const gl = this.gl;
    batch.fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    batch.dispatchedAt = performance.now();
    this.inflight.push(batch); // poll() flushes once for all the batches it dispatched
  }

  /** One readback for the batch; each job still in flight resolves with its part. */
  private collect(batch: Batch): void {
    const gl = this.gl;
    const live = batch.jobs.filter((j) => j.state === 'inflight');
    if (live.length === 0) return;
    const done = new Set(live);
    this.jobs = this.jobs.filter((j) => !done.has(j));
    const now = performance.now();
    if (batch.kind === 'grid') {
      // One readback array reused across batches (~5 MB for 32 chunks of 33³): not garbage a batch.
      if (this.readback.length < batch.bufferBytes / 4) this.readback = new Float32Array(batch.bufferBytes / 4);
      const texels = this.readback.subarray(0, batch.bufferBytes / 4);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, batch.buffer);
      gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, texels);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
      batch.jobs.forEach((job, index) => {
        if (!done.has(job)) return;
        const values = unpackGridBlock(batch.layout!, index, texels, batch.readWidth);
        job.resolve({ values, points: batch.layout!.atlas.points, latencyMs: now - job.startMs } as never);
      });
      return;
    }
    const raw = new Float32Array(batch.bufferBytes / 4);
    if (batch.bufferBytes > 16 || batch.jobs.some((j) => j.edgeIds!.length > 0)) {
      gl.bindBuffer(gl.COPY_READ_BUFFER, batch.buffer);
      gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, raw);
      gl.bindBuffer(gl.COPY_READ_BUFFER, null);
    }
    batch.jobs.forEach((job, n) => {
      if (!done.has(job)) return;
      const ids = job.edgeIds!;
      const count = ids.length;
      const base = batch.offsets[n] * EDGE_OUTPUT_FLOATS;
      const t = new Float32Array(count);
      const normals = new Float32Array(3 * count);
      for (let e = 0; e < count; e++) {
        const r = base + 4 * e;
        t[e] = raw[r];
        normals[3 * e] = raw[r + 1];
        normals[3 * e + 1] = raw[r + 2];
        normals[3 * e + 2] = raw[r + 3];
      }
      job.resolve({ count, edgeIds: ids, t, normals, latencyMs: now - job.startMs } as never);
    });
  }

  // --- pooled resources -----------------------------------------------------------------

  private target(width: number, height: number): { texture: WebGLTexture; framebuffer: WebGLFramebuffer } {
    const key = `${width}x${height}`;
    let t = this.targets.get(key);
    if (t) return t;
    const gl = this.gl;
    const texture = gl.createTexture()!;
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, width, height);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.bindTexture(gl.TEXTURE_2D, null);
    const framebuffer = gl.createFramebuffer()!;
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
    const status = gl.checkFramebufferStatus(gl.FRAMEBUFFER);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    if (status !== gl.FRAMEBUFFER_COMPLETE) throw new Error(`RGBA32F ${key} render target incomplete (0x${status.toString(16)})`);
    t = { texture, framebuffer };
    this.targets.set(key, t);
    return t;
  }

  private acquireBuffer(bytes: number): WebGLBuffer {
    const gl = this.gl;
    const i = this.freeBuffers.findIndex((b) => b.bytes === bytes);
    if (i >= 0) return this.freeBuffers.splice(i, 1)[0].buffer;
    const buffer = gl.createBuffer()!;
    // STREAM_READ: written by the GPU, read back once.
    gl.bindBuffer(gl.COPY_WRITE_BUFFER, buffer);
    gl.bufferData(gl.COPY_WRITE_BUFFER, bytes, gl.STREAM_READ);
    gl.bindBuffer(gl.COPY_WRITE_BUFFER, null);
    return buffer;
  }

  private release(batch: Batch): void {
    if (batch.fence) this.gl.deleteSync(batch.fence);
    batch.fence = null;
    if (batch.buffer) {
      this.freeBuffers.push({ buffer: batch.buffer, bytes: batch.bufferBytes });
      // Keep the pool small: a few buffers of recent sizes.
      while (this.freeBuffers.length > 8) this.gl.deleteBuffer(this.freeBuffers.shift()!.buffer);
    }
    batch.buffer = null;
  }

  /** Rejects pending jobs and frees every GL object this sampler created. */
  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const batch of this.inflight.splice(0)) this.release(batch);
    for (const job of this.jobs.splice(0)) job.reject(new GpuJobCancelledError());
    const gl = this.gl;
    if (!gl.isContextLost()) {
      for (const p of this.programs.values()) {
        gl.deleteProgram(p.grid.program);
        gl.deleteProgram(p.edges.program);
        gl.deleteTexture(p.permutation);
      }
      for (const b of this.freeBuffers) gl.deleteBuffer(b.buffer);
      for (const t of this.targets.values()) {
        gl.deleteFramebuffer(t.framebuffer);
        gl.deleteTexture(t.texture);
      }
      gl.deleteVertexArray(this.emptyVao);
      gl.deleteVertexArray(this.edgeVao);
      gl.deleteBuffer(this.edgeInput);
      gl.deleteBuffer(this.edgeSlots);
      gl.deleteBuffer(this.edgeEnds);
      gl.deleteBuffer(this.chunkBuffer);
      gl.deleteTransformFeedback(this.feedback);
    }
    this.programs.clear();
    this.freeBuffers.length = 0;
    this.targets.clear();
  }
}

function passTiming(): GpuPassTiming {
  return { batches: 0, jobs: 0, dispatchMs: 0, collectMs: 0, gpuBusyMs: 0 };
}

function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}
