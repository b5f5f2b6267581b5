/**
 * 2:1 balance of a planet's LOD configuration: no chunk touches (face, edge or corner, across cube
 * faces and corners) a chunk more than one level coarser, which is what lets a chunk restrict its
 * boundary to a coarser neighbour and a seam stitch at most two levels (docs/lod.md). Refining to
 * balance, coarsening to balance, and checking a configuration (coverage, overlap, balance).
 */
import type { ChunkAddress, ChunkKey } from './chunkKey.ts';
import { ancestorAddress, childAddress, chunkKey, compareChunks, keyOf } from './chunkKey.ts';
import type { CubeSphereSpace } from './cubeSphere.ts';
import { FACE_COUNT } from './cubeSphere.ts';
import type { PlanetShell } from './culling.ts';
import { chunkInShell } from './culling.ts';
import { touchingChunks } from './faceFrames.ts';
import { boxesTouch, chunkBoxInFrame, type GridBox, type NeighbourhoodCache } from './planetSeams.ts';

function childrenInShell(space: CubeSphereSpace, shell: PlanetShell, a: ChunkAddress): ChunkAddress[] {
  const out: ChunkAddress[] = [];
  for (let c = 0; c < 8; c++) {
    const kid = childAddress(a, c);
    if (chunkInShell(space, shell, kid.level, kid.ck)) out.push(kid);
  }
  return out;
}

/**
 * The minimal 2:1-balanced refinement of a set of leaves tiling the shell: no chunk touches (face,
 * edge or corner, across cube faces and corners) a chunk more than one level coarser. Same rule as the
 * refinement pass of `selectChunks`, for configurations built by other means. Canonical order.
 */
export function balanceLod(space: CubeSphereSpace, shell: PlanetShell, leaves: readonly ChunkAddress[]): ChunkAddress[] {
  const leafMap = new Map<ChunkKey, ChunkAddress>();
  const internal = new Set<ChunkKey>();
  for (const a of leaves) {
    leafMap.set(keyOf(a), a);
    let { ci, cj, ck } = a;
    for (let l = a.level + 1; l <= space.levels; l++) {
      ci >>= 1; cj >>= 1; ck >>= 1;
      internal.add(chunkKey(a.face, l, ci, cj, ck));
    }
  }
  const queue = [...internal].map((k) => {
    const p = k.split('/').map(Number);
    return { face: p[0], level: p[1], ci: p[2], cj: p[3], ck: p[4] };
  }).sort(compareChunks);
  while (queue.length > 0) {
    const p = queue.pop()!;
    for (const t of touchingChunks(space, p)) {
      const tk = keyOf(t);
      if (leafMap.has(tk) || internal.has(tk)) continue;
      let { ci, cj, ck } = t;
      for (let l = t.level + 1; l <= space.levels; l++) {
        ci >>= 1; cj >>= 1; ck >>= 1;
        const k = chunkKey(t.face, l, ci, cj, ck);
        if (internal.has(k)) break; // t lies outside the shell
        const c = leafMap.get(k);
        if (!c) continue;
        leafMap.delete(k);
        internal.add(k);
        for (const kid of childrenInShell(space, shell, c)) leafMap.set(keyOf(kid), kid);
        queue.push(c);
        queue.push(p);
        break;
      }
    }
  }
  return [...leafMap.values()].sort(compareChunks);
}

/**
 * Problems with a LOD configuration, empty when valid: every chunk in the shell, no overlap, the
 * shell tiled exactly (every split node's in-shell children covered), and 2:1 balance across faces,
 * edges and cube corners. Test and overlay introspection.
 */
export function checkLodConfiguration(space: CubeSphereSpace, shell: PlanetShell, leaves: readonly ChunkAddress[]): string[] {
  const problems: string[] = [];
  const leafKeys = new Set(leaves.map(keyOf));
  const internal = new Set<ChunkKey>();
  for (const a of leaves) {
    if (!chunkInShell(space, shell, a.level, a.ck)) problems.push(`${keyOf(a)} lies outside the shell`);
    let { ci, cj, ck } = a;
    for (let l = a.level + 1; l <= space.levels; l++) {
      ci >>= 1; cj >>= 1; ck >>= 1;
      internal.add(chunkKey(a.face, l, ci, cj, ck));
    }
  }
  for (const k of internal) if (leafKeys.has(k)) problems.push(`${k} is a leaf and has leaves inside it`);
  const covered = (k: ChunkKey): boolean => leafKeys.has(k) || internal.has(k);
  for (let f = 0; f < FACE_COUNT; f++) {
    if (chunkInShell(space, shell, space.levels, 0) && !covered(chunkKey(f, space.levels, 0, 0, 0))) problems.push(`face ${f} is not covered`);
  }
  for (const k of internal) {
    const p = k.split('/').map(Number);
    for (const kid of childrenInShell(space, shell, { face: p[0], level: p[1], ci: p[2], cj: p[3], ck: p[4] })) {
      if (!covered(keyOf(kid))) problems.push(`${keyOf(kid)} (child of split ${k}) is not covered`);
    }
  }
  for (const a of leaves) {
    for (const t of touchingChunks(space, a)) {
      let { ci, cj, ck } = t;
      for (let l = t.level; l <= space.levels; l++) {
        const k = chunkKey(t.face, l, ci, cj, ck);
        if (leafKeys.has(k)) {
          if (l - a.level > 1) problems.push(`${keyOf(a)} touches ${k}, ${l - a.level} levels coarser`);
          break;
        }
        if (internal.has(k)) break;
        ci >>= 1; cj >>= 1; ck >>= 1;
      }
    }
  }
  return problems;
}

/**
 * Makes a drawn set 2:1 balanced by COARSENING only (the seam builder's precondition, docs/lod.md):
 * while a chunk touches a drawn chunk two or more levels coarser, the finer side is replaced by its
 * ancestor one level finer than the coarse one, when that ancestor is ready (every drawn chunk inside
 * it goes). Coverage is kept: a ready ancestor tiles exactly what it replaces. `drawnSet` keeps a
 * parent until all its children are ready, region by region, so two neighbouring regions can be drawn
 * levels apart although the desired selection is balanced. Returns null when an ancestor needed is not
 * ready: the caller keeps drawing its previous configuration. Canonical order. `cache` (for `space`)
 * lends each drawn chunk's touchers' keys; the answer is the same without it.
 */
export function coarsenToBalance(
  space: CubeSphereSpace, drawn: readonly ChunkAddress[], isReady: (a: ChunkAddress) => boolean, cache?: NeighbourhoodCache,
): ChunkAddress[] | null {
  const leafMap = new Map<ChunkKey, ChunkAddress>();
  for (const a of drawn) leafMap.set(keyOf(a), a);
  // Strict ancestors of the drawn chunks: a toucher found split (finer chunks drawn in it) ends its
  // walk there, instead of building every coarser key up to the root for nothing.
  const internal = new Map<ChunkKey, ChunkAddress>();
  for (const a of drawn) {
    for (let l = a.level + 1; l <= space.levels; l++) {
      const up = ancestorAddress(a, l);
      const k = keyOf(up);
      if (internal.has(k)) break;
      internal.set(k, up);
    }
  }
  // Drops what is drawn inside `a` (found through the split nodes under it).
  const removeUnder = (a: ChunkAddress): void => {
    for (let c = 0; c < 8; c++) {
      const kid = childAddress(a, c);
      const k = keyOf(kid);
      if (leafMap.delete(k)) continue;
      if (internal.delete(k)) removeUnder(kid);
    }
  };
  // The drawn chunk covering toucher `t`, walking up from its level (null: split, or outside the shell).
  const cover = (t: ChunkAddress): ChunkAddress | null => {
    let { ci, cj, ck } = t;
    for (let l = t.level; l <= space.levels; l++) {
      const k = chunkKey(t.face, l, ci, cj, ck);
      const c = leafMap.get(k);
      if (c) return c;
      if (internal.has(k)) return null;
      ci >>= 1; cj >>= 1; ck >>= 1;
    }
    return null;
  };
  // The first drawn chunk two or more levels coarser than `a` that touches it (touchingChunks order).
  const coarseToucher = (a: ChunkAddress, ak: ChunkKey): ChunkAddress | null => {
    const hood = cache?.get(a, ak);
    let all: ChunkAddress[] | null = hood ? null : touchingChunks(space, a);
    const n = hood ? hood.touchers.length : all!.length;
    for (let j = 0; j < n; j++) {
      if (hood) {
        const tk = hood.touchers[j], pk = hood.toucherParents[j];
        // Drawn at a's level or one coarser, or split: settled without building a key.
        if (leafMap.has(tk) || internal.has(tk) || (pk !== '' && (leafMap.has(pk) || internal.has(pk)))) continue;
      }
      all ??= touchingChunks(space, a);
      const c = cover(all[j]);
      if (c && c.level - a.level >= 2) return c;
    }
    return null;
  };
  let changed = true;
  while (changed) {
    changed = false;
    for (const [ak, a] of [...leafMap]) {
      if (!leafMap.has(ak)) continue;
      const c = coarseToucher(a, ak);
      if (!c) continue;
      const up = ancestorAddress(a, c.level - 1);
      if (!isReady(up)) return null;
      removeUnder(up);
      internal.delete(keyOf(up));
      leafMap.set(keyOf(up), up);
      changed = true;
    }
  }
  return [...leafMap.values()].sort(compareChunks);
}

/** True when closed boxes of chunks a and b (any faces) touch in the world. Brute-force oracle for tests. */
export function chunksTouch(space: CubeSphereSpace, a: ChunkAddress, b: ChunkAddress): boolean {
  const A: GridBox = [0, 0, 0, 0, 0, 0], B: GridBox = [0, 0, 0, 0, 0, 0];
  chunkBoxInFrame(space, a, a.face, A);
  if (!chunkBoxInFrame(space, b, a.face, B)) return false;
  return boxesTouch(A, B);
}
