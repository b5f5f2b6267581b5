/**
 * FieldRecipe → GLSL, with the chunks resolved. This module imports GLSL files with Vite's
 * `?raw`, so it is for the browser and Vitest only; plain-Node tools use src/field/index.ts.
 *
 * Splicing: a template holds the line `#include <sr_field>` (SR_FIELD_SLOT) where the
 * compiled field goes; {@link spliceField} expands it (and every other `sr_` chunk) through
 * the project's one include mechanism, so `#line` directives keep compile errors pointing
 * at the right chunk. Permutation tables and crater lists are baked as constants, unless
 * `numbersAsData` (then every number is in the `SrParams` block and the tables in a texture); the
 * band limit `sr_band` of a `bandUniforms` compile is a uniform (bandSlotValues fills it).
 */
import type { BandSlot } from './bandLimit';
import { recipeBounds, type RecipeBounds } from './bounds';
import { generateFieldGlsl } from './glslCodegen';
import { GLSL_CHUNKS } from './fieldGlslChunks';
import { resolveIncludes } from './glslInclude';
import { parseRecipe } from './parseRecipe';
import type { FieldRecipe } from './recipe';
import srNoise from '../../glsl/sr_noise.glsl?raw';
import srNoiseGrad from '../../glsl/sr_noise_grad.glsl?raw';
import srNoiseRel from '../../glsl/sr_noise_rel.glsl?raw';
import { chunkRelativeEligible, type RelativePlan } from './chunkRelative';
import fieldQuadVert from '../../glsl/sr_field_quad.vert.glsl?raw';
import fieldPointsFrag from '../../glsl/sr_field_points.frag.glsl?raw';

/** The line a template uses to mark where the compiled field goes. */
export const SR_FIELD_SLOT = '#include <sr_field>';

/** Ready-made templates for field evaluation passes (each holds the slot). */
export const FIELD_TEMPLATES = {
  /** Full-screen triangle vertex shader (no attributes). */
  quadVert: fieldQuadVert,
  /** One value per pixel at the position in the same texel of `sr_points` (RGBA32F). */
  pointsFrag: fieldPointsFrag,
} as const;

export interface CompileGlslOptions {
  /** Central-difference step of sr_fieldGradient (m). Default: 1e-5 × the recipe's size. */
  gradientStepM?: number;
  /**
   * One program for every band limit (default false): `uniform int sr_band[K]`, one entry per
   * {@link CompiledGlsl.bandSlots}, set to `bandSlotValues(bandSlots, minWavelengthM)` to get
   * compileToJs(recipe, { minWavelengthM }).
   */
  bandUniforms?: boolean;
  /** Permutation tables from the `sr_permutation` texture (GlslCodegenOptions.permutationTexture). */
  permutationTexture?: boolean;
  /**
   * The recipe's numbers in the `SrParams` block, the code its shape only (GlslCodegenOptions.numbersAsData;
   * needs `permutationTexture`): recipes of one shape compile to one text, {@link CompiledGlsl.params} differ.
   */
  numbersAsData?: boolean;
  /** With `numbersAsData`: a plain `uniform vec4 sr_params[N]` (three.js materials) instead of the block. */
  paramsUniform?: boolean;
  /** Also `vec4 sr_fieldGrad(vec3 p)`, the analytic gradient and value (GlslCodegenOptions.gradient). */
  gradient?: boolean;
  /**
   * The field relative to a chunk's origin (GlslCodegenOptions.chunkRelative) where the recipe allows
   * it (chunkRelativeEligible); other recipes compile as without. {@link CompiledGlsl.relative} says which.
   */
  chunkRelative?: boolean;
}

export interface CompiledGlsl {
  /** Self-contained GLSL (chunks expanded, no #version): defines sr_field and sr_fieldGradient. */
  source: string;
  /** The `sr_field` chunk before include expansion (what {@link spliceField} inserts). */
  chunk: string;
  /** Baked permutation tables, 256 bytes per distinct noise seed (noiseSeeds order). */
  permutation: Uint8Array;
  noiseSeeds: number[];
  craterCount: number;
  gradientStepM: number;
  bounds: RecipeBounds;
  /** What each `sr_band` entry controls (empty without `bandUniforms`). */
  bandSlots: BandSlot[];
  /** With `numbersAsData`: the `SrParams` block's std140 contents (vec4s); else empty. */
  params: Float32Array;
  /** Chunk-relative: what its per-chunk uniforms hold (relativeUniforms); null: the field of a body-local point. */
  relative: RelativePlan | null;
}

/** Registry used for splicing: the project's chunks plus this module's own. */
function chunksWith(fieldChunk: string): Record<string, string> {
  return { ...GLSL_CHUNKS, sr_noise: srNoise, sr_noise_grad: srNoiseGrad, sr_noise_rel: srNoiseRel, sr_field: fieldChunk };
}

/**
 * Compiles a recipe (validated again here: throws RecipeError on bad input) to GLSL ES 3.00
 * defining `float sr_field(vec3 p)` and `vec3 sr_fieldGradient(vec3 p)`, p in body-local
 * metres.
 */
export function compileToGlsl(recipe: FieldRecipe | unknown, options: CompileGlslOptions = {}): CompiledGlsl {
  const parsed = parseRecipe(recipe);
  const bounds = recipeBounds(parsed);
  const gradientStepM = options.gradientStepM ?? Math.max(bounds.sizeM * 1e-5, 1e-6);
  const gen = generateFieldGlsl(parsed, gradientStepM, {
    bandUniforms: options.bandUniforms ?? false, permutationTexture: options.permutationTexture ?? false, numbersAsData: options.numbersAsData ?? false,
    paramsUniform: options.paramsUniform ?? false, gradient: options.gradient ?? false,
    chunkRelative: (options.chunkRelative ?? false) && chunkRelativeEligible(parsed),
  });
  const source = resolveIncludes(gen.chunk, chunksWith(gen.chunk), { sourceName: 'sr_field', lineDirectives: false });
  return {
    source,
    chunk: gen.chunk,
    permutation: gen.permutation,
    noiseSeeds: gen.noiseSeeds,
    craterCount: gen.craterCount,
    gradientStepM,
    bounds,
    bandSlots: gen.bandSlots,
    params: gen.params,
    relative: gen.relative,
  };
}

/**
 * Splices a compiled field into a template at its `#include <sr_field>` slot and expands
 * all chunks. Throws if the template has no slot.
 */
export function spliceField(template: string, compiled: Pick<CompiledGlsl, 'chunk'>, name = 'field template'): string {
  if (!template.split('\n').some((line) => line.trim() === SR_FIELD_SLOT)) {
    throw new Error(`${name}: no "${SR_FIELD_SLOT}" slot line`);
  }
  return resolveIncludes(template, chunksWith(compiled.chunk), { sourceName: name });
}
