/**
 * Quadric error functions for Dual Contouring vertices (Ju et al. 2002; Gildea 2015's QEF section, docs/design.md#sources).
 * A QEF is stored as QEF_STRIDE float64s in a shared buffer (no objects in hot loops):
 * A^T A (6, upper triangle), A^T b (3), b^T b, mass-point sum (3), plane count, normal sum (3).
 * Coordinates are chunk-local cells, which keeps b^T b small enough that the error formula
 * x^T A x - 2 x^T A^T b + b^T b does not lose its digits to cancellation.
 */
export const QEF_STRIDE = 17;
export const QEF_ATA = 0;
export const QEF_ATB = 6;
export const QEF_BTB = 9;
export const QEF_MASS = 10;
export const QEF_COUNT = 13;
export const QEF_NORMAL = 14;

/**
 * Eigenvalues below this fraction of the largest are truncated: the minimiser then stays at the
 * mass point along those directions (mass-point regularisation). 0.1 keeps creases of about 20°
 * and sharper, and flattens noise in smooth cells.
 */
export const QEF_EIGEN_CUTOFF = 0.1;

export function qefAddPlane(
  q: Float64Array, o: number,
  px: number, py: number, pz: number,
  nx: number, ny: number, nz: number,
): void {
  const d = nx * px + ny * py + nz * pz;
  q[o] += nx * nx; q[o + 1] += nx * ny; q[o + 2] += nx * nz;
  q[o + 3] += ny * ny; q[o + 4] += ny * nz; q[o + 5] += nz * nz;
  q[o + 6] += nx * d; q[o + 7] += ny * d; q[o + 8] += nz * d;
  q[o + 9] += d * d;
  q[o + 10] += px; q[o + 11] += py; q[o + 12] += pz;
  q[o + 13] += 1;
  q[o + 14] += nx; q[o + 15] += ny; q[o + 16] += nz;
}

export function qefAdd(dst: Float64Array, od: number, src: Float64Array, os: number): void {
  for (let i = 0; i < QEF_STRIDE; i++) dst[od + i] += src[os + i];
}

export function qefError(q: Float64Array, o: number, x: number, y: number, z: number): number {
  const ax = q[o] * x + q[o + 1] * y + q[o + 2] * z;
  const ay = q[o + 1] * x + q[o + 3] * y + q[o + 4] * z;
  const az = q[o + 2] * x + q[o + 4] * y + q[o + 5] * z;
  const e = x * ax + y * ay + z * az - 2 * (x * q[o + 6] + y * q[o + 7] + z * q[o + 8]) + q[o + 9];
  return e > 0 ? e : 0;
}

/**
 * Eigen-decomposition of the symmetric 3x3 matrix (a00 a01 a02 / a11 a12 / a22) by cyclic Jacobi
 * rotations on scalars (no arrays in the loop: this runs once per leaf). Eigenvalues go to
 * EIG[0..2], eigenvectors (column i = eigenvector i, row-major) to EIG[3..11].
 */
const EIG = new Float64Array(12);
function jacobiEigen(a00: number, a01: number, a02: number, a11: number, a12: number, a22: number): void {
  let v00 = 1, v01 = 0, v02 = 0, v10 = 0, v11 = 1, v12 = 0, v20 = 0, v21 = 0, v22 = 1;
  for (let sweep = 0; sweep < 12; sweep++) {
    const off = a01 * a01 + a02 * a02 + a12 * a12;
    const diag = a00 * a00 + a11 * a11 + a22 * a22;
    if (off <= 1e-24 * diag || off < 1e-300) break;
    // Rotation in the (0, 1) plane.
    if (a01 !== 0) {
      const theta = (a11 - a00) / (2 * a01);
      const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1), s = t * c;
      a00 -= t * a01; a11 += t * a01; a01 = 0;
      const r0 = c * a02 - s * a12, r1 = s * a02 + c * a12; a02 = r0; a12 = r1;
      let x = v00, y = v01; v00 = c * x - s * y; v01 = s * x + c * y;
      x = v10; y = v11; v10 = c * x - s * y; v11 = s * x + c * y;
      x = v20; y = v21; v20 = c * x - s * y; v21 = s * x + c * y;
    }
    // (0, 2) plane.
    if (a02 !== 0) {
      const theta = (a22 - a00) / (2 * a02);
      const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1), s = t * c;
      a00 -= t * a02; a22 += t * a02; a02 = 0;
      const r0 = c * a01 - s * a12, r1 = s * a01 + c * a12; a01 = r0; a12 = r1;
      let x = v00, y = v02; v00 = c * x - s * y; v02 = s * x + c * y;
      x = v10; y = v12; v10 = c * x - s * y; v12 = s * x + c * y;
      x = v20; y = v22; v20 = c * x - s * y; v22 = s * x + c * y;
    }
    // (1, 2) plane.
    if (a12 !== 0) {
      const theta = (a22 - a11) / (2 * a12);
      const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1), s = t * c;
      a11 -= t * a12; a22 += t * a12; a12 = 0;
      const r0 = c * a01 - s * a02, r1 = s * a01 + c * a02; a01 = r0; a02 = r1;
      let x = v01, y = v02; v01 = c * x - s * y; v02 = s * x + c * y;
      x = v11; y = v12; v11 = c * x - s * y; v12 = s * x + c * y;
      x = v21; y = v22; v21 = c * x - s * y; v22 = s * x + c * y;
    }
  }
  EIG[0] = a00; EIG[1] = a11; EIG[2] = a22;
  EIG[3] = v00; EIG[4] = v01; EIG[5] = v02;
  EIG[6] = v10; EIG[7] = v11; EIG[8] = v12;
  EIG[9] = v20; EIG[10] = v21; EIG[11] = v22;
}

/**
 * How far (chunk-local cells) a vertex stays inside its cell's faces. Vertices of different
 * cells then never coincide: without it, a surface through a lattice point (a sphere whose
 * radius puts grid corners on it, a box corner on the lattice) gave several cells the same
 * vertex, that corner, and their quads zero-area triangles. 1e-3 cell is far below anything
 * visible and far above float32 rounding of chunk-local positions (32 cells: ulp ~4e-6).
 */
export const VERTEX_INSET_CELLS = 1e-3;

/**
 * Solves the QEF at offset o and writes the vertex and its error to out[0..3].
 * The vertex never leaves the box [min + inset, min + size - inset]^3 (inset =
 * VERTEX_INSET_CELLS): a minimiser inside the box (with a 1e-6 tolerance, then snapped) is kept;
 * otherwise the better (lower QEF error) of the minimiser projected onto the box and the mass
 * point (it averages crossings on the cell's edges; projected the same way) is used. Projection
 * keeps sharp corners that sit just outside the cell on its boundary.
 */
export function qefSolve(
  q: Float64Array, o: number,
  minX: number, minY: number, minZ: number, size: number,
  out: Float64Array,
): void {
  const count = q[o + QEF_COUNT];
  const cx = q[o + 10] / count;
  const cy = q[o + 11] / count;
  const cz = q[o + 12] / count;
  // Right-hand side relative to the mass point: A^T b - A^T A c.
  const rx = q[o + 6] - (q[o] * cx + q[o + 1] * cy + q[o + 2] * cz);
  const ry = q[o + 7] - (q[o + 1] * cx + q[o + 3] * cy + q[o + 4] * cz);
  const rz = q[o + 8] - (q[o + 2] * cx + q[o + 4] * cy + q[o + 5] * cz);
  const a00 = q[o], a01 = q[o + 1], a02 = q[o + 2], a11 = q[o + 3], a12 = q[o + 4], a22 = q[o + 5];
  let x = cx, y = cy, z = cz;
  // Fast paths from the closed-form eigenvalues of the symmetric 3x3 A^T A (Smith 1961): with
  // every eigenvalue kept the truncated pseudo-inverse is the inverse (condition number <= 1 /
  // QEF_EIGEN_CUTOFF, so Cramer's rule is safe); with only the largest kept (smooth cells, most
  // of them) it is v1 v1^T / l1 = (A - l2)(A - l3) / (l1 (l1 - l2)(l1 - l3)), and l1 is at least
  // 10x the others, so this is well conditioned. Only rank-2 cells (creases) run the Jacobi
  // sweeps. Same result as the Jacobi path up to rounding; measured 3x cheaper per leaf.
  const tr3 = (a00 + a11 + a22) / 3;
  const b00 = a00 - tr3, b11 = a11 - tr3, b22 = a22 - tr3;
  const off = a01 * a01 + a02 * a02 + a12 * a12;
  const p2 = b00 * b00 + b11 * b11 + b22 * b22 + 2 * off;
  let e1 = tr3, e2 = tr3, e3 = tr3;
  if (p2 > 1e-24 * tr3 * tr3) {
    const pp = Math.sqrt(p2 / 6);
    const det = b00 * (b11 * b22 - a12 * a12) - a01 * (a01 * b22 - a12 * a02) + a02 * (a01 * a12 - b11 * a02);
    let r = det / (2 * pp * pp * pp);
    r = r < -1 ? -1 : r > 1 ? 1 : r;
    const phi = Math.acos(r) / 3;
    e1 = tr3 + 2 * pp * Math.cos(phi);
    e3 = tr3 + 2 * pp * Math.cos(phi + (2 * Math.PI) / 3);
    e2 = 3 * tr3 - e1 - e3;
  }
  const cut = e1 * QEF_EIGEN_CUTOFF;
  if (!(e1 > 0)) {
    // No usable plane: stay at the mass point.
  } else if (e3 > cut) {
    const c00 = a11 * a22 - a12 * a12, c01 = a02 * a12 - a01 * a22, c02 = a01 * a12 - a02 * a11;
    const c11 = a00 * a22 - a02 * a02, c12 = a01 * a02 - a00 * a12, c22 = a00 * a11 - a01 * a01;
    const inv = 1 / (a00 * c00 + a01 * c01 + a02 * c02);
    x += (c00 * rx + c01 * ry + c02 * rz) * inv;
    y += (c01 * rx + c11 * ry + c12 * rz) * inv;
    z += (c02 * rx + c12 * ry + c22 * rz) * inv;
  } else if (!(e2 > cut)) {
    const sx = (a00 - e3) * rx + a01 * ry + a02 * rz;
    const sy = a01 * rx + (a11 - e3) * ry + a12 * rz;
    const sz = a02 * rx + a12 * ry + (a22 - e3) * rz;
    const inv = 1 / (e1 * (e1 - e2) * (e1 - e3));
    x += ((a00 - e2) * sx + a01 * sy + a02 * sz) * inv;
    y += (a01 * sx + (a11 - e2) * sy + a12 * sz) * inv;
    z += (a02 * sx + a12 * sy + (a22 - e2) * sz) * inv;
  } else {
    jacobiEigen(a00, a01, a02, a11, a12, a22);
    const l0 = EIG[0], l1 = EIG[1], l2 = EIG[2];
    const lmax = Math.max(Math.abs(l0), Math.abs(l1), Math.abs(l2));
    const jcut = lmax * QEF_EIGEN_CUTOFF;
    for (let i = 0; i < 3; i++) {
      const l = EIG[i];
      if (!(Math.abs(l) > jcut) || l === 0) continue;
      const vx = EIG[3 + i], vy = EIG[6 + i], vz = EIG[9 + i];
      const w = (vx * rx + vy * ry + vz * rz) / l;
      x += w * vx; y += w * vy; z += w * vz;
    }
  }
  const tol = 1e-6 * size;
  const inset = VERTEX_INSET_CELLS;
  const loX = minX + inset, loY = minY + inset, loZ = minZ + inset;
  const hiX = minX + size - inset, hiY = minY + size - inset, hiZ = minZ + size - inset;
  const inside =
    x >= minX - tol && x <= minX + size + tol && y >= minY - tol && y <= minY + size + tol &&
    z >= minZ - tol && z <= minZ + size + tol;
  const px = x < loX ? loX : x > hiX ? hiX : x;
  const py = y < loY ? loY : y > hiY ? hiY : y;
  const pz = z < loZ ? loZ : z > hiZ ? hiZ : z;
  if (inside) {
    out[0] = px; out[1] = py; out[2] = pz;
    out[3] = qefError(q, o, px, py, pz);
    return;
  }
  const mx = cx < loX ? loX : cx > hiX ? hiX : cx;
  const my = cy < loY ? loY : cy > hiY ? hiY : cy;
  const mz = cz < loZ ? loZ : cz > hiZ ? hiZ : cz;
  const eClamp = qefError(q, o, px, py, pz);
  const eMass = qefError(q, o, mx, my, mz);
  if (eClamp <= eMass && Number.isFinite(eClamp)) {
    out[0] = px; out[1] = py; out[2] = pz; out[3] = eClamp;
  } else {
    out[0] = mx; out[1] = my; out[2] = mz; out[3] = eMass;
  }
}
