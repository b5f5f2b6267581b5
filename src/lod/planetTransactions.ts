/**
 * The planet's drawn configuration and the move to the next one (docs/lod.md "Streaming that
 * converges"; planetStreaming.ts keeps one): a LOD snapshot waits, is planned in slices
 * (transactionPlan.ts) into a transaction — the chunk pieces and seams it needs — and once every one
 * is in (and uploaded, or a bound passed), the old pieces are hidden and the new ones shown in one
 * frame, so a crack never shows. What the transaction still waits for, the streaming model
 * runs jobs for; which pieces it uses, the model never evicts.
 *
 * - **A transaction is never cancelled by a newer snapshot**: the newer one waits and is planned
 *   from what the commit drew. A transaction holds only chunks that are in already (the drawn set is
 *   made of ready chunks), so its work is bounded — re-meshes for new restrictions and seams — and
 *   every commit is progress. Replacing open transactions with each newer snapshot never committed
 *   on fast workers (a new snapshot every frame).
 * - **A transaction is planned in slices**, a few milliseconds a frame.
 * - **An edit replans** (issue 19): an open transaction that uses a reached chunk is dropped for a
 *   new plan; each plan carries the edit version it saw, so the app knows when the drawn set shows
 *   the newest edit.
 * Pure.
 */
import type { ChunkAddress, ChunkKey } from './chunkKey.ts';
import type { CubeSphereSpace } from './cubeSphere.ts';
import type { PlanetEdits } from './planetEdits.ts';
import type { LodSnapshot } from './planetLodSelector.ts';
import type { PlanetPieceSink } from './pieceProvider.ts';
import type { PieceStore } from './pieceStore.ts';
import { keyOfPieceId } from './pieceStore.ts';
import { runSteps, type Steps } from './frameSlices.ts';
import { planTransaction, settleWaiting, type Configuration, type Transaction } from './transactionPlan.ts';

/**
 * Time between a commit and the next transaction's start (ms): snapshots arriving meanwhile are
 * folded into one (the newest). In the simulation (60 frames/s) 8 frames cut transactions 64 → 24
 * (each costs a plan on the main thread and rebuilds every seam around what changed) and the
 * teleport finished sooner. In time, not frames: at a software renderer's 4 frames a second, 8
 * frames held back visible progress (288 chunks drawn at 10 m in the browser flight against 432).
 */
export const MIN_COMMIT_INTERVAL_MS = 130;
/** A frame's share of transaction planning (ms). */
export const PLAN_BUDGET_MS = 4;
/**
 * The longest a ready transaction waits for its pieces' uploads (ms): then it commits anyway. Without
 * the wait the commit frame uploaded the rest (60-95 ms render frames on the accelerator machine once
 * pieces arrived faster than the 3 ms a frame of uploads).
 */
export const COMMIT_UPLOAD_WAIT_MS = 250;

export interface PlanetTransactionsOptions<T> {
  space: CubeSphereSpace;
  /** Parsed chunk keys, shared with the model (successive snapshots share most keys). */
  addresses: Map<ChunkKey, ChunkAddress>;
  /** Chunks known to hold no surface (the model's record). */
  homogeneous: ReadonlyMap<ChunkKey, 'empty' | 'full'>;
  store: PieceStore<T>;
  /** Whether a piece is uploaded; shows and hides pieces. */
  pieces: PlanetPieceSink<T>;
  /** Running totals the model reports. */
  counts: { transactions: number; deferredSnapshots: number };
  /** Milliseconds a frame may spend planning (default {@link PLAN_BUDGET_MS}; at least one slice runs). */
  planBudgetMs?: number;
  /** The clock the planning budget is measured with (default performance.now; tests pass their own). */
  clock?: () => number;
}

export class PlanetTransactions<T> {
  private committedConfig: Configuration | null = null;
  private tx: Transaction | null = null;
  /** When the open transaction had every piece in (it may wait for uploads), or null. */
  private txReadyAt: number | null = null;
  /** The next transaction while it is being planned, slice by slice (transactionPlan.ts). */
  private planning: { snapshot: LodSnapshot; steps: Steps<Transaction> } | null = null;
  /** The newest snapshot that arrived while a transaction was open. */
  private pendingSnapshot: LodSnapshot | null = null;
  private drawn = new Set<string>();
  /** Bumped by each edit; the plan of the open transaction and the drawn one carry the one they saw. */
  private editVersion = 0;
  private planningVersion = 0;
  private txVersion = 0;
  private committedVersion = 0;
  private lastCommitAt = -Infinity;

  constructor(private readonly options: PlanetTransactionsOptions<T>) {}

  /** The drawn configuration (null before the first commit). */
  get committed(): Configuration | null {
    return this.committedConfig;
  }

  /** The open transaction, or null. */
  get open(): Transaction | null {
    return this.tx;
  }

  /** Piece ids drawn now. */
  get drawnIds(): ReadonlySet<string> {
    return this.drawn;
  }

  /** Chunks and seams the open transaction still waits for (0 when none). */
  get pending(): number {
    return this.tx ? this.tx.waitingChunks.size + this.tx.waitingSeams.size : 0;
  }

  /** No transaction open, being planned, or waiting for one. */
  get between(): boolean {
    return !this.tx && !this.planning && !this.pendingSnapshot;
  }

  /** A transaction is being planned (the pieces it will use are not known yet). */
  get planningNow(): boolean {
    return this.planning !== null;
  }

  /** The drawn configuration was planned after the newest edit (every plan begun after it is wholly current). */
  get editsDrawn(): boolean {
    return this.committedVersion === this.editVersion;
  }

  /** A new snapshot to draw: the next transaction's (a waiting one is replaced: the newest wins). */
  offer(snapshot: LodSnapshot): void {
    if (this.pendingSnapshot) this.options.counts.deferredSnapshots++;
    this.pendingSnapshot = snapshot;
  }

  /** Piece `id` is one the open transaction shows. */
  uses(id: string): boolean {
    const tx = this.tx;
    if (!tx) return false;
    const key = keyOfPieceId(id);
    return tx.chunkIds.get(key) === id || tx.seamIds.get(key) === id;
  }

  /** Adds what the commits need kept to `keep`: the drawn pieces and the open transaction's. */
  keepUsed(keep: Set<string>): void {
    for (const id of this.drawn) keep.add(id);
    const tx = this.tx;
    if (tx) {
      for (const id of tx.chunkIds.values()) if (id) keep.add(id);
      for (const id of tx.seamIds.values()) if (id) keep.add(id);
    }
  }

  /** The chunks of the snapshots waiting or being planned (their newest pieces are kept too). */
  waitingKeys(): ChunkKey[] {
    return [...(this.pendingSnapshot?.keys ?? []), ...(this.planning?.snapshot.keys ?? [])];
  }

  /**
   * Per frame: begins planning the waiting snapshot (not sooner than {@link MIN_COMMIT_INTERVAL_MS}
   * after the last commit), plans a slice, settles what came in, and commits once nothing is left.
   * True when it committed.
   */
  advance(nowMs: number, frame: number, edits: PlanetEdits | null): boolean {
    if (!this.tx && !this.planning && this.pendingSnapshot && nowMs - this.lastCommitAt >= MIN_COMMIT_INTERVAL_MS) {
      const snapshot = this.pendingSnapshot;
      this.pendingSnapshot = null;
      this.planningVersion = this.editVersion;
      const store = this.options.store;
      this.planning = {
        snapshot,
        steps: planTransaction({
          space: this.options.space, before: this.committedConfig, snapshot, addresses: this.options.addresses,
          homogeneous: this.options.homogeneous, cached: (id) => store.has(id),
          revision: edits ? (a) => edits.revision(a) : undefined,
        }),
      };
    }
    if (this.planning) {
      // The plan in slices within the frame's share (at least one slice a frame): planning over
      // ~4,000 chunks at once took up to 42 ms of a frame on the accelerator machine.
      const clock = this.options.clock ?? (() => performance.now());
      const start = clock();
      const budget = this.options.planBudgetMs ?? PLAN_BUDGET_MS;
      const done = runSteps(this.planning.steps, () => clock() - start >= budget);
      if (!done) return false;
      this.tx = done.value;
      this.txVersion = this.planningVersion;
      this.txReadyAt = null;
      this.planning = null;
    }
    const tx = this.tx;
    if (!tx) return false;
    if (!settleWaiting(tx, (id) => this.options.store.has(id), this.options.homogeneous)) return false;
    this.txReadyAt ??= nowMs;
    if (nowMs - this.txReadyAt < COMMIT_UPLOAD_WAIT_MS && !this.uploaded(tx)) return false;
    this.commit(tx, nowMs, frame);
    return true;
  }

  /** Every piece the transaction shows is uploaded (the first one that is not ends the look). */
  private uploaded(tx: Transaction): boolean {
    const { store, pieces } = this.options;
    for (const ids of [tx.chunkIds, tx.seamIds]) {
      for (const id of ids.values()) {
        if (id === null || this.drawn.has(id)) continue;
        const e = store.get(id);
        if (e && !pieces.ready(e.piece)) return false;
      }
    }
    return true;
  }

  /** The swap: one frame, the old chunks and seams out, the new ones in. */
  private commit(tx: Transaction, nowMs: number, frame: number): void {
    const { store, pieces } = this.options;
    const next = new Set<string>();
    for (const id of tx.chunkIds.values()) if (id) next.add(id);
    for (const id of tx.seamIds.values()) if (id) next.add(id);
    for (const id of this.drawn) {
      if (next.has(id)) continue;
      const entry = store.get(id);
      if (entry) pieces.show(entry.piece, false);
      // Seams are exact for one snapshot only: the replaced ones go now (chunks stay cached for reuse).
      if (entry?.kind === 'seam') store.delete(id);
    }
    for (const id of next) {
      const entry = store.get(id);
      if (entry) pieces.show(entry.piece, true);
    }
    this.drawn = next;
    this.committedConfig = { lod: tx.lod, snapshot: tx.snapshot, chunkIds: tx.chunkIds, seamIds: tx.seamIds };
    this.committedVersion = this.txVersion;
    this.tx = null;
    this.txReadyAt = null;
    this.options.counts.transactions++;
    this.lastCommitAt = nowMs;
    store.markVisible(next, frame);
  }

  /**
   * The planet's brushes changed (`reached`: whether a chunk's revision may have moved): the plan in
   * progress and an open transaction that uses a reached chunk are dropped for a new plan (its
   * finished pieces stay cached), and the drawn configuration is planned again if nothing else waits.
   */
  edited(reached: (key: ChunkKey) => boolean): void {
    this.editVersion++;
    if (this.planning) {
      this.pendingSnapshot ??= this.planning.snapshot;
      this.planning = null;
    }
    const tx = this.tx;
    if (tx && [...tx.chunkIds.keys()].some(reached)) {
      this.pendingSnapshot ??= tx.snapshot;
      this.tx = null;
      this.txReadyAt = null;
    }
    this.pendingSnapshot ??= this.tx?.snapshot ?? this.committedConfig?.snapshot ?? null;
  }

  /** Stops planning (the model is cleared). */
  clear(): void {
    this.planning = null;
  }
}
