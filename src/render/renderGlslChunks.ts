/**
 * Registry of the GLSL chunks render shaders include (files under `glsl/` named `sr_*.glsl`),
 * keyed by the name used in `#include <sr_name>`: the field's chunks (src/field/fieldGlslChunks.ts) and
 * the render layer's own (shading noise, rock colouring, dither, stars). Imported with `?raw`.
 */
import { GLSL_CHUNKS as FIELD_GLSL_CHUNKS } from '../field/fieldGlslChunks';
import { resolveIncludes } from '../field/glslInclude';
import srCommon from '../../glsl/sr_common.glsl?raw';
import srProcnoise from '../../glsl/sr_procnoise.glsl?raw';
import srDither from '../../glsl/sr_dither.glsl?raw';
import srRock from '../../glsl/sr_rock.glsl?raw';

export const GLSL_CHUNKS: Readonly<Record<string, string>> = {
  ...FIELD_GLSL_CHUNKS,
  /** Constants and small helpers (hashes) shared by the render shaders. */
  sr_common: srCommon,
  /** Shading noise: hash value noise, footprint-filtered fbm, Voronoi (rock, sky). */
  sr_procnoise: srProcnoise,
  /** Ordered-dither thresholds and the LOD screen-door fade. */
  sr_dither: srDither,
  /** Procedural rock colouring and polar ice (body material). */
  sr_rock: srRock,
  /** Seeded, texel-wide star layers for the sky cube map. */
};

export interface GlslWithIncludesOptions {
  /**
   * Include names left in place for three.js to resolve (its `ShaderChunk` keys, e.g.
   * `new Set(Object.keys(ShaderChunk))`).
   */
  external?: ReadonlySet<string>;
  /**
   * Extra `sr_` chunks for this shader only, on top of the registry: e.g. `sr_field` with a
   * compiled field's `chunk` (see src/field/compileGlsl.ts). Use {@link glslChunksWith} with
   * the same extras to annotate compile logs.
   */
  chunks?: Readonly<Record<string, string>>;
}

/** The registry plus per-shader extras (the set a shader was resolved against). */
export function glslChunksWith(extra: Readonly<Record<string, string>> = {}): Readonly<Record<string, string>> {
  return { ...GLSL_CHUNKS, ...extra };
}

/**
 * Expands includes of a whole shader against the render chunk registry; `name` labels errors.
 * Unless the source starts with `#version`, a leading `#line 1 0` makes line numbers count from
 * this source's first line even when three.js prepends its own prefix.
 */
export function glslWithIncludes(source: string, name: string, options: GlslWithIncludesOptions = {}): string {
  const chunks = options.chunks ? glslChunksWith(options.chunks) : GLSL_CHUNKS;
  const body = resolveIncludes(source, chunks, { sourceName: name, external: options.external });
  return /^\s*#version/.test(source) ? body : `#line 1 0\n${body}`;
}
