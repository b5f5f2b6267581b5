/**
 * FieldRecipe → GLSL source text (the `sr_field` chunk). No `?raw` imports here: the
 * chunk refers to `#include <sr_noise>`, which src/field/compileGlsl.ts resolves.
 *
 * Safety: user data never becomes code. Identifiers are made by this compiler from
 * counters (`sr_n3`, `SR_CRATER_DIR_1`), node types and noise kinds select fixed
 * templates below, and every number goes through {@link glslFloat} / {@link glslInt},
 * which refuse anything that is not a finite number and check the text they produce.
 *
 * Generated layout (one function per node, children first, since GLSL has no forward
 * references without prototypes):
 *
 *   const uint SR_PERM[64 * T] = uint[](...);   // T permutation tables, 4 bytes per word
 *   int sr_perm(int table, int i) {...}
 *   int sr_permYZ(int table, int y, int z) {...}   // perm[(y + perm[z]) & 255]
 *   #include <sr_noise>
 *   const vec3 SR_CRATER_DIR_k[n] ...; float sr_craters_k(vec3 p) {...}
 *   float sr_n7(vec3 p) {...}  ...  float sr_n0(vec3 p) {...}
 *   float sr_field(vec3 p) { root, then brushes }
 *   vec3 sr_fieldGradient(vec3 p) { central differences, step SR_FIELD_GRADIENT_STEP }
 *
 * Nodes whose active modifiers are structurally identical (compileJs.ts `modifierKey`; the planet's
 * cave shell follows the terrain with the terrain's own warp, craters and noise) share them, as
 * compileToJs does, when every node of the group is evaluated at the field's own point
 * ({@link sharedModifierKeys}): `sr_field` first calls `sr_mK_update(p)`, which keeps the warped
 * point, the crater term and each noise term in per-invocation globals, and every node of the group
 * reads them. The planet's field then costs about half the noise calls it did.
 *
 * With `bandUniforms` one program serves every band limit (compileToJs `minWavelengthM`):
 * `uniform int sr_band[K]` holds, per slot, a noise layer's or warp's used octave count
 * (`sr_fractalBand`) or whether a shell is kept (0: dropped, DROPPED_SHELL). Slots are numbered in
 * tree pre-order (a node's shell, its noise layers, its warp, then its children's), the order of
 * bandLimitSummary's signature; {@link bandSlotValues} fills the uniform for a limit.
 *
 * Stages: glslNodes.ts emits the node functions (children first, crater lists and shared modifier
 * groups as they are met); this module adds the permutation tables and the band uniform in front,
 * `sr_field` and `sr_fieldGradient` behind. Numbers become text only in glslLiterals.ts.
 */
import type { BandSlot } from './bandLimit';
import { chunkRelativeRefusal, relativeOriginRows, type RelativePlan } from './chunkRelative';
import { countModifierKeys, modifierKey } from './compileJs';
import { GlslCodegenError, glslInt, glslUint } from './glslLiterals';
import { int, num, paramsDeclaration, vec3, vec4Block } from './glslParams';
import { brushSphereGrad, GRADIENT_HELPERS } from './glslGradient';
import { createEmitState, emitNode, type EmitState } from './glslNodes';
import { noisePermutation } from './noise';
import type { Brush, FieldNode, FieldRecipe } from './recipe';

export { GlslCodegenError, glslFloat, glslInt } from './glslLiterals';

export type { BandSlot } from './bandLimit';

/** Options of {@link generateFieldGlsl}. */
export interface GlslCodegenOptions {
  /**
   * Band limit as a uniform (`sr_band`, see {@link GlslCodegenResult.bandSlots}); default false:
   * the full field, no uniforms, the text every existing caller gets.
   */
  bandUniforms?: boolean;
  /**
   * Read the permutation tables from `uniform highp usampler2DArray sr_permutation` (R8UI, a
   * 256 × 257 layer per table: noise.ts `permutationLayers` of {@link GlslCodegenResult.permutation})
   * instead of a constant array. A constant array indexed by data is copied into every
   * invocation's local memory by some drivers; a texture fetch is not. Default false.
   */
  permutationTexture?: boolean;
  /**
   * The recipe's numbers as data (glslParams.ts): `layout(std140) uniform SrParams { vec4
   * sr_params[N]; }`, filled with {@link GlslCodegenResult.params}; the code holds only the
   * recipe's shape (and every noise use its own permutation table). Requires `permutationTexture`
   * when the recipe has noise (the tables are numbers too). Default false.
   */
  numbersAsData?: boolean;
  /** With `numbersAsData`: `uniform vec4 sr_params[N]` instead of the block (three.js materials). */
  paramsUniform?: boolean;
  /**
   * Also `vec4 sr_fieldGrad(vec3 p)`: the field's analytic gradient and value (xyz, w), filtered
   * by the global `sr_gradFootprintM` (glslGradient.ts). Not with `bandUniforms`; shared
   * modifiers are then not shared. Default false.
   */
  gradient?: boolean;
  /**
   * The field of a point relative to a chunk's origin (chunkRelative.ts): `sr_field(l)` for
   * l = p − O, with the origin's part of every term in per-chunk uniforms (`sr_relOrigin`,
   * `sr_relDir`, `sr_relDist`, `sr_relCrater`: relativeUniforms of {@link GlslCodegenResult.relative})
   * and `#define SR_FIELD_CHUNK_RELATIVE`, which the cube-sphere mapping reads to hand the field the
   * offset from the chunk's origin. Only for recipes chunkRelativeRefusal accepts; not with
   * `numbersAsData` or `gradient`. Default false.
   */
  chunkRelative?: boolean;
}

export interface GlslCodegenResult {
  /** The `sr_field` chunk (contains `#include <sr_noise>`). */
  chunk: string;
  /** Distinct noise seeds, in table order. */
  noiseSeeds: number[];
  /** The baked permutation tables, 256 bytes per seed (also usable as a data texture). */
  permutation: Uint8Array;
  craterCount: number;
  nodeCount: number;
  /**
   * What each entry of `uniform int sr_band[K]` controls, in slot order (empty without
   * `bandUniforms`; K is at least 1 so the declaration stays valid). Fill it with
   * {@link bandSlotValues}; an unset uniform is all zeros, i.e. every octave and shell dropped.
   */
  bandSlots: BandSlot[];
  /** With `numbersAsData`: the `sr_params` block's values, 4 a vec4 (padded); else empty. */
  params: Float32Array;
  /** With `chunkRelative`: what the per-chunk uniforms hold, in order; else null. */
  relative: RelativePlan | null;
}

/**
 * Modifier keys (compileJs.ts `modifierKey`) held by two or more nodes that are all evaluated at the
 * field's own point: reached from the root through CSG and shell nodes only, none of them warped.
 * Their modifiers are computed once at the top of `sr_field`, unconditionally — no branch around
 * the evaluation (SwiftShader lost the WebGL context on a fragment shader that evaluated them
 * behind `if (point changed)`, with the permutation tables in a texture). Keys held elsewhere too
 * are not shared.
 */
function sharedModifierKeys(root: FieldNode): Set<string> {
  const counts = new Map<string, number>();
  countModifierKeys(root, counts);
  const atRoot = new Map<string, boolean>();
  const visit = (node: FieldNode, here: boolean): void => {
    const key = modifierKey(node);
    if (key !== null) atRoot.set(key, (atRoot.get(key) ?? true) && here);
    const passes = here && !(node.warp && node.warp.amplitude > 0);
    if ('children' in node) for (const c of node.children) visit(c, passes);
    if ('child' in node) visit(node.child, passes && node.type === 'shell');
  };
  visit(root, true);
  return new Set([...counts].filter(([key, n]) => n >= 2 && atRoot.get(key) === true).map(([key]) => key));
}

/**
 * `sr_field`: the shared modifier groups' updates, the root, then the brushes in order; with
 * gradients, `sr_fieldGrad` the same way ('' without).
 */
function fieldFunctions(state: EmitState, root: string, brushes: readonly Brush[]): { field: string; grad: string } {
  // Shared modifiers first: every node of a group is evaluated at the field's own point.
  const lines = [...[...state.groups.values()].map((g) => `  sr_m${g}_update(p);`), `  float d = ${root}(p);`];
  const grad = [`  vec4 d = ${root}_g(p);`];
  if (state.params && brushes.length > 0) {
    const base = brushBlock(state, brushes);
    const count = int(state, brushes.length);
    lines.push(...brushLoop(count, base, false));
    grad.push(...brushLoop(count, base, true));
  } else {
    for (const b of brushes) {
      lines.push(brushLine(state, b));
      grad.push(brushGradLine(state, b));
    }
  }
  lines.push('  return d;');
  grad.push('  return d;');
  return {
    field: `float sr_field(vec3 p) {\n${lines.join('\n')}\n}`,
    grad: state.gradient ? `vec4 sr_fieldGrad(vec3 p) {\n${grad.join('\n')}\n}` : '',
  };
}

/**
 * Room for `count` brushes with numbers as data: powers of two from 16, so a user's edits (issue 19:
 * each dig or build adds a brush) change the recipe's numbers, not its shape, until the room is full.
 */
export function brushCapacity(count: number): number {
  let c = 16;
  while (c < count) c *= 2;
  return c;
}

/**
 * The brushes as data: two vec4 a brush, (centre, radius) and (+1 add / −1 carve, blend, 0, 0), in a
 * list of {@link brushCapacity} room; the loop runs to the count and applies each as brushLine does,
 * operation for operation (the same values as the literal field).
 */
function brushLoop(count: string, base: number, gradient: boolean): string[] {
  const [s, min, max, smin, smax] = gradient
    ? [`vec4 s = ${brushSphereGrad('sr_a.xyz', 'sr_a.w')};`, 'sr_minG', 'sr_maxG', 'sr_sminG', 'sr_smaxG']
    : ['float s = length(p - sr_a.xyz) - sr_a.w;', 'min', 'max', 'sr_smin', 'sr_smax'];
  return [
    `  int sr_brushes = ${count};`,
    '  for (int i = 0; i < sr_brushes; i++) {',
    `    vec4 sr_a = sr_params[${glslInt(base)} + 2 * i];`,
    `    vec4 sr_b = sr_params[${glslInt(base + 1)} + 2 * i];`,
    `    ${s}`,
    `    if (sr_b.x > 0.0) d = sr_b.y > 0.0 ? ${smin}(d, s, sr_b.y) : ${min}(d, s);`,
    `    else d = sr_b.y > 0.0 ? ${smax}(d, -s, sr_b.y) : ${max}(d, -s);`,
    '  }',
  ];
}

/** The brushes' list in `sr_params` (numbers as data); returns its first vec4's index. */
function brushBlock(state: EmitState, brushes: readonly Brush[]): number {
  const values: number[] = [];
  for (const b of brushes) values.push(b.center[0], b.center[1], b.center[2], b.radius, b.op === 'add' ? 1 : -1, b.blend, 0, 0);
  return vec4Block(state as EmitState & { params: number[] }, 2 * brushCapacity(brushes.length), values);
}

/** A brush applied to `d`: (smooth) union with its sphere for `add`, subtraction for `carve`. */
function brushLine(state: EmitState, b: Brush): string {
  const sphere = `(length(p - ${vec3(state, ...b.center)}) - ${num(state, b.radius)})`;
  if (b.op === 'add') {
    return b.blend > 0 ? `  d = sr_smin(d, ${sphere}, ${num(state, b.blend)});` : `  d = min(d, ${sphere});`;
  }
  return b.blend > 0 ? `  d = sr_smax(d, -${sphere}, ${num(state, b.blend)});` : `  d = max(d, -${sphere});`;
}

/** brushLine with gradients (glslGradient.ts). */
function brushGradLine(state: EmitState, b: Brush): string {
  const sphere = brushSphereGrad(vec3(state, ...b.center), num(state, b.radius));
  if (b.op === 'add') return b.blend > 0 ? `  d = sr_sminG(d, ${sphere}, ${num(state, b.blend)});` : `  d = sr_minG(d, ${sphere});`;
  return b.blend > 0 ? `  d = sr_smaxG(d, -${sphere}, ${num(state, b.blend)});` : `  d = sr_maxG(d, -${sphere});`;
}

/** The baked permutation tables, 256 bytes per seed, in seed order. */
function permutationTables(seeds: readonly number[]): Uint8Array {
  const permutation = new Uint8Array(256 * seeds.length);
  seeds.forEach((seed, i) => permutation.set(noisePermutation(seed), 256 * i));
  return permutation;
}

/**
 * In a texture-table field, the layer of table `table`: recipeSlots.ts rewrites this line so a batch
 * of several recipes reads each chunk's own tables.
 */
export const PERM_LAYER_LINE = 'int sr_permLayer(int table) { return table; }';

/**
 * `sr_perm(table, i)` and `sr_permYZ(table, y, z)` over the tables: texture fetches (a layer per
 * table: noise.ts permutationLayers), a constant array, or nothing to read.
 */
function permutationLines(tableCount: number, permutation: Uint8Array, texture: boolean): string[] {
  if (tableCount > 0 && texture) {
    return [
      `// ${glslInt(tableCount)} permutation table(s) of simplex-noise, one layer each of sr_permutation:`,
      '// row z < 256 holds perm[(y + perm[z]) & 255] at column y, row 256 the table.',
      'uniform highp usampler2DArray sr_permutation;',
      PERM_LAYER_LINE,
      'int sr_perm(int table, int i) {',
      '  return int(texelFetch(sr_permutation, ivec3(i, 256, sr_permLayer(table)), 0).r);',
      '}',
      'int sr_permYZ(int table, int y, int z) {',
      '  return int(texelFetch(sr_permutation, ivec3(y & 255, z & 255, sr_permLayer(table)), 0).r);',
      '}',
    ];
  }
  if (tableCount > 0) {
    const words: string[] = [];
    for (let i = 0; i < permutation.length; i += 4) {
      const word = (permutation[i] | (permutation[i + 1] << 8) | (permutation[i + 2] << 16) | (permutation[i + 3] << 24)) >>> 0;
      words.push(glslUint(word));
    }
    const rows: string[] = [];
    for (let i = 0; i < words.length; i += 8) rows.push(words.slice(i, i + 8).join(', '));
    return [
      `// ${glslInt(tableCount)} permutation table(s) of simplex-noise, 4 entries per word, low byte first.`,
      `const uint SR_PERM[${glslInt(words.length)}] = uint[](\n  ${rows.join(',\n  ')});`,
      'int sr_perm(int table, int i) {',
      '  uint word = SR_PERM[table * 64 + (i >> 2)];',
      '  return int((word >> uint((i & 3) * 8)) & 255u);',
      '}',
      'int sr_permYZ(int table, int y, int z) { return sr_perm(table, (y + sr_perm(table, z & 255)) & 255); }',
    ];
  }
  return [
    'int sr_perm(int table, int i) { return (table + i) & 0; } // no noise in this recipe',
    'int sr_permYZ(int table, int y, int z) { return (table + y + z) & 0; }',
  ];
}

/** Everything before the node functions: gradient step, `sr_perm`, the noise chunk, `sr_band`. */
function headerLines(gradientStep: string, state: EmitState, permutation: Uint8Array, options: GlslCodegenOptions): string[] {
  const header = [
    '// sr_field: generated by src/field/glslCodegen.ts from a FieldRecipe. Do not edit.',
    ...(state.params ? paramsDeclaration(state.params.length, options.paramsUniform ?? false) : []),
    `#define SR_FIELD_GRADIENT_STEP ${gradientStep}`,
    ...permutationLines(state.seeds.length, permutation, options.permutationTexture ?? false),
    '#include <sr_noise>',
    ...(state.gradient ? ['#include <sr_noise_grad>', GRADIENT_HELPERS] : []),
    ...(state.relative ? relativeHeader(state.relative) : []),
  ];
  if (state.band) {
    header.push(
      '// Band limit per slot (GlslCodegenResult.bandSlots): used octaves, or 0 for a dropped shell.',
      `uniform int sr_band[${glslInt(Math.max(1, state.bandSlots.length))}];`,
    );
  }
  return header;
}

/** A chunk-relative field's per-chunk uniforms and its noise sums (glsl/sr_noise_rel.glsl). */
function relativeHeader(plan: RelativePlan): string[] {
  return [
    '// Chunk-relative (src/field/chunkRelative.ts): p is the point from the chunk\'s origin O; per chunk,',
    '// the octave origins (whole point + rest), O / |O|, |O| (high, low, 1 / |O|) and each crater field\'s O - centre.',
    '#define SR_FIELD_CHUNK_RELATIVE 1',
    `uniform ivec3 sr_relCell[${glslInt(relativeOriginRows(plan))}];`,
    `uniform vec3 sr_relOrigin[${glslInt(relativeOriginRows(plan))}];`,
    'uniform vec3 sr_relDir;',
    'uniform vec3 sr_relDist;',
    `uniform vec3 sr_relCrater[${glslInt(Math.max(1, plan.craterCenters.length))}];`,
    '#include <sr_noise_rel>',
  ];
}

/** Central differences of `sr_field`, step SR_FIELD_GRADIENT_STEP. */
const gradientFunction = (data: boolean): string => `vec3 sr_fieldGradient(vec3 p) {
  ${data ? '' : 'const '}float h = SR_FIELD_GRADIENT_STEP;
  return vec3(
    sr_field(p + vec3(h, 0.0, 0.0)) - sr_field(p - vec3(h, 0.0, 0.0)),
    sr_field(p + vec3(0.0, h, 0.0)) - sr_field(p - vec3(0.0, h, 0.0)),
    sr_field(p + vec3(0.0, 0.0, h)) - sr_field(p - vec3(0.0, 0.0, h))) * (0.5 / h);
}`;

/** Emits the `sr_field` chunk for an already parsed recipe. */
export function generateFieldGlsl(recipe: FieldRecipe, gradientStepM: number, options: GlslCodegenOptions = {}): GlslCodegenResult {
  const data = options.numbersAsData ?? false;
  const gradient = options.gradient ?? false;
  if (gradient && options.bandUniforms) throw new GlslCodegenError('gradient functions are not band-limited by uniforms: ask for one or the other');
  const relative = options.chunkRelative ?? false;
  if (relative && (data || gradient)) throw new GlslCodegenError('a chunk-relative field has its numbers as literals and no gradient functions');
  const refusal = relative ? chunkRelativeRefusal(recipe) : null;
  if (refusal) throw new GlslCodegenError(`a chunk-relative field cannot hold ${refusal}`);
  // With numbers as data no modifiers are shared: which nodes' modifiers are equal is a fact about
  // the numbers. Gradient functions evaluate each node's own.
  const state = createEmitState(options.bandUniforms ?? false, data || gradient ? new Set() : sharedModifierKeys(recipe.root), data, gradient, relative);
  const gradientStep = num(state, gradientStepM);
  const root = emitNode(state, recipe.root);
  const { field, grad: fieldGrad } = fieldFunctions(state, root, recipe.brushes);
  const permutation = permutationTables(state.seeds);
  if (data && state.seeds.length > 0 && !options.permutationTexture) {
    throw new GlslCodegenError('numbersAsData needs permutationTexture: the permutation tables are numbers too');
  }
  const chunk = [
    ...headerLines(gradientStep, state, permutation, options),
    ...state.functions,
    field,
    ...(gradient ? [fieldGrad] : []),
    gradientFunction(data),
    '',
  ].join('\n');
  const params = new Float32Array(4 * Math.max(1, Math.ceil((state.params?.length ?? 0) / 4)));
  if (state.params) params.set(state.params);
  return {
    chunk,
    noiseSeeds: state.seeds,
    permutation,
    craterCount: state.craterCount,
    nodeCount: state.nodeCount,
    bandSlots: state.bandSlots,
    params: data ? params : new Float32Array(0),
    relative: state.relative,
  };
}
