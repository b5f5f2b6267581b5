/**
 * Page-side check for test/browser/cubeSphereMap.test.ts, loaded with srImport() on the dev server:
 * evaluates glsl/sr_map_cubesphere.glsl's sr_chunkOffsetM / sr_chunkPointM on random local points
 * of random chunks in a transform-feedback pass and compares with the float64 JS mapping.
 *
 * The two tiny wrapper shaders below are test scaffolding around the real chunk (which is the file
 * under test, pulled in with the project's include mechanism).
 */
import mapGlsl from '../../../glsl/sr_map_cubesphere.glsl?raw';
import { resolveIncludes } from '../../../src/field/glslInclude';
import { Prng } from '../../../src/field/index';
import { CubeSphereSpace, cubeSphereMapUniforms } from '../../../src/lod/index';

const VERTEX = [
  '#version 300 es',
  'precision highp float;',
  'precision highp int;',
  '#include <sr_chunk_map>',
  'in vec3 sr_localIndex;',
  'out vec3 sr_offset;',
  'out vec3 sr_point;',
  'void main() {',
  '  sr_offset = sr_chunkOffsetM(sr_localIndex);',
  '  sr_point = sr_chunkPointM(sr_localIndex);',
  '  gl_Position = vec4(0.0);',
  '}',
].join('\n');
const FRAGMENT = ['#version 300 es', 'precision highp float;', 'out vec4 o;', 'void main() { o = vec4(0.0); }'].join('\n');

function compile(gl: WebGL2RenderingContext): WebGLProgram {
  const program = gl.createProgram()!;
  const sources: [number, string][] = [
    [gl.VERTEX_SHADER, resolveIncludes(VERTEX, { sr_chunk_map: mapGlsl }, { sourceName: 'cubeSphereMap:vertex' })],
    [gl.FRAGMENT_SHADER, FRAGMENT],
  ];
  for (const [type, src] of sources) {
    const s = gl.createShader(type)!;
    gl.shaderSource(s, src);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(`shader: ${gl.getShaderInfoLog(s)}`);
    gl.attachShader(program, s);
  }
  gl.transformFeedbackVaryings(program, ['sr_offset', 'sr_point'], gl.INTERLEAVED_ATTRIBS);
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`link: ${gl.getProgramInfoLog(program)}`);
  return program;
}

export interface MapParity {
  radiusM: number;
  chunks: number;
  points: number;
  /** Worst |gpu offset − float64 offset| / chunk size. */
  worstOffsetRel: number;
  /** Worst |gpu point − float64 point| (m). */
  worstPointM: number;
  /** About one float32 ulp at the largest radius sampled (m). */
  ulpM: number;
  nanCount: number;
  /** Coordinates whose error exceeds 1 float32 ulp of the coordinate + 1e-6 of the chunk. */
  pointOverBound: number;
  /** Worst offset error / chunk size per level. */
  byLevel: number[];
}

/** `chunks` random chunks of every level near the surface, `perChunk` random local points each. */
export function mapParity(radiusM: number, seed: number, chunks: number, perChunk: number): MapParity {
  const gl = document.createElement('canvas').getContext('webgl2')!;
  const program = compile(gl);
  gl.useProgram(program);
  const space = new CubeSphereSpace({ radiusM });
  const r = new Prng(seed);
  const input = gl.createBuffer()!;
  const output = gl.createBuffer()!;
  const vao = gl.createVertexArray()!;
  gl.bindVertexArray(vao);
  gl.bindBuffer(gl.ARRAY_BUFFER, input);
  const loc = gl.getAttribLocation(program, 'sr_localIndex');
  gl.enableVertexAttribArray(loc);
  gl.vertexAttribPointer(loc, 3, gl.FLOAT, false, 0, 0);
  gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, output);
  gl.bufferData(gl.TRANSFORM_FEEDBACK_BUFFER, perChunk * 6 * 4, gl.STREAM_READ);
  const u = (name: string) => gl.getUniformLocation(program, name);
  const tf = gl.createTransformFeedback();
  const local = new Float32Array(3 * perChunk);
  const result = new Float32Array(6 * perChunk);
  const p = new Float64Array(3), p0 = new Float64Array(3);
  let worstOffsetRel = 0, worstPointM = 0, nanCount = 0, maxR = 0, pointOverBound = 0;
  const byLevel = new Array<number>(space.levels + 1).fill(0);
  for (let c = 0; c < chunks; c++) {
    const level = c % (space.levels + 1);
    const face = c % 6;
    const U = space.chunkUnits(level);
    const n = space.faceUnits / U;
    const ci = Math.floor(r.next() * n), cj = Math.floor(r.next() * n), ck = Math.floor(space.gkAtRadius(radiusM) / U);
    const un = cubeSphereMapUniforms(space, face, ci * U, cj * U, ck * U, level);
    gl.uniformMatrix3fv(u('sr_csBasis'), false, un.sr_csBasis);
    gl.uniform2f(u('sr_csTan0'), un.sr_csTan0[0], un.sr_csTan0[1]);
    gl.uniform1f(u('sr_csAngleStep'), un.sr_csAngleStep);
    gl.uniform1f(u('sr_csRadius0M'), un.sr_csRadius0M);
    gl.uniform1f(u('sr_csRadiusStepM'), un.sr_csRadiusStepM);
    gl.uniform3f(u('sr_csOriginHighM'), ...un.sr_csOriginHighM);
    gl.uniform3f(u('sr_csOriginLowM'), ...un.sr_csOriginLowM);
    for (let i = 0; i < 3 * perChunk; i++) local[i] = Math.fround(r.next() * space.chunkCells);
    gl.bindBuffer(gl.ARRAY_BUFFER, input);
    gl.bufferData(gl.ARRAY_BUFFER, local, gl.STREAM_DRAW);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, tf);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, output);
    gl.enable(gl.RASTERIZER_DISCARD);
    gl.beginTransformFeedback(gl.POINTS);
    gl.drawArrays(gl.POINTS, 0, perChunk);
    gl.endTransformFeedback();
    gl.disable(gl.RASTERIZER_DISCARD);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, null);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
    // A test may read back synchronously; the app never does (GpuFieldSampler fences and polls).
    gl.bindBuffer(gl.COPY_READ_BUFFER, output);
    gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, result);
    gl.bindBuffer(gl.COPY_READ_BUFFER, null);
    space.toWorld(face, ci * U, cj * U, ck * U, p0);
    const chunkM = space.cellSizeM(level) * space.chunkCells;
    const s = 2 ** level;
    for (let v = 0; v < perChunk; v++) {
      space.toWorld(face, ci * U + local[3 * v] * s, cj * U + local[3 * v + 1] * s, ck * U + local[3 * v + 2] * s, p);
      maxR = Math.max(maxR, Math.hypot(p[0], p[1], p[2]));
      for (let k = 0; k < 3; k++) {
        const off = result[6 * v + k], pt = result[6 * v + 3 + k];
        if (!Number.isFinite(off) || !Number.isFinite(pt)) {
          nanCount++;
          continue;
        }
        const e = Math.abs(off - (p[k] - p0[k])) / chunkM;
        worstOffsetRel = Math.max(worstOffsetRel, e);
        byLevel[level] = Math.max(byLevel[level], e);
        worstPointM = Math.max(worstPointM, Math.abs(pt - p[k]));
        const ulp = Math.abs(p[k]) > 0 ? 2 ** (Math.floor(Math.log2(Math.abs(p[k]))) - 23) : 0;
        if (Math.abs(pt - p[k]) > ulp + 1e-6 * chunkM) pointOverBound++;
      }
    }
  }
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return { radiusM, chunks, points: chunks * perChunk, worstOffsetRel, worstPointM, ulpM: Math.fround(maxR) * 2 ** -24 * 2, nanCount, byLevel, pointOverBound };
}
