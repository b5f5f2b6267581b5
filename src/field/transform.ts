/** Small transform helpers shared by the compilers and the bounds. */
import type { Vec3 } from './recipe';

/**
 * Row-major 3×3 rotation by `angleDeg` about the unit `axis` (Rodrigues), as a 9-tuple
 * `[m00, m01, m02, m10, …]` with `p' = M p`.
 */
export function rotationMatrix(axis: Vec3, angleDeg: number): number[] {
  const a = (angleDeg * Math.PI) / 180;
  const c = Math.cos(a), s = Math.sin(a), t = 1 - c;
  const [x, y, z] = axis;
  return [
    t * x * x + c, t * x * y - s * z, t * x * z + s * y,
    t * x * y + s * z, t * y * y + c, t * y * z - s * x,
    t * x * z - s * y, t * y * z + s * x, t * z * z + c,
  ];
}

/** M p for a row-major 3×3 matrix. */
export function rotate(m: readonly number[], p: Vec3): Vec3 {
  return [
    m[0] * p[0] + m[1] * p[1] + m[2] * p[2],
    m[3] * p[0] + m[4] * p[1] + m[5] * p[2],
    m[6] * p[0] + m[7] * p[1] + m[8] * p[2],
  ];
}
