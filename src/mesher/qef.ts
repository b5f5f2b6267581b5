/**
 * Quadric error functions for Dual Contouring vertices (Ju et al. 2002; seed 001's QEF section).
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

// Scratch for the Jacobi solve: A (3x3 full) and V (3x3 eigenvectors as columns).
const A = new Float64Array(9);
const V = new Float64Array(9);

/** Symmetric 3x3 eigen-decomposition by cyclic Jacobi rotations; results in A's diagonal and V. */
function jacobiEigen(): void {
  V.fill(0); V[0] = 1; V[4] = 1; V[8] = 1;
  for (let sweep = 0; sweep < 12; sweep++) {
    const off = A[1] * A[1] + A[2] * A[2] + A[5] * A[5];
    const diag = A[0] * A[0] + A[4] * A[4] + A[8] * A[8];
    if (off <= 1e-24 * diag || off < 1e-300) return;
    for (let pq = 0; pq < 3; pq++) {
      const p = pq === 2 ? 1 : 0;
      const r = pq === 0 ? 1 : 2;
      const apq = A[p * 3 + r];
      if (apq === 0) continue;
      const app = A[p * 4];
      const arr = A[r * 4];
      const theta = (arr - app) / (2 * apq);
      const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1);
      const s = t * c;
      // A <- J^T A J for the rotation in the (p, r) plane.
      for (let k = 0; k < 3; k++) {
        const akp = A[k * 3 + p];
        const akr = A[k * 3 + r];
        A[k * 3 + p] = c * akp - s * akr;
        A[k * 3 + r] = s * akp + c * akr;
      }
      for (let k = 0; k < 3; k++) {
        const apk = A[p * 3 + k];
        const ark = A[r * 3 + k];
        A[p * 3 + k] = c * apk - s * ark;
        A[r * 3 + k] = s * apk + c * ark;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = V[k * 3 + p];
        const vkr = V[k * 3 + r];
        V[k * 3 + p] = c * vkp - s * vkr;
        V[k * 3 + r] = s * vkp + c * vkr;
      }
    }
  }
}

/**
 * Solves the QEF at offset o and writes the vertex and its error to out[0..3].
 * The vertex never leaves the box [min, min + size]^3: a minimiser inside the box (with a 1e-6
 * tolerance, then snapped) is kept; otherwise the better (lower QEF error) of the minimiser
 * projected onto the box and the mass point (always inside: it averages crossings on the cell's
 * edges) is used. Projection keeps sharp corners that sit just outside the cell on its boundary.
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
  A[0] = q[o]; A[1] = q[o + 1]; A[2] = q[o + 2];
  A[3] = q[o + 1]; A[4] = q[o + 3]; A[5] = q[o + 4];
  A[6] = q[o + 2]; A[7] = q[o + 4]; A[8] = q[o + 5];
  // Right-hand side relative to the mass point: A^T b - A^T A c.
  const rx = q[o + 6] - (q[o] * cx + q[o + 1] * cy + q[o + 2] * cz);
  const ry = q[o + 7] - (q[o + 1] * cx + q[o + 3] * cy + q[o + 4] * cz);
  const rz = q[o + 8] - (q[o + 2] * cx + q[o + 4] * cy + q[o + 5] * cz);
  jacobiEigen();
  const l0 = A[0], l1 = A[4], l2 = A[8];
  const lmax = Math.max(Math.abs(l0), Math.abs(l1), Math.abs(l2));
  const cut = lmax * QEF_EIGEN_CUTOFF;
  let x = cx, y = cy, z = cz;
  for (let i = 0; i < 3; i++) {
    const l = i === 0 ? l0 : i === 1 ? l1 : l2;
    if (!(Math.abs(l) > cut) || l === 0) continue;
    const vx = V[i], vy = V[3 + i], vz = V[6 + i];
    const w = (vx * rx + vy * ry + vz * rz) / l;
    x += w * vx; y += w * vy; z += w * vz;
  }
  const tol = 1e-6 * size;
  const maxX = minX + size, maxY = minY + size, maxZ = minZ + size;
  const inside =
    x >= minX - tol && x <= maxX + tol && y >= minY - tol && y <= maxY + tol &&
    z >= minZ - tol && z <= maxZ + tol;
  const px = x < minX ? minX : x > maxX ? maxX : x;
  const py = y < minY ? minY : y > maxY ? maxY : y;
  const pz = z < minZ ? minZ : z > maxZ ? maxZ : z;
  if (inside) {
    out[0] = px; out[1] = py; out[2] = pz;
    out[3] = qefError(q, o, px, py, pz);
    return;
  }
  const eClamp = qefError(q, o, px, py, pz);
  const eMass = qefError(q, o, cx, cy, cz);
  if (eClamp <= eMass && Number.isFinite(eClamp)) {
    out[0] = px; out[1] = py; out[2] = pz; out[3] = eClamp;
  } else {
    out[0] = cx; out[1] = cy; out[2] = cz; out[3] = eMass;
  }
}
