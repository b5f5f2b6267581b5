/**
 * The planet's pieces in memory, content-addressed (planetStreaming.ts keeps one): a chunk mesh for
 * one restriction is `c:key|coarser…#revision`, a seam for one set of stitched pieces
 * `s:owner|part ids`. Over the least-recently-visible cache (GeometryCache.ts) it knows each chunk's
 * pieces, newest restriction last, and tells when a chunk gets its first piece and loses its last
 * (what the LOD selector must be told). Every piece leaves through the cache's one dispose, which
 * hands it to the provider's (pieceProvider.ts). Pure.
 */
import type { ChunkKey } from './chunkKey.ts';
import { GeometryCache } from './GeometryCache.ts';

/** A piece as kept: its kind, chunk (a seam's owner), the provider's piece and its triangle count. */
export interface StoredPiece<T> {
  kind: 'chunk' | 'seam';
  key: ChunkKey;
  piece: T;
  triangles: number;
}

/** The chunk key inside a piece id (`c:key|…` or `s:owner|…`). */
export function keyOfPieceId(id: string): ChunkKey {
  return id.slice(2, id.indexOf('|'));
}

export interface PieceStoreOptions<T> {
  budgetBytes: number;
  /** The one place a piece leaves (evicted, replaced, deleted). */
  dispose: (piece: T) => void;
  /** A chunk got its first piece (any restriction). */
  onReady: (key: ChunkKey) => void;
  /** A chunk lost its last piece. */
  onEvicted: (key: ChunkKey) => void;
}

export class PieceStore<T> {
  private readonly cache: GeometryCache<StoredPiece<T>>;
  /** Each chunk's piece ids, newest last. */
  private readonly idsByKey = new Map<ChunkKey, Set<string>>();

  constructor(private readonly options: PieceStoreOptions<T>) {
    this.cache = new GeometryCache<StoredPiece<T>>({
      budgetBytes: options.budgetBytes,
      dispose: (id, entry) => {
        options.dispose(entry.piece);
        if (entry.kind !== 'chunk') return;
        const ids = this.idsByKey.get(entry.key);
        ids?.delete(id);
        if (ids && ids.size === 0) {
          this.idsByKey.delete(entry.key);
          options.onEvicted(entry.key);
        }
      },
    });
  }

  get bytes(): number {
    return this.cache.bytes;
  }

  get size(): number {
    return this.cache.size;
  }

  /** Bytes over the budget (0 when within it). */
  get overBudget(): number {
    return this.cache.overBudget;
  }

  has(id: string): boolean {
    return this.cache.has(id);
  }

  get(id: string): StoredPiece<T> | undefined {
    return this.cache.get(id);
  }

  bytesOf(id: string): number {
    return this.cache.bytesOf(id);
  }

  /**
   * Whether some piece of this chunk is cached (any restriction): a job for it is a re-mesh, which
   * a worker that kept the chunk's samples answers without sampling again.
   */
  hasChunk(key: ChunkKey): boolean {
    return this.idsByKey.has(key);
  }

  /** The newest piece of a chunk (any restriction): insertion order puts it last. */
  newest(key: ChunkKey): string | undefined {
    const ids = this.idsByKey.get(key);
    if (!ids) return undefined;
    let last: string | undefined;
    for (const id of ids) last = id;
    return last;
  }

  /** Files a chunk's piece as its newest (the chunk is ready from its first). */
  addChunk(id: string, key: ChunkKey, piece: T, bytes: number, triangles: number, frame: number): void {
    this.cache.set(id, { kind: 'chunk', key, piece, triangles }, bytes, frame);
    let ids = this.idsByKey.get(key);
    if (!ids) {
      ids = new Set();
      this.idsByKey.set(key, ids);
      this.options.onReady(key);
    }
    ids.delete(id);
    ids.add(id); // newest last
  }

  addSeam(id: string, owner: ChunkKey, piece: T, bytes: number, triangles: number, frame: number): void {
    this.cache.set(id, { kind: 'seam', key: owner, piece, triangles }, bytes, frame);
  }

  delete(id: string): void {
    this.cache.delete(id);
  }

  markVisible(ids: Iterable<string>, frame: number): void {
    this.cache.markVisible(ids, frame);
  }

  /** Evicts least-recently-visible pieces not in `keep` down to the budget; returns how many went. */
  trim(keep: ReadonlySet<string>): number {
    return this.cache.trim(keep).length;
  }

  /** Bytes of the newest piece of each of `keys` that is in. */
  newestBytes(keys: Iterable<ChunkKey>): number {
    let bytes = 0;
    for (const key of keys) {
      const id = this.newest(key);
      if (id) bytes += this.cache.bytesOf(id);
    }
    return bytes;
  }

  clear(): void {
    this.cache.clear();
  }
}
