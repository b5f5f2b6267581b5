/**
 * What the planet's streaming knows about chunks that hold no surface, for planetStreaming.ts
 * (docs/lod.md "Proofs from a band-limited chunk", "Proofs for the children"). A chunk is empty or
 * full by the selection's record, by its own job, or by its parent's samples (a child's proof).
 * A proven chunk's descendants hold no surface either: their requests are not started
 * (proofPruning.ts) and the owner cancels their running jobs. What is known is forgotten where a
 * brush reaches (issue 19). Pure.
 */
import type { ChunkAddress, ChunkKey } from './chunkKey.ts';
import { childAddress, keyOf } from './chunkKey.ts';
import type { ChildProof, Homogeneous } from './culling.ts';
import type { LodSnapshot } from './planetLodSelector.ts';
import { ProofPruning } from './proofPruning.ts';
import type { ChunkRequest } from './requests.ts';

export interface HomogeneousChunksOptions {
  address: (key: ChunkKey) => ChunkAddress;
  /** The streaming's running totals this module adds to. */
  counts: { chunksHomogeneous: number; childrenProven: number };
  /** The current LOD answer's requests (what a proof prunes). */
  requests: () => readonly ChunkRequest[];
  /** Cancels the running chunk jobs strictly under a proven chunk (not an open transaction's). */
  cancelUnder: (proven: ChunkAddress) => void;
  /** The LOD selector is told: a chunk is empty or full, `proven` for its descendants too. */
  onHomogeneous: (key: ChunkKey, state: Homogeneous, proven: boolean) => void;
  /** Stop the jobs under a proven chunk (false: benchmarks compare, `?prune=0`). */
  pruneUnderProof: boolean;
  /** File the children a surface chunk's samples prove (false: benchmarks compare, `?childProofs=0`). */
  childProofs: boolean;
}

export class HomogeneousChunks {
  /** Chunks known to hold no surface (read by the transactions and seam plans). */
  readonly states = new Map<ChunkKey, Homogeneous>();
  private readonly pruning: ProofPruning;

  constructor(private readonly options: HomogeneousChunksOptions) {
    this.pruning = new ProofPruning(options.address);
  }

  /** A new LOD answer: its requests are indexed again at the next proof; its snapshot's empty and full leaves are known. */
  selected(snapshot: LodSnapshot | null): void {
    this.pruning.requestsChanged();
    if (!snapshot) return;
    for (let i = 0; i < snapshot.keys.length; i++) {
      const h = snapshot.homogeneous[i];
      if (h) this.states.set(snapshot.keys[i], h);
    }
  }

  /** No job is needed for `key`: it is known empty or full, or under a proof. */
  settles(key: ChunkKey): boolean {
    return this.states.has(key) || this.pruning.has(key);
  }

  /** A chunk job's answer about its own chunk. */
  chunkAnswer(key: ChunkKey, state: Homogeneous, proven: boolean): void {
    this.options.counts.chunksHomogeneous++;
    this.file(key, state, proven);
  }

  /** A chunk job's proofs for its eight children (by child index; 0: nothing proven). */
  childAnswers(parent: ChunkAddress, proofs: readonly ChildProof[] | undefined): void {
    if (!proofs || !this.options.childProofs) return;
    proofs.forEach((p, c) => {
      if (p === 0) return;
      const key = keyOf(childAddress(parent, c));
      if (!this.states.has(key)) this.options.counts.childrenProven++; // counted once a chunk
      this.file(key, p === 1 ? 'empty' : 'full', true);
    });
  }

  /**
   * Forgets what is known where `reached` says an edit reached and `breaks` says it can change the
   * state (planetEdits.ts `brokenMarks`: a dig cannot fill the air); what was pruned under a proof
   * there is forgotten whatever the proof's state.
   */
  forget(reached: (key: ChunkKey) => boolean, breaks: (state: Homogeneous) => boolean = () => true): void {
    for (const [key, state] of [...this.states]) if (breaks(state) && reached(key)) this.states.delete(key);
    this.pruning.forget(reached);
  }

  /**
   * Filed again, a proof is harmless; an unproven mark never undoes a proof in the selector's record
   * (culling.ts `HomogeneousRecord.mark`).
   */
  private file(key: ChunkKey, state: Homogeneous, proven: boolean): void {
    this.states.set(key, state);
    if (proven && this.options.pruneUnderProof) {
      const p = this.options.address(key);
      this.pruning.prune(p, this.options.requests());
      this.options.cancelUnder(p);
    }
    this.options.onHomogeneous(key, state, proven);
  }
}
