/**
 * The sampling programs of one compiled field (GpuFieldSampler): its per-chunk uniforms turned into
 * the chunk block (chunkBlock.ts), the grid and edge pass programs started (compiled in parallel
 * where KHR_parallel_shader_compile is there, queried only once complete); compile and link errors
 * name the recipe, the pass and the GLSL line. With the recipe's numbers as data
 * (`numbersAsData`) one set of programs serves every recipe of that shape, and each recipe has
 * only its {@link RecipeGpuData}: the permutation texture and the `SrParams` block's buffer.
 */
import { compileToGlsl, type CompiledGlsl, type CompileGlslOptions } from '../field/compileGlsl';
import { GLSL_CHUNKS } from '../field/fieldGlslChunks';
import { resolveIncludes } from '../field/glslInclude';
import { permutationLayers, PERMUTATION_LAYER_ROWS } from '../field/noise';
import type { FieldRecipe } from '../field/recipe';
import { chunkBlockGlsl, chunkBlockLayout, extractChunkUniforms, CHUNK_BLOCK_BINDING, type ChunkBlockLayout } from './chunkBlock';
import { describeShaderLog, GpuShaderError } from './glProgram';
import { recipeSlots, recipeSlotsSource, RECIPE_SLOT_UNIFORMS, type RecipeSlots } from './recipeSlots';
import quadVert from '../../glsl/sr_field_quad.vert.glsl?raw';
import gridFrag from '../../glsl/gpu_grid.frag.glsl?raw';
import edgesVert from '../../glsl/gpu_edges.vert.glsl?raw';
import edgesFrag from '../../glsl/gpu_edges.frag.glsl?raw';

const CHUNK_MAP = 'sr_chunk_map';
const CHUNK_BLOCK = 'sr_chunk_block';
const COMPLETION_STATUS_KHR = 0x91b1;
/** Where a recipe's `SrParams` block (numbers as data) is bound; the chunk block has binding 0. */
export const PARAMS_BLOCK_BINDING = 1;

/** What the programs of a sampler are built with (GpuFieldSamplerOptions). */
export interface FieldProgramOptions {
  label: string;
  mappingGlsl: string;
  fieldOptions: Pick<CompileGlslOptions, 'bandUniforms' | 'permutationTexture' | 'numbersAsData' | 'chunkRelative'>;
  maxBatchJobs: number;
}

export interface FieldPrograms {
  label: string;
  /** The per-chunk values (field band, mapping) as one uniform block: how many chunks one draw samples. */
  block: ChunkBlockLayout;
  grid: PendingProgram;
  edges: PendingProgram;
  /**
   * Numbers as data: how many recipes of the shape one batch holds, each chunk reading its own
   * recipe's numbers and tables (recipeSlots.ts); null: one recipe a batch, its own block and texture.
   */
  slots: RecipeSlots | null;
}

/** What one recipe binds besides its programs. */
export interface RecipeGpuData {
  /**
   * The permutation tables as an R8UI texture (`permutationTexture` compiles), bound to unit 0 in both
   * passes; null where the shape's batches stack their recipes' tables in a texture of their own.
   */
  permutation: WebGLTexture | null;
  /** The `SrParams` block's contents (`numbersAsData` compiles), bound at {@link PARAMS_BLOCK_BINDING}; null as above. */
  params: WebGLBuffer | null;
  /** The same numbers and tables as bytes, which a batch of several recipes packs (recipeSlots.ts). */
  arrays: { params: Float32Array; permutation: Uint8Array };
}

export interface PendingProgram {
  program: WebGLProgram;
  shaders: WebGLShader[];
  sources: { vertex: string; fragment: string };
  chunks: Record<string, string>;
  label: string;
  /** null: still compiling; then the active uniforms (array names without "[0]") once linked. */
  uniforms: Map<string, WebGLUniformLocation | null> | null;
  error: GpuShaderError | null;
}

/**
 * Starts the grid and edge programs of a compiled field: the mapping and per-chunk uniforms in the
 * chunk block; `label` names them in errors (the recipe, or the shape its recipes share).
 */
export function buildFieldPrograms(gl: WebGL2RenderingContext, compiled: CompiledGlsl, label: string, options: FieldProgramOptions): FieldPrograms {
  // Both passes read the same field (the permutation tables from the texture, where asked). The
  // edge pass once kept them as constants: a texelFetch in its transform-feedback vertex shader
  // lost the context on SwiftShader, until grad3 became arithmetic and shared modifiers branch-free.
  // Per-chunk uniforms of the field and the mapping become one uniform block (chunkBlock.ts).
  const perChunk = extractChunkUniforms([compiled.source, options.mappingGlsl]);
  const maxBlockBytes = gl.getParameter(gl.MAX_UNIFORM_BLOCK_SIZE) as number;
  const batched = batchesRecipes(compiled, options);
  const declarations = batched ? [...perChunk.declarations, ...RECIPE_SLOT_UNIFORMS] : perChunk.declarations;
  const block = chunkBlockLayout(declarations, maxBlockBytes, options.maxBatchJobs);
  const slots = batched ? recipeSlots(compiled.params.length, compiled.noiseSeeds.length, maxBlockBytes, block.slots, gl.getParameter(gl.MAX_ARRAY_TEXTURE_LAYERS) as number) : null;
  const field = slots ? recipeSlotsSource(perChunk.sources[0], slots) : perChunk.sources[0];
  const chunks = { ...GLSL_CHUNKS, sr_field: field, [CHUNK_MAP]: perChunk.sources[1], [CHUNK_BLOCK]: chunkBlockGlsl(block) };
  return {
    label,
    block,
    grid: startProgram(gl, `grid pass for ${label}`, quadVert, gridFrag, chunks),
    edges: startProgram(gl, `edge pass for ${label}`, edgesVert, edgesFrag, chunks, ['sr_hermite']),
    slots,
  };
}

/** Whether a shape's batches hold several recipes: its numbers are data (recipeSlots.ts). */
function batchesRecipes(compiled: CompiledGlsl, options: FieldProgramOptions): boolean {
  return options.fieldOptions.numbersAsData === true && compiled.params.length > 0;
}

/** A recipe's field compiled as the sampler's programs read it. */
export function compileSamplerField(recipe: FieldRecipe, options: FieldProgramOptions): CompiledGlsl {
  return compileToGlsl(recipe, options.fieldOptions);
}

/** The recipe's own GPU data: its permutation texture (when the field reads one) and its params block. */
export function recipeGpuData(gl: WebGL2RenderingContext, compiled: CompiledGlsl, options: FieldProgramOptions): RecipeGpuData {
  const arrays = { params: compiled.params, permutation: compiled.permutation };
  // Several recipes a batch: the batch binds its own block and texture, packed from the arrays.
  if (batchesRecipes(compiled, options)) return { permutation: null, params: null, arrays };
  const textured = options.fieldOptions.permutationTexture === true && compiled.noiseSeeds.length > 0;
  let params: WebGLBuffer | null = null;
  if (compiled.params.length > 0) {
    params = gl.createBuffer()!;
    gl.bindBuffer(gl.UNIFORM_BUFFER, params);
    gl.bufferData(gl.UNIFORM_BUFFER, compiled.params, gl.STATIC_DRAW);
    gl.bindBuffer(gl.UNIFORM_BUFFER, null);
  }
  return { permutation: textured ? permutationTexture(gl, compiled.permutation) : null, params, arrays };
}

/** A label for a recipe's programs (`key`: its identity, hashed). */
export function programLabel(options: FieldProgramOptions, recipe: FieldRecipe, key: string): string {
  return options.fieldOptions.numbersAsData
    ? `${options.label}, the shape of recipe "${recipe.name ?? 'unnamed'}" (${shortHash(key)})`
    : `${options.label}, recipe "${recipe.name ?? 'unnamed'}" (${shortHash(key)})`;
}

function startProgram(
  gl: WebGL2RenderingContext,
  label: string,
  vertex: string,
  fragment: string,
  chunks: Record<string, string>,
  feedbackVaryings?: string[],
): PendingProgram {
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
export function programReady(gl: WebGL2RenderingContext, p: PendingProgram, parallelCompile: boolean): boolean {
  if (p.error) throw p.error;
  if (p.uniforms) return true;
  if (parallelCompile && !gl.getProgramParameter(p.program, COMPLETION_STATUS_KHR)) return false;
  if (!gl.getProgramParameter(p.program, gl.LINK_STATUS)) {
    p.error = programError(gl, p);
    throw p.error;
  }
  for (const s of p.shaders) gl.deleteShader(s);
  p.shaders = [];
  const blockIndex = gl.getUniformBlockIndex(p.program, 'SrChunks');
  if (blockIndex !== gl.INVALID_INDEX) gl.uniformBlockBinding(p.program, blockIndex, CHUNK_BLOCK_BINDING);
  const paramsIndex = gl.getUniformBlockIndex(p.program, 'SrParams');
  if (paramsIndex !== gl.INVALID_INDEX) gl.uniformBlockBinding(p.program, paramsIndex, PARAMS_BLOCK_BINDING);
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

function programError(gl: WebGL2RenderingContext, p: PendingProgram): GpuShaderError {
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

/** Each table set's layers (noise.ts permutationLayers, 64 KiB a table), built once per set. */
const layersOf = new WeakMap<Uint8Array, Uint8Array>();

/**
 * R8UI 2D array texture of the noise permutation tables, a 256 × 257 layer per table
 * (noise.ts permutationLayers; sampled with texelFetch only): `sets` one after another, each a
 * recipe's tables (256 bytes a table). A set's layers are expanded once and kept while its bytes live.
 */
export function permutationTexture(gl: WebGL2RenderingContext, sets: Uint8Array | readonly Uint8Array[]): WebGLTexture {
  const parts = sets instanceof Uint8Array ? [sets] : sets;
  const layers = parts.reduce((n, p) => n + p.length / 256, 0);
  const texture = gl.createTexture()!;
  gl.bindTexture(gl.TEXTURE_2D_ARRAY, texture);
  gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
  gl.texStorage3D(gl.TEXTURE_2D_ARRAY, 1, gl.R8UI, 256, PERMUTATION_LAYER_ROWS, layers);
  let layer = 0;
  for (const part of parts) {
    let bytes = layersOf.get(part);
    if (!bytes) layersOf.set(part, (bytes = permutationLayers(part)));
    const count = part.length / 256;
    gl.texSubImage3D(gl.TEXTURE_2D_ARRAY, 0, 0, 0, layer, 256, PERMUTATION_LAYER_ROWS, count, gl.RED_INTEGER, gl.UNSIGNED_BYTE, bytes);
    layer += count;
  }
  gl.texParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.bindTexture(gl.TEXTURE_2D_ARRAY, null);
  return texture;
}

/** Deletes a field's programs. */
export function deleteFieldPrograms(gl: WebGL2RenderingContext, p: FieldPrograms): void {
  gl.deleteProgram(p.grid.program);
  gl.deleteProgram(p.edges.program);
}

/** Deletes a recipe's texture and params buffer. */
export function deleteRecipeGpuData(gl: WebGL2RenderingContext, d: RecipeGpuData): void {
  gl.deleteTexture(d.permutation);
  gl.deleteBuffer(d.params);
}

function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}
