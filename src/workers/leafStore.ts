/**
 * Boundary leaves a body worker keeps from the chunk jobs it ran, by the renderer's chunk id, so
 * that a seam job on the same worker reads them in place: the main thread then names the chunks a
 * seam stitches instead of copying their records into every seam job (~3 ms of main thread a seam,
 * which capped seams at ~8/s in the planet flight). Each part also carries its leaves packed
 * (~50 kB): with many workers a seam's chunks were meshed on several, and naming them alone sent
 * nearly every seam twice; the worker unpacks only those it does not hold (planetSeamJob.ts).
 * Least recently used out past a byte budget.
 */
import type { BoundaryLeaves } from '../mesher/index';

/** The store's budget when one worker meshes all of a planet's chunks (bytes). */
export const LEAF_STORE_BYTES = 96 * 2 ** 20;
let budgetBytes = LEAF_STORE_BYTES;
const kept = new Map<string, { leaves: BoundaryLeaves; bytes: number }>();
let bytes = 0;
export const leafStoreStats = { hits: 0, misses: 0 };

/** Bytes held by a chunk's boundary leaves (their typed arrays). */
export function boundaryLeavesBytes(b: BoundaryLeaves): number {
  return b.cells.byteLength + b.corners.byteLength + b.component.byteLength + b.vertexGrid.byteLength + b.normals.byteLength;
}

/**
 * This worker's share of the pool's chunks (1 / workers): each of N workers meshes about 1/N of
 * them, so a 1/N budget covers as long a stretch of its own chunks, and N workers together keep
 * what one would.
 */
export function setLeafStoreShare(share: number): void {
  budgetBytes = LEAF_STORE_BYTES * Math.min(1, Math.max(1 / 64, share));
}

/** Keeps a copy of `leaves` (the originals are transferred to the main thread). */
export function keepLeaves(id: string, leaves: BoundaryLeaves): void {
  const copy: BoundaryLeaves = {
    chunkId: leaves.chunkId, boxGrid: [...leaves.boxGrid], count: leaves.count,
    cells: leaves.cells.slice(), corners: leaves.corners.slice(), component: leaves.component.slice(),
    vertexGrid: leaves.vertexGrid.slice(), normals: leaves.normals.slice(),
  };
  forgetLeaves(id);
  const b = boundaryLeavesBytes(copy);
  kept.set(id, { leaves: copy, bytes: b });
  bytes += b;
  for (const [old, entry] of kept) {
    if (bytes <= budgetBytes) break;
    kept.delete(old);
    bytes -= entry.bytes;
  }
}

/** The leaves kept under `id` (marked recently used), or undefined. */
export function keptLeaves(id: string): BoundaryLeaves | undefined {
  const entry = kept.get(id);
  if (!entry) {
    leafStoreStats.misses++;
    return undefined;
  }
  leafStoreStats.hits++;
  kept.delete(id);
  kept.set(id, entry);
  return entry.leaves;
}

export function forgetLeaves(id: string): void {
  const entry = kept.get(id);
  if (!entry) return;
  kept.delete(id);
  bytes -= entry.bytes;
}

/** Forgets everything (another planet, or a test starting clean). */
export function clearLeafStore(): void {
  kept.clear();
  bytes = 0;
}
