/**
 * Planning a planet transaction (issue 15): from the drawn configuration to a new LOD snapshot,
 * which pieces stay and which chunks and seams must be (re)built. Spread over frames in slices
 * (frameSlices.ts): over ~4,000 chunks the plan took 11–42 ms of one frame on the accelerator machine,
 * one of the causes of frames over 50 ms. PlanetStreaming drives it within a per-frame budget.
 */
import type { ChunkAddress, ChunkKey } from './chunkKey.ts';
import type { CubeSphereSpace } from './cubeSphere.ts';
import type { LodSnapshot } from './planetLodSelector.ts';
import { planLodUpdateSteps } from './lodUpdate.ts';
import type { PlanetLod } from './planetSeams.ts';
import { lodFromSnapshotSteps } from './snapshotLod.ts';
import type { Steps } from './frameSlices.ts';
import type { SeamPart } from './pieceProvider.ts';

/** Keys a planning slice handles (about 0.5–1 ms on the accelerator machine's cores). */
export const PLAN_SLICE_KEYS = 256;

/** A drawn configuration: its snapshot and LOD and, per chunk and per seam, the piece id drawn (null: nothing to draw). */
export interface Configuration {
  lod: PlanetLod;
  snapshot: LodSnapshot;
  chunkIds: Map<ChunkKey, string | null>;
  seamIds: Map<ChunkKey, string | null>;
}

export interface Transaction extends Configuration {
  /** Chunks whose piece for this restriction is not in yet. */
  waitingChunks: Set<ChunkKey>;
  /** Seams not built yet. */
  waitingSeams: Set<ChunkKey>;
  /** Index of each chunk in the snapshot's arrays. */
  index: Map<ChunkKey, number>;
}

/**
 * A chunk mesh's id: its key, its restriction (the coarser neighbours it was meshed against) and,
 * on an edited planet, its revision (planetEdits.ts: the hash of the brushes that reach it).
 */
export const chunkPieceId = (key: ChunkKey, coarser: readonly ChunkKey[], revision = ''): string =>
  `c:${key}|${coarser.join(',')}${revision === '' ? '' : `#${revision}`}`;

/** The revision inside a chunk piece id ('' when unedited). */
export function revisionOfPieceId(id: string): string {
  const hash = id.indexOf('#', id.indexOf('|'));
  return hash < 0 ? '' : id.slice(hash + 1);
}

export interface PlanInputs {
  space: CubeSphereSpace;
  /** The drawn configuration (null before the first commit). */
  before: Configuration | null;
  snapshot: LodSnapshot;
  /** Parsed keys kept across transactions. */
  addresses: Map<ChunkKey, ChunkAddress>;
  /** Chunks known to hold no surface (read as the plan runs). */
  homogeneous: ReadonlyMap<ChunkKey, 'empty' | 'full'>;
  /** Whether a piece is cached (read in the plan's last slice, which does not yield). */
  cached: (id: string) => boolean;
  /** A chunk's revision (planetEdits.ts; absent: the planet was never edited, every revision ''). */
  revision?: (a: ChunkAddress) => string;
}

/**
 * The transaction from `before` to `snapshot` (planLodUpdate): pieces that stay exact are kept,
 * chunks with a new restriction and seams reading them are (re)built. Yields every
 * `sliceKeys` keys or so.
 */
export function* planTransaction(inputs: PlanInputs, sliceKeys = PLAN_SLICE_KEYS): Steps<Transaction> {
  const { before, snapshot } = inputs;
  const lod = yield* lodFromSnapshotSteps(inputs.space, snapshot, inputs.addresses, sliceKeys);
  const revision = inputs.revision ?? null;
  const idOf = (i: number): string | null => {
    const key = snapshot.keys[i];
    if (inputs.homogeneous.has(key)) return null;
    return chunkPieceId(key, snapshot.coarser[i], revision ? revision(lod.byKey.get(key)!) : '');
  };
  // Edited: kept chunks whose id is not the one drawn (a brush reached them, or an undo took it back).
  const edited: ChunkKey[] = [];
  if (revision && before) {
    for (let i = 0; i < snapshot.keys.length; i++) {
      const drawn = before.chunkIds.get(snapshot.keys[i]);
      if (drawn !== undefined && drawn !== idOf(i)) edited.push(snapshot.keys[i]);
      if ((i + 1) % sliceKeys === 0) yield;
    }
  }
  const plan = yield* planLodUpdateSteps(before?.lod ?? null, lod, edited, sliceKeys);
  const remesh = new Set(plan.meshChunks);
  const rebuild = new Set(plan.buildSeams);
  yield;
  const tx: Transaction = {
    lod, snapshot, chunkIds: new Map(), seamIds: new Map(), waitingChunks: new Set(), waitingSeams: new Set(),
    index: new Map(),
  };
  const keys = snapshot.keys;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    tx.index.set(key, i);
    if (!remesh.has(key) && before) {
      tx.chunkIds.set(key, before.chunkIds.get(key)!);
    } else {
      tx.chunkIds.set(key, idOf(i));
    }
    if (!rebuild.has(key) && before) tx.seamIds.set(key, before.seamIds.get(key)!);
    else tx.waitingSeams.add(key);
    if ((i + 1) % sliceKeys === 0) yield;
  }
  // What is still to come, read in one go: the cache may have changed between slices (pieces in,
  // pieces evicted), and a piece missing here would be waited for by nobody.
  for (const [key, id] of tx.chunkIds) if (id !== null && !inputs.cached(id)) tx.waitingChunks.add(key);
  return tx;
}

/**
 * Takes off the transaction's waiting sets what is settled: chunks whose piece is in (or that are
 * now known empty or full: nothing to draw), seams built or settled as empty. True when nothing is
 * left to wait for.
 */
export function settleWaiting(tx: Transaction, cached: (id: string) => boolean, homogeneous: ReadonlyMap<ChunkKey, 'empty' | 'full'>): boolean {
  for (const key of tx.waitingChunks) {
    const id = tx.chunkIds.get(key);
    if (id === null || (id !== undefined && cached(id))) tx.waitingChunks.delete(key);
    else if (homogeneous.has(key)) {
      tx.chunkIds.set(key, null);
      tx.waitingChunks.delete(key);
    }
  }
  for (const owner of tx.waitingSeams) {
    const id = tx.seamIds.get(owner);
    if (id !== undefined && (id === null || cached(id))) tx.waitingSeams.delete(owner);
  }
  return tx.waitingChunks.size === 0 && tx.waitingSeams.size === 0;
}

/**
 * The seam of `owner` once every chunk it stitches is in: its id (`s:owner|part ids`, recorded in
 * the transaction) and its parts, each a cached piece or a homogeneous chunk. Null while a part is
 * missing; also null, with the seam settled as nothing to draw, when every chunk it stitches is
 * empty (or every one full): no sign change, no seam.
 */
export function seamParts<T>(
  tx: Transaction, owner: ChunkKey, homogeneous: ReadonlyMap<ChunkKey, 'empty' | 'full'>, piece: (id: string) => T | undefined,
): { id: string; parts: SeamPart<T>[] } | null {
  const stitches = tx.snapshot.stitches[tx.index.get(owner)!];
  const parts: SeamPart<T>[] = [];
  const ids: string[] = [];
  const states = new Set<string>();
  for (const key of [owner, ...stitches]) {
    const cid = tx.chunkIds.get(key);
    if (cid === undefined || tx.waitingChunks.has(key)) return null;
    if (cid === null) {
      const h = homogeneous.get(key)!;
      states.add(h);
      ids.push(`${key}:${h}`);
      parts.push({ key, homogeneous: h });
    } else {
      const p = piece(cid);
      if (p === undefined) return null;
      states.add('surface');
      ids.push(cid);
      parts.push({ key, piece: p });
    }
  }
  if (states.size === 1 && !states.has('surface')) {
    tx.seamIds.set(owner, null);
    tx.waitingSeams.delete(owner);
    return null;
  }
  const id = `s:${owner}|${ids.join(';')}`;
  tx.seamIds.set(owner, id);
  return { id, parts };
}
