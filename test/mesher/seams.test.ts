/**
 * Seams: bodies split into k^3 chunks, at equal levels and with random chunks one level coarser,
 * meshed chunk by chunk and stitched; the union must be one closed 2-manifold.
 */
import { describe, expect, it } from 'vitest';
import { buildSeam, meshChunk, sampleChunk, validateMesh, weldMeshes } from '../../src/mesher/index.ts';
import type { BoundaryLeaves, ChunkMesh, FieldFn } from '../../src/mesher/index.ts';
import { asteroid, expectClosedManifold, mulberry32, sphere } from './helpers.ts';

interface Split { meshes: ChunkMesh[]; boundaries: BoundaryLeaves[]; boxes: [number, number, number, number, number, number][] }

/** k^3 chunks of `size` finest units from `lo`; levels[i] = 0 or 1 per chunk. */
function split(f: FieldFn, k: number, size: number, lo: number, levels: number[], simplify: number): Split {
  const out: Split = { meshes: [], boundaries: [], boxes: [] };
  let id = 0;
  for (let z = 0; z < k; z++) for (let y = 0; y < k; y++) for (let x = 0; x < k; x++, id++) {
    const level = levels[id];
    const spec = { originGrid: [lo + x * size, lo + y * size, lo + z * size] as [number, number, number], level, cells: size >> level };
    const r = meshChunk({ ...spec, values: sampleChunk(spec, f), field: f, simplify, chunkId: id });
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
          // Known limitation, pinned as a repro: a noise feature smaller than a coarse cell pokes
          // through a coarse chunk's face between its samples; the finer neighbour sees it, the coarse
          // cell's own edges do not, and one seam edge gets four triangles. See docs/mesher.md.
          const known = body.name === 'noisy asteroid' && k === 3 && seed === 2;
          (known ? it.fails : it)(`${body.name}: ${k}x${k}x${k} chunks, mixed levels seed ${seed}, simplify ${simplify}`, () => {
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
