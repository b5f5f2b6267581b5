import { describe, expect, it } from 'vitest';
import { parseRecipe, recipeBounds } from '../../src/field/index';
import { CubeSphereSpace } from '../../src/lod/index';
import { validateMesh } from '../../src/mesher/index';
import { registerBody } from './oneWorker';
import { meshPlanetChunk, sampleCacheStats } from './oneWorker';

const R = 50_000;
const recipe = parseRecipe({
  version: 1,
  name: 'test moon',
  root: { type: 'sphere', radius: R, noise: { kind: 'fbm', seed: 3, frequency: 1 / 8000, octaves: 4, amplitude: 1500 } },
});
const spaceOptions = { radiusM: R, chunkCells: 8, finestCellM: 400 };
/** The planet the jobs name (registered with this thread's body registry, as a worker's would be). */
const MOON = 'test:moon';
registerBody(MOON, { recipe, space: spaceOptions });

describe('meshPlanetChunk', () => {
  const space = new CubeSphereSpace(spaceOptions);
  const root = space.levels;
  // The root chunk layer that holds the surface radius.
  const surfaceCk = Math.floor(space.gkAtRadius(R) / space.chunkUnits(root));

  it('meshes a surface chunk on every face, relative to a float64 body-local origin', () => {
    for (let face = 0; face < 6; face++) {
      const r = meshPlanetChunk({ body: MOON, face, level: root, ci: 0, cj: 0, ck: surfaceCk, coarser: [], simplify: 0 });
      expect(r.homogeneous).toBeNull();
      expect(r.indices.length).toBeGreaterThan(0);
      const report = validateMesh({ positions: r.positions, indices: r.indices });
      expect(report.degenerateTriangles).toBe(0);
      for (const v of r.positions) expect(Number.isFinite(v)).toBe(true);
      // Vertices sit near the surface radius (body-local = origin + position).
      for (let i = 0; i < r.positions.length; i += 3 * 17) {
        const d = Math.hypot(r.originM[0] + r.positions[i], r.originM[1] + r.positions[i + 1], r.originM[2] + r.positions[i + 2]);
        expect(Math.abs(d - R)).toBeLessThan(recipeBounds(recipe).elevationM + space.cellSizeM(root) * 2);
      }
      expect(r.boundary!.count).toBeGreaterThan(0);
    }
  });

  it('reports chunks far below the surface as full, and proven for their descendants', () => {
    const r = meshPlanetChunk({ body: MOON, face: 2, level: 0, ci: 5, cj: 5, ck: 0, coarser: [], simplify: 0 });
    expect(r.homogeneous?.state).toBe('full');
    expect(r.indices.length).toBe(0);
  });

  it('is deterministic', () => {
    const a = meshPlanetChunk({ body: MOON, face: 4, level: root, ci: 1, cj: 0, ck: surfaceCk, coarser: [], simplify: 0.02 });
    const b = meshPlanetChunk({ body: MOON, face: 4, level: root, ci: 1, cj: 0, ck: surfaceCk, coarser: [], simplify: 0.02 });
    expect(a.hash).toBe(b.hash);
  });

  it('re-meshes for a new restriction from the samples it kept: same mesh as from scratch', () => {
    const level = root - 1;
    const ck0 = Math.floor(space.gkAtRadius(R) / space.chunkUnits(level));
    // Chunk ci = 1 lies in root chunk 0 and touches root chunk 1 across its +i face; the radial
    // layer the surface crosses inside the chunk (a non-empty mesh).
    // Relief of a wavelength both levels keep (the test moon's 8 km noise is band-limited away there).
    const bumpy = parseRecipe({ ...recipe, name: 'bumpy moon', root: { type: 'sphere', radius: R, noise: { kind: 'fbm', seed: 3, frequency: 1 / 60000, octaves: 2, amplitude: 3000 } } });
    registerBody('test:bumpy', { recipe: bumpy, space: spaceOptions });
    const jobAt = (ck: number, coarser: string[]) => meshPlanetChunk({ body: 'test:bumpy', face: 4, level, ci: 1, cj: 0, ck, coarser, simplify: 0 });
    const ck = [ck0, ck0 - 1, ck0 + 1, ck0 - 2, ck0 + 2].find((c) => jobAt(c, []).indices.length > 0)!;
    expect(ck).toBeDefined();
    const job = (coarser: string[]) => jobAt(ck, coarser);
    const coarser = [`4/${root}/1/0/${ck >> 1}`];
    expect(job([]).homogeneous).toBeNull();
    const hits = sampleCacheStats.hits, recalled = sampleCacheStats.recalledEdges;
    const warm = job(coarser);
    expect(sampleCacheStats.hits).toBe(hits + 1);
    // Crossings and normals of the edges the restriction left alone came from the memo.
    expect(sampleCacheStats.recalledEdges - recalled).toBeGreaterThan(warm.stats!.edges / 2);
    // Another planet clears the cache: the same job again, sampled from scratch.
    registerBody('test:other', { recipe: parseRecipe({ ...recipe, name: 'other' }), space: spaceOptions });
    meshPlanetChunk({ body: 'test:other', face: 0, level: root, ci: 0, cj: 0, ck: surfaceCk, coarser: [], simplify: 0 });
    const misses = sampleCacheStats.misses;
    const cold = job(coarser);
    expect(sampleCacheStats.misses).toBe(misses + 1);
    expect(warm.hash).toBe(cold.hash);
    expect(warm.indices).toEqual(cold.indices);
    expect(warm.positions).toEqual(cold.positions);
    expect(warm.normals).toEqual(cold.normals);
    // The restriction changed the mesh (the shared face follows the coarse lattice).
    expect(warm.hash).not.toBe(job([]).hash);
  });
});
