/**
 * Seams: bodies split into k^3 chunks, at equal levels and with random chunks one level coarser,
 * meshed chunk by chunk and stitched; the union must be one closed 2-manifold.
 */
import { describe, expect, it } from 'vitest';
import { buildSeam, meshChunk, sampleChunk, validateMesh, weldMeshes } from '../../src/mesher/index.ts';
import type { BoundaryLeaves, ChunkMesh, CoarserNeighbour, FieldFn } from '../../src/mesher/index.ts';
import { asteroid, edgePassHermite, expectClosedManifold, mulberry32, sphere } from './helpers.ts';

interface Split { meshes: ChunkMesh[]; boundaries: BoundaryLeaves[]; boxes: [number, number, number, number, number, number][] }

/** k^3 chunks of `size` finest units from `lo`; levels[i] = 0 or 1 per chunk. */
function split(f: FieldFn, k: number, size: number, lo: number, levels: number[], simplify: number, supplied = false): Split {
  const out: Split = { meshes: [], boundaries: [], boxes: [] };
  const boxOf = (x: number, y: number, z: number): [number, number, number, number, number, number] =>
    [lo + x * size, lo + y * size, lo + z * size, lo + (x + 1) * size, lo + (y + 1) * size, lo + (z + 1) * size];
  let id = 0;
  for (let z = 0; z < k; z++) for (let y = 0; y < k; y++) for (let x = 0; x < k; x++, id++) {
    const level = levels[id];
    const spec = { originGrid: [lo + x * size, lo + y * size, lo + z * size] as [number, number, number], level, cells: size >> level };
    // The seam contract: every coarser chunk touching this one (face, edge or corner).
    const coarserNeighbours: CoarserNeighbour[] = [];
    for (let dz = -1; dz <= 1; dz++) for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      const nx = x + dx, ny = y + dy, nz = z + dz;
      if (nx < 0 || ny < 0 || nz < 0 || nx >= k || ny >= k || nz >= k) continue;
      const nl = levels[nx + k * (ny + k * nz)];
      if (nl === level + 1) coarserNeighbours.push({ boxGrid: boxOf(nx, ny, nz), level: nl });
    }
    const values = sampleChunk(spec, f);
    const hermite = supplied ? { hermite: edgePassHermite(spec, values, f) } : { field: f };
    const r = meshChunk({ ...spec, values, ...hermite, simplify, chunkId: id, coarserNeighbours });
    out.meshes.push(r.mesh);
    out.boundaries.push(r.boundary);
    out.boxes.push(r.boundary.boxGrid);
  }
  return out;
}

const bodies: { name: string; f: FieldFn; genus: number }[] = [
  { name: 'sphere', f: sphere(0.37, -0.21, 0.13, 13.2), genus: 0 },
  { name: 'noisy asteroid', f: asteroid(5, 12.5, 1.3, 0.06), genus: 0 },
];

describe('seams', () => {
  for (const body of bodies) {
    for (const k of [2, 3]) {
      const size = k === 2 ? 16 : 12;
      const lo = -(k * size) / 2;
      it(`${body.name}: ${k}x${k}x${k} chunks at equal level, union equals the single-chunk mesh`, () => {
        const parts = split(body.f, k, size, lo, new Array(k ** 3).fill(0), 0);
        const seam = buildSeam(parts.boundaries);
        const union = weldMeshes([...parts.meshes, seam]);
        const r = expectClosedManifold(union);
        const spec = { originGrid: [lo, lo, lo] as [number, number, number], level: 0, cells: k * size };
        const whole = validateMesh(meshChunk({ ...spec, values: sampleChunk(spec, body.f), field: body.f }).mesh);
        expect(r.euler).toBe(whole.euler);
        expect(r.triangles).toBe(whole.triangles);
        expect(r.euler).toBe(2 - 2 * body.genus);
        // The per-chunk ownership boxes partition the seam exactly.
        const perChunk = parts.boundaries.map((b) => buildSeam(parts.boundaries, { ownerBoxGrid: b.boxGrid }));
        const union2 = expectClosedManifold(weldMeshes([...parts.meshes, ...perChunk]));
        expect(union2.triangles).toBe(r.triangles);
      });
      for (const seed of [1, 2, 3, 4]) {
        for (const simplify of [0, 0.02]) {
          it(`${body.name}: ${k}x${k}x${k} chunks, mixed levels seed ${seed}, simplify ${simplify}`, () => {
            const rnd = mulberry32(seed * 7919 + k);
            const levels = Array.from({ length: k ** 3 }, () => (rnd() < 0.5 ? 1 : 0));
            const parts = split(body.f, k, size, lo, levels, simplify);
            const seam = buildSeam(parts.boundaries);
            const r = expectClosedManifold(weldMeshes([...parts.meshes, seam]));
            expect(r.components).toBe(1);
            expect(r.euler).toBe(2 - 2 * body.genus);
            const perChunk = parts.boundaries.map((b) => buildSeam(parts.boundaries, { ownerBoxGrid: b.boxGrid }));
            expect(expectClosedManifold(weldMeshes([...parts.meshes, ...perChunk])).triangles).toBe(r.triangles);
          });
        }
      }
    }
  }
});

/** The union of chunk meshes and one seam over all boundaries is one closed manifold of genus 0. */
function expectStitched(parts: Split): void {
  const seam = buildSeam(parts.boundaries);
  const r = expectClosedManifold(weldMeshes([...parts.meshes, seam]));
  expect(r.components).toBe(1);
  expect(r.euler).toBe(2);
}

/** Seam triangles of (near) zero area whose vertices come from leaves of different sizes. */
function mixedLevelDegenerate(seam: ChunkMesh): number {
  const P = seam.positions, I = seam.indices, C = seam.vertexCells;
  let n = 0;
  for (let t = 0; t < I.length; t += 3) {
    const [a, b, c] = [I[t], I[t + 1], I[t + 2]];
    const ux = P[3 * b] - P[3 * a], uy = P[3 * b + 1] - P[3 * a + 1], uz = P[3 * b + 2] - P[3 * a + 2];
    const vx = P[3 * c] - P[3 * a], vy = P[3 * c + 1] - P[3 * a + 1], vz = P[3 * c + 2] - P[3 * a + 2];
    const area2 = Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
    const size = (v: number): number => C[4 * v + 3] & 0x3ffffff;
    if (area2 < 1e-9 && !(size(a) === size(b) && size(b) === size(c))) n++;
  }
  return n;
}

describe('mixed-level seams, randomised', () => {
  // Repro of the former it.fails (issue 4): a noise feature smaller than a coarse cell poked through
  // a coarse chunk's face between its samples; the finer neighbour saw it, the coarse cell's edges
  // did not, and one seam edge got four triangles. Fixed by restricting the finer chunk's shared
  // boundary to the coarse lattice (docs/mesher.md, "Mixed levels").
  it('repro: noisy asteroid 3x3x3 seed 2, feature through a coarse face, no four-triangle seam edge', () => {
    const rnd = mulberry32(2 * 7919 + 3);
    const levels = Array.from({ length: 27 }, () => (rnd() < 0.5 ? 1 : 0));
    expectStitched(split(asteroid(5, 12.5, 1.3, 0.06), 3, 12, -18, levels, 0));
  });
  // 40 combinations: asteroid noise seed = level-pattern seed, chunk count, noise frequency (0.12:
  // features well under a coarse cell), coarse fraction and simplification all vary. The seam must
  // add no defect: the union's open, misoriented and non-manifold counts equal the sum over the
  // chunk meshes, which is 0 except for seed 102, whose fine chunk hits the chunk mesher's own
  // non-manifold configuration pair at 0.12; seed 127 has zero-area triangles from two vertices
  // clamped to one grid corner, in a coarse chunk and in an equal-level seam (docs/mesher.md) —
  // those seeds check the seam's share only.
  for (let seed = 100; seed < 140; seed++) {
    const k = seed % 2 === 0 ? 3 : 2;
    const size = k === 3 ? 12 : 16;
    const frequency = [0.06, 0.08, 0.1, 0.12][(seed >> 1) % 4];
    const coarse = [0.3, 0.5, 0.7][seed % 3];
    const simplify = seed % 5 === 0 ? 0.02 : 0;
    it(`noisy asteroid seed ${seed}: ${k}^3 chunks, frequency ${frequency}, ${coarse * 100}% coarse, simplify ${simplify}`, () => {
      const rnd = mulberry32(seed);
      const levels = Array.from({ length: k ** 3 }, () => (rnd() < coarse ? 1 : 0));
      expect(levels.some((l) => l === 1) && levels.some((l) => l === 0), 'both levels present').toBe(true);
      const parts = split(asteroid(seed, (k * size) / 2 - 5, 1.6, frequency), k, size, -(k * size) / 2, levels, simplify);
      const chunks = { boundary: 0, nonManifold: 0, misoriented: 0 };
      let chunkDegenerate = 0;
      for (const m of parts.meshes) {
        const c = validateMesh(m);
        chunks.nonManifold += c.nonManifoldEdges;
        chunkDegenerate += c.degenerateTriangles;
      }
      const seam = buildSeam(parts.boundaries);
      const union = validateMesh(weldMeshes([...parts.meshes, seam]));
      expect(
        { boundary: union.boundaryEdges, nonManifold: union.nonManifoldEdges, misoriented: union.misorientedEdges },
        'the seam adds no open, non-manifold or misoriented edge',
      ).toEqual(chunks);
      // Zero-area seam triangles across the 2:1 step came from crossings pinned to restricted points.
      expect(mixedLevelDegenerate(seam), 'zero-area seam triangles joining two levels').toBe(0);
      if (chunks.nonManifold + chunkDegenerate === 0) {
        expectClosedManifold(weldMeshes([...parts.meshes, seam]));
        expect(union.euler % 2, 'closed orientable surfaces').toBe(0);
      }
      expect(union.volume).toBeGreaterThan(0);
    });
  }
});

describe('mixed-level seams with supplied hermite data (GPU edge pass, unaware of neighbours)', () => {
  for (const seed of [2, 3, 5, 8]) {
    it(`noisy asteroid seed ${seed}: 3^3 chunks, half coarse, hermite from each chunk's own samples`, () => {
      const rnd = mulberry32(seed * 7919 + 3);
      const levels = Array.from({ length: 27 }, () => (rnd() < 0.5 ? 1 : 0));
      expectStitched(split(asteroid(5, 12.5, 1.3, 0.06), 3, 12, -18, levels, seed % 2 === 0 ? 0 : 0.02, true));
    });
  }
});

describe('mixed-level seams, octree layout (planet LOD: equal cell counts, coarse chunks twice the size)', () => {
  // [-16, 16)^3 as 8 octants of 16 units; a refined octant is 8 level-0 chunks of 8 cells, the
  // others one level-1 chunk of 8 cells, so a coarse face meets four finer chunks.
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const simplify = seed % 3 === 0 ? 0.02 : 0;
    it(`noisy asteroid seed ${seed}: random refined octants, simplify ${simplify}`, () => {
      const rnd = mulberry32(seed * 101);
      let refined = Array.from({ length: 8 }, () => rnd() < 0.5);
      if (refined.every((r) => r) || refined.every((r) => !r)) refined = refined.map((_, i) => i % 2 === 0);
      const f = asteroid(seed + 40, 11, 1.5, [0.06, 0.08, 0.1][seed % 3]);
      const chunks: { box: [number, number, number, number, number, number]; level: number }[] = [];
      for (let o = 0; o < 8; o++) {
        const x0 = (o & 1) * 16 - 16, y0 = ((o >> 1) & 1) * 16 - 16, z0 = ((o >> 2) & 1) * 16 - 16;
        if (!refined[o]) { chunks.push({ box: [x0, y0, z0, x0 + 16, y0 + 16, z0 + 16], level: 1 }); continue; }
        for (let c = 0; c < 8; c++) {
          const a = x0 + (c & 1) * 8, b = y0 + ((c >> 1) & 1) * 8, d = z0 + ((c >> 2) & 1) * 8;
          chunks.push({ box: [a, b, d, a + 8, b + 8, d + 8], level: 0 });
        }
      }
      const touches = (A: readonly number[], B: readonly number[]): boolean =>
        A[0] <= B[3] && B[0] <= A[3] && A[1] <= B[4] && B[1] <= A[4] && A[2] <= B[5] && B[2] <= A[5];
      const meshes: ChunkMesh[] = [];
      const boundaries: BoundaryLeaves[] = [];
      chunks.forEach((ch, id) => {
        const spec = { originGrid: [ch.box[0], ch.box[1], ch.box[2]] as [number, number, number], level: ch.level, cells: 8 };
        const coarserNeighbours = chunks
          .filter((o) => o.level === ch.level + 1 && touches(o.box, ch.box))
          .map((o) => ({ boxGrid: o.box, level: o.level }));
        // Odd octants take the GPU-style path: hermite data from the chunk's own samples.
        const values = sampleChunk(spec, f);
        const hermite = id % 2 === 1 ? { hermite: edgePassHermite(spec, values, f) } : { field: f };
        const r = meshChunk({ ...spec, values, ...hermite, simplify, chunkId: id, coarserNeighbours });
        meshes.push(r.mesh);
        boundaries.push(r.boundary);
      });
      const r = expectClosedManifold(weldMeshes([...meshes, buildSeam(boundaries)]));
      expect(r.components).toBe(1);
      expect(r.euler).toBe(2);
      const perChunk = boundaries.map((b) => buildSeam(boundaries, { ownerBoxGrid: b.boxGrid }));
      expect(expectClosedManifold(weldMeshes([...meshes, ...perChunk])).triangles).toBe(r.triangles);
    });
  }
});
