/**
 * Chunk addresses and keys.
 *
 * A chunk is (face, level, ci, cj, ck): its box in the face's global integer frame is
 * [ci, cj, ck] · U … [ci + 1, cj + 1, ck + 1] · U with U = N · 2^level finest units.
 *
 * Keys are strings `"face/level/ci/cj/ck"`. Why not a number: a planet of 6,000 km at 1 m cells needs
 * 19 levels of 32-cell chunks, i.e. 3 × 19 index bits + face + level ≈ 65 bits, which no float64
 * integer holds; BigInt keys hash slowly. V8 hashes short strings fast, they survive structured clone
 * into workers unchanged, and they read well in the debug overlay.
 */

/** A chunk's address. Plain data; hot paths pass the five numbers positionally. */
export interface ChunkAddress {
  face: number;
  level: number;
  ci: number;
  cj: number;
  ck: number;
}

/** A chunk key (see module doc). */
export type ChunkKey = string;

export function chunkKey(face: number, level: number, ci: number, cj: number, ck: number): ChunkKey {
  return `${face}/${level}/${ci}/${cj}/${ck}`;
}

export function keyOf(a: ChunkAddress): ChunkKey {
  return chunkKey(a.face, a.level, a.ci, a.cj, a.ck);
}

/** Parses a key; throws on malformed input. */
export function parseChunkKey(key: ChunkKey, target: ChunkAddress = { face: 0, level: 0, ci: 0, cj: 0, ck: 0 }): ChunkAddress {
  const parts = key.split('/');
  if (parts.length !== 5) throw new Error(`bad chunk key "${key}"`);
  const n = parts.map(Number);
  if (!n.every((v) => Number.isInteger(v) && v >= 0)) throw new Error(`bad chunk key "${key}"`);
  target.face = n[0];
  target.level = n[1];
  target.ci = n[2];
  target.cj = n[3];
  target.ck = n[4];
  return target;
}

/** Key of the parent chunk (level + 1), or null at the root level. */
export function parentKey(a: ChunkAddress, rootLevel: number): ChunkKey | null {
  if (a.level >= rootLevel) return null;
  return chunkKey(a.face, a.level + 1, a.ci >> 1, a.cj >> 1, a.ck >> 1);
}

/** Whether `a` is a strict descendant of `p` (finer, inside it). */
export function isDescendant(a: ChunkAddress, p: ChunkAddress): boolean {
  const s = p.level - a.level;
  return s > 0 && a.face === p.face && a.ci >> s === p.ci && a.cj >> s === p.cj && a.ck >> s === p.ck;
}

/** Child `c` (0..7, bit 0 = +i, bit 1 = +j, bit 2 = +k) of a chunk. */
export function childAddress(a: ChunkAddress, c: number): ChunkAddress {
  return {
    face: a.face,
    level: a.level - 1,
    ci: 2 * a.ci + (c & 1),
    cj: 2 * a.cj + ((c >> 1) & 1),
    ck: 2 * a.ck + ((c >> 2) & 1),
  };
}

/** The ancestor of `a` at level `level` (≥ a.level). */
export function ancestorAddress(a: ChunkAddress, level: number): ChunkAddress {
  const d = level - a.level;
  return { face: a.face, level, ci: Math.floor(a.ci / 2 ** d), cj: Math.floor(a.cj / 2 ** d), ck: Math.floor(a.ck / 2 ** d) };
}

/** True when `b` is `a` or lies inside it. */
export function containsChunk(a: ChunkAddress, b: ChunkAddress): boolean {
  if (a.face !== b.face || b.level > a.level) return false;
  const d = 2 ** (a.level - b.level);
  return Math.floor(b.ci / d) === a.ci && Math.floor(b.cj / d) === a.cj && Math.floor(b.ck / d) === a.ck;
}

/**
 * Canonical order of chunks: face, then level descending (coarse first), then ck, cj, ci. Sorting by
 * it makes every list this module returns deterministic.
 */
export function compareChunks(a: ChunkAddress, b: ChunkAddress): number {
  return a.face - b.face || b.level - a.level || a.ck - b.ck || a.cj - b.cj || a.ci - b.ci;
}
