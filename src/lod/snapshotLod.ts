/** A `PlanetLod` from the LOD selector's flattened snapshot (what the streaming model plans with). */
import { parseChunkKey, type ChunkAddress, type ChunkKey } from './chunkKey.ts';
import type { CubeSphereSpace } from './cubeSphere.ts';
import type { LodSnapshot } from './planetLodSelector.ts';
import type { PlanetLod } from './planetSeams.ts';

/** Parsed keys kept at most (a cache: beyond it, it starts again). */
const ADDRESS_CACHE = 65_536;

/**
 * A `PlanetLod` rebuilt from the LOD selector's flattened snapshot (only what planLodUpdate reads).
 * `addresses` keeps parsed keys between calls: parsing ~10,000 keys was half of a transaction's
 * 60-80 ms plan on the main thread.
 */
export function lodFromSnapshot(space: CubeSphereSpace, s: LodSnapshot, addresses = new Map<ChunkKey, ChunkAddress>()): PlanetLod {
  if (addresses.size > ADDRESS_CACHE) addresses.clear();
  const leaves = s.keys.map((k) => {
    let a = addresses.get(k);
    if (!a) {
      a = parseChunkKey(k);
      addresses.set(k, a);
    }
    return a;
  });
  const byKey = new Map(s.keys.map((k, i) => [k, leaves[i]]));
  const seamStitches = new Map<ChunkKey, readonly ChunkKey[]>();
  const seamsReading = new Map<ChunkKey, ChunkKey[]>();
  for (const k of s.keys) seamsReading.set(k, [k]);
  s.keys.forEach((k, i) => {
    seamStitches.set(k, s.stitches[i]);
    for (const t of s.stitches[i]) seamsReading.get(t)!.push(k);
  });
  // `touching` holds only the coarser touching chunks: all planLodUpdate reads from it.
  const touching = new Map<ChunkKey, readonly ChunkKey[]>(s.keys.map((k, i) => [k, s.coarser[i]]));
  return { space, leaves, keys: s.keys, byKey, touching, seamStitches, seamsReading };
}
