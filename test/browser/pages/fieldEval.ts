/**
 * Test-side WebGL2 evaluation of a compiled field (parity test and GLSL benchmark). Not
 * the production GPU sampler (that is src/gpu/, with async readback): this one draws once
 * into an RGBA32F target and reads back synchronously, which is what a test wants.
 */
import { compileToGlsl, FIELD_TEMPLATES, spliceField, type CompiledGlsl } from '../../../src/field/glsl';
import gradPointsFrag from './sr_field_grad_points.frag.glsl?raw';

export interface FieldPass {
  compiled: CompiledGlsl;
  /** Values at `points` (xyz triples, body-local metres; float32 on the GPU). */
  evaluatePoints(points: Float32Array): Float32Array;
  /**
   * sr_fieldGrad at `points` (a pass made with `gradient`): xyzw per point, gradient and value,
   * filtered by `footprintM` (0: exact).
   */
  evaluateGradients(points: Float32Array, footprintM?: number): Float32Array;
  /** Milliseconds spent compiling and linking the program. */
  compileMs: number;
  dispose(): void;
}

function compileShader(gl: WebGL2RenderingContext, type: number, source: string): WebGLShader {
  const shader = gl.createShader(type)!;
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) {
    const log = gl.getShaderInfoLog(shader);
    gl.deleteShader(shader);
    throw new Error(`shader compile failed: ${log}`);
  }
  return shader;
}

function link(gl: WebGL2RenderingContext, fragSource: string): WebGLProgram {
  const vs = compileShader(gl, gl.VERTEX_SHADER, FIELD_TEMPLATES.quadVert);
  const fs = compileShader(gl, gl.FRAGMENT_SHADER, fragSource);
  const program = gl.createProgram()!;
  gl.attachShader(program, vs);
  gl.attachShader(program, fs);
  gl.linkProgram(program);
  gl.deleteShader(vs);
  gl.deleteShader(fs);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) {
    throw new Error(`program link failed: ${gl.getProgramInfoLog(program)}`);
  }
  return program;
}

function floatTarget(gl: WebGL2RenderingContext, width: number, height: number): { tex: WebGLTexture; fbo: WebGLFramebuffer } {
  const tex = gl.createTexture()!;
  gl.bindTexture(gl.TEXTURE_2D, tex);
  gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, width, height);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  const fbo = gl.createFramebuffer()!;
  gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex, 0);
  const status = gl.checkFramebufferStatus(gl.FRAMEBUFFER);
  if (status !== gl.FRAMEBUFFER_COMPLETE) throw new Error(`RGBA32F framebuffer incomplete: 0x${status.toString(16)}`);
  return { tex, fbo };
}

/** A WebGL2 context with float colour targets, or an Error saying what is missing. */
export function createFieldContext(): WebGL2RenderingContext {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) throw new Error('no WebGL2');
  if (!gl.getExtension('EXT_color_buffer_float')) throw new Error('no EXT_color_buffer_float');
  return gl;
}

export function createFieldPass(gl: WebGL2RenderingContext, recipe: unknown, options: { gradient?: boolean } = {}): FieldPass {
  const compiled = compileToGlsl(recipe, { gradient: options.gradient ?? false });
  const t0 = performance.now();
  const pointsProgram = link(gl, spliceField(FIELD_TEMPLATES.pointsFrag, compiled, 'sr_field_points'));
  const compileMs = performance.now() - t0;
  const gradProgram = options.gradient ? link(gl, spliceField(gradPointsFrag, compiled, 'sr_field_grad_points')) : null;
  const vao = gl.createVertexArray();

  // One pooled target, reallocated only when the size changes.
  let target: { tex: WebGLTexture; fbo: WebGLFramebuffer; width: number; height: number } | null = null;
  const releaseTarget = (): void => {
    if (!target) return;
    gl.deleteFramebuffer(target.fbo);
    gl.deleteTexture(target.tex);
    target = null;
  };

  const draw = (program: WebGLProgram, width: number, height: number): Float32Array => {
    if (!target || target.width !== width || target.height !== height) {
      releaseTarget();
      target = { ...floatTarget(gl, width, height), width, height };
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, target.fbo);
    gl.viewport(0, 0, width, height);
    gl.useProgram(program);
    gl.bindVertexArray(vao);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    const out = new Float32Array(width * height * 4);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.FLOAT, out);
    gl.finish();
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    return out;
  };

  /** Draws `program` over the points (RGBA32F out, one texel a point). */
  const overPoints = (program: WebGLProgram, points: Float32Array, setUniforms: () => void = () => {}): Float32Array => {
    const count = points.length / 3;
    const width = Math.min(256, count);
    const height = Math.ceil(count / width);
    const texels = new Float32Array(width * height * 4);
    for (let i = 0; i < count; i++) texels.set(points.subarray(i * 3, i * 3 + 3), i * 4);
    const input = gl.createTexture()!;
    // Unit 1: draw() binds its target texture on unit 0 while creating it.
    gl.activeTexture(gl.TEXTURE1);
    gl.bindTexture(gl.TEXTURE_2D, input);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, width, height);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, width, height, gl.RGBA, gl.FLOAT, texels);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.useProgram(program);
    gl.uniform1i(gl.getUniformLocation(program, 'sr_points'), 1);
    setUniforms();
    gl.activeTexture(gl.TEXTURE0);
    const rgba = draw(program, width, height);
    gl.deleteTexture(input);
    return rgba.subarray(0, count * 4);
  };

  return {
    compiled,
    compileMs,
    evaluateGradients(points, footprintM = 0) {
      if (!gradProgram) throw new Error('evaluateGradients: the pass was made without `gradient`');
      return overPoints(gradProgram, points, () => gl.uniform1f(gl.getUniformLocation(gradProgram, 'uFootprintM'), footprintM));
    },
    evaluatePoints(points) {
      const rgba = overPoints(pointsProgram, points);
      const values = new Float32Array(points.length / 3);
      for (let i = 0; i < values.length; i++) values[i] = rgba[i * 4];
      return values;
    },
    dispose() {
      releaseTarget();
      gl.deleteProgram(pointsProgram);
      if (gradProgram) gl.deleteProgram(gradProgram);
      gl.deleteVertexArray(vao);
    },
  };
}
