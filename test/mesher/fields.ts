/** Analytic fields, volume and topology oracles for the mesher tests (no Vitest import: scripts reuse it). */
import { createNoise3D } from 'simplex-noise';
import { meshChunk, sampleChunk } from '../../src/mesher/index.ts';
import type { ChunkMesh, FieldFn, MeshChunkResult } from '../../src/mesher/index.ts';

/** Deterministic PRNG (mulberry32). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Max over vertices of the distance to the surface, world units: exact |f| for signed distance
 * fields; otherwise the vertex passes at distance d when the field changes sign within the ball of
 * radius d around it (tested on a shell of 400 Fibonacci points at radius d and d/2), and the
 * function returns d for the worst vertex that fails, or 0 when every vertex passes.
 */
export function maxSurfaceDistance(mesh: ChunkMesh, f: FieldFn, exactSdf: boolean, d = 0.5): number {
  let worst = 0;
  const [ox, oy, oz] = mesh.originWorld;
  const dirs: number[] = [];
  const M = 400;
  for (let i = 0; i < M; i++) {
    const z = 1 - (2 * (i + 0.5)) / M, r = Math.sqrt(1 - z * z), phi = i * Math.PI * (3 - Math.sqrt(5));
    dirs.push(r * Math.cos(phi), r * Math.sin(phi), z);
  }
  for (let v = 0; v < mesh.positions.length / 3; v++) {
    const x = ox + mesh.positions[3 * v], y = oy + mesh.positions[3 * v + 1], z = oz + mesh.positions[3 * v + 2];
    const val = f(x, y, z);
    if (exactSdf) { worst = Math.max(worst, Math.abs(val)); continue; }
    if (val === 0) continue;
    let found = false;
    for (let i = 0; i < M && !found; i++) {
      for (const rr of [d, d / 2]) {
        if ((f(x + rr * dirs[3 * i], y + rr * dirs[3 * i + 1], z + rr * dirs[3 * i + 2]) < 0) !== (val < 0)) { found = true; break; }
      }
    }
    if (!found) worst = Math.max(worst, d + 1e-9);
  }
  return worst;
}

/** Monte Carlo inside volume over a box, fixed seed. */
export function monteCarloVolume(f: FieldFn, lo: readonly number[], hi: readonly number[], samples: number, seed: number): number {
  const rnd = mulberry32(seed);
  let inside = 0;
  for (let i = 0; i < samples; i++) {
    const x = lo[0] + (hi[0] - lo[0]) * rnd(), y = lo[1] + (hi[1] - lo[1]) * rnd(), z = lo[2] + (hi[2] - lo[2]) * rnd();
    if (f(x, y, z) < 0) inside++;
  }
  return (inside / samples) * (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
}

/**
 * Independent topology oracle: Euler characteristic of the inside set of the sampled grid as a
 * cubical complex (inside points, edges with both ends inside, squares/cubes with all corners
 * inside). For a solid strictly inside the grid whose cells all have manifold sign configurations,
 * the contour's Euler characteristic is twice this.
 */
export function cubicalEuler(values: ArrayLike<number>, N: number): number {
  const P = N + 1;
  const inside = (i: number, j: number, k: number): number => (values[i + P * (j + P * k)] < 0 ? 1 : 0);
  let V = 0, E = 0, F = 0, C = 0;
  for (let k = 0; k < P; k++) for (let j = 0; j < P; j++) for (let i = 0; i < P; i++) {
    if (!inside(i, j, k)) continue;
    V++;
    const x = i < N && inside(i + 1, j, k), y = j < N && inside(i, j + 1, k), z = k < N && inside(i, j, k + 1);
    E += (x ? 1 : 0) + (y ? 1 : 0) + (z ? 1 : 0);
    const xy = x && y && inside(i + 1, j + 1, k), xz = x && z && inside(i + 1, j, k + 1), yz = y && z && inside(i, j + 1, k + 1);
    F += (xy ? 1 : 0) + (xz ? 1 : 0) + (yz ? 1 : 0);
    if (xy && xz && yz && inside(i + 1, j + 1, k + 1)) C++;
  }
  return V - E + F - C;
}

export interface Fixture {
  name: string;
  f: FieldFn;
  /** Genus of the body, when known analytically. */
  genus?: number;
  /** Inside volume when known analytically. */
  volume?: number;
  /** Field is an exact signed distance. */
  sdf: boolean;
  /** Grid: N cells from origin (cube). */
  N: number;
  origin: [number, number, number];
}

export function meshFixture(fx: Fixture, simplify = 0): MeshChunkResult & { values: Float32Array } {
  const spec = { originGrid: fx.origin, level: 0, cells: fx.N } as const;
  const values = sampleChunk(spec, fx.f);
  return { ...meshChunk({ ...spec, values, field: fx.f, simplify }), values };
}

// ---- analytic fields (world units = grid units) ----------------------------------------------

export const sphere = (cx: number, cy: number, cz: number, r: number): FieldFn =>
  (x, y, z) => Math.hypot(x - cx, y - cy, z - cz) - r;

export const torus = (cx: number, cy: number, cz: number, R: number, r: number): FieldFn =>
  (x, y, z) => Math.hypot(Math.hypot(x - cx, y - cy) - R, z - cz) - r;

/** Exact box SDF with half extents (hx, hy, hz), rotated by a 3x3 row-major matrix (world → box). */
export function box(hx: number, hy: number, hz: number, rot: readonly number[] = [1, 0, 0, 0, 1, 0, 0, 0, 1], c: readonly number[] = [0, 0, 0]): FieldFn {
  return (x, y, z) => {
    x -= c[0]; y -= c[1]; z -= c[2];
    const qx = Math.abs(rot[0] * x + rot[1] * y + rot[2] * z) - hx;
    const qy = Math.abs(rot[3] * x + rot[4] * y + rot[5] * z) - hy;
    const qz = Math.abs(rot[6] * x + rot[7] * y + rot[8] * z) - hz;
    const outside = Math.hypot(Math.max(qx, 0), Math.max(qy, 0), Math.max(qz, 0));
    return outside + Math.min(Math.max(qx, qy, qz), 0);
  };
}

export function rotation(ax: number, ay: number, az: number): number[] {
  const [cx, sx, cy, sy, cz, sz] = [Math.cos(ax), Math.sin(ax), Math.cos(ay), Math.sin(ay), Math.cos(az), Math.sin(az)];
  // R = Rz * Ry * Rx
  return [
    cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx,
    sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx,
    -sy, cy * sx, cy * cx,
  ];
}

export function capsule(a: readonly number[], b: readonly number[], r: number): FieldFn {
  const bax = b[0] - a[0], bay = b[1] - a[1], baz = b[2] - a[2];
  const bb = bax * bax + bay * bay + baz * baz;
  return (x, y, z) => {
    const pax = x - a[0], pay = y - a[1], paz = z - a[2];
    const h = Math.min(1, Math.max(0, (pax * bax + pay * bay + paz * baz) / bb));
    return Math.hypot(pax - bax * h, pay - bay * h, paz - baz * h) - r;
  };
}

export const union = (...fs: FieldFn[]): FieldFn => (x, y, z) => {
  let m = Infinity;
  for (const f of fs) m = Math.min(m, f(x, y, z));
  return m;
};

/** Gyroid network (period in cells, scaled to roughly unit gradient) clipped by a ball. */
export function clippedGyroid(period: number, radius: number, bias = 0): FieldFn {
  const w = (2 * Math.PI) / period;
  const s = 1 / (w * 1.2);
  return (x, y, z) => {
    const X = x * w, Y = y * w, Z = z * w;
    const g = (Math.sin(X) * Math.cos(Y) + Math.sin(Y) * Math.cos(Z) + Math.sin(Z) * Math.cos(X) + bias) * s;
    return Math.max(g, Math.hypot(x, y, z) - radius);
  };
}

/** A noisy asteroid: sphere plus 4-octave fBm from simplex-noise with a seeded PRNG. */
export function asteroid(seed: number, radius: number, amplitude: number, frequency: number, center: readonly number[] = [0, 0, 0]): FieldFn {
  const noise = createNoise3D(mulberry32(seed));
  return (x, y, z) => {
    x -= center[0]; y -= center[1]; z -= center[2];
    let n = 0, amp = amplitude, fr = frequency;
    for (let o = 0; o < 4; o++) {
      n += amp * noise(x * fr, y * fr, z * fr);
      amp *= 0.5; fr *= 2;
    }
    return Math.hypot(x, y, z) - radius - n;
  };
}
