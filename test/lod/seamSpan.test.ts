/**
 * Seams for chunks beyond the seam builder's former 2^15-finest-cell span: a 63 km sphere with 1 m
 * finest cells (the intended PlanetView planet) has root chunks spanning 2^17 finest cells. The seam
 * builder keys boundary leaves relative to each chunk's box in units of its smallest leaf, so the
 * span in finest units no longer matters. Kept cheap: N = 4 cells per chunk, only the top levels.
 */
import { describe, expect, it } from 'vitest';
import { compileToJs, recipeBounds } from '../../src/field/index';
import type { FieldRecipe } from '../../src/field/index';
import { CubeSphereSpace, meshPlanet, planetMeshReport, planetShell, randomLodConfiguration } from '../../src/lod/index';
import type { ChunkAddress } from '../../src/lod/index';

const R = 63_000;
const recipe: FieldRecipe = { version: 1, name: 'big ball', root: { type: 'sphere', radius: R }, brushes: [] };

describe('planet seams beyond 2^15 finest cells per chunk', () => {
  const b = recipeBounds(recipe);
  const shell = planetShell(b);
  const space = new CubeSphereSpace({ radiusM: b.sphereRadiusM - b.elevationM, chunkCells: 4, finestCellM: 1 });
  const field = compileToJs(recipe);

  it('uses root chunks wider than the old limit', () => {
    expect(space.faceUnits).toBeGreaterThanOrEqual(2 ** 17);
  });

  const configs: [string, () => ChunkAddress[]][] = [
    ['roots only', () => [0, 1, 2, 3, 4, 5].map((face) => ({ face, level: space.levels, ci: 0, cj: 0, ck: 0 }))],
    ...[1, 2, 3].map((seed): [string, () => ChunkAddress[]] => [
      `random top-3-level configuration, seed ${seed}`,
      () => randomLodConfiguration(space, shell, seed, { finestLevel: space.levels - 2 }),
    ]),
  ];
  for (const [name, leaves] of configs) {
    it(`${name}: chunks + seams are watertight`, () => {
      const result = meshPlanet(recipe, space, leaves(), { field });
      const rep = planetMeshReport(result.pieces);
      expect({
        boundary: rep.boundaryEdges, nonManifold: rep.nonManifoldEdges, misoriented: rep.misorientedEdges,
        duplicates: rep.duplicateTriangles, degenerate: rep.degenerateTriangles, euler: rep.euler, components: rep.components,
      }).toEqual({ boundary: 0, nonManifold: 0, misoriented: 0, duplicates: 0, degenerate: 0, euler: 2, components: 1 });
      expect(rep.volume).toBeGreaterThan(0);
      expect(result.stats.seamTriangles).toBeGreaterThan(0);
    });
  }
});
