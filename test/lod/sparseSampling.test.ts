/**
 * sampleCubeSphereChunk (the planet chunk job's sampler): faces + the even interior lattice first,
 * stopping there when all share one sign. Checked against full sampling (sampleChunk through the
 * same canonical mapping) on the chunks a camera near the surface selects: a complete result is
 * bit-identical, a homogeneous one has the state full sampling gives. And the saving, measured.
 */
import { describe, expect, it } from 'vitest';
import { compileToJs, recipeBounds } from '../../src/field/index';
import { sampleChunk } from '../../src/mesher/index';
import { canonicalSampleMapping, CubeSphereSpace, planetShell, sampleCubeSphereChunk, selectChunks } from '../../src/lod/index';
import { planetRecipe } from '../../src/scene/index';
import { lookAtView, scale, surfaceRadiusAlong } from './helpers';

const N = 16;

describe('sparse chunk sampling', () => {
  for (const seed of [4, 7]) {
    it(`planetRecipe(${seed}): equals full sampling on the chunks a camera 300 m up selects`, () => {
      const recipe = planetRecipe(seed);
      const bounds = recipeBounds(recipe);
      const field = compileToJs(recipe);
      const shell = planetShell(bounds);
      const radiusM = bounds.sphereRadiusM - bounds.elevationM;
      const space = new CubeSphereSpace({ radiusM, chunkCells: N, finestCellM: 8 });
      const dir = [0.3, 0.55, 0.78].map((v, _, a) => v / Math.hypot(...a)) as [number, number, number];
      const cam = scale(dir, surfaceRadiusAlong(field, dir, shell.innerM, shell.outerM) + 300);
      const sel = selectChunks(space, shell, lookAtView(cam, scale([dir[0] + 0.05, dir[1], dir[2]], radiusM)), { maxScreenErrorPx: 8 });
      // Every 3rd selected leaf, nearest first (deterministic), up to 60 chunks.
      const order = sel.leaves
        .map((a, i) => ({ a, key: sel.keys[i], d: sel.info.get(sel.keys[i])!.distanceM }))
        .sort((x, y) => x.d - y.d || (x.key < y.key ? -1 : 1))
        .filter((_, i) => i % 3 === 0)
        .slice(0, 60);
      let homogeneous = 0, complete = 0, sparseEvals = 0;
      const P3 = (N + 1) ** 3;
      for (const { a } of order) {
        const U = space.chunkUnits(a.level);
        const full = sampleChunk({ originGrid: [a.ci * U, a.cj * U, a.ck * U], level: a.level, cells: N }, field, canonicalSampleMapping(space, a.face));
        const sparse = sampleCubeSphereChunk(space, a, field);
        sparseEvals += sparse.evaluations;
        let inside = 0;
        for (const v of full) if (v < 0) inside++;
        if (sparse.complete) {
          complete++;
          expect(sparse.evaluations).toBe(P3);
          expect(Buffer.from(sparse.values.buffer).equals(Buffer.from(full.buffer))).toBe(true);
          expect(inside > 0 && inside < P3).toBe(true);
        } else {
          homogeneous++;
          expect(sparse.state).toBe(inside === 0 ? 'empty' : inside === P3 ? 'full' : 'mixed');
          expect(sparse.evaluations).toBeLessThan(0.45 * P3);
        }
      }
      const saved = 1 - sparseEvals / (order.length * P3);
      console.log(`planetRecipe(${seed}): ${order.length} chunks, ${homogeneous} homogeneous, ${complete} with surface; evaluations saved ${(100 * saved).toFixed(0)} %`);
      expect(homogeneous).toBeGreaterThan(0);
      expect(complete).toBeGreaterThan(0);
    });
  }
});
