/** A `PlanetLod` from the LOD selector's flattened snapshot (what the streaming model plans with). */
import { parseChunkKey, type ChunkAddress, type ChunkKey } from './chunkKey.ts';
import type { CubeSphereSpace } from './cubeSphere.ts';
import type { LodSnapshot } from './planetLodSelector.ts';
import type { PlanetLod } from './planetSeams.ts';
import { finishSteps, type Steps } from './frameSlices.ts';

/** Parsed keys kept at most (a cache: beyond it, it starts again). */
const ADDRESS_CACHE = 65_536;

/**
 * A `PlanetLod` rebuilt from the LOD selector's flattened snapshot (only what planLodUpdate reads).
 * `addresses` keeps parsed keys between calls: parsing ~10,000 keys was half of a transaction's
 * 60-80 ms plan on the main thread.
 */
export function lodFromSnapshot(space: CubeSphereSpace, s: LodSnapshot, addresses = new Map<ChunkKey, ChunkAddress>()): PlanetLod {
  return finishSteps(lodFromSnapshotSteps(space, s, addresses, Infinity));
}

/** {@link lodFromSnapshot} in slices of about `sliceKeys` keys (frameSlices.ts). */
export function* lodFromSnapshotSteps(
  space: CubeSphereSpace, s: LodSnapshot, addresses: Map<ChunkKey, ChunkAddress>, sliceKeys: number,
): Steps<PlanetLod> {
  if (addresses.size > ADDRESS_CACHE) addresses.clear();
  const n = s.keys.length;
  const leaves: ChunkAddress[] = new Array(n);
  const byKey = new Map<ChunkKey, ChunkAddress>();
  const seamStitches = new Map<ChunkKey, readonly ChunkKey[]>();
  const seamsReading = new Map<ChunkKey, ChunkKey[]>();
  // `touching` holds only the coarser touching chunks: all planLodUpdate reads from it.
  const touching = new Map<ChunkKey, readonly ChunkKey[]>();
  for (let i = 0; i < n; i++) {
    const k = s.keys[i];
    let a = addresses.get(k);
    if (!a) {
      a = parseChunkKey(k);
      addresses.set(k, a);
    }
    leaves[i] = a;
    byKey.set(k, a);
    seamsReading.set(k, [k]);
    touching.set(k, s.coarser[i]);
    if ((i + 1) % sliceKeys === 0) yield;
  }
  for (let i = 0; i < n; i++) {
    const k = s.keys[i];
    seamStitches.set(k, s.stitches[i]);
    for (const t of s.stitches[i]) seamsReading.get(t)!.push(k);
    if ((i + 1) % sliceKeys === 0) yield;
  }
  return { space, leaves, keys: s.keys, byKey, touching, seamStitches, seamsReading };
}
