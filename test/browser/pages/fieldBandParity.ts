/**
 * Page side of test/browser/fieldBandParity.test.ts: a planet compiled ONCE with
 * `bandUniforms`, drawn at several band limits by setting `sr_band` (gl.uniform1iv) between
 * draws, each compared with compileToJs(recipe, { minWavelengthM }) at the same float32 points
 * near the surface. fieldEval.ts's pass takes no compile options, hence the small points pass here.
 */
import { bandSlotValues, compileToGlsl, compileToJs, FIELD_TEMPLATES, parseRecipe, Prng, spliceField } from '../../../src/field/glsl';
import { createFieldContext } from './fieldEval';

export interface BandParityResult {
  minWavelengthM: number;
  /** The sr_band values drawn with. */
  band: number[];
  points: number;
  sizeM: number;
  maxAbsErrM: number;
  maxRelErr: number;
  signMismatches: number;
  /** max |JS at this limit − full JS field|: how much the limit changes the field at these points. */
  bandEffectM: number;
  worst: { p: [number, number, number]; gpu: number; cpu: number };
}

export interface BandParityRun {
  slots: number;
  compileMs: number;
  gpuMs: number;
  results: BandParityResult[];
}

function shader(gl: WebGL2RenderingContext, type: number, source: string): WebGLShader {
  const s = gl.createShader(type)!;
  gl.shaderSource(s, source);
  gl.compileShader(s);
  if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(`shader compile failed: ${gl.getShaderInfoLog(s)}`);
  return s;
}

/** `count` float32 points on random rays at radius `radiusM` ± `spreadM`. */
function surfacePoints(count: number, radiusM: number, spreadM: number, seed: number): Float32Array {
  const prng = new Prng(seed);
  const out = new Float32Array(count * 3);
  const dir = [0, 0, 0];
  for (let i = 0; i < count; i++) {
    prng.unitVector(dir);
    const r = radiusM + prng.range(-spreadM, spreadM);
    for (let a = 0; a < 3; a++) out[i * 3 + a] = dir[a] * r;
  }
  return out;
}

export function runBandParity(recipe: unknown, limitsM: number[], count: number, radiusM: number, spreadM: number): BandParityRun {
  const parsed = parseRecipe(recipe);
  const gl = createFieldContext();
  const t0 = performance.now();
  const compiled = compileToGlsl(parsed, { bandUniforms: true });
  const program = gl.createProgram()!;
  const vs = shader(gl, gl.VERTEX_SHADER, FIELD_TEMPLATES.quadVert);
  const fs = shader(gl, gl.FRAGMENT_SHADER, spliceField(FIELD_TEMPLATES.pointsFrag, compiled, 'sr_field_points'));
  gl.attachShader(program, vs);
  gl.attachShader(program, fs);
  gl.linkProgram(program);
  gl.deleteShader(vs);
  gl.deleteShader(fs);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`program link failed: ${gl.getProgramInfoLog(program)}`);
  const compileMs = performance.now() - t0;
  const bandLocation = gl.getUniformLocation(program, 'sr_band');
  if (!bandLocation) throw new Error('sr_band is not an active uniform');

  const points = surfacePoints(count, radiusM, spreadM, 7);
  const width = Math.min(256, count);
  const height = Math.ceil(count / width);
  const texels = new Float32Array(width * height * 4);
  for (let i = 0; i < count; i++) texels.set(points.subarray(i * 3, i * 3 + 3), i * 4);
  const texture = (unit: number, data: Float32Array | null): WebGLTexture => {
    const tex = gl.createTexture()!;
    gl.activeTexture(gl.TEXTURE0 + unit);
    gl.bindTexture(gl.TEXTURE_2D, tex);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, width, height);
    if (data) gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, width, height, gl.RGBA, gl.FLOAT, data);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    return tex;
  };
  const input = texture(1, texels);
  const output = texture(0, null);
  const fbo = gl.createFramebuffer()!;
  gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, output, 0);
  if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE) throw new Error('RGBA32F framebuffer incomplete');
  const vao = gl.createVertexArray();
  gl.viewport(0, 0, width, height);
  gl.useProgram(program);
  gl.bindVertexArray(vao);
  gl.uniform1i(gl.getUniformLocation(program, 'sr_points'), 1);

  const full = compileToJs(parsed);
  const sizeM = compiled.bounds.sizeM;
  const band = new Int32Array(compiled.bandSlots.length);
  const rgba = new Float32Array(width * height * 4);
  const results: BandParityResult[] = [];
  let gpuMs = 0;
  for (const minWavelengthM of limitsM) {
    bandSlotValues(compiled.bandSlots, minWavelengthM, band);
    const t1 = performance.now();
    gl.uniform1iv(bandLocation, band);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.FLOAT, rgba);
    gpuMs += performance.now() - t1;
    const js = compileToJs(parsed, { minWavelengthM });
    let maxAbsErrM = 0, worstIndex = 0, signMismatches = 0, bandEffectM = 0;
    for (let i = 0; i < count; i++) {
      const x = points[i * 3], y = points[i * 3 + 1], z = points[i * 3 + 2];
      const cpu = js(x, y, z);
      const gpu = rgba[i * 4];
      const err = Math.abs(gpu - cpu);
      if (!(err <= maxAbsErrM)) {
        maxAbsErrM = Number.isNaN(err) ? Infinity : err;
        worstIndex = i;
      }
      if (Math.abs(cpu) > 1e-4 * sizeM && Math.sign(cpu) !== Math.sign(gpu)) signMismatches++;
      bandEffectM = Math.max(bandEffectM, Math.abs(cpu - full(x, y, z)));
    }
    const w = worstIndex * 3;
    results.push({
      minWavelengthM,
      band: [...band],
      points: count,
      sizeM,
      maxAbsErrM,
      maxRelErr: maxAbsErrM / sizeM,
      signMismatches,
      bandEffectM,
      worst: { p: [points[w], points[w + 1], points[w + 2]], gpu: rgba[worstIndex * 4], cpu: js(points[w], points[w + 1], points[w + 2]) },
    });
  }

  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.deleteFramebuffer(fbo);
  gl.deleteTexture(input);
  gl.deleteTexture(output);
  gl.deleteVertexArray(vao);
  gl.deleteProgram(program);
  return { slots: compiled.bandSlots.length, compileMs, gpuMs, results };
}
