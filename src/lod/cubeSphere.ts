/**
 * Cube-sphere chunk space for planets (issue 9). Pure TypeScript, float64, no three.js/DOM/WebGL.
 *
 * Six faces, each an octree over parametric (s, t, w). Global integer grid coordinates per face in
 * finest units: (gi, gj, gk) with gi, gj ∈ [0, S] across the face and gk ∈ [0, S] radially, where
 * S = chunkCells · 2^levels. A level-l chunk holds N = chunkCells cells of 2^l units per axis.
 *
 * Mapping of face f with basis (F, U, V) (F the face normal, U × V = F so the integer frame is
 * right-handed and the mesher's winding survives):
 *   s = 2 gi / S − 1,  t = 2 gj / S − 1                     ∈ [−1, 1]
 *   X = tan(π/4 · s),  Y = tan(π/4 · t)                     (equi-angular / tangent warp)
 *   direction = normalize(F + X U + Y V),  radius = innerRadiusM + gk · heightUnitM
 * The tangent warp makes equal steps in s equal steps in angle along the face's axes: cell edges
 * measure 0.71…1.00 h and cell areas vary 1.41× across a face, against 5.2× for the plain gnomonic
 * cube (measured, docs/lod.md). Its inverse is closed-form (atan), which the GPU and the seams need.
 * heightUnitM = radiusM · π / (2 S) is the lateral size of a finest cell at the face center on the
 * surface radius, so cells are roughly cubic at the surface.
 */
import type { GridMapping } from '../mesher/types.ts';

/** Number of cube faces. */
export const FACE_COUNT = 6;
/** Default cells per chunk axis (docs/design.md, "Sampling and meshing": 32 for planet chunks). */
export const DEFAULT_CHUNK_CELLS = 32;

/**
 * Face bases, 9 numbers per face: F (normal), U (gi axis), V (gj axis). Faces: 0 +X, 1 −X, 2 +Y,
 * 3 −Y, 4 +Z, 5 −Z. Every basis satisfies U × V = F.
 */
export const FACE_BASES: Float64Array = new Float64Array([
  1, 0, 0, 0, 1, 0, 0, 0, 1, // +X: U = +Y, V = +Z
  -1, 0, 0, 0, 0, 1, 0, 1, 0, // −X: U = +Z, V = +Y
  0, 1, 0, 0, 0, 1, 1, 0, 0, // +Y: U = +Z, V = +X
  0, -1, 0, 1, 0, 0, 0, 0, 1, // −Y: U = +X, V = +Z
  0, 0, 1, 1, 0, 0, 0, 1, 0, // +Z: U = +X, V = +Y
  0, 0, -1, 0, 1, 0, 1, 0, 0, // −Z: U = +Y, V = +X
]);
/** Numbers per face in {@link FACE_BASES}. */
export const FACE_BASIS_STRIDE = 9;

export interface CubeSphereOptions {
  /** Surface radius (m): cells are cubic here. */
  radiusM: number;
  /** Cells per chunk axis, a power of two (default 32). */
  chunkCells?: number;
  /**
   * Target lateral size of a finest cell at the surface (m, default 1). The number of levels is the
   * smallest that reaches it; ignored when `levels` is given.
   */
  finestCellM?: number;
  /** Number of chunk levels above the finest: root chunks are level `levels`. */
  levels?: number;
}

/**
 * The constants of one planet's chunk space, with the float64 mapping. Immutable; hot methods take
 * positional arguments and write into `out` arrays (no allocation).
 */
const warped = new Float64Array(6);

/**
 * The tangent warp of face point (gi, gj) on a face of `faceUnits` grid units: X = tan(π/4 · (2 gi / S
 * − 1)), Y likewise, and the unnormalised direction c = F + X U + Y V with its length. Returns a
 * scratch array [X, Y, cx, cy, cz, |c|], overwritten by the next call.
 */
function tangentWarp(faceUnits: number, face: number, gi: number, gj: number): Float64Array {
  const b = face * FACE_BASIS_STRIDE;
  const B = FACE_BASES;
  const q = Math.PI / (2 * faceUnits); // π/4 · d s / d gi
  const X = Math.tan(q * gi - Math.PI / 4);
  const Y = Math.tan(q * gj - Math.PI / 4);
  const cx = B[b] + X * B[b + 3] + Y * B[b + 6];
  const cy = B[b + 1] + X * B[b + 4] + Y * B[b + 7];
  const cz = B[b + 2] + X * B[b + 5] + Y * B[b + 8];
  warped[0] = X; warped[1] = Y; warped[2] = cx; warped[3] = cy; warped[4] = cz;
  warped[5] = Math.hypot(cx, cy, cz);
  return warped;
}

export class CubeSphereSpace {
  readonly radiusM: number;
  /** N: cells per chunk axis. */
  readonly chunkCells: number;
  /** log2(N). */
  readonly chunkCellsLog2: number;
  /** Root level: a face's whole octree is one chunk of this level. */
  readonly levels: number;
  /** S = N · 2^levels: finest units across a face (and radially across the root). */
  readonly faceUnits: number;
  /** Radial size of one finest unit (m). */
  readonly heightUnitM: number;
  /** Radius of gk = 0 (m). */
  readonly innerRadiusM: number;
  /** Radius of gk = S (m). */
  readonly outerRadiusM: number;

  constructor(options: CubeSphereOptions) {
    const radiusM = options.radiusM;
    if (!(radiusM > 0) || !Number.isFinite(radiusM)) throw new RangeError(`radiusM must be a positive number, got ${radiusM}`);
    const n = options.chunkCells ?? DEFAULT_CHUNK_CELLS;
    const log2 = Math.round(Math.log2(n));
    if (!(n >= 2) || 2 ** log2 !== n) throw new RangeError(`chunkCells must be a power of two ≥ 2, got ${n}`);
    let levels = options.levels;
    if (levels === undefined) {
      const finest = options.finestCellM ?? 1;
      levels = Math.max(0, Math.ceil(Math.log2((radiusM * Math.PI) / 2 / (n * finest)) - 1e-12));
    }
    // Integer coordinates of the extended frames reach 2S (faceFrames.ts); keep them well inside int32
    // and exact in float32 for the GPU (S ≤ 2^24).
    if (!(levels >= 0 && levels + log2 <= 24 && Number.isInteger(levels))) {
      throw new RangeError(`levels + log2(chunkCells) must be ≤ 24, got ${levels} + ${log2}`);
    }
    this.radiusM = radiusM;
    this.chunkCells = n;
    this.chunkCellsLog2 = log2;
    this.levels = levels;
    this.faceUnits = n * 2 ** levels;
    this.heightUnitM = (radiusM * Math.PI) / (2 * this.faceUnits);
    // The surface sits at gk = S/3: a third is never a dyadic boundary, so the surface does not lie on
    // a chunk boundary at every level. The root spans 0.48 R … 2.05 R radially.
    this.innerRadiusM = radiusM - (this.faceUnits / 3) * this.heightUnitM;
    this.outerRadiusM = this.innerRadiusM + this.faceUnits * this.heightUnitM;
  }

  /** Size of a level-`level` chunk in finest units: N · 2^level. */
  chunkUnits(level: number): number {
    return this.chunkCells * 2 ** level;
  }

  /** Radius (m) of integer radial coordinate gk (may be fractional). */
  radiusAt(gk: number): number {
    return this.innerRadiusM + gk * this.heightUnitM;
  }

  /** Radial coordinate gk (fractional) of a radius in metres. */
  gkAtRadius(radiusM: number): number {
    return (radiusM - this.innerRadiusM) / this.heightUnitM;
  }

  /** Approximate lateral size (m) of a level-`level` cell at the surface radius (face center). */
  cellSizeM(level: number): number {
    return this.heightUnitM * 2 ** level;
  }

  /**
   * Unit direction of face point (gi, gj) (fractional, within [0, S]) into out[0..2]. Returns the
   * length of the unnormalised vector F + X U + Y V.
   */
  direction(face: number, gi: number, gj: number, out: Float64Array | number[]): number {
    const w = tangentWarp(this.faceUnits, face, gi, gj);
    const cx = w[2], cy = w[3], cz = w[4], len = w[5];
    out[0] = cx / len;
    out[1] = cy / len;
    out[2] = cz / len;
    return len;
  }

  /** Body-local world position (m) of face grid point (gi, gj, gk) into out. */
  toWorld(face: number, gi: number, gj: number, gk: number, out: Float64Array | number[]): void {
    this.direction(face, gi, gj, out);
    const r = this.radiusAt(gk);
    out[0] *= r;
    out[1] *= r;
    out[2] *= r;
  }

  /**
   * Inverse mapping: body-local point → face and fractional (gi, gj, gk), written as
   * out = [face, gi, gj, gk]. The face is the axis of largest |component| (ties: lowest face index,
   * so the result is deterministic on edges). Returns the face. The origin maps to face 0's center.
   */
  fromWorld(x: number, y: number, z: number, out: Float64Array | number[]): number {
    const ax = Math.abs(x), ay = Math.abs(y), az = Math.abs(z);
    let face: number;
    if (ax >= ay && ax >= az) face = x >= 0 ? 0 : 1;
    else if (ay >= az) face = y >= 0 ? 2 : 3;
    else face = z >= 0 ? 4 : 5;
    const b = face * FACE_BASIS_STRIDE;
    const B = FACE_BASES;
    const f = x * B[b] + y * B[b + 1] + z * B[b + 2];
    const u = x * B[b + 3] + y * B[b + 4] + z * B[b + 5];
    const v = x * B[b + 6] + y * B[b + 7] + z * B[b + 8];
    const S = this.faceUnits;
    const k = (2 * S) / Math.PI; // 1 / (π/4 · 2/S)
    out[0] = face;
    out[1] = f > 0 ? k * Math.atan(u / f) + S / 2 : S / 2;
    out[2] = f > 0 ? k * Math.atan(v / f) + S / 2 : S / 2;
    out[3] = this.gkAtRadius(Math.hypot(x, y, z));
    return face;
  }

  /**
   * Jacobian ∂world/∂grid at (gi, gj, gk) into out (column-major 3×3: out[0..2] = ∂p/∂gi,
   * out[3..5] = ∂p/∂gj, out[6..8] = ∂p/∂gk).
   */
  jacobian(face: number, gi: number, gj: number, gk: number, out: Float64Array | number[]): void {
    const b = face * FACE_BASIS_STRIDE;
    const B = FACE_BASES;
    const q = Math.PI / (2 * this.faceUnits);
    const w = tangentWarp(this.faceUnits, face, gi, gj);
    const X = w[0], Y = w[1], cx = w[2], cy = w[3], cz = w[4], len = w[5];
    const dx = cx / len, dy = cy / len, dz = cz / len;
    const r = this.radiusAt(gk);
    // p = r c/|c|; ∂p/∂X = r/|c| (I − d dᵀ) U; dX/dgi = q (1 + X²).
    const sU = (r / len) * q * (1 + X * X);
    const sV = (r / len) * q * (1 + Y * Y);
    const ux = B[b + 3], uy = B[b + 4], uz = B[b + 5];
    const du = dx * ux + dy * uy + dz * uz;
    out[0] = sU * (ux - du * dx);
    out[1] = sU * (uy - du * dy);
    out[2] = sU * (uz - du * dz);
    const vx = B[b + 6], vy = B[b + 7], vz = B[b + 8];
    const dv = dx * vx + dy * vy + dz * vz;
    out[3] = sV * (vx - dv * dx);
    out[4] = sV * (vy - dv * dy);
    out[5] = sV * (vz - dv * dz);
    out[6] = this.heightUnitM * dx;
    out[7] = this.heightUnitM * dy;
    out[8] = this.heightUnitM * dz;
  }

  /**
   * Grid-space gradient n (with respect to gi, gj, gk) → world normal J^-T n, normalised, in place.
   */
  normalToWorld(face: number, gi: number, gj: number, gk: number, n: Float64Array | number[]): void {
    const J = scratchJ;
    this.jacobian(face, gi, gj, gk, J);
    // J^-T n = (cofactor(J) / det) n; the columns of J are a, b, c: J^-T = [b×c, c×a, a×b] / det.
    const ax = J[0], ay = J[1], az = J[2], bx = J[3], by = J[4], bz = J[5], cx = J[6], cy = J[7], cz = J[8];
    const n0 = n[0], n1 = n[1], n2 = n[2];
    // rows of J^{-1} are (b×c)/det, (c×a)/det, (a×b)/det; J^{-T} n = Σ n_i row_i.
    const x = n0 * (by * cz - bz * cy) + n1 * (cy * az - cz * ay) + n2 * (ay * bz - az * by);
    const y = n0 * (bz * cx - bx * cz) + n1 * (cz * ax - cx * az) + n2 * (az * bx - ax * bz);
    const z = n0 * (bx * cy - by * cx) + n1 * (cx * ay - cy * ax) + n2 * (ax * by - ay * bx);
    // det > 0 everywhere (right-handed face bases), so dividing by it only scales: normalise instead.
    const len = Math.hypot(x, y, z) || 1;
    n[0] = x / len;
    n[1] = y / len;
    n[2] = z / len;
  }

  /**
   * The mesher's {@link GridMapping} for one face: global grid coordinates of that face → body-local
   * world positions (float64). meshChunk subtracts the chunk origin's world position in float64 before
   * storing Float32 positions, so vertices are chunk-relative and exact to float32 of the chunk size.
   * Valid for gi, gj in [0, S]; see {@link extendedFaceMapping} for points beyond the face's edges.
   */
  faceMapping(face: number): GridMapping {
    checkFace(face);
    return {
      toWorld: (gi, gj, gk, out) => this.toWorld(face, gi, gj, gk, out),
      normalToWorld: (gi, gj, gk, n) => this.normalToWorld(face, gi, gj, gk, n),
    };
  }
}

const scratchJ = new Float64Array(9);

export function checkFace(face: number): void {
  if (!(Number.isInteger(face) && face >= 0 && face < FACE_COUNT)) throw new RangeError(`face must be 0..5, got ${face}`);
}
