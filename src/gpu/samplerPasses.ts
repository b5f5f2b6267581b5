/**
 * The GPU sampler's passes over one WebGL2 context (GpuFieldSampler decides what goes out when):
 * a grid batch is one draw into its chunks' blocks of one RGBA32F target and one readPixels into a
 * pixel-pack buffer; an edge batch is one transform-feedback draw over every job's edges; collect
 * reads a finished batch back once and hands each job its part. Owns the targets, buffers, vertex
 * arrays and the chunk block's uniform buffer it draws with.
 */
import type { GridAtlasLayout } from './atlas';
import { edgeBatchOffsets, gridBatchLayout, gridBatchReadback, gridBlockValues, type GridBatchLayout } from './batches';
import { packChunkBlock, CHUNK_BLOCK_BINDING } from './chunkBlock';
import { PARAMS_BLOCK_BINDING, permutationTexture, type FieldPrograms, type RecipeGpuData } from './fieldPrograms';
import { packBatchRecipes } from './recipeSlots';
import type { Batch, Job } from './samplerTypes';

/** Floats the edge pass writes per edge: t and the unit gradient. */
const EDGE_OUTPUT_FLOATS = 4;

/** Packed recipe bindings kept for later batches: a few bodies meshing at once. */
const PACKED_BINDINGS_KEPT = 8;

export class SamplerPasses {
  private readonly freeBuffers: { buffer: WebGLBuffer; bytes: number }[] = [];
  private readonly targets = new Map<string, { texture: WebGLTexture; framebuffer: WebGLFramebuffer }>();
  private readonly batchLayouts = new Map<string, GridBatchLayout>();
  /** Packed bindings of several recipes (recipeBinding), by their recipe keys, least recently used first. */
  private readonly packedBindings = new Map<string, { params: WebGLBuffer; permutation: WebGLTexture | null }>();
  private emptyVao: WebGLVertexArrayObject | null = null;
  private edgeVao: WebGLVertexArrayObject | null = null;
  private edgeInput: WebGLBuffer | null = null;
  private edgeSlots: WebGLBuffer | null = null;
  private edgeEnds: WebGLBuffer | null = null;
  private chunkBuffer: WebGLBuffer | null = null;
  private feedback: WebGLTransformFeedback | null = null;
  private readback = new Float32Array(0);

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly options: { poison: boolean; gradientStepCells: number },
  ) {}

  /** Render-target layout of grid batches whose chunks have atlas `atlas` (one per atlas size). */
  batchLayout(atlas: GridAtlasLayout, maxJobs: number): GridBatchLayout {
    const key = `${atlas.points}/${maxJobs}`;
    let layout = this.batchLayouts.get(key);
    if (!layout) this.batchLayouts.set(key, (layout = gridBatchLayout(atlas, this.gl.getParameter(this.gl.MAX_TEXTURE_SIZE) as number, maxJobs)));
    return layout;
  }

  /** One draw for every chunk of the batch, each into its block of one target; one readPixels of the rows used. */
  dispatchGrid(batch: Batch, layout: GridBatchLayout, programs: FieldPrograms, dataOf: (job: Job) => RecipeGpuData): void {
    const p = programs.grid;
    const gl = this.gl;
    const atlas = layout.atlas;
    const target = this.target(layout.width, layout.height);
    const read = gridBatchReadback(layout, batch.jobs.length);
    gl.useProgram(p.program);
    this.bindChunkBlock(batch, programs, dataOf);
    const u = p.uniforms!;
    gl.uniform1i(u.get('sr_gridPoints')!, atlas.points);
    gl.uniform1i(u.get('sr_rowTexels')!, atlas.width);
    gl.uniform1i(u.get('sr_chunkRows')!, atlas.height);
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
    batch.bufferBytes = read.width * read.height * 4 * 4;
    batch.buffer = this.acquireBuffer(batch.bufferBytes);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, batch.buffer);
    gl.readPixels(0, 0, read.width, read.height, gl.RGBA, gl.FLOAT, 0);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  }

  /** Every job's edge ids and chunk slots in one input; one transform-feedback draw for the batch. */
  dispatchEdges(batch: Batch, programs: FieldPrograms, dataOf: (job: Job) => RecipeGpuData): void {
    const p = programs.edges;
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
    this.bindChunkBlock(batch, programs, dataOf);
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
   * chunk block; the recipe's permutation texture on unit 0 where the program reads it, and its
   * params block (numbers as data).
   */
  private bindChunkBlock(batch: Batch, programs: FieldPrograms, dataOf: (job: Job) => RecipeGpuData): void {
    const gl = this.gl;
    const program = batch.kind === 'grid' ? programs.grid : programs.edges;
    const { data, bases } = this.recipeBinding(batch, programs, dataOf);
    const bytes = packChunkBlock(programs.block, batch.jobs.map((j, n) => ({
      sr_chunkOriginM: j.grid.originM, sr_chunkStepM: j.grid.stepM, ...j.grid.uniforms, ...bases?.[n],
    })));
    gl.bindBuffer(gl.UNIFORM_BUFFER, (this.chunkBuffer ??= gl.createBuffer()));
    // Sized for every slot: a block bound smaller than the program declares is an error.
    gl.bufferData(gl.UNIFORM_BUFFER, programs.block.slotBytes * programs.block.slots, gl.DYNAMIC_DRAW);
    gl.bufferSubData(gl.UNIFORM_BUFFER, 0, new Uint8Array(bytes));
    gl.bindBuffer(gl.UNIFORM_BUFFER, null);
    gl.bindBufferBase(gl.UNIFORM_BUFFER, CHUNK_BLOCK_BINDING, this.chunkBuffer);
    if (data.params) gl.bindBufferBase(gl.UNIFORM_BUFFER, PARAMS_BLOCK_BINDING, data.params);
    if (data.permutation) {
      gl.activeTexture(gl.TEXTURE0);
      gl.bindTexture(gl.TEXTURE_2D_ARRAY, data.permutation);
      gl.uniform1i(program.uniforms!.get('sr_permutation') ?? null, 0);
    }
  }

  /**
   * What the batch binds besides its programs: its one recipe's block and texture; or, where the
   * shape batches several recipes (recipeSlots.ts), a block and a texture packed with each recipe's
   * numbers and tables, and each job's bases into them. Packed bindings are kept for the next
   * batches of the same recipes (a body's chunks come in runs), so those batches create no texture
   * or block and pack nothing (the packing is built only when read).
   */
  private recipeBinding(batch: Batch, programs: FieldPrograms, dataOf: (job: Job) => RecipeGpuData):
  { data: Pick<RecipeGpuData, 'params' | 'permutation'>; bases: Record<string, number>[] | null } {
    const slots = programs.slots;
    if (!slots) return { data: dataOf(batch.jobs[0]), bases: null };
    const packed = packBatchRecipes(batch.jobs, (n) => dataOf(batch.jobs[n]).arrays, slots);
    const key = [...new Set(batch.jobs.map((j) => j.recipeKey))].join(' ');
    let binding = this.packedBindings.get(key);
    if (binding) {
      this.packedBindings.delete(key); // most recent last
    } else {
      const gl = this.gl;
      const params = gl.createBuffer()!;
      gl.bindBuffer(gl.UNIFORM_BUFFER, params);
      gl.bufferData(gl.UNIFORM_BUFFER, packed.params, gl.STATIC_DRAW);
      gl.bindBuffer(gl.UNIFORM_BUFFER, null);
      binding = { params, permutation: packed.permutation ? permutationTexture(gl, packed.permutation) : null };
      // Draws already issued keep an evicted binding alive until they finish (GL deletes in-use objects later).
      for (const [oldest, b] of this.packedBindings) {
        if (this.packedBindings.size < PACKED_BINDINGS_KEPT) break;
        this.packedBindings.delete(oldest);
        gl.deleteBuffer(b.params);
        gl.deleteTexture(b.permutation);
      }
    }
    this.packedBindings.set(key, binding);
    return { data: binding, bases: packed.bases };
  }

  /** One readback for the batch; each job still in flight resolves with its part. */
  collect(batch: Batch, timing: { readMs: number }): Set<Job> {
    const gl = this.gl;
    const done = new Set(batch.jobs.filter((j) => j.state === 'inflight'));
    if (done.size === 0) return done;
    const now = performance.now();
    if (batch.kind === 'grid') {
      const layout = batch.layout!;
      const points = layout.atlas.points;
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, batch.buffer);
      if (batch.jobs.length === 1) {
        // One chunk: its values straight into their own array (the layout is their order), no copy.
        const values = new Float32Array(points ** 3);
        gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, values, 0, values.length);
        gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
        timing.readMs += performance.now() - now;
        batch.jobs[0].resolve({ values, points, latencyMs: now - batch.jobs[0].startMs } as never);
        return done;
      }
      // One readback array reused across batches (~5 MB for 32 chunks of 33³): not garbage a batch.
      if (this.readback.length < batch.bufferBytes / 4) this.readback = new Float32Array(batch.bufferBytes / 4);
      const texels = this.readback.subarray(0, batch.bufferBytes / 4);
      gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, texels);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
      timing.readMs += performance.now() - now;
      batch.jobs.forEach((job, index) => {
        if (!done.has(job)) return;
        const values = gridBlockValues(layout, index, texels);
        job.resolve({ values, points, latencyMs: now - job.startMs } as never);
      });
      return done;
    }
    const raw = new Float32Array(batch.bufferBytes / 4);
    if (batch.bufferBytes > 16 || batch.jobs.some((j) => j.edgeIds!.length > 0)) {
      const readStart = performance.now();
      gl.bindBuffer(gl.COPY_READ_BUFFER, batch.buffer);
      gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, raw);
      gl.bindBuffer(gl.COPY_READ_BUFFER, null);
      timing.readMs += performance.now() - readStart;
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
    return done;
  }

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

  release(batch: Batch): void {
    if (batch.fence) this.gl.deleteSync(batch.fence);
    batch.fence = null;
    if (batch.buffer) {
      this.freeBuffers.push({ buffer: batch.buffer, bytes: batch.bufferBytes });
      // Keep the pool small: a few buffers of recent sizes.
      while (this.freeBuffers.length > 8) this.gl.deleteBuffer(this.freeBuffers.shift()!.buffer);
    }
    batch.buffer = null;
  }

  /** After a context loss: every GL object died with the context; forget them without deleting. */
  forget(): void {
    this.freeBuffers.length = 0;
    this.packedBindings.clear();
    this.targets.clear();
    this.emptyVao = this.edgeVao = this.edgeInput = this.edgeSlots = this.edgeEnds = this.chunkBuffer = this.feedback = null;
  }

  /** Frees every GL object the passes created. */
  dispose(): void {
    const gl = this.gl;
    if (!gl.isContextLost()) {
      for (const b of this.freeBuffers) gl.deleteBuffer(b.buffer);
      for (const b of this.packedBindings.values()) {
        gl.deleteBuffer(b.params);
        gl.deleteTexture(b.permutation);
      }
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
    this.forget();
  }
}
