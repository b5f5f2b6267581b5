/**
 * The planet's streaming state, pure (docs/lod.md "Streaming that converges"): what the renderer
 * holds, what it draws, which jobs to run next, when a transaction commits, what may be evicted
 * and how coarse the selection must be to fit the memory budget. No workers, no three.js: it owns
 * the planet's jobs (their ledger, jobLedger.ts) and talks to an injected piece provider
 * (pieceProvider.ts: jobs run by src/workers/PlanetJobs.ts, pieces made and shown by
 * src/render/planetPieces.ts); the app (PlanetView) feeds it LOD answers, tells it when to start jobs
 * and when to apply finished ones. Node tests drive it with a fake provider and simulated workers
 * (test/lod/planetStreaming.test.ts, test/lod/streamingSim.ts).
 *
 * Pieces are content-addressed (pieceStore.ts): a chunk mesh for one restriction is `c:key|coarser…`,
 * a seam for one set of stitched pieces `s:owner|part ids`; the drawn configuration and the move to
 * the next one are planetTransactions.ts's. Rules that make streaming converge where the old
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
 * - **A transaction is never cancelled by a newer snapshot** (planetTransactions.ts), and its jobs
 *   are never cancelled as stale.
 * - **One job out per chunk**, whatever restriction it guessed: a second would only be thrown away.
 */
import type { Brush } from '../field/index.ts';
import type { ChunkAddress, ChunkKey } from './chunkKey.ts';
import { isDescendant, parseChunkKey } from './chunkKey.ts';
import type { CubeSphereSpace } from './cubeSphere.ts';
import { JobLedger, type Finished, type LedgerEntry } from './jobLedger.ts';
import { MemoryPolicy } from './memoryFactor.ts';
import { TimeBudget, type StreamingPace } from './timeFactor.ts';
import { HomogeneousChunks } from './homogeneousChunks.ts';
import { PieceStore } from './pieceStore.ts';
import { PlanetTransactions } from './planetTransactions.ts';
import type { LodSelectResult, LodSnapshot } from './planetLodSelector.ts';
import type { ChunkRequest } from './requests.ts';
import type { ChunkOutcome, JobReport, PlanetPieceProvider, SeamOutcome, SeamPart } from './pieceProvider.ts';
import { chunkPieceId, revisionOfPieceId, seamParts, type Transaction } from './transactionPlan.ts';
import { brokenMarks, type PlanetEdits } from './planetEdits.ts';

/** Priority of the open transaction's jobs (they run before any streaming request). */
export const TRANSACTION_PRIORITY = 1e12;

/** A job the model decided to start (the provider is given it with brushes and the app's priority offset). */
type PlannedJob<T> =
  | { kind: 'chunk'; id: string; key: ChunkKey; coarser: ChunkKey[]; priority: number }
  | { kind: 'seam'; id: string; owner: ChunkKey; stitches: ChunkKey[]; parts: SeamPart<T>[]; priority: number };

/** What applying a finished job calls: the provider's `make` (a chunk's is told whether it re-meshed). */
type Make<T> = ((remesh: boolean) => ChunkOutcome<T>) | (() => SeamOutcome<T>);

export interface PlanetStreamingOptions<T> {
  space: CubeSphereSpace;
  budgetBytes: number;
  /** Over the budget by this much, the selection coarsens (default a quarter of the budget). */
  overflowBytes?: number;
  /** Runs the jobs, makes, shows and disposes the pieces (pieceProvider.ts). */
  provider: PlanetPieceProvider<T>;
  /** What the LOD selector must be told: a chunk got its first mesh / lost its last one / is empty or full. */
  onReady: (key: ChunkKey) => void;
  onEvicted: (key: ChunkKey) => void;
  onHomogeneous: (key: ChunkKey, state: 'empty' | 'full', proven: boolean) => void;
  /** Milliseconds a frame may spend planning a transaction (default PLAN_BUDGET_MS, planetTransactions.ts; at least one slice runs). */
  planBudgetMs?: number;
  /** The clock the planning budget is measured with (default performance.now; tests pass their own). */
  clock?: () => number;
  /** Stop the jobs under a chunk proven homogeneous (default true; benchmarks compare: `?prune=0`). */
  pruneUnderProof?: boolean;
  /** File the children a surface chunk's samples prove empty/full (default true; benchmarks compare: `?childProofs=0`). */
  childProofs?: boolean;
  /** Seconds a view may take to build at the workers' pace before the selection coarsens (timeFactor.ts; default 0: off). */
  timeBudgetS?: number;
}

export class PlanetStreaming<T> {
  /** The pieces in memory, each chunk's newest last (pieceStore.ts). */
  private readonly cache: PieceStore<T>;
  /** Parsed chunk keys, kept across transactions (successive snapshots share most keys). */
  private readonly addresses = new Map<ChunkKey, ChunkAddress>();
  /** Chunks known to hold no surface, and the requests under a proof (homogeneousChunks.ts). */
  private readonly homogeneous: HomogeneousChunks;
  private readonly failed = new Set<ChunkKey>();
  /** The jobs out, their handles and the answers waiting to be applied (jobLedger.ts). */
  private readonly ledger = new JobLedger<Make<T>>();
  /**
   * Added to every job's pool priority (the app's: the planet's jobs behind the asteroids' while the
   * camera is among them); order among the planet's own jobs is kept. Running jobs take a new
   * offset at the next {@link schedule}.
   */
  priorityOffset = 0;
  private requests: ChunkRequest[] = [];
  private requestCoarser = new Map<ChunkKey, ChunkKey[]>();
  private wanted = new Set<ChunkKey>();
  /** The drawn configuration and the move to the next (planetTransactions.ts). */
  private readonly transactions: PlanetTransactions<T>;
  /** The user's brushes (issue 19): chunk revisions; null until the first edit. */
  private edits: PlanetEdits | null = null;
  private frame = 0;
  /** Running totals. */
  readonly counts = { chunkJobs: 0, seamJobs: 0, chunksHomogeneous: 0, childrenProven: 0, chunksRemeshed: 0, seamsResent: 0, transactions: 0, deferredSnapshots: 0, evicted: 0, cancelled: 0 };
  /** Eviction, the error factor, what may start while memory is full (memoryFactor.ts). */
  private readonly memory: MemoryPolicy<T>;
  /** The error factor that keeps a view within the time budget at the workers' pace (timeFactor.ts). */
  readonly time: TimeBudget;

  constructor(private readonly options: PlanetStreamingOptions<T>) {
    this.homogeneous = new HomogeneousChunks({
      address: (key) => this.address(key), counts: this.counts, requests: () => this.requests,
      cancelUnder: (p) => this.cancelUnder(p), onHomogeneous: options.onHomogeneous,
      pruneUnderProof: options.pruneUnderProof !== false, childProofs: options.childProofs !== false,
    });
    this.cache = new PieceStore<T>({
      budgetBytes: options.budgetBytes,
      dispose: (piece) => options.provider.pieces.dispose(piece),
      onReady: (key) => options.onReady(key),
      onEvicted: (key) => {
        this.queued = null;
        options.onEvicted(key);
      },
    });
    this.transactions = new PlanetTransactions<T>({
      space: options.space, addresses: this.addresses, homogeneous: this.homogeneous.states, store: this.cache, pieces: options.provider.pieces,
      counts: this.counts, planBudgetMs: options.planBudgetMs, clock: options.clock,
    });
    this.memory = new MemoryPolicy<T>(options.budgetBytes, options.overflowBytes, this.cache, this.transactions, options.space.levels);
    this.time = new TimeBudget(options.timeBudgetS ?? 0);
  }

  get budgetBytes(): number {
    return this.memory.budgetBytes;
  }

  /** Multiplies the user's error threshold (≥ 1): the coarser of the memory policy's and the time policy's answers. */
  get errorFactor(): number {
    return Math.max(this.memory.errorFactor, this.time.factor);
  }

  /** The memory policy's factor alone. */
  get memoryFactor(): number {
    return this.memory.errorFactor;
  }

  /** Bytes of the pieces that may not be evicted, and predicted bytes of the wanted set (memoryFactor.ts). */
  get protectedBytes(): number {
    return this.memory.protectedBytes;
  }

  get predictedBytes(): number {
    return this.memory.predictedBytes;
  }

  /** Over budget + overflow: only work that moves the drawn set starts (see the header). */
  get memoryFull(): boolean {
    return this.memory.full;
  }

  get bytes(): number {
    return this.cache.bytes;
  }

  get cachedCount(): number {
    return this.cache.size;
  }

  /** Jobs out: running, or answered and not applied yet. */
  get runningCount(): number {
    return this.ledger.size;
  }

  /** Jobs started and not answered yet. */
  get inFlight(): number {
    return this.ledger.inFlight;
  }

  /** Finished jobs waiting for {@link applyNext}. */
  get finishedCount(): number {
    return this.ledger.finishedCount;
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
    return this.transactions.committed?.snapshot.keys.length ?? 0;
  }

  get drawnSnapshot(): LodSnapshot | null {
    return this.transactions.committed?.snapshot ?? null;
  }

  get transactionPending(): number {
    return this.transactions.pending;
  }

  /** No request of the latest LOD answer is waiting or running (the next answer can draw them all). */
  get requestsDrained(): boolean {
    return this.ledger.chunksOut === 0 && this.queuedCount === 0;
  }

  /** No transaction open, being planned, or waiting for one. */
  get betweenTransactions(): boolean {
    return this.transactions.between;
  }

  /** Nothing open: no transaction, no waiting snapshot, no job out, no request left. */
  get idle(): boolean {
    return this.betweenTransactions && this.ledger.size === 0 && this.queuedCount === 0;
  }

  /** Pieces drawn now, with their kind and triangle count. */
  *drawnPieces(): IterableIterator<{ id: string; kind: 'chunk' | 'seam'; key: ChunkKey; piece: T; triangles: number }> {
    for (const id of this.transactions.drawnIds) {
      const e = this.cache.get(id);
      if (e) yield { id, kind: e.kind, key: e.key, piece: e.piece, triangles: e.triangles };
    }
  }

  /**
   * A LOD answer: the requests and what the selection wants; a new snapshot begins a transaction,
   * or waits for the open one to commit. Running jobs nothing needs any more (the camera moved on)
   * are cancelled.
   */
  onSelect(result: LodSelectResult): void {
    this.queued = null;
    this.requests = result.requests.filter((r) => !this.failed.has(r.key));
    this.homogeneous.selected(result.problems.length === 0 ? result.snapshot : null);
    this.requestCoarser = new Map(result.requests.map((r, i) => [r.key, result.requestCoarser[i]]));
    this.wanted = new Set(result.wanted);
    if (result.problems.length === 0 && result.snapshot) this.transactions.offer(result.snapshot);
    const requested = new Set(this.requests.map((r) => r.key));
    for (const job of this.ledger.values()) {
      if (this.transactions.uses(job.id)) continue;
      if (job.kind === 'chunk' && requested.has(job.key)) continue;
      this.ledger.cancel(job.id);
      this.counts.cancelled++;
    }
    this.queued = null;
  }

  /**
   * Per frame (`nowMs`: the frame's time): fills in what finished, commits the open transaction when nothing is left (then
   * begins the waiting snapshot's), trims the cache and moves the memory factor, and the time factor
   * when `pace` is given.
   */
  update(nowMs: number, pace?: StreamingPace): void {
    this.frame++;
    if (this.transactions.advance(nowMs, this.frame, this.edits)) this.memory.committed();
    this.counts.evicted += this.memory.trim(this.wanted);
    this.memory.adjust(this.wanted, this.queuedCount);
    if (pace) {
      const complete = pace.answered && this.idle && this.transactions.committed !== null;
      this.time.update({ nowMs, viewJobs: this.wanted.size, jobsPerS: pace.jobsPerS, complete, working: !this.idle, still: pace.still });
    }
  }

  private wantsRequest(key: ChunkKey): boolean {
    if (this.cache.hasChunk(key) || this.failed.has(key) || this.homogeneous.settles(key)) return false;
    // Any chunk job for the key will do: its restriction guess may have changed since it started
    // (the selection moved), and a second job for the same chunk would only be thrown away.
    return !this.ledger.chunkOut(key);
  }

  /**
   * Starts jobs through the provider, most urgent first: the open transaction's chunks, then its
   * seams, then the streaming requests (those that move the drawn set only, while memory is full) —
   * while `mayStart()` says the frame has time and at most `maxRunning` jobs are out. Returns how
   * many started. Running jobs first take a new {@link priorityOffset}.
   */
  schedule(maxRunning: number, mayStart: () => boolean = () => true): number {
    this.ledger.reprioritise(this.priorityOffset);
    let started = 0;
    for (const job of this.jobsToStart(maxRunning, mayStart)) {
      this.start(job);
      started++;
    }
    return started;
  }

  /**
   * The jobs to start now (see {@link schedule}). Lazy: each job is started as it is yielded, and
   * `mayStart()` is asked again only before the next one, so the time starting a job takes (cloning
   * a seam's leaves, posting a GPU request) counts against the budget. Built eagerly, the list came
   * out in microseconds and its starts then took 168 ms of one frame on the H100 machine.
   */
  private *jobsToStart(maxRunning: number, mayStart: () => boolean): Generator<PlannedJob<T>, void, undefined> {
    this.queued = null;
    const ledger = this.ledger;
    const tx = this.transactions.open;
    if (tx) {
      for (const key of tx.waitingChunks) {
        if (ledger.size >= maxRunning || !mayStart()) return;
        const id = tx.chunkIds.get(key)!;
        if (!ledger.has(id)) yield { kind: 'chunk', id, key, coarser: tx.snapshot.coarser[tx.index.get(key)!], priority: TRANSACTION_PRIORITY };
      }
      // The budget is asked before each seam is looked at: forming a seam's id joins its parts' ids,
      // and a transaction of ~2,000 seams formed them all every frame (116 ms on the H100 machine).
      for (const owner of tx.waitingSeams) {
        if (ledger.size >= maxRunning || !mayStart()) return;
        const job = this.seamJob(tx, owner);
        if (job) yield job;
      }
    }
    const full = this.memoryFull;
    for (const req of this.requests) {
      if (ledger.size >= maxRunning || !mayStart()) return;
      if (!this.wantsRequest(req.key)) continue;
      if (full && !this.memory.movesDrawnSet(req.key)) continue;
      const coarser = this.requestCoarser.get(req.key) ?? [];
      const revision = this.edits ? this.edits.revision(this.address(req.key)) : '';
      yield { kind: 'chunk', id: chunkPieceId(req.key, coarser, revision), key: req.key, coarser, priority: req.priority };
    }
  }

  /** Records `job` in the ledger and hands it to the provider; its answer comes back through the report. */
  private start(job: PlannedJob<T>): void {
    const priority = job.priority + this.ledger.priorityOffset;
    const jobs = this.options.provider.jobs;
    if (job.kind === 'chunk') {
      this.counts.chunkJobs++;
      const entry = this.ledger.add(job.id, 'chunk', job.key, job.priority);
      const brushes = this.edits ? this.edits.brushesFor(this.address(job.key)) : [];
      entry.handle = jobs.runChunk({ ...job, priority, brushes, remesh: this.cache.hasChunk(job.key) }, this.report(entry));
    } else {
      this.counts.seamJobs++;
      const entry = this.ledger.add(job.id, 'seam', job.owner, job.priority);
      entry.handle = jobs.runSeam({ ...job, priority }, this.report(entry));
    }
  }

  private report<M extends Make<T>>(entry: LedgerEntry): JobReport<M> {
    return {
      done: (make) => this.ledger.answer(entry, make),
      failed: () => this.jobFailed(entry),
    };
  }

  /**
   * Applies the oldest finished job (the provider makes its piece; the model files it): the app
   * calls it within its frame budget (src/app/budgetedApply.ts). False when none was waiting.
   */
  applyNext(): boolean {
    const done = this.ledger.takeFinished();
    if (!done) return false;
    if (done.entry.kind === 'chunk') this.chunkDone(done as Finished<(remesh: boolean) => ChunkOutcome<T>>);
    else this.seamDone(done as Finished<() => SeamOutcome<T>>);
    return true;
  }

  /** Jobs that ended without an answer (cancelled, failed) since the last call: progress counts them done. */
  takeEnded(): number {
    return this.ledger.takeEnded();
  }

  /** The seam job of `owner` once every piece it reads is in (null: not yet, running, done, or settled as empty). */
  private seamJob(tx: Transaction, owner: ChunkKey): PlannedJob<T> | null {
    const sid = tx.seamIds.get(owner);
    if (sid === null || (sid !== undefined && (this.ledger.has(sid) || this.cache.has(sid)))) return null;
    const seam = seamParts(tx, owner, this.homogeneous.states, (id) => this.cache.get(id)?.piece);
    if (!seam) return null;
    if (this.cache.has(seam.id) || this.ledger.has(seam.id)) return null;
    return { kind: 'seam', id: seam.id, owner, stitches: [...tx.snapshot.stitches[tx.index.get(owner)!]], parts: seam.parts, priority: TRANSACTION_PRIORITY + 1 };
  }

  /**
   * A chunk job finished: a piece (surface) or a homogeneous answer. A stale job's piece (taken back
   * meanwhile) is still filed: it is right for its id.
   */
  private chunkDone(done: Finished<(remesh: boolean) => ChunkOutcome<T>>): void {
    const { id, key } = done.entry;
    const result = done.make(this.cache.hasChunk(key));
    this.ledger.removeEntry(done.entry);
    this.queued = null;
    this.memory.chunkResult('homogeneous' in result ? 0 : result.bytes);
    // Made with other brushes than the chunk has now (an edit or undo since it started): a piece is
    // still right for its id, but "empty", "full" or a child's proof would speak for the wrong field.
    const current = !this.revisionMoved(id, key);
    if (current) this.homogeneous.childAnswers(this.address(key), result.childProofs);
    if ('homogeneous' in result) {
      if (current) this.homogeneous.chunkAnswer(key, result.homogeneous.state, result.homogeneous.proven);
      return;
    }
    if (this.cache.hasChunk(key)) this.counts.chunksRemeshed++;
    this.cache.addChunk(id, key, result.piece, result.bytes, result.triangles, this.frame);
  }

  /** Cancels the running chunk jobs under a proven-homogeneous chunk (not an open transaction's). */
  private cancelUnder(p: ChunkAddress): void {
    for (const job of this.ledger.values()) {
      if (job.kind !== 'chunk' || this.transactions.uses(job.id) || !isDescendant(this.address(job.key), p)) continue;
      this.ledger.cancel(job.id);
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

  /** A seam job finished (a null outcome: its worker lacked some chunk's leaves; the seam is started again, counted in seamsResent). */
  private seamDone(done: Finished<() => SeamOutcome<T>>): void {
    const { id, key: owner } = done.entry;
    const result = done.make();
    this.ledger.removeEntry(done.entry);
    if (!result) {
      this.counts.seamsResent++;
      return;
    }
    this.cache.addSeam(id, owner, result.piece, result.bytes, result.triangles, this.frame);
  }

  /** A job failed for good (not cancelled): the chunk is not requested again (unless an edit moved it since). */
  private jobFailed(entry: LedgerEntry): void {
    this.ledger.fail(entry);
    this.queued = null;
    if (entry.kind === 'chunk' && !this.revisionMoved(entry.id, entry.key)) this.failed.add(entry.key);
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
   * click, not a stream of snapshots, so this cannot livelock. The running jobs of reached chunks
   * are cancelled; answers of jobs that finished anyway are checked against the chunk's revision
   * when they are applied ({@link chunkDone}).
   */
  setEdits(edits: PlanetEdits, changed: readonly Brush[]): void {
    const broken = brokenMarks(this.edits?.brushes ?? [], edits.brushes);
    this.edits = edits;
    const changes = edits.with(changed);
    const reached = (key: ChunkKey): boolean => changes.brushesFor(this.address(key)).length > 0;
    this.homogeneous.forget(reached, (state) => broken[state]);
    for (const key of [...this.failed]) if (reached(key)) this.failed.delete(key);
    this.queued = null;
    this.transactions.edited(reached);
    // Running jobs of reached chunks mesh the old field: cancelled.
    for (const job of this.ledger.values()) {
      if (job.kind !== 'chunk' || this.transactions.uses(job.id) || !reached(job.key)) continue;
      this.ledger.cancel(job.id);
      this.counts.cancelled++;
    }
  }

  /** The drawn configuration was planned after the newest edit (every plan begun after it is wholly current). */
  get editsDrawn(): boolean {
    return this.transactions.editsDrawn;
  }

  /** Cancels every running job and drops everything (each piece disposed once). */
  clear(): void {
    this.ledger.clear();
    this.transactions.clear();
    this.cache.clear();
    this.queued = null;
  }
}
