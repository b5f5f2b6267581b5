/**
 * A recipe's numbers in generated GLSL (glslNodes.ts, glslCodegen.ts): literals in the code, or —
 * with `numbersAsData` — entries of one uniform block, `SrParams { vec4 sr_params[N]; }`, filled
 * from {@link GlslCodegenResult.params}. Then the code holds only the recipe's shape, so recipes
 * that differ only in numbers (seeds of one asteroid family) compile to the same text and share one
 * program (issue 16: every recipe compiled its own, and a real GPU spent its start-up compiling).
 *
 * A value is refused here exactly as a literal would be (glslLiterals.ts): NaN, ±Infinity and
 * numbers beyond float32 never reach a shader, as text or as data.
 */
import { GlslCodegenError, glslFloat, glslInt, glslVec3 } from './glslLiterals';

/** Where the numbers go: null for literals, else the block's values in order (4 a vec4). */
export interface NumberSink {
  readonly params: number[] | null;
}

const LANES = 'xyzw';
const FLOAT32_MAX = 3.4e38;

function push(sink: NumberSink & { params: number[] }, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > FLOAT32_MAX) {
    throw new GlslCodegenError(`not a finite float32: ${String(value)}`);
  }
  sink.params.push(value === 0 ? 0 : value);
  return sink.params.length - 1;
}

function ref(i: number): string {
  return `sr_params[${glslInt(i >> 2)}].${LANES[i & 3]}`;
}

/** A float: a literal, or its block entry. */
export function num(sink: NumberSink, value: number): string {
  if (!sink.params) return glslFloat(value);
  return ref(push(sink as NumberSink & { params: number[] }, value));
}

/** A vec3 of three floats. */
export function vec3(sink: NumberSink, x: number, y: number, z: number): string {
  if (!sink.params) return glslVec3(x, y, z);
  return `vec3(${num(sink, x)}, ${num(sink, y)}, ${num(sink, z)})`;
}

/** An int that is recipe data (octaves, a list's length): a literal, or `int(entry)` (exact below 2^24). */
export function int(sink: NumberSink, value: number): string {
  if (!sink.params) return glslInt(value);
  if (!Number.isInteger(value) || Math.abs(value) >= 2 ** 24) throw new GlslCodegenError(`not an int below 2^24: ${String(value)}`);
  return `int(${num(sink, value)})`;
}

/**
 * Reserves `vec4s` whole vec4 entries (data only), filled with `values` then zeros; returns the
 * index of the first (a list read with a computed index: `sr_params[base + i]`).
 */
export function vec4Block(sink: NumberSink & { params: number[] }, vec4s: number, values: ArrayLike<number>): number {
  if (values.length > 4 * vec4s) throw new GlslCodegenError(`${values.length} values do not fit ${vec4s} vec4`);
  while (sink.params.length % 4 !== 0) sink.params.push(0);
  const base = sink.params.length >> 2;
  for (let i = 0; i < 4 * vec4s; i++) push(sink, i < values.length ? values[i] : 0);
  return base;
}

/**
 * The declaration (data only): at least one entry, so it stays valid GLSL. A uniform block for
 * the sampling passes (bound per recipe); `asUniform`: a plain uniform array, for three.js
 * materials, which set it per material like any other uniform.
 */
export function paramsDeclaration(count: number, asUniform = false): string[] {
  const n = glslInt(Math.max(1, Math.ceil(count / 4)));
  return [
    '// The recipe\'s numbers (GlslCodegenResult.params): the code above and below holds only its shape.',
    asUniform ? `uniform vec4 sr_params[${n}];` : `layout(std140) uniform SrParams { vec4 sr_params[${n}]; };`,
  ];
}

/**
 * Room for a list of `count` records: powers of two from 128, so lists of different lengths share
 * code (an asteroid's 6 craters and a cratered one's 128). The loop runs to the count; the room
 * costs only block bytes (2 vec4 a record).
 */
export function listCapacity(count: number): number {
  let c = 128;
  while (c < count) c *= 2;
  return c;
}
