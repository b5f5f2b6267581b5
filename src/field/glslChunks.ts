/**
 * Registry of the project's GLSL chunks (files under `glsl/` named `sr_*.glsl`), keyed by
 * the name used in `#include <sr_name>`. Imported with Vite's `?raw`, so this module is
 * for the browser and Vitest, not for plain-Node command-line tools.
 */
import { resolveIncludes } from './glslInclude';
import srCommon from '../../glsl/sr_common.glsl?raw';
import srNoise from '../../glsl/sr_noise.glsl?raw';

export const GLSL_CHUNKS: Readonly<Record<string, string>> = {
  sr_common: srCommon,
  sr_noise: srNoise,
};

/**
 * Expands includes of a whole shader against the project's chunk registry; `name` labels
 * errors. Unless the source starts with `#version`, a leading `#line 1 0` makes line numbers
 * count from this source's first line even when three.js prepends its own prefix.
 */
export function glslWithIncludes(source: string, name: string): string {
  const body = resolveIncludes(source, GLSL_CHUNKS, { sourceName: name });
  return /^\s*#version/.test(source) ? body : `#line 1 0\n${body}`;
}
