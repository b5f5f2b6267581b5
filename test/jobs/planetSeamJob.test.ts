/**
 * The renderer's worker path for planet seams (issue 10), in Node: chunk jobs meshed with their
 * coarser neighbours from one snapshot, seam jobs from their boundary leaves (homogeneous chunks
 * synthesised in the seam job, as the renderer sends them), welded: one closed 2-manifold.
 */
import { describe, expect, it } from 'vitest';
import { recipeBounds } from '../../src/field/index';
import {
  CubeSphereSpace, keyOf, planetLod, planetShell, randomLodConfiguration, type ChunkKey,
} from '../../src/lod/index';
import { validateMesh, weldMeshes, type BoundaryLeaves, type ChunkMesh } from '../../src/mesher/index';
import { planetRecipe } from '../../src/scene/planets';
import { meshPlanetChunk } from './oneWorker';
import { buildPlanetSeamJob, seamPartsToSend, type PlanetSeamParams, type PlanetSeamPart } from './oneWorker';
import { registerBody } from './oneWorker';

/** The planet the jobs below name (registered with this thread's body registry, as a worker's would be). */
const PLANET = 'test:planet';

const recipe = planetRecipe(7);
const bounds = recipeBounds(recipe);
const spaceOptions = { radiusM: bounds.sphereRadiusM, chunkCells: 8, finestCellM: bounds.sphereRadiusM / 200 };
registerBody(PLANET, { recipe, space: spaceOptions });

describe('planet chunk + seam jobs', () => {
  const space = new CubeSphereSpace(spaceOptions);
  const shell = planetShell(bounds);
  let synthesised = 0;
  for (const seed of [1, 5]) {
    it(`weld into one closed manifold (random configuration seed ${seed})`, { timeout: 60_000 }, () => {
      const lod = planetLod(space, randomLodConfiguration(space, shell, seed));
      const coarserOf = (k: ChunkKey): ChunkKey[] => {
        const a = lod.byKey.get(k)!;
        return lod.touching.get(k)!.filter((t) => lod.byKey.get(t)!.level === a.level + 1);
      };
      const meshes: ChunkMesh[] = [];
      const tags: (number | Uint8Array)[] = [];
      const leaves = new Map<ChunkKey, BoundaryLeaves>();
      const homogeneous = new Map<ChunkKey, 'empty' | 'full'>();
      for (const a of lod.leaves) {
        const key = keyOf(a);
        const r = meshPlanetChunk({ body: PLANET, ...a, coarser: coarserOf(key), simplify: 0, leafId: `t:${key}` });
        if (r.homogeneous) {
          homogeneous.set(key, r.homogeneous.state);
          continue;
        }
        leaves.set(key, r.boundary!);
        meshes.push({ positions: r.positions, normals: r.normals, indices: r.indices, originWorld: r.originM, vertexCells: r.vertexCells });
        tags.push(a.face);
      }
      synthesised += homogeneous.size;
      let sentRecords = 0, allRecords = 0;
      for (const owner of lod.keys) {
        const stitches = [...lod.seamStitches.get(owner)!];
        const parts: PlanetSeamPart[] = [owner, ...stitches].map((key) =>
          leaves.has(key) ? { key, leaves: leaves.get(key) } : { key, homogeneous: homogeneous.get(key) });
        // As the renderer sends it: copies of the leaves the seam reads, transferred (the originals
        // stay usable). The seam is the one built from every part's whole boundary.
        const sent = seamPartsToSend(space, owner, parts);
        sentRecords += sent.parts.reduce((n, p) => n + (p.leaves?.count ?? 0), 0);
        allRecords += parts.reduce((n, p) => n + (p.leaves?.count ?? 0), 0);
        const s = buildPlanetSeamJob(structuredClone<PlanetSeamParams>({ body: PLANET, owner, stitches, parts: sent.parts }, { transfer: sent.transfer }));
        for (const p of sent.parts) if (p.leaves) expect(p.leaves.cells.byteLength).toBe(0); // transferred away
        // Sent again after its worker died, the job finds them gone and says so (no silent crack).
        if (sent.parts.some((p) => (p.leaves?.count ?? 0) > 0)) {
          expect(() => buildPlanetSeamJob({ body: PLANET, owner, stitches, parts: sent.parts })).toThrow(/transferred away/);
        }
        for (const p of parts) if (p.leaves) expect(p.leaves.cells.length).toBe(4 * p.leaves.count);
        const whole = buildPlanetSeamJob({ body: PLANET, owner, stitches, parts });
        expect(s.indices).toEqual(whole.indices);
        expect(s.positions).toEqual(whole.positions);
        expect(s.vertexCells).toEqual(whole.vertexCells);
        // As the renderer sends it first: chunk ids only, the leaves read from this worker's store.
        const named = buildPlanetSeamJob(structuredClone<PlanetSeamParams>({
          body: PLANET, owner, stitches, parts: parts.map((p) => (p.leaves ? { key: p.key, leafId: `t:${p.key}` } : p)),
        }));
        expect(named.missing).toEqual([]);
        expect(named.indices).toEqual(whole.indices);
        expect(named.positions).toEqual(whole.positions);
        meshes.push({ positions: s.positions, normals: s.normals, indices: s.indices, originWorld: s.originM, vertexCells: s.vertexCells });
        tags.push(s.vertexFaces);
      }
      console.log(`seed ${seed}: seam jobs were sent ${sentRecords} of ${allRecords} boundary records (${(100 * sentRecords / allRecords).toFixed(0)} %)`);
      expect(sentRecords).toBeLessThan(0.4 * allRecords);
      const report = validateMesh(weldMeshes(meshes, tags));
      expect(report.boundaryEdges).toBe(0);
      expect(report.nonManifoldEdges).toBe(0);
      expect(report.misorientedEdges).toBe(0);
      expect(report.euler).toBe(2);
    });
  }
  it('synthesised the leaves of some homogeneous chunks', () => expect(synthesised).toBeGreaterThan(0));

  it('a seam naming leaves its worker does not hold builds nothing and lists them', () => {
    const lod = planetLod(space, randomLodConfiguration(space, shell, 3));
    const owner = lod.keys[0];
    const stitches = [...lod.seamStitches.get(owner)!];
    const parts: PlanetSeamPart[] = [owner, ...stitches].map((key) => ({ key, leafId: `never meshed:${key}` }));
    const r = buildPlanetSeamJob({ body: PLANET, owner, stitches, parts });
    expect(r.missing).toEqual(parts.map((p) => p.leafId));
    expect(r.indices.length).toBe(0);
  });
});
