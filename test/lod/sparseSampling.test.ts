/**
 * sampleCubeSphereChunk (the planet chunk job's sampler): faces + the even interior lattice first,
 * stopping there when all share one sign, then only the 2-cell blocks near the surface. Checked
 * against full sampling (sampleChunk through the same canonical mapping, the level's band-limited
 * field as the chunk job uses) on the chunks a camera near the surface selects: a homogeneous
 * result has the state full sampling gives; a complete one has every sign full sampling gives, the
 * same value wherever it evaluated, and the same mesh. And the saving, measured.
 */
import { describe, expect, it } from 'vitest';
import { compileToJs, recipeBounds } from '../../src/field/index';
import { sampleChunk } from '../../src/mesher/index';
import { canonicalSampleMapping, CubeSphereSpace, FacePlaneCache, meshCubeSphereChunk, planetShell, sampleCubeSphereChunk, selectChunks } from '../../src/lod/index';
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
      let homogeneous = 0, complete = 0, sparseEvals = 0, surfaceEvals = 0;
      const P3 = (N + 1) ** 3;
      const levelFields = new Map<number, ReturnType<typeof compileToJs>>();
      for (const { a } of order) {
        const U = space.chunkUnits(a.level);
        if (!levelFields.has(a.level)) levelFields.set(a.level, compileToJs(recipe, { minWavelengthM: 2 * space.cellSizeM(a.level) }));
        const levelField = levelFields.get(a.level)!;
        const full = sampleChunk({ originGrid: [a.ci * U, a.cj * U, a.ck * U], level: a.level, cells: N }, levelField, canonicalSampleMapping(space, a.face));
        const sparse = sampleCubeSphereChunk(space, a, levelField);
        sparseEvals += sparse.evaluations;
        let inside = 0;
        for (const v of full) if (v < 0) inside++;
        if (sparse.complete) {
          complete++;
          surfaceEvals += sparse.evaluations;
          expect(inside > 0 && inside < P3).toBe(true);
          let sameValue = 0, sameSign = 0;
          for (let p = 0; p < P3; p++) {
            if (Object.is(sparse.values[p], full[p])) sameValue++;
            if ((sparse.values[p] < 0) === (full[p] < 0)) sameSign++;
          }
          expect(sameSign).toBe(P3);
          expect(sameValue).toBeGreaterThanOrEqual(sparse.evaluations);
          const mesh = (values: Float32Array) => meshCubeSphereChunk(space, a, [], levelField, { values, simplify: 0.02 }).mesh;
          const m = mesh(sparse.values), f = mesh(full);
          expect(m.indices).toEqual(f.indices);
          expect(m.positions).toEqual(f.positions);
          expect(m.normals).toEqual(f.normals);
        } else {
          homogeneous++;
          expect(sparse.state).toBe(inside === 0 ? 'empty' : inside === P3 ? 'full' : 'mixed');
          expect(sparse.evaluations).toBeLessThan(0.45 * P3);
        }
      }
      const saved = 1 - sparseEvals / (order.length * P3);
      const surfaceSaved = 1 - surfaceEvals / (complete * P3);
      console.log(`planetRecipe(${seed}): ${order.length} chunks, ${homogeneous} homogeneous, ${complete} with surface; evaluations saved ${(100 * saved).toFixed(0)} % (${(100 * surfaceSaved).toFixed(0)} % on chunks with surface)`);
      // The narrow band is doing its job on chunks with surface.
      expect(surfaceSaved).toBeGreaterThan(0.2);
      expect(homogeneous).toBeGreaterThan(0);
      expect(complete).toBeGreaterThan(0);
    });
  }

  it('production chunks (32³, 1 m cells) holding the surface, levels 0–9, caves included: same meshes as full sampling', { timeout: 60_000 }, () => {
    let cells = 0, evals = 0;
    for (const seed of [4, 63]) {
      const recipe = planetRecipe(seed);
      const bounds = recipeBounds(recipe);
      const shell = planetShell(bounds);
      const full = compileToJs(recipe);
      const space = new CubeSphereSpace({ radiusM: bounds.sphereRadiusM - bounds.elevationM, chunkCells: 32, finestCellM: 1 });
      const g = new Float64Array(4);
      for (const [dir, levels] of [[[0.3, 0.55, 0.78], [0, 3, 6, 9]], [[-0.62, 0.2, -0.4], [1, 2, 5, 8]]] as const) {
        const d = dir.map((v) => v / Math.hypot(...dir));
        const r = surfaceRadiusAlong(full, d, shell.innerM, shell.outerM);
        const face = space.fromWorld(d[0] * r, d[1] * r, d[2] * r, g);
        for (const level of levels) {
          const U = space.chunkUnits(level);
          const a = { face, level, ci: Math.floor(g[1] / U), cj: Math.floor(g[2] / U), ck: Math.floor(g[3] / U) };
          const field = compileToJs(recipe, { minWavelengthM: 2 * space.cellSizeM(level) });
          const values = sampleChunk({ originGrid: [a.ci * U, a.cj * U, a.ck * U], level, cells: 32 }, field, canonicalSampleMapping(space, face));
          const sparse = sampleCubeSphereChunk(space, a, field);
          if (!sparse.complete) continue; // the surface point's chunk can be empty/full in its own band
          cells++;
          evals += sparse.evaluations / values.length;
          const mesh = (v: Float32Array) => meshCubeSphereChunk(space, a, [], field, { values: v, simplify: 0.02 }).mesh;
          const m = mesh(sparse.values), f = mesh(values);
          expect(m.indices.length, `seed ${seed} level ${level}`).toBeGreaterThan(0);
          expect(m.indices).toEqual(f.indices);
          expect(m.positions).toEqual(f.positions);
        }
      }
    }
    console.log(`${cells} surface chunks at 32³: ${(100 * evals / cells).toFixed(0)} % of the points evaluated on average`);
    expect(cells).toBeGreaterThanOrEqual(12);
  });

  it('neighbours copy shared face planes from the cache: same values as sampling alone', () => {
    const recipe = planetRecipe(4);
    const bounds = recipeBounds(recipe);
    const shell = planetShell(bounds);
    const space = new CubeSphereSpace({ radiusM: bounds.sphereRadiusM - bounds.elevationM, chunkCells: N, finestCellM: 8 });
    const level = 2;
    const field = compileToJs(recipe, { minWavelengthM: 2 * space.cellSizeM(level) });
    const d = [0.3, 0.55, 0.78].map((v, _, a) => v / Math.hypot(...a));
    const r = surfaceRadiusAlong(compileToJs(recipe), d, shell.innerM, shell.outerM);
    const g = new Float64Array(4);
    const face = space.fromWorld(d[0] * r, d[1] * r, d[2] * r, g);
    const U = space.chunkUnits(level);
    const c = [Math.floor(g[1] / U), Math.floor(g[2] / U), Math.floor(g[3] / U)];
    const planes = new FacePlaneCache();
    let evalsAlone = 0, evalsShared = 0, count = 0;
    for (let dk = -1; dk <= 1; dk++) for (let dj = -1; dj <= 1; dj++) for (let di = -1; di <= 1; di++) {
      const a = { face, level, ci: c[0] + di, cj: c[1] + dj, ck: c[2] + dk };
      const alone = sampleCubeSphereChunk(space, a, field);
      const shared = sampleCubeSphereChunk(space, a, field, planes);
      evalsAlone += alone.evaluations;
      evalsShared += shared.evaluations;
      count++;
      expect(shared.complete).toBe(alone.complete);
      expect(shared.state).toBe(alone.state);
      expect(Buffer.from(shared.values.buffer).equals(Buffer.from(alone.values.buffer))).toBe(true);
    }
    // 3 × 3 × 3 chunks share 54 faces; each is sampled once.
    expect(planes.hits).toBe(54);
    expect(evalsShared).toBeLessThan(evalsAlone);
    console.log(`${count} adjacent chunks: ${evalsShared} evaluations with the plane cache, ${evalsAlone} without`);
  });
});
