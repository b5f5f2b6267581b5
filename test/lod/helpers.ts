/** Shared helpers for the LOD tests: camera paths, views, point-in-chunk oracles. */
import { Prng } from '../../src/field/index';
import type { ChunkAddress, CubeSphereSpace, LodView } from '../../src/lod/index';

export const PROJECTION_1080P_60DEG = 1080 / (2 * Math.tan(Math.PI / 6));

export function randomDirection(r: Prng): [number, number, number] {
  const z = 2 * r.next() - 1, a = 2 * Math.PI * r.next(), s = Math.sqrt(1 - z * z);
  return [s * Math.cos(a), s * Math.sin(a), z];
}

/** A view from `cameraM` looking at `targetM`, 60° vertical fov, 16:9, as 6 planes (n · p + d ≥ 0 inside). */
export function lookAtView(cameraM: [number, number, number], targetM: [number, number, number], far = Infinity): LodView {
  const f = norm(sub(targetM, cameraM));
  let up: [number, number, number] = Math.abs(f[2]) < 0.9 ? [0, 0, 1] : [1, 0, 0];
  const right = norm(cross(f, up));
  up = cross(right, f);
  const tanY = Math.tan(Math.PI / 6), tanX = tanY * 16 / 9;
  const planes: number[] = [];
  const plane = (n: [number, number, number]) => planes.push(n[0], n[1], n[2], -dot(n, cameraM));
  // Side planes through the camera: normals point inward.
  plane(norm(add(scale(right, -1), scale(f, tanX))));
  plane(norm(add(right, scale(f, tanX))));
  plane(norm(add(scale(up, -1), scale(f, tanY))));
  plane(norm(add(up, scale(f, tanY))));
  plane(f); // near plane at the camera
  const farN = scale(f, -1);
  planes.push(farN[0], farN[1], farN[2], Number.isFinite(far) ? dot(f, cameraM) + far : 1e300);
  return { cameraM, projectionFactor: PROJECTION_1080P_60DEG, frustumPlanes: planes };
}

/** Radius of the field's surface along unit `dir`, by bisection between `innerM` (inside) and `outerM` (outside). */
export function surfaceRadiusAlong(field: (x: number, y: number, z: number) => number, dir: number[], innerM: number, outerM: number): number {
  let lo = innerM, hi = outerM;
  for (let it = 0; it < 50; it++) {
    const m = 0.5 * (lo + hi);
    if (field(dir[0] * m, dir[1] * m, dir[2] * m) < 0) lo = m; else hi = m;
  }
  return lo;
}

export function sub(a: number[], b: number[]): [number, number, number] { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
export function add(a: number[], b: number[]): [number, number, number] { return [a[0] + b[0], a[1] + b[1], a[2] + b[2]]; }
export function scale(a: number[], s: number): [number, number, number] { return [a[0] * s, a[1] * s, a[2] * s]; }
export function dot(a: number[], b: number[]): number { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
export function cross(a: number[], b: number[]): [number, number, number] { return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]; }
export function norm(a: number[]): [number, number, number] { const l = Math.hypot(a[0], a[1], a[2]); return [a[0] / l, a[1] / l, a[2] / l]; }

/** Indices of the chunks (by address) containing world point p (half-open boxes in the point's face frame). */
export function chunksContaining(space: CubeSphereSpace, chunks: ChunkAddress[], p: [number, number, number]): number[] {
  const g = new Float64Array(4);
  const face = space.fromWorld(p[0], p[1], p[2], g);
  const out: number[] = [];
  chunks.forEach((a, idx) => {
    if (a.face !== face) return;
    const U = space.chunkUnits(a.level);
    if (g[1] >= a.ci * U && g[1] < (a.ci + 1) * U && g[2] >= a.cj * U && g[2] < (a.cj + 1) * U && g[3] >= a.ck * U && g[3] < (a.ck + 1) * U) out.push(idx);
  });
  return out;
}

export function parseKey(k: string): ChunkAddress {
  const p = k.split('/').map(Number);
  return { face: p[0], level: p[1], ci: p[2], cj: p[3], ck: p[4] };
}

export { Prng };
