/**
 * What a selection asks for, in what order: the chunk requests of a selection (leaves and split
 * nodes not done yet), their priority from the selection's facts, and the drawn frontier first.
 * Pure and deterministic (ties by key). Who runs the requests, how many at once and what is kept is
 * planetStreaming.ts's job (it replaced the earlier ChunkScheduler, which nothing used).
 */
import type { ChunkKey } from './chunkKey.ts';
import { parentKey, parseChunkKey } from './chunkKey.ts';
import type { NodeInfo, Selection } from './selection.ts';

/** A wanted chunk and how urgent it is (higher first). */
export interface ChunkRequest {
  key: ChunkKey;
  priority: number;
}


/** Factor on the priority of chunks outside the view: fetched only when nothing visible waits. */
export const CULLED_PRIORITY_FACTOR = 1e-3;

/**
 * Priority of a chunk from the selection's facts: its screen-space error (which already falls with
 * distance), scaled down when culled, with a distance tie-break so nearer chunks of equal error win.
 */
export function chunkPriority(info: NodeInfo): number {
  const base = info.sse / (1 + 1e-9 * info.distanceM);
  return info.visible ? base : base * CULLED_PRIORITY_FACTOR;
}

/**
 * The requests for a selection, highest priority first (ties by key): every desired leaf not done
 * (ready, or known empty/full), and every split node not done unless all its children are done.
 * Split nodes are requested too so detail arrives level by level: a parent's error is larger at the
 * same distance, so it comes first, and the drawn set can move one level at a time. Requesting only
 * the leaves starved the drawn set while the camera moved (test/lod/scheduling.test.ts: the
 * leaves' jobs kept going stale and nothing finer than the roots was ever drawn).
 */
export function requestsForSelection(selection: Selection, isDone: (key: ChunkKey) => boolean): ChunkRequest[] {
  const out: ChunkRequest[] = [];
  for (const key of selection.keys) {
    if (isDone(key)) continue;
    out.push({ key, priority: chunkPriority(selection.info.get(key)!) });
  }
  const leafSet = new Set(selection.keys);
  for (const key of selection.internal) {
    if (isDone(key)) continue;
    const [face, level, ci, cj, ck] = key.split('/').map(Number);
    let allDone = true;
    for (let c = 0; c < 8 && allDone; c++) {
      const kk = `${face}/${level - 1}/${2 * ci + (c & 1)}/${2 * cj + ((c >> 1) & 1)}/${2 * ck + ((c >> 2) & 1)}`;
      if ((leafSet.has(kk) || selection.internal.has(kk)) && !isDone(kk)) allDone = false;
    }
    if (!allDone) out.push({ key, priority: chunkPriority(selection.info.get(key)!) });
  }
  return out.sort(byPriority);
}

/** Priority tier of the requests on the drawn frontier (see {@link frontierFirst}); the others start at 0. */
export const FRONTIER_TIER = 1000;

/**
 * Puts the requests whose PARENT is drawn first, in place, then re-sorts. `drawnSet` shows a split
 * node's children only once all eight are ready (out of view or not), so detail appears one sibling
 * group at a time; by error alone the scheduler works on the finest chunks around the camera first
 * (inside their bounding spheres their error is near infinite) — which cannot be shown until every
 * coarser group between them and the drawn set is complete — and nothing new is drawn for a long
 * time (measured in the app: no commit for 25 s of a descent at ~6 jobs/s). Frontier first, the
 * drawn set refines where the error is largest, level by level.
 *
 * Priorities become tiers: FRONTIER_TIER + log2(1 + p) on the frontier, log2(1 + p) elsewhere —
 * order within a tier kept, numbers small enough to survive a large offset added by the caller.
 * Returns `requests`.
 */
export function frontierFirst(requests: ChunkRequest[], drawn: ReadonlySet<ChunkKey>, rootLevel: number): ChunkRequest[] {
  for (const r of requests) {
    const parent = parentKey(parseChunkKey(r.key), rootLevel);
    r.priority = (parent !== null && drawn.has(parent) ? FRONTIER_TIER : 0) + Math.log2(1 + Math.max(0, r.priority));
  }
  return requests.sort(byPriority);
}

function byPriority(a: ChunkRequest, b: ChunkRequest): number {
  return b.priority - a.priority || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}
