/**
 * The rebuild contract between two LOD snapshots (docs/lod.md, "Seams"): which chunks to mesh
 * again, which seams to build again, what to drop. A seam depends on exactly the boundary leaves of
 * its owner and stitched chunks (planetSeams.ts), a chunk's boundary leaves on its samples and its
 * coarser neighbours; everything else carries over unchanged.
 */
import type { ChunkKey } from './chunkKey.ts';
import type { PlanetLod } from './planetSeams.ts';
import { finishSteps, type Steps } from './frameSlices.ts';

/** What the renderer must do to go from one LOD snapshot to the next (rebuild contract). */
export interface LodUpdatePlan {
  /** Chunks to mesh: new in `after`, edited, or whose coarser neighbours changed (restriction). */
  meshChunks: ChunkKey[];
  /** Chunks of `before` not in `after`. */
  dropChunks: ChunkKey[];
  /** Seams (by owner) to build or rebuild: new owners, and owners reading any chunk in meshChunks or whose stitched set changed. */
  buildSeams: ChunkKey[];
  /** Seams owned by dropped chunks. */
  dropSeams: ChunkKey[];
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function coarserKeys(lod: PlanetLod, key: ChunkKey): string[] {
  const a = lod.byKey.get(key)!;
  return lod.touching.get(key)!.filter((k) => lod.byKey.get(k)!.level === a.level + 1);
}

/**
 * The rebuild contract (docs/lod.md, "Seams"): from snapshot `before` (null at start) to `after`,
 * with `edited` chunks whose field changed. A seam depends on exactly the boundary leaves of its owner
 * and stitched chunks; a chunk's boundary leaves depend on its samples and its coarser neighbours.
 * So a seam is rebuilt when its stitched set changed or any chunk it reads is (re)meshed; otherwise the
 * old seam is still exact. All lists in canonical order.
 */
export function planLodUpdate(before: PlanetLod | null, after: PlanetLod, edited: Iterable<ChunkKey> = []): LodUpdatePlan {
  return finishSteps(planLodUpdateSteps(before, after, edited, Infinity));
}

/** {@link planLodUpdate} in slices of about `sliceKeys` keys (frameSlices.ts). */
export function* planLodUpdateSteps(before: PlanetLod | null, after: PlanetLod, edited: Iterable<ChunkKey>, sliceKeys: number): Steps<LodUpdatePlan> {
  const editedSet = new Set(edited);
  const mesh = new Set<ChunkKey>();
  let i = 0;
  for (const k of after.keys) {
    if (!before || !before.byKey.has(k) || editedSet.has(k) || !sameList(coarserKeys(before, k), coarserKeys(after, k))) mesh.add(k);
    if (++i % sliceKeys === 0) yield;
  }
  const dropChunks = before ? before.keys.filter((k) => !after.byKey.has(k)) : [];
  yield;
  const seams = new Set<ChunkKey>();
  for (const k of mesh) {
    for (const o of after.seamsReading.get(k)!) seams.add(o);
    if (++i % sliceKeys === 0) yield;
  }
  for (const k of after.keys) {
    if (++i % sliceKeys === 0) yield;
    if (seams.has(k)) continue;
    if (!before || !sameList(before.seamStitches.get(k), after.seamStitches.get(k))) seams.add(k);
  }
  const order = (set: Set<ChunkKey>): ChunkKey[] => after.keys.filter((k) => set.has(k));
  const meshChunks = order(mesh);
  yield;
  return { meshChunks, dropChunks, buildSeams: order(seams), dropSeams: dropChunks.slice() };
}

/**
 * Seams (by owner) to rebuild after the chunks `changed` of this snapshot were re-meshed (an edit, or
 * a new coarser neighbour): every seam reading any of them. For splits and merges, which change the
 * snapshot itself, use {@link planLodUpdate}.
 */
export function seamsToRebuild(lod: PlanetLod, changed: Iterable<ChunkKey>): ChunkKey[] {
  const out = new Set<ChunkKey>();
  for (const k of changed) {
    const list = lod.seamsReading.get(k);
    if (!list) throw new Error(`seamsToRebuild: ${k} is not in the configuration`);
    for (const o of list) out.add(o);
  }
  return lod.keys.filter((k) => out.has(k));
}

