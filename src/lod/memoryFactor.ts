/**
 * The planet's memory policy (docs/lod.md "Streaming that converges"): a factor on the screen-space
 * error threshold, from the predicted bytes of what the selection wants. CesiumJS's
 * memoryAdjustedScreenSpaceError multiplies its threshold by 1.02 a frame while the bytes loaded
 * exceed `cacheBytes + maximumCacheOverflowBytes` and divides it back under `cacheBytes`. Reacting to
 * bytes held overshot here (×42 in the simulation): the drawn set stays protected until a coarser
 * one commits, so held bytes fall long after the selection has shrunk. So the factor follows the
 * prediction, with a dead band between LOWER_BELOW × budget and the budget.
 *
 * `MemoryPolicy` applies it for the streaming model (planetStreaming.ts): what may be evicted (never
 * a drawn piece, one the open or a waiting transaction uses, or the newest piece of a wanted chunk),
 * the factor, and — over budget + overflow — which requests may still start (`DrawnFrontier`).
 */
import { parentKey, parseChunkKey, type ChunkKey } from './chunkKey.ts';
import type { PieceStore } from './pieceStore.ts';
import type { PlanetTransactions } from './planetTransactions.ts';

/** Factor on the error threshold per frame while the predicted wanted set does not fit (Cesium's 1.02). */
export const ERROR_FACTOR_STEP = 1.02;
/** The factor comes back toward 1 once the predicted wanted set is under this share of the budget. */
export const LOWER_BELOW = 0.8;
/** Largest memory factor (the coarsest the selection gets; 64× the user's threshold). */
export const MAX_ERROR_FACTOR = 64;
/**
 * The next frame's factor: × ERROR_FACTOR_STEP while `predictedBytes` exceeds the budget and the cache
 * holds more than LOWER_BELOW of it (early in a teleport the few results so far make a poor average:
 * orbit chunks all hold surface, and coarsening on that guess overshot to ×5); ÷ ERROR_FACTOR_STEP
 * toward 1 under LOWER_BELOW × budget; unchanged between (no oscillation).
 */
export function nextErrorFactor(factor: number, predictedBytes: number, heldBytes: number, budgetBytes: number): number {
  if (predictedBytes > budgetBytes && heldBytes > LOWER_BELOW * budgetBytes) return Math.min(MAX_ERROR_FACTOR, factor * ERROR_FACTOR_STEP);
  if (predictedBytes < LOWER_BELOW * budgetBytes) return Math.max(1, factor / ERROR_FACTOR_STEP);
  return factor;
}

/**
 * What may start while memory is full (over budget + overflow; planetStreaming.ts): requests that
 * move the drawn set — on its frontier (parent drawn), or coarser than something drawn (an ancestor
 * of a drawn chunk, which lets a coarser drawn set commit and free memory). Deeper requests wait.
 * Built once per commit from the drawn keys.
 */
export class DrawnFrontier {
  private readonly drawn: Set<ChunkKey>;
  private readonly ancestors = new Set<ChunkKey>();

  constructor(drawnKeys: readonly ChunkKey[], private readonly rootLevel: number) {
    this.drawn = new Set(drawnKeys);
    for (const k of this.drawn) {
      for (let p = parentKey(parseChunkKey(k), rootLevel); p !== null && !this.ancestors.has(p); p = parentKey(parseChunkKey(p), rootLevel)) this.ancestors.add(p);
    }
  }

  movesDrawnSet(key: ChunkKey): boolean {
    if (this.ancestors.has(key)) return true;
    const parent = parentKey(parseChunkKey(key), this.rootLevel);
    return parent !== null && this.drawn.has(parent);
  }
}

/**
 * The streaming model's memory: eviction down to the budget, the error factor, and what may start
 * while memory is full.
 */
export class MemoryPolicy<T> {
  readonly overflowBytes: number;
  /** Multiplies the user's error threshold (≥ 1): the memory policy's answer. */
  errorFactor = 1;
  /** Bytes of the pieces that may not be evicted, as of the last {@link trim} over budget. */
  protectedBytes = 0;
  /** Predicted bytes of the wanted set (pieces in + requests out × bytes per job), as of the last update. */
  predictedBytes = 0;
  /** Running totals over finished chunk jobs: bytes they brought, and how many. */
  private chunkResultBytes = 0;
  private chunkResults = 0;
  /** Built on demand after each commit. */
  private frontier: DrawnFrontier | null = null;

  constructor(
    readonly budgetBytes: number, overflowBytes: number | undefined, private readonly store: PieceStore<T>,
    private readonly transactions: PlanetTransactions<T>, private readonly rootLevel: number,
  ) {
    this.overflowBytes = overflowBytes ?? budgetBytes / 4;
  }

  /** A chunk job was applied, bringing `bytes` (0: empty or full). */
  chunkResult(bytes: number): void {
    this.chunkResults++;
    this.chunkResultBytes += bytes;
  }

  /** A commit changed the drawn set. */
  committed(): void {
    this.frontier = null;
  }

  /**
   * Evicts least-recently-visible unprotected pieces down to the budget; returns how many went. The
   * protected set is built only when over budget: with ~4,000 chunks drawn it is tens of thousands of
   * set operations.
   */
  trim(wanted: Iterable<ChunkKey>): number {
    // Not while a transaction is being planned: the pieces it will use are not known yet (a few frames).
    if (this.store.overBudget === 0 || this.transactions.planningNow) return 0;
    const keep = this.protectedIds(wanted);
    let protectedBytes = 0;
    for (const id of keep) protectedBytes += this.store.bytesOf(id);
    this.protectedBytes = protectedBytes;
    return this.store.trim(keep);
  }

  /** The pieces that may not be evicted: drawn, used by the open or waiting transaction, or wanted. */
  private protectedIds(wanted: Iterable<ChunkKey>): Set<string> {
    const keep = new Set<string>();
    this.transactions.keepUsed(keep);
    for (const key of [...wanted, ...this.transactions.waitingKeys()]) {
      const id = this.store.newest(key);
      if (id) keep.add(id);
    }
    return keep;
  }

  /** The frame's factor, from the wanted chunks' pieces in and `queued` requests still to run. */
  adjust(wanted: Iterable<ChunkKey>, queued: number): void {
    const perJob = this.chunkResults > 0 ? this.chunkResultBytes / this.chunkResults : 0;
    this.predictedBytes = this.store.newestBytes(wanted) + queued * perJob;
    this.errorFactor = nextErrorFactor(this.errorFactor, this.predictedBytes, this.store.bytes, this.budgetBytes);
  }

  /** Over budget + overflow: only work that moves the drawn set starts. */
  get full(): boolean {
    return this.store.bytes > this.budgetBytes + this.overflowBytes;
  }

  /** May this request start while memory is full: on the drawn frontier, or coarser than something drawn. */
  movesDrawnSet(key: ChunkKey): boolean {
    const committed = this.transactions.committed;
    if (!committed) return true;
    this.frontier ??= new DrawnFrontier(committed.snapshot.keys, this.rootLevel);
    return this.frontier.movesDrawnSet(key);
  }
}
