/**
 * Uniform values for glsl/sr_map_cubesphere.glsl, computed per chunk in float64. Plain numbers (no
 * WebGL here): the GPU side uploads them by name. See the GLSL file for the precision scheme.
 */
import type { CubeSphereSpace } from './cubeSphere.ts';
import { FACE_BASES, FACE_BASIS_STRIDE, checkFace } from './cubeSphere.ts';

export interface CubeSphereMapUniforms {
  /** mat3, column-major: F, U, V. */
  sr_csBasis: number[];
  sr_csTan0: [number, number];
  sr_csAngleStep: number;
  sr_csRadius0M: number;
  sr_csRadiusStepM: number;
  sr_csOriginHighM: [number, number, number];
  sr_csOriginLowM: [number, number, number];
}

/** Splits a float64 into float32 high + low parts (high = fround(x), low = fround(x − high)). */
export function splitFloat64(x: number): [number, number] {
  const high = Math.fround(x);
  return [high, Math.fround(x - high)];
}

/**
 * Uniforms for a chunk at `level` whose minimum corner is the face grid point
 * (originGi, originGj, originGk) in finest units. The chunk's local index (i, j, k) is the grid point
 * origin + 2^level (i, j, k), as in the mesher's ChunkSpec.
 */
export function cubeSphereMapUniforms(
  space: CubeSphereSpace, face: number, originGi: number, originGj: number, originGk: number, level: number,
  target?: CubeSphereMapUniforms,
): CubeSphereMapUniforms {
  checkFace(face);
  const out = target ?? {
    sr_csBasis: new Array<number>(9).fill(0),
    sr_csTan0: [0, 0],
    sr_csAngleStep: 0,
    sr_csRadius0M: 0,
    sr_csRadiusStepM: 0,
    sr_csOriginHighM: [0, 0, 0],
    sr_csOriginLowM: [0, 0, 0],
  };
  const b = face * FACE_BASIS_STRIDE;
  for (let i = 0; i < 9; i++) out.sr_csBasis[i] = FACE_BASES[b + i];
  const q = Math.PI / (2 * space.faceUnits);
  out.sr_csTan0[0] = Math.tan(q * originGi - Math.PI / 4);
  out.sr_csTan0[1] = Math.tan(q * originGj - Math.PI / 4);
  out.sr_csAngleStep = q * 2 ** level;
  out.sr_csRadius0M = space.radiusAt(originGk);
  out.sr_csRadiusStepM = space.heightUnitM * 2 ** level;
  const p = scratch;
  space.toWorld(face, originGi, originGj, originGk, p);
  for (let c = 0; c < 3; c++) {
    const [h, l] = splitFloat64(p[c]);
    out.sr_csOriginHighM[c] = h;
    out.sr_csOriginLowM[c] = l;
  }
  return out;
}

const scratch = new Float64Array(3);

/**
 * Float32 emulation of sr_chunkOffsetM (same operation order, Math.fround after each step), for
 * Node tests and for estimating the GPU's error without a GPU. Writes the offset into out.
 */
export function chunkOffsetF32(u: CubeSphereMapUniforms, li: number, lj: number, lk: number, out: Float64Array | number[]): void {
  const f = Math.fround;
  const tanDelta = (t0: number, b: number): number => {
    const b2 = f(b * b);
    // Horner from the innermost term outward, as the GLSL nests it.
    let s = 1;
    for (const d of [210, 156, 110, 72, 42, 20, 6]) s = f(1 - f(f(b2 / d) * s));
    s = f(b * s);
    let c = 1;
    for (const d of [240, 182, 132, 90, 56, 30, 12, 2]) c = f(1 - f(f(b2 / d) * c));
    return f(f(s * f(1 + f(t0 * t0))) / f(c - f(t0 * s)));
  };
  const step = f(u.sr_csAngleStep);
  const X0 = f(u.sr_csTan0[0]), Y0 = f(u.sr_csTan0[1]);
  const dX = tanDelta(X0, f(f(li) * step));
  const dY = tanDelta(Y0, f(f(lj) * step));
  const B = u.sr_csBasis;
  const len0 = f(Math.sqrt(f(1 + f(f(X0 * X0) + f(Y0 * Y0)))));
  const dq = f(f(dX * f(f(2 * X0) + dX)) + f(dY * f(f(2 * Y0) + dY)));
  const len = f(Math.sqrt(f(f(len0 * len0) + dq)));
  const k = f(dq / f(f(len * len0) * f(len + len0)));
  const dr = f(f(lk) * f(u.sr_csRadiusStepM));
  const r0 = f(u.sr_csRadius0M);
  for (let c = 0; c < 3; c++) {
    const F = B[c], U = B[3 + c], V = B[6 + c];
    const c0 = f(F + f(f(X0 * U) + f(Y0 * V)));
    const dd = f(f(f(f(dX * U) + f(dY * V)) / len) - f(c0 * k));
    const d0 = f(c0 / len0);
    out[c] = f(f(dr * f(d0 + dd)) + f(r0 * dd));
  }
}
