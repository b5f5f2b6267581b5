/**
 * Planet chunk samples as the GPU sampler would give them, simulated in JS for Node tests: the
 * level's JS values moved by up to `errorM` (independently per chunk), and an edge pass by bisection.
 */
import { canonicalSampleMapping, keyOf, type ChunkAddress, type CubeSphereSpace } from '../../src/lod/index';
import { sampleChunk } from '../../src/mesher/index';
import { signChangingEdges } from '../../src/gpu/edgeList';
import { planetContext } from './oneWorker';
import type { GpuHermite } from '../../src/jobs/planetGpuSamples';

/** A deterministic value in [-1, 1) from a chunk key and a point index. */
function jitter(key: string, p: number): number {
  let h = 0x811c9dc5 ^ p;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h ^= h >>> 12;
  return ((h >>> 0) / 2 ** 32) * 2 - 1;
}

/** The level's JS samples of chunk `a` of planet `body`, each moved by up to `errorM`. */
export function simulatedGpuValues(body: string, space: CubeSphereSpace, a: ChunkAddress, errorM: number): Float32Array {
  const U = space.chunkUnits(a.level);
  const spec = { originGrid: [a.ci * U, a.cj * U, a.ck * U] as [number, number, number], level: a.level, cells: space.chunkCells };
  const exact = sampleChunk(spec, planetContext(body).level(a.level).field, canonicalSampleMapping(space, a.face));
  const key = keyOf(a);
  const values = new Float32Array(exact.length);
  for (let p = 0; p < exact.length; p++) values[p] = exact[p] + errorM * jitter(key, p);
  return values;
}

/** A JS stand-in for the GPU edge pass: bisection along each sign-changing edge, gradient in grid coordinates. */
export function simulatedEdgePass(body: string, space: CubeSphereSpace, a: ChunkAddress, values: Float32Array): GpuHermite {
  const N = space.chunkCells, P = N + 1, P3 = P * P * P;
  const U = space.chunkUnits(a.level), cs = 2 ** a.level;
  const field = planetContext(body).level(a.level).field;
  const mapping = space.faceMapping(a.face);
  const w = new Float64Array(3);
  const at = (i: number, j: number, k: number): number => {
    mapping.toWorld(a.ci * U + i * cs, a.cj * U + j * cs, a.ck * U + k * cs, w);
    return field(w[0], w[1], w[2]);
  };
  const edgeIds = signChangingEdges(values, P).ids;
  const t = new Float32Array(edgeIds.length);
  const normals = new Float32Array(3 * edgeIds.length);
  for (let e = 0; e < edgeIds.length; e++) {
    const axis = Math.floor(edgeIds[e] / P3), p = edgeIds[e] - axis * P3;
    const i = p % P, j = Math.floor(p / P) % P, k = Math.floor(p / (P * P));
    const d = [axis === 0 ? 1 : 0, axis === 1 ? 1 : 0, axis === 2 ? 1 : 0];
    let lo = 0, hi = 1;
    const f0 = at(i, j, k);
    for (let s = 0; s < 20; s++) {
      const m = 0.5 * (lo + hi);
      if ((at(i + m * d[0], j + m * d[1], k + m * d[2]) < 0) === (f0 < 0)) lo = m; else hi = m;
    }
    const c = 0.5 * (lo + hi), h = 0.01;
    const x = i + c * d[0], y = j + c * d[1], z = k + c * d[2];
    t[e] = c;
    normals[3 * e] = at(x + h, y, z) - at(x - h, y, z);
    normals[3 * e + 1] = at(x, y + h, z) - at(x, y - h, z);
    normals[3 * e + 2] = at(x, y, z + h) - at(x, y, z - h);
  }
  return { count: edgeIds.length, edgeIds, t, normals };
}
