/**
 * `coarsenToBalance` (src/lod/lodBalance.ts): what the LOD worker makes of a drawn set that is not
 * 2:1 balanced. Against the rule written out plainly (every coarsening removes what lies inside the
 * new chunk by testing every drawn chunk), on drawn sets made unbalanced on purpose: random balanced
 * configurations with some chunks replaced by chunks two or three levels finer.
 */
import { describe, expect, it } from 'vitest';
import { Prng, recipeBounds, type FieldRecipe } from '../../src/field/index';
import {
  ancestorAddress, checkLodConfiguration, chunkInShell, chunkKey, coarsenToBalance, compareChunks, containsChunk, CubeSphereSpace, keyOf, NeighbourhoodCache,
  planetShell, randomLodConfiguration, touchingChunks, type ChunkAddress, type ChunkKey,
} from '../../src/lod/index';

const recipe: FieldRecipe = { version: 1, name: 'ball', root: { type: 'sphere', radius: 1000 }, brushes: [] };
const bounds = recipeBounds(recipe);
const shell = planetShell(bounds);
const space = new CubeSphereSpace({ radiusM: bounds.sphereRadiusM - bounds.elevationM, chunkCells: 8, levels: 5 });

/** The rule, plainly (what coarsenToBalance did before it kept the split chunks). */
function oracle(drawn: readonly ChunkAddress[], isReady: (a: ChunkAddress) => boolean): ChunkAddress[] | null {
  const leafMap = new Map<ChunkKey, ChunkAddress>();
  for (const a of drawn) leafMap.set(keyOf(a), a);
  let changed = true;
  while (changed) {
    changed = false;
    scan: for (const [ak, a] of [...leafMap]) {
      if (!leafMap.has(ak)) continue;
      for (const t of touchingChunks(space, a)) {
        let { ci, cj, ck } = t;
        for (let l = t.level; l <= space.levels; l++) {
          const c = leafMap.get(chunkKey(t.face, l, ci, cj, ck));
          ci >>= 1; cj >>= 1; ck >>= 1;
          if (!c) continue;
          if (c.level - a.level < 2) break;
          const up = ancestorAddress(a, c.level - 1);
          if (!isReady(up)) return null;
          for (const [k, b] of [...leafMap]) if (containsChunk(up, b)) leafMap.delete(k);
          leafMap.set(keyOf(up), up);
          changed = true;
          continue scan;
        }
      }
    }
  }
  return [...leafMap.values()].sort(compareChunks);
}

/** Every chunk of the shell `depth` levels under `a`. */
function tile(a: ChunkAddress, depth: number): ChunkAddress[] {
  const n = 2 ** depth, out: ChunkAddress[] = [];
  for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    if (chunkInShell(space, shell, a.level - depth, a.ck * n + k)) out.push({ face: a.face, level: a.level - depth, ci: a.ci * n + i, cj: a.cj * n + j, ck: a.ck * n + k });
  }
  return out;
}

describe('coarsenToBalance', () => {
  it('matches the plain rule on unbalanced drawn sets (seeds 1-40), with and without a neighbourhood cache, balanced where it answers', () => {
    let coarsened = 0, refused = 0;
    const cache = new NeighbourhoodCache(space);
    for (let seed = 1; seed <= 40; seed++) {
      const r = new Prng(seed);
      const base = randomLodConfiguration(space, shell, seed);
      const drawn: ChunkAddress[] = [];
      for (const a of base) {
        const depth = Math.min(a.level, r.next() < 0.15 ? 2 + r.int(2) : 0);
        drawn.push(...(depth > 0 ? tile(a, depth) : [a]));
      }
      // Ready: everything, or (odd seeds) a random three quarters of the chunks.
      const unready = new Set<ChunkKey>();
      if (seed % 2 === 1) {
        for (const a of drawn) for (let l = a.level + 1; l <= space.levels; l++) if (r.next() < 0.25) unready.add(keyOf(ancestorAddress(a, l)));
      }
      const isReady = (a: ChunkAddress): boolean => !unready.has(keyOf(a));
      const got = coarsenToBalance(space, drawn, isReady);
      expect(got, `seed ${seed}`).toEqual(oracle(drawn, isReady));
      expect(coarsenToBalance(space, drawn, isReady, cache), `seed ${seed}, cached`).toEqual(got);
      if (got === null) refused++;
      else {
        expect(checkLodConfiguration(space, shell, got), `seed ${seed}`).toEqual([]);
        if (got.length !== drawn.length) coarsened++;
      }
    }
    expect(coarsened, 'drawn sets that needed coarsening').toBeGreaterThan(10);
    expect(refused, 'drawn sets refused for an unready chunk').toBeGreaterThan(3);
  });
});
