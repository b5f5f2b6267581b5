/**
 * Numbers as GLSL literals, for the field compiler (glslCodegen.ts, glslNodes.ts). Every number
 * that reaches generated code goes through here: anything that is not a finite number of the
 * right kind is refused, and the text produced is checked.
 */

/** Thrown for an internal compiler fault (never for user input: parseRecipe runs first). */
export class GlslCodegenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GlslCodegenError';
  }
}

const FLOAT_TEXT = /^-?[0-9]+\.[0-9]+(e[+-][0-9]+)?$/;
/** float32 finite range (a literal beyond it would be +inf in the shader). */
const FLOAT32_MAX = 3.4e38;

/** A finite number as a GLSL float literal: 9 significant digits (float32 round-trips). */
export function glslFloat(value: number): string {
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > FLOAT32_MAX) {
    throw new GlslCodegenError(`not a finite float32: ${String(value)}`);
  }
  const v = value === 0 ? 0 : value; // no "-0"
  const text = v.toPrecision(9);
  if (!FLOAT_TEXT.test(text)) throw new GlslCodegenError(`unexpected number text ${JSON.stringify(text)}`);
  return text.startsWith('-') ? `(${text})` : text;
}

/** An integer in int32 range as a GLSL int literal. */
export function glslInt(value: number): string {
  if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) >= 2 ** 31) {
    throw new GlslCodegenError(`not an int32: ${String(value)}`);
  }
  const text = String(value === 0 ? 0 : value);
  return text.startsWith('-') ? `(${text})` : text;
}

/** An integer in uint32 range as a GLSL uint literal. */
export function glslUint(value: number): string {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new GlslCodegenError(`not a uint32: ${String(value)}`);
  return `${value}u`;
}

/** `vec3(x, y, z)` of three float literals. */
export function glslVec3(x: number, y: number, z: number): string {
  return `vec3(${glslFloat(x)}, ${glslFloat(y)}, ${glslFloat(z)})`;
}
