/**
 * Boundary leaves a body worker keeps from the chunk jobs it ran, by the renderer's chunk id, so
 * that a seam job on the same worker reads them in place: the main thread then names the chunks a
 * seam stitches instead of copying their records into every seam job (~3 ms of main thread a seam,
 * which capped seams at ~8/s in the planet flight). Each part also carries its leaves packed
 * (~10 kB): with many workers a seam's chunks were meshed on several, and naming them alone sent
 * nearly every seam twice; the worker unpacks only those it does not hold (planetSeamJob.ts).
 * Least recently used out past a byte budget.
 */
import type { BoundaryLeaves } from '../mesher/index';
import { recallRecent } from './recentlyUsed';

/** The store's budget when one worker meshes all of a planet's chunks (bytes). */
export const LEAF_STORE_BYTES = 96 * 2 ** 20;

/** Bytes held by a chunk's boundary leaves (their typed arrays). */
export function boundaryLeavesBytes(b: BoundaryLeaves): number {
  return b.cells.byteLength + b.corners.byteLength + b.component.byteLength + b.vertexGrid.byteLength + b.normals.byteLength;
}

/** One body worker's kept leaves (its entry file makes it: workerState.ts). */
export class LeafStore {
  readonly stats = { hits: 0, misses: 0 };
  private budgetBytes = LEAF_STORE_BYTES;
  private readonly kept = new Map<string, { leaves: BoundaryLeaves; bytes: number }>();
  private bytes = 0;

  /**
   * This worker's share of the pool's chunks (1 / workers): each of N workers meshes about 1/N of
   * them, so a 1/N budget covers as long a stretch of its own chunks, and N workers together keep
   * what one would.
   */
  setShare(share: number): void {
    this.budgetBytes = LEAF_STORE_BYTES * Math.min(1, Math.max(1 / 64, share));
  }

  /** Keeps a copy of `leaves` (the originals are transferred to the main thread). */
  keep(id: string, leaves: BoundaryLeaves): void {
    const copy: BoundaryLeaves = {
      chunkId: leaves.chunkId, boxGrid: [...leaves.boxGrid], count: leaves.count,
      cells: leaves.cells.slice(), corners: leaves.corners.slice(), component: leaves.component.slice(),
      vertexGrid: leaves.vertexGrid.slice(), normals: leaves.normals.slice(),
    };
    this.forget(id);
    const b = boundaryLeavesBytes(copy);
    this.kept.set(id, { leaves: copy, bytes: b });
    this.bytes += b;
    for (const [old, entry] of this.kept) {
      if (this.bytes <= this.budgetBytes) break;
      this.kept.delete(old);
      this.bytes -= entry.bytes;
    }
  }

  /** The leaves kept under `id` (marked recently used), or undefined. */
  get(id: string): BoundaryLeaves | undefined {
    return recallRecent(this.kept, id, this.stats)?.leaves;
  }

  forget(id: string): void {
    const entry = this.kept.get(id);
    if (!entry) return;
    this.kept.delete(id);
    this.bytes -= entry.bytes;
  }

  /** Forgets everything (another planet, or a test starting clean). */
  clear(): void {
    this.kept.clear();
    this.bytes = 0;
  }
}
