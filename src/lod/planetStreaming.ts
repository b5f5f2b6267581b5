/**
 * The planet's streaming state, pure (docs/lod.md "Streaming that converges"): what the renderer
 * holds, what it draws, which jobs to run next, when a transaction commits, what may be evicted
 * and how coarse the selection must be to fit the memory budget. No workers, no three.js: the
 * renderer (PlanetView) feeds it LOD answers and job results and does what it says; a Node test
 * drives it with simulated workers (test/lod/streaming.test.ts).
 *
 * Pieces are content-addressed: a chunk mesh for one restriction is `c:key|coarser…`, a seam for
 * one set of stitched pieces `s:owner|part ids`. Rules that make streaming converge where the old
 * renderer livelocked at its budget on a 16-core machine (issue 15):
 *
 * - **Never evict a piece that is drawn, that the open transaction uses, or that the selection still
 *   wants** (newest restriction per wanted chunk; a parent's children are shown only when all eight
 *   are in, so a wanted child evicted before its siblings arrive is a job thrown away).
 * - **Memory-adjusted error**, predicted (memoryFactor.ts): the bytes of the wanted chunks that are
 *   in plus the requests still out times the bytes an average chunk job has brought, against the
 *   budget with a dead band.
 * - **Over budget + overflow, only work that moves the drawn set starts**: the open transaction's
 *   jobs, requests on the drawn frontier (parent drawn) and coarser chunks (ancestors of drawn ones,
 *   which let a coarser drawn set commit and free memory). Deeper requests wait.
 * - **A transaction is never cancelled by a newer snapshot**: the newer one waits and is planned
 *   from what the commit drew. A transaction holds only chunks that are in already (the drawn set is
 *   made of ready chunks), so its work is bounded — re-meshes for new restrictions and seams — and
 *   every commit is progress. Replacing open transactions with each newer snapshot never committed
 *   on fast workers (a new snapshot every frame).
 * - **One job out per chunk**, whatever restriction it guessed: a second would only be thrown away.
 * - **A transaction is planned in slices** (transactionPlan.ts), a few milliseconds a frame.
 *
 * Over 500 lines because it is one state machine whose rules interlock (what may be evicted depends
 * on the open transaction and the plan in progress, what may start on the memory factor); the plan,
 * the memory policy, the snapshot indexing and the pruning under proofs (proofPruning.ts) are already
 * their own files.
 */
import type { Brush } from '../field/index.ts';
import type { ChunkAddress, ChunkKey } from './chunkKey.ts';
import { isDescendant, parentKey, parseChunkKey } from './chunkKey.ts';
import type { CubeSphereSpace } from './cubeSphere.ts';
import { GeometryCache } from './GeometryCache.ts';
import { nextErrorFactor } from './memoryFactor.ts';
import { ProofPruning } from './proofPruning.ts';
import type { LodSelectResult, LodSnapshot } from './planetLodSelector.ts';
import type { ChunkRequest } from './requests.ts';
import { runSteps, type Steps } from './steps.ts';
import { chunkPieceId, planTransaction, revisionOfPieceId, type Configuration, type Transaction } from './transactionPlan.ts';
import type { PlanetEdits } from './planetEdits.ts';

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
/** Priority of the open transaction's jobs (they run before any streaming request). */
export const TRANSACTION_PRIORITY = 1e12;
/** The longest a ready transaction waits for its pieces' uploads (ms): then it commits anyway. */
export const COMMIT_UPLOAD_WAIT_MS = 250;

/** A job the renderer should start (and report back with the same id). */
export type PlanetJob =
  | { kind: 'chunk'; id: string; key: ChunkKey; coarser: ChunkKey[]; priority: number }
  | { kind: 'seam'; id: string; owner: ChunkKey; stitches: ChunkKey[]; parts: SeamPartRef[]; priority: number };

/** One chunk a seam reads: a cached chunk piece, or a homogeneous chunk (leaves synthesised by the job). */
export type SeamPartRef =
  | { key: ChunkKey; pieceId: string }
  | { key: ChunkKey; homogeneous: 'empty' | 'full' };

export interface PlanetStreamingOptions<T> {
  space: CubeSphereSpace;
  budgetBytes: number;
  /** Over the budget by this much, the selection coarsens (default a quarter of the budget). */
  overflowBytes?: number;
  /** The one place a piece leaves (evicted, replaced, deleted). */
  dispose: (id: string, piece: T) => void;
  /** Shows or hides a piece (commits). */
  setVisible: (piece: T, visible: boolean) => void;
  /** What the LOD selector must be told: a chunk got its first mesh / lost its last one / is empty or full. */
  onReady: (key: ChunkKey) => void;
  onEvicted: (key: ChunkKey) => void;
  onHomogeneous: (key: ChunkKey, state: 'empty' | 'full', proven: boolean) => void;
  /** Milliseconds a frame may spend planning a transaction (default {@link PLAN_BUDGET_MS}; at least one slice runs). */
  planBudgetMs?: number;
  /** The clock the planning budget is measured with (default performance.now; tests pass their own). */
  clock?: () => number;
  /**
   * Whether a piece's geometry is on the GPU (default: always). A transaction whose pieces are all in
   * waits for their uploads, up to {@link COMMIT_UPLOAD_WAIT_MS}: the commit frame would otherwise
   * upload the rest (60-95 ms render frames on the accelerator machine once pieces arrived faster
   * than the 3 ms a frame of uploads).
   */
  uploaded?: (piece: T) => boolean;
  /** Stop the jobs under a chunk proven homogeneous (default true; benchmarks compare: `?prune=0`). */
  pruneUnderProof?: boolean;
}

interface Entry<T> {
  kind: 'chunk' | 'seam';
  key: ChunkKey;
  piece: T;
  triangles: number;
}

/** The chunk key inside a piece id (`c:key|…` or `s:owner|…`). */
export function keyOfPieceId(id: string): ChunkKey {
  return id.slice(2, id.indexOf('|'));
}

export class PlanetStreaming<T> {
  readonly budgetBytes: number;
  readonly overflowBytes: number;
  /** Multiplies the user's error threshold (≥ 1): the memory policy's answer. */
  errorFactor = 1;
  private readonly cache: GeometryCache<Entry<T>>;
  private readonly idsByKey = new Map<ChunkKey, Set<string>>();
  /** Parsed chunk keys, kept across transactions (successive snapshots share most keys). */
  private readonly addresses = new Map<ChunkKey, ChunkAddress>();
  /** Chunks known to hold no surface. */
  private readonly homogeneous = new Map<ChunkKey, 'empty' | 'full'>();
  private readonly failed = new Set<ChunkKey>();
  /** Requests under a chunk proven homogeneous: not started (proofPruning.ts); their running jobs are cancelled. */
  private readonly pruning = new ProofPruning((key) => this.address(key));
  /** Running jobs stopped by a proof, for the caller to cancel. */
  private cancelled: string[] = [];
  /** Jobs started and not reported back, by id. */
  private readonly running = new Map<string, { kind: 'chunk' | 'seam'; key: ChunkKey }>();
  /** Chunk jobs out per chunk key (any restriction). */
  private readonly runningChunks = new Map<ChunkKey, number>();
  private requests: ChunkRequest[] = [];
  private requestCoarser = new Map<ChunkKey, ChunkKey[]>();
  private wanted = new Set<ChunkKey>();
  private committed: Configuration | null = null;
  private tx: Transaction | null = null;
  /** When the open transaction had every piece in (it may wait for uploads), or null. */
  private txReadyAt: number | null = null;
  /** The next transaction while it is being planned, slice by slice (transactionPlan.ts). */
  private planning: { snapshot: LodSnapshot; steps: Steps<Transaction> } | null = null;
  /** The newest snapshot that arrived while a transaction was open. */
  private pendingSnapshot: LodSnapshot | null = null;
  private drawnIds = new Set<string>();
  /** The user's brushes (issue 19): chunk revisions; null until the first edit. */
  private edits: PlanetEdits | null = null;
  /** Bumped by each edit; the plan of the open transaction and the drawn one carry the one they saw. */
  private editVersion = 0;
  private planningVersion = 0;
  private txVersion = 0;
  private committedVersion = 0;
  private frame = 0;
  private lastCommitAt = -Infinity;
  private now = 0;
  /** Running totals. */
  readonly counts = { chunkJobs: 0, seamJobs: 0, chunksHomogeneous: 0, chunksRemeshed: 0, seamsResent: 0, transactions: 0, deferredSnapshots: 0, evicted: 0, cancelled: 0 };
  /** Bytes of the pieces that may not be evicted, as of the last {@link trim} over budget. */
  protectedBytes = 0;
  /** Predicted bytes of the wanted set (pieces in + requests out × bytes per job), as of the last update. */
  predictedBytes = 0;
  /** Running totals over finished chunk jobs: bytes they brought, and how many. */
  private chunkResultBytes = 0;
  private chunkResults = 0;
  /** The drawn chunks and all their ancestors (built on demand after each commit). */
  private drawnIndex: { drawn: Set<ChunkKey>; ancestors: Set<ChunkKey> } | null = null;

  constructor(private readonly options: PlanetStreamingOptions<T>) {
    this.budgetBytes = options.budgetBytes;
    this.overflowBytes = options.overflowBytes ?? options.budgetBytes / 4;
    this.cache = new GeometryCache<Entry<T>>({
      budgetBytes: options.budgetBytes,
      dispose: (id, entry) => {
        options.dispose(id, entry.piece);
        if (entry.kind !== 'chunk') return;
        const ids = this.idsByKey.get(entry.key);
        ids?.delete(id);
        if (ids && ids.size === 0) {
          this.idsByKey.delete(entry.key);
          this.queued = null;
          options.onEvicted(entry.key);
        }
      },
    });
  }

  get bytes(): number {
    return this.cache.bytes;
  }

  get cachedCount(): number {
    return this.cache.size;
  }

  get runningCount(): number {
    return this.running.size;
  }

  /** Requests of the latest LOD answer not yet started or done. */
  get queuedCount(): number {
    if (this.queued === null) {
      let n = 0;
      for (const r of this.requests) if (this.wantsRequest(r.key)) n++;
      this.queued = n;
    }
    return this.queued;
  }

  /** {@link queuedCount}, kept until something it reads changes (thousands of requests near the ground). */
  private queued: number | null = null;

  /** Chunks in the drawn configuration. */
  get drawnChunks(): number {
    return this.committed?.snapshot.keys.length ?? 0;
  }

  get drawnSnapshot(): LodSnapshot | null {
    return this.committed?.snapshot ?? null;
  }

  get transactionPending(): number {
    return this.tx ? this.tx.waitingChunks.size + this.tx.waitingSeams.size : 0;
  }

  /** No request of the latest LOD answer is waiting or running (the next answer can draw them all). */
  get requestsDrained(): boolean {
    return this.runningChunks.size === 0 && this.queuedCount === 0;
  }

  /** No transaction open, being planned, or waiting for one. */
  get betweenTransactions(): boolean {
    return !this.tx && !this.planning && !this.pendingSnapshot;
  }

  /** Nothing open: no transaction, no waiting snapshot, no job out, no request left. */
  get idle(): boolean {
    return this.betweenTransactions && this.running.size === 0 && this.queuedCount === 0;
  }

  piece(id: string): T | undefined {
    return this.cache.get(id)?.piece;
  }

  /** Pieces drawn now, with their kind and triangle count. */
  *drawnPieces(): IterableIterator<{ id: string; kind: 'chunk' | 'seam'; key: ChunkKey; piece: T; triangles: number }> {
    for (const id of this.drawnIds) {
      const e = this.cache.get(id);
      if (e) yield { id, kind: e.kind, key: e.key, piece: e.piece, triangles: e.triangles };
    }
  }

  /**
   * A LOD answer: the requests and what the selection wants; a new snapshot begins a transaction,
   * or waits for the open one to commit. Returns the ids of running jobs nothing needs any more
   * (the camera moved on): the caller cancels them.
   */
  onSelect(result: LodSelectResult): string[] {
    this.queued = null;
    this.requests = result.requests.filter((r) => !this.failed.has(r.key));
    this.pruning.requestsChanged();
    this.requestCoarser = new Map(result.requests.map((r, i) => [r.key, result.requestCoarser[i]]));
    this.wanted = new Set(result.wanted);
    if (result.problems.length === 0 && result.snapshot) {
      for (let i = 0; i < result.snapshot.keys.length; i++) {
        const h = result.snapshot.homogeneous[i];
        if (h) this.homogeneous.set(result.snapshot.keys[i], h);
      }
      if (this.pendingSnapshot) this.counts.deferredSnapshots++;
      this.pendingSnapshot = result.snapshot;
    }
    const requested = new Set(this.requests.map((r) => r.key));
    const stale: string[] = [];
    for (const [id, job] of this.running) {
      if (this.txUses(id)) continue;
      if (job.kind === 'chunk' && requested.has(job.key)) continue;
      stale.push(id);
      this.stopRunning(id);
      this.counts.cancelled++;
    }
    this.queued = null;
    return stale;
  }

  private txUses(id: string): boolean {
    const tx = this.tx;
    if (!tx) return false;
    const key = keyOfPieceId(id);
    return tx.chunkIds.get(key) === id || tx.seamIds.get(key) === id;
  }

  /**
   * Per frame (`nowMs`: the frame's time): fills in what finished, commits the open transaction when nothing is left (then
   * begins the waiting snapshot's), trims the cache and moves the memory factor.
   */
  update(nowMs: number): void {
    this.frame++;
    this.now = nowMs;
    this.advanceTransaction();
    this.trim();
    this.adjustErrorFactor();
  }

  private advanceTransaction(): void {
    if (!this.tx && !this.planning && this.pendingSnapshot && this.now - this.lastCommitAt >= MIN_COMMIT_INTERVAL_MS) {
      const snapshot = this.pendingSnapshot;
      this.pendingSnapshot = null;
      const edits = this.edits;
      this.planningVersion = this.editVersion;
      this.planning = {
        snapshot,
        steps: planTransaction({
          space: this.options.space, before: this.committed, snapshot, addresses: this.addresses,
          homogeneous: this.homogeneous, cached: (id) => this.cache.has(id),
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
      if (!done) return;
      this.tx = done.value;
      this.txVersion = this.planningVersion;
      this.txReadyAt = null;
      this.planning = null;
    }
    const tx = this.tx;
    if (!tx) return;
    for (const key of tx.waitingChunks) {
      const id = tx.chunkIds.get(key);
      if (id === null || (id !== undefined && this.cache.has(id))) tx.waitingChunks.delete(key);
      else if (this.homogeneous.has(key)) {
        tx.chunkIds.set(key, null);
        tx.waitingChunks.delete(key);
      }
    }
    for (const owner of tx.waitingSeams) {
      const id = tx.seamIds.get(owner);
      if (id !== undefined && (id === null || this.cache.has(id))) tx.waitingSeams.delete(owner);
    }
    if (tx.waitingChunks.size > 0 || tx.waitingSeams.size > 0) return;
    this.txReadyAt ??= this.now;
    if (this.now - this.txReadyAt < COMMIT_UPLOAD_WAIT_MS && !this.txUploaded(tx)) return;
    this.commit(tx);
  }

  /** Every piece the transaction shows is uploaded (the first one that is not ends the look). */
  private txUploaded(tx: Transaction): boolean {
    const uploaded = this.options.uploaded;
    if (!uploaded) return true;
    for (const ids of [tx.chunkIds, tx.seamIds]) {
      for (const id of ids.values()) {
        if (id === null || this.drawnIds.has(id)) continue;
        const e = this.cache.get(id);
        if (e && !uploaded(e.piece)) return false;
      }
    }
    return true;
  }

  /** The swap: one frame, the old chunks and seams out, the new ones in. */
  private commit(tx: Transaction): void {
    const next = new Set<string>();
    for (const id of tx.chunkIds.values()) if (id) next.add(id);
    for (const id of tx.seamIds.values()) if (id) next.add(id);
    for (const id of this.drawnIds) {
      if (next.has(id)) continue;
      const entry = this.cache.get(id);
      if (entry) this.options.setVisible(entry.piece, false);
      // Seams are exact for one snapshot only: the replaced ones go now (chunks stay cached for reuse).
      if (entry?.kind === 'seam') this.cache.delete(id);
    }
    for (const id of next) {
      const entry = this.cache.get(id);
      if (entry) this.options.setVisible(entry.piece, true);
    }
    this.drawnIds = next;
    this.drawnIndex = null;
    this.committed = { lod: tx.lod, snapshot: tx.snapshot, chunkIds: tx.chunkIds, seamIds: tx.seamIds };
    this.committedVersion = this.txVersion;
    this.tx = null;
    this.txReadyAt = null;
    this.counts.transactions++;
    this.lastCommitAt = this.now;
    this.cache.markVisible(next, this.frame);
  }

  /** The pieces that may not be evicted: drawn, used by the open or waiting transaction, or wanted. */
  private protectedIds(): Set<string> {
    const keep = new Set(this.drawnIds);
    const tx = this.tx;
    if (tx) {
      for (const id of tx.chunkIds.values()) if (id) keep.add(id);
      for (const id of tx.seamIds.values()) if (id) keep.add(id);
    }
    for (const key of [...this.wanted, ...(this.pendingSnapshot?.keys ?? []), ...(this.planning?.snapshot.keys ?? [])]) {
      const id = this.newestPiece(key);
      if (id) keep.add(id);
    }
    return keep;
  }

  /**
   * Whether some piece of this chunk is cached (any restriction): a job for it is a re-mesh, which
   * a worker that kept the chunk's samples answers without sampling again.
   */
  hasPiece(key: ChunkKey): boolean {
    return this.idsByKey.has(key);
  }

  /** The newest piece of a chunk (any restriction): insertion order puts it last. */
  private newestPiece(key: ChunkKey): string | undefined {
    const ids = this.idsByKey.get(key);
    if (!ids) return undefined;
    let last: string | undefined;
    for (const id of ids) last = id;
    return last;
  }

  /**
   * Evicts least-recently-visible unprotected pieces down to the budget. The protected set is built
   * only when over budget: with ~4,000 chunks drawn it is tens of thousands of set operations.
   */
  private trim(): void {
    // Not while a transaction is being planned: the pieces it will use are not known yet (a few frames).
    if (this.cache.overBudget === 0 || this.planning) return;
    const keep = this.protectedIds();
    let protectedBytes = 0;
    for (const id of keep) protectedBytes += this.cache.bytesOf(id);
    this.protectedBytes = protectedBytes;
    this.counts.evicted += this.cache.trim(keep).length;
  }

  /** Bytes of the newest piece of every wanted chunk that is in. */
  private wantedBytes(): number {
    let bytes = 0;
    for (const key of this.wanted) {
      const id = this.newestPiece(key);
      if (id) bytes += this.cache.bytesOf(id);
    }
    return bytes;
  }

  private adjustErrorFactor(): void {
    const perJob = this.chunkResults > 0 ? this.chunkResultBytes / this.chunkResults : 0;
    this.predictedBytes = this.wantedBytes() + this.queuedCount * perJob;
    this.errorFactor = nextErrorFactor(this.errorFactor, this.predictedBytes, this.cache.bytes, this.budgetBytes);
  }

  /** Over budget + overflow: only work that moves the drawn set starts (see the header). */
  get memoryFull(): boolean {
    return this.cache.bytes > this.budgetBytes + this.overflowBytes;
  }

  /** May this request start while memory is full: on the drawn frontier, or coarser than something drawn. */
  private movesDrawnSet(key: ChunkKey): boolean {
    if (!this.committed) return true;
    if (!this.drawnIndex) {
      // Built once per commit: the drawn keys, and every ancestor of them.
      const drawn = new Set(this.committed.snapshot.keys);
      const ancestors = new Set<ChunkKey>();
      const rootLevel = this.options.space.levels;
      for (const k of drawn) {
        for (let p = parentKey(parseChunkKey(k), rootLevel); p !== null && !ancestors.has(p); p = parentKey(parseChunkKey(p), rootLevel)) ancestors.add(p);
      }
      this.drawnIndex = { drawn, ancestors };
    }
    if (this.drawnIndex.ancestors.has(key)) return true;
    const parent = parentKey(parseChunkKey(key), this.options.space.levels);
    return parent !== null && this.drawnIndex.drawn.has(parent);
  }

  private wantsRequest(key: ChunkKey): boolean {
    if (this.idsByKey.has(key) || this.failed.has(key) || this.homogeneous.has(key) || this.pruning.has(key)) return false;
    // Any chunk job for the key will do: its restriction guess may have changed since it started
    // (the selection moved), and a second job for the same chunk would only be thrown away.
    return !this.runningChunks.has(key);
  }

  /**
   * The jobs to start now, most urgent first: the open transaction's chunks, then its seams, then
   * the streaming requests (those that move the drawn set only, while memory is full) — while
   * `mayStart()` says the frame has time and at most `maxRunning` jobs are out. Lazy: each job is
   * marked running as it is yielded, and `mayStart()` is asked again only when the caller wants
   * the next one, so the time the caller spends starting a job (cloning a seam's leaves, posting a
   * GPU request) counts against the budget. Built eagerly, the list came out in microseconds and
   * its starts then took 168 ms of one frame on the H100 machine.
   */
  *startJobs(maxRunning: number, mayStart: () => boolean = () => true): Generator<PlanetJob, void, undefined> {
    this.queued = null;
    const mark = (job: PlanetJob): PlanetJob => {
      this.running.set(job.id, { kind: job.kind, key: job.kind === 'chunk' ? job.key : job.owner });
      if (job.kind === 'chunk') this.runningChunks.set(job.key, (this.runningChunks.get(job.key) ?? 0) + 1);
      if (job.kind === 'chunk') this.counts.chunkJobs++;
      else this.counts.seamJobs++;
      return job;
    };
    const tx = this.tx;
    if (tx) {
      for (const key of tx.waitingChunks) {
        if (this.running.size >= maxRunning || !mayStart()) return;
        const id = tx.chunkIds.get(key)!;
        if (!this.running.has(id)) yield mark({ kind: 'chunk', id, key, coarser: tx.snapshot.coarser[tx.index.get(key)!], priority: TRANSACTION_PRIORITY });
      }
      // The budget is asked before each seam is looked at: forming a seam's id joins its parts' ids,
      // and a transaction of ~2,000 seams formed them all every frame (116 ms on the H100 machine).
      for (const owner of tx.waitingSeams) {
        if (this.running.size >= maxRunning || !mayStart()) return;
        const job = this.seamJob(tx, owner);
        if (job) yield mark(job);
      }
    }
    const full = this.memoryFull;
    for (const req of this.requests) {
      if (this.running.size >= maxRunning || !mayStart()) return;
      if (!this.wantsRequest(req.key)) continue;
      if (full && !this.movesDrawnSet(req.key)) continue;
      const coarser = this.requestCoarser.get(req.key) ?? [];
      const revision = this.edits ? this.edits.revision(this.address(req.key)) : '';
      yield mark({ kind: 'chunk', id: chunkPieceId(req.key, coarser, revision), key: req.key, coarser, priority: req.priority });
    }
  }

  /** {@link startJobs}, all at once (tests and simulations). */
  nextJobs(maxRunning: number, mayStart: () => boolean = () => true): PlanetJob[] {
    return [...this.startJobs(maxRunning, mayStart)];
  }

  /** The seam job of `owner` once every piece it reads is in (null: not yet, running, done, or settled as empty). */
  private seamJob(tx: Transaction, owner: ChunkKey): PlanetJob | null {
    const sid = tx.seamIds.get(owner);
    if (sid === null || (sid !== undefined && (this.running.has(sid) || this.cache.has(sid)))) return null;
    const i = tx.index.get(owner)!;
    const stitches = tx.snapshot.stitches[i];
    const parts: SeamPartRef[] = [];
    const ids: string[] = [];
    const states = new Set<string>();
    for (const key of [owner, ...stitches]) {
      const cid = tx.chunkIds.get(key);
      if (cid === undefined || tx.waitingChunks.has(key)) return null;
      if (cid === null) {
        const h = this.homogeneous.get(key)!;
        states.add(h);
        ids.push(`${key}:${h}`);
        parts.push({ key, homogeneous: h });
      } else {
        if (!this.cache.has(cid)) return null;
        states.add('surface');
        ids.push(cid);
        parts.push({ key, pieceId: cid });
      }
    }
    if (states.size === 1 && !states.has('surface')) {
      // Every chunk it stitches is empty (or every one full): no sign change, no seam.
      tx.seamIds.set(owner, null);
      tx.waitingSeams.delete(owner);
      return null;
    }
    const id = `s:${owner}|${ids.join(';')}`;
    tx.seamIds.set(owner, id);
    if (this.cache.has(id) || this.running.has(id)) return null;
    return { kind: 'seam', id, owner, stitches: [...stitches], parts, priority: TRANSACTION_PRIORITY + 1 };
  }

  /** Forgets a job that ended (done, failed or cancelled); false when it was not running. */
  private stopRunning(id: string): boolean {
    const job = this.running.get(id);
    if (!job) return false;
    this.running.delete(id);
    if (job.kind === 'chunk') {
      const n = (this.runningChunks.get(job.key) ?? 1) - 1;
      if (n > 0) this.runningChunks.set(job.key, n);
      else this.runningChunks.delete(job.key);
    }
    return true;
  }

  /** A chunk job finished: a piece (surface) or a homogeneous answer. Stale ids are dropped (returns false) and their piece disposed. */
  chunkDone(id: string, key: ChunkKey, result: { homogeneous: { state: 'empty' | 'full'; proven: boolean } } | { piece: T; bytes: number; triangles: number }): boolean {
    const current = this.stopRunning(id);
    this.queued = null;
    this.chunkResults++;
    if ('homogeneous' in result) {
      // Made with other brushes than the chunk has now (an edit or undo since it started): a piece is
      // still right for its id, but "empty" or "full" would speak for the wrong field.
      if (this.revisionMoved(id, key)) return current;
      this.counts.chunksHomogeneous++;
      this.homogeneous.set(key, result.homogeneous.state);
      if (result.homogeneous.proven && this.options.pruneUnderProof !== false) this.pruneUnder(key);
      this.options.onHomogeneous(key, result.homogeneous.state, result.homogeneous.proven);
      return current;
    }
    if (this.idsByKey.has(key)) this.counts.chunksRemeshed++;
    this.chunkResultBytes += result.bytes;
    this.cache.set(id, { kind: 'chunk', key, piece: result.piece, triangles: result.triangles }, result.bytes, this.frame);
    let ids = this.idsByKey.get(key);
    if (!ids) {
      ids = new Set();
      this.idsByKey.set(key, ids);
      this.options.onReady(key);
    }
    ids.delete(id);
    ids.add(id); // newest last
    return current;
  }

  /** Marks the requests under a proven-homogeneous chunk, and stops their running jobs (not an open transaction's). */
  private pruneUnder(key: ChunkKey): void {
    const p = this.address(key);
    this.pruning.prune(p, this.requests);
    for (const [id, job] of this.running) {
      if (job.kind !== 'chunk' || this.txUses(id) || !isDescendant(this.address(job.key), p)) continue;
      this.stopRunning(id);
      this.cancelled.push(id);
      this.counts.cancelled++;
    }
  }

  private address(key: ChunkKey): ChunkAddress {
    let a = this.addresses.get(key);
    if (!a) {
      a = parseChunkKey(key);
      this.addresses.set(key, a);
    }
    return a;
  }

  /** Ids of running jobs a proof made useless since the last call: the caller cancels them. */
  takeCancelled(): string[] {
    const ids = this.cancelled;
    this.cancelled = [];
    return ids;
  }

  /** A seam job finished (`result` null: its worker lacked some chunk's leaves; the seam is started again, counted in seamsResent). */
  seamDone(id: string, owner: ChunkKey, result: { piece: T; bytes: number; triangles: number } | null): void {
    this.stopRunning(id);
    if (!result) {
      this.counts.seamsResent++;
      return;
    }
    this.cache.set(id, { kind: 'seam', key: owner, piece: result.piece, triangles: result.triangles }, result.bytes, this.frame);
  }

  /** A job failed for good (not cancelled): the chunk is not requested again (unless an edit moved it since). */
  jobFailed(id: string, kind: 'chunk' | 'seam', key: ChunkKey): void {
    this.stopRunning(id);
    this.queued = null;
    if (kind === 'chunk' && !this.revisionMoved(id, key)) this.failed.add(key);
  }

  /** Chunk job `id` was made for other brushes than those reaching `key` now. */
  private revisionMoved(id: string, key: ChunkKey): boolean {
    return this.edits !== null && revisionOfPieceId(id) !== this.edits.revision(this.address(key));
  }

  /**
   * The planet's brushes changed (issue 19; `changed`: the brushes added or taken back). What is
   * known about the chunks they reach is forgotten (empty or full, proofs, failures), and the drawn
   * configuration is planned again: the chunks whose revision moved, and the seams reading them, are
   * meshed in one transaction while the old pieces stay drawn. An open transaction that uses a
   * reached chunk is dropped for a new plan (its finished pieces stay cached): an edit is a user's
   * click, not a stream of snapshots, so this cannot livelock. Returns the running jobs of reached
   * chunks it stopped, for the caller to cancel; answers of jobs that ran anyway are checked against
   * the chunk's revision when they come ({@link chunkDone}).
   */
  setEdits(edits: PlanetEdits, changed: readonly Brush[]): string[] {
    this.edits = edits;
    this.editVersion++;
    const changes = edits.with(changed);
    const reached = (key: ChunkKey): boolean => changes.brushesFor(this.address(key)).length > 0;
    for (const key of [...this.homogeneous.keys()]) if (reached(key)) this.homogeneous.delete(key);
    for (const key of [...this.failed]) if (reached(key)) this.failed.delete(key);
    this.pruning.forget(reached);
    this.queued = null;
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
    this.pendingSnapshot ??= this.tx?.snapshot ?? this.committed?.snapshot ?? null;
    // Running jobs of reached chunks mesh the old field: stopped (the caller cancels them).
    const stopped: string[] = [];
    for (const [id, job] of this.running) {
      if (job.kind !== 'chunk' || this.txUses(id) || !reached(job.key)) continue;
      this.stopRunning(id);
      stopped.push(id);
      this.counts.cancelled++;
    }
    return stopped;
  }

  /** The drawn configuration was planned after the newest edit (every plan begun after it is wholly current). */
  get editsDrawn(): boolean {
    return this.committedVersion === this.editVersion;
  }

  /** Drops everything (each piece disposed once). */
  clear(): void {
    this.planning = null;
    this.cache.clear();
    this.running.clear();
    this.runningChunks.clear();
    this.queued = null;
  }
}
