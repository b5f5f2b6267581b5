/**
 * Chunk geometry cache with a memory budget and least-recently-visible eviction. Pure bookkeeping over
 * opaque values (the render side stores its BufferGeometry, or a mesh record, here). Every removal —
 * eviction, replacement, delete, clear — goes through one private method that calls the single
 * `dispose` callback (docs/design.md, house rule 13: dispose in exactly one place).
 */
import type { ChunkKey } from './chunkKey.ts';

export interface GeometryCacheOptions<T> {
  /** Budget in bytes for all cached values. */
  budgetBytes: number;
  /** Frees one value; called exactly once per value that leaves the cache. */
  dispose: (key: ChunkKey, value: T) => void;
}

interface Entry<T> {
  value: T;
  bytes: number;
  lastVisibleFrame: number;
}

export class GeometryCache<T> {
  readonly budgetBytes: number;
  private readonly dispose: (key: ChunkKey, value: T) => void;
  private readonly entries = new Map<ChunkKey, Entry<T>>();
  private totalBytes = 0;
  /** Values disposed so far. */
  disposedCount = 0;

  constructor(options: GeometryCacheOptions<T>) {
    this.budgetBytes = options.budgetBytes;
    this.dispose = options.dispose;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: ChunkKey): boolean {
    return this.entries.has(key);
  }

  /** Cached keys (insertion order). */
  keys(): IterableIterator<ChunkKey> {
    return this.entries.keys();
  }

  /** Bytes of one cached value (0 when absent). */
  bytesOf(key: ChunkKey): number {
    return this.entries.get(key)?.bytes ?? 0;
  }

  get(key: ChunkKey): T | undefined {
    return this.entries.get(key)?.value;
  }

  /** Adds or replaces a value (a replaced value is disposed). Counts as visible in `frame`. */
  set(key: ChunkKey, value: T, bytes: number, frame: number): void {
    if (this.entries.has(key)) this.remove(key);
    this.entries.set(key, { value, bytes, lastVisibleFrame: frame });
    this.totalBytes += bytes;
  }

  /** Marks chunks as seen (drawn) in `frame`. */
  markVisible(keys: Iterable<ChunkKey>, frame: number): void {
    for (const k of keys) {
      const e = this.entries.get(k);
      if (e) e.lastVisibleFrame = frame;
    }
  }

  /**
   * Evicts least-recently-visible values (ties by key, for determinism) until the cache fits its
   * budget, never touching `keep` (the drawn set and anything about to be drawn). Returns the evicted
   * keys. If `keep` alone exceeds the budget the cache stays over budget ({@link overBudget}).
   */
  trim(keep: ReadonlySet<ChunkKey>): ChunkKey[] {
    if (this.totalBytes <= this.budgetBytes) return [];
    const candidates: [ChunkKey, Entry<T>][] = [];
    for (const kv of this.entries) if (!keep.has(kv[0])) candidates.push(kv);
    candidates.sort((a, b) => a[1].lastVisibleFrame - b[1].lastVisibleFrame || (a[0] < b[0] ? -1 : 1));
    const evicted: ChunkKey[] = [];
    for (const [key] of candidates) {
      if (this.totalBytes <= this.budgetBytes) break;
      this.remove(key);
      evicted.push(key);
    }
    return evicted;
  }

  /** Bytes above the budget (0 when within it). */
  get overBudget(): number {
    return Math.max(0, this.totalBytes - this.budgetBytes);
  }

  delete(key: ChunkKey): boolean {
    if (!this.entries.has(key)) return false;
    this.remove(key);
    return true;
  }

  clear(): void {
    for (const key of [...this.entries.keys()]) this.remove(key);
  }

  /** The one place values leave the cache. */
  private remove(key: ChunkKey): void {
    const e = this.entries.get(key)!;
    this.entries.delete(key);
    this.totalBytes -= e.bytes;
    this.disposedCount++;
    this.dispose(key, e.value);
  }
}
