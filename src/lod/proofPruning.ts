/**
 * Requests under a chunk proven homogeneous (no surface in any descendant), for planetStreaming.ts:
 * they are not started. The selection asks for a parent and its children together; on the
 * accelerator machine the children's jobs ran to the end once selections waited for the requests
 * to drain. A proof scans the requests as a flat array of addresses (~1,500 proofs a flight over
 * thousands of requests), rebuilt on the first proof after each LOD answer. Proofs are facts about
 * the field, so what they prune stays pruned — until a brush edit changes the field there (`forget`). Pure.
 */
import type { ChunkAddress, ChunkKey } from './chunkKey.ts';
import type { ChunkRequest } from './requests.ts';

export class ProofPruning {
  private readonly pruned = new Set<ChunkKey>();
  /** The requests' addresses, 5 ints each (face, level, ci, cj, ck), or null until the next proof. */
  private addresses: Int32Array | null = null;

  constructor(private readonly address: (key: ChunkKey) => ChunkAddress) {}

  /** A new LOD answer: its requests are indexed again at the next proof. */
  requestsChanged(): void {
    this.addresses = null;
  }

  /** The request is under a proof. */
  has(key: ChunkKey): boolean {
    return this.pruned.has(key);
  }

  /** Stops pruning the requests `reached` says an edit reached (issue 19: their proof no longer holds there). */
  forget(reached: (key: ChunkKey) => boolean): void {
    for (const key of [...this.pruned]) if (reached(key)) this.pruned.delete(key);
  }

  /** Prunes the requests under `proven` (strict descendants). */
  prune(proven: ChunkAddress, requests: readonly ChunkRequest[]): void {
    if (!this.addresses) {
      const A = new Int32Array(5 * requests.length);
      requests.forEach((r, i) => {
        const a = this.address(r.key);
        A.set([a.face, a.level, a.ci, a.cj, a.ck], 5 * i);
      });
      this.addresses = A;
    }
    const A = this.addresses, p = proven;
    for (let i = 0, o = 0; o < A.length; i++, o += 5) {
      const sh = p.level - A[o + 1];
      if (sh > 0 && A[o] === p.face && A[o + 2] >> sh === p.ci && A[o + 3] >> sh === p.cj && A[o + 4] >> sh === p.ck) this.pruned.add(requests[i].key);
    }
  }
}
