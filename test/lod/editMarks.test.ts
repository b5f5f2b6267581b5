/**
 * What an edit keeps of the empty/full record (issue 43: a dig on planet 4 forgot the air's proofs
 * above it too, and the LOD asked for hundreds of chunks to prove them again): planetEdits.ts
 * `brokenMarks` says which states a change of brushes can break, and `HomogeneousRecord.forget`
 * keeps a forgotten proof on the descendants the edit does not reach. Checked against the edited
 * field itself: every chunk still marked full after a dig is full of rock at every lattice point.
 */
import { describe, expect, it } from 'vitest';
import { compileToJs, makeBrush, recipeBounds } from '../../src/field/index';
import { brokenMarks, chunkKey, CubeSphereSpace, HomogeneousRecord, PlanetEdits, type ChunkAddress } from '../../src/lod/index';
import { planetRecipe } from '../../src/scene/index';

describe('brokenMarks', () => {
  const dig = makeBrush('dig', [100, 0, 0], 30);
  const build = makeBrush('build', [0, 100, 0], 20);
  const other = makeBrush('dig', [0, 0, 100], 10);

  it('a dig raises the field (full marks may break), a build lowers it (empty marks), an undo the reverse', () => {
    expect(brokenMarks([], [dig])).toEqual({ empty: false, full: true });
    expect(brokenMarks([], [build])).toEqual({ empty: true, full: false });
    expect(brokenMarks([dig], [])).toEqual({ empty: true, full: false });
    expect(brokenMarks([build], [])).toEqual({ empty: false, full: true });
    expect(brokenMarks([dig], [dig, other])).toEqual({ empty: false, full: true });
    expect(brokenMarks([dig], [dig, build])).toEqual({ empty: true, full: false });
    expect(brokenMarks([dig], [build])).toEqual({ empty: true, full: false });
    expect(brokenMarks([dig, build], [dig, build])).toEqual({ empty: false, full: false });
  });

  it('the same brushes in another order, or one repeated: either way', () => {
    expect(brokenMarks([dig, other], [other, dig])).toEqual({ empty: true, full: true });
    expect(brokenMarks([dig], [dig, dig])).toEqual({ empty: true, full: true });
  });
});

describe('HomogeneousRecord.forget after a dig', () => {
  const recipe = planetRecipe(4);
  const bounds = recipeBounds(recipe);
  const space = new CubeSphereSpace({ radiusM: bounds.sphereRadiusM, chunkCells: 32, finestCellM: 1 });
  const field = compileToJs(recipe);
  const dir = [0.3, 0.55, 0.78].map((v, _, a) => v / Math.hypot(...a));
  let r = space.radiusM;
  for (let i = 0; i < 40; i++) r -= field(dir[0] * r, dir[1] * r, dir[2] * r);
  // A dig 400 m under the ground: a pocket in the rock, inside a level-3 chunk that is all rock.
  const center = dir.map((v) => v * (r - 400));
  const dig = makeBrush('dig', center, 30);
  const edits = new PlanetEdits(space, [dig]);
  const edited = compileToJs({ ...recipe, brushes: [dig] });
  const g = [0, 0, 0, 0];
  space.fromWorld(center[0], center[1], center[2], g);
  /** The chunk holding the dig's centre at `level`. */
  const at = (level: number): ChunkAddress => {
    const U = space.chunkUnits(level);
    return { face: g[0], level, ci: Math.floor(g[1] / U), cj: Math.floor(g[2] / U), ck: Math.floor(g[3] / U) };
  };
  const key = (a: ChunkAddress): string => chunkKey(a.face, a.level, a.ci, a.cj, a.ck);
  const reached = (a: ChunkAddress): boolean => edits.brushesFor(a).length > 0;
  /** Whether field `f` is negative at every lattice point of chunk `a` (every 4th cell). */
  const fullOfRock = (a: ChunkAddress, f = edited): boolean => {
    const U = space.chunkUnits(a.level), step = U / 8, p = [0, 0, 0];
    for (let k = 0; k <= 8; k++) for (let j = 0; j <= 8; j++) for (let i = 0; i <= 8; i++) {
      space.toWorld(a.face, a.ci * U + i * step, a.cj * U + j * step, a.ck * U + k * step, p);
      if (!(f(p[0], p[1], p[2]) < 0)) return false;
    }
    return true;
  };

  it('a proof the dig breaks stays on every descendant it does not reach; those are still rock', () => {
    const TOP = 3;
    const top = at(TOP);
    expect(fullOfRock(top, field), 'the level-3 chunk around the dig is rock before it').toBe(true);
    expect(fullOfRock(top), 'and not after').toBe(false);
    const record = new HomogeneousRecord();
    record.mark(key(top), 'full', true);
    record.mark('0/3/0/0/0', 'empty', true); // elsewhere: untouched
    const broken = brokenMarks([], [dig]);
    record.forget((a) => reached(a), (s) => broken[s]);
    expect(record.get({ face: 0, level: 3, ci: 0, cj: 0, ck: 0 }, space.levels)).toBe('empty');
    let kept = 0, lost = 0;
    for (let level = TOP - 1; level >= 0; level--) {
      // Every chunk of this level within two chunks of the dig's, under `top`.
      const c = at(level);
      for (let dk = -2; dk <= 2; dk++) for (let dj = -2; dj <= 2; dj++) for (let di = -2; di <= 2; di++) {
        const a = { face: c.face, level, ci: c.ci + di, cj: c.cj + dj, ck: c.ck + dk };
        const s = TOP - level;
        if (a.ci >> s !== top.ci || a.cj >> s !== top.cj || a.ck >> s !== top.ck) continue;
        const state = record.get(a, space.levels);
        if (reached(a)) {
          expect(state, `${key(a)} reached: forgotten`).toBeUndefined();
          lost++;
        } else {
          expect(state, `${key(a)} not reached: still proven full`).toBe('full');
          // True of the edited field: rock at every lattice point sampled.
          expect(fullOfRock(a), `${key(a)} is rock`).toBe(true);
          kept++;
        }
      }
    }
    console.log(`under a level-3 proof: ${kept} probe chunks kept proven, ${lost} reached and forgotten`);
    expect(kept).toBeGreaterThan(50);
    expect(lost).toBeGreaterThan(0);
    // The dig's own chunks are not rock any more; the kept ones are (asserted above, point by point).
    for (let level = TOP - 1; level >= 0; level--) expect(fullOfRock(at(level))).toBe(false);
  });

  it('a dig keeps every empty mark, reached or not; a build forgets the reached ones', () => {
    const air = at(0);
    for (const [brushes, want] of [[[dig], 'empty'], [[makeBrush('build', center, 30)], undefined]] as const) {
      const record = new HomogeneousRecord();
      record.mark(key(air), 'empty', true);
      const e = new PlanetEdits(space, brushes);
      const broken = brokenMarks([], brushes);
      record.forget((a) => e.brushesFor(a).length > 0, (s) => broken[s]);
      expect(record.get(air, space.levels)).toBe(want);
    }
  });
});
