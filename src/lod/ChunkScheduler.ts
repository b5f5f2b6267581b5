/**
 * Chunk job scheduling: a priority queue of chunk jobs, cancellation of stale jobs when the desired
 * set changes, a cap on new requests per frame, back-pressure on jobs in flight, and a per-frame apply
 * budget (godot_voxel's get_priority / is_cancelled / apply_result; Cesium's scheduleTask returning
 * nothing when full). Pure bookkeeping: the caller dispatches the keys it is given to workers or the
 * GPU and reports results back. Deterministic: ties are broken by key.
 */
import type { ChunkKey } from './chunkKey.ts';
import { parentKey, parseChunkKey } from './chunkKey.ts';
import type { NodeInfo, Selection } from './selection.ts';

/** A wanted chunk and how urgent it is (higher first). */
export interface ChunkRequest {
  key: ChunkKey;
  priority: number;
}

export interface ChunkSchedulerOptions {
  /** Jobs dispatched and not yet completed, at most (default 4). */
  maxInFlight?: number;
  /** New keys accepted into the queue per {@link ChunkScheduler.update} (default 32). */
  maxNewPerFrame?: number;
  /** Called once for a dispatched job that is no longer wanted (the worker side may abort it). */
  onCancel?: (key: ChunkKey) => void;
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

/** Binary max-heap of requests with lazy deletion (stale entries are skipped when popped). */
class RequestHeap {
  private readonly items: { key: ChunkKey; priority: number; version: number }[] = [];

  get length(): number {
    return this.items.length;
  }

  push(key: ChunkKey, priority: number, version: number): void {
    const it = this.items;
    it.push({ key, priority, version });
    let i = it.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.before(it[p], it[i])) break;
      [it[p], it[i]] = [it[i], it[p]];
      i = p;
    }
  }

  pop(): { key: ChunkKey; priority: number; version: number } | undefined {
    const it = this.items;
    if (it.length === 0) return undefined;
    const top = it[0];
    const last = it.pop()!;
    if (it.length > 0) {
      it[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < it.length && !this.before(it[m], it[l])) m = l;
        if (r < it.length && !this.before(it[m], it[r])) m = r;
        if (m === i) break;
        [it[m], it[i]] = [it[i], it[m]];
        i = m;
      }
    }
    return top;
  }

  clear(): void {
    this.items.length = 0;
  }

  private before(a: { key: ChunkKey; priority: number }, b: { key: ChunkKey; priority: number }): boolean {
    return byPriority(a, b) <= 0;
  }
}

interface QueuedState {
  priority: number;
  version: number;
}

/** One result ready to apply. */
export interface ChunkResult<R> {
  key: ChunkKey;
  result: R;
  priority: number;
}

export class ChunkScheduler<R> {
  private readonly maxInFlight: number;
  private readonly maxNewPerFrame: number;
  private readonly onCancel: ((key: ChunkKey) => void) | undefined;
  private readonly heap = new RequestHeap();
  private readonly queued = new Map<ChunkKey, QueuedState>();
  private readonly inFlight = new Map<ChunkKey, number>();
  private readonly results = new Map<ChunkKey, ChunkResult<R>>();
  private wanted = new Map<ChunkKey, number>();
  private version = 0;
  /** Jobs cancelled so far (queued ones dropped + in-flight ones reported to onCancel). */
  cancelledCount = 0;
  /** Results that arrived for jobs no longer wanted and were dropped. */
  staleResults = 0;

  constructor(options: ChunkSchedulerOptions = {}) {
    this.maxInFlight = options.maxInFlight ?? 4;
    this.maxNewPerFrame = options.maxNewPerFrame ?? 32;
    this.onCancel = options.onCancel;
  }

  /**
   * Replaces the wanted set (requests sorted or not). Queued keys no longer wanted are dropped;
   * dispatched ones are cancelled (onCancel) and their results will be ignored; waiting results no
   * longer wanted are dropped. Priorities of queued keys are updated; at most `maxNewPerFrame` new
   * keys enter the queue, the most urgent first. Returns the number of new keys accepted.
   */
  update(requests: readonly ChunkRequest[]): number {
    const wanted = new Map<ChunkKey, number>();
    for (const r of requests) wanted.set(r.key, r.priority);
    for (const [key] of this.queued) {
      if (!wanted.has(key)) {
        this.queued.delete(key);
        this.cancelledCount++;
      }
    }
    for (const [key] of this.inFlight) {
      if (!wanted.has(key)) {
        this.inFlight.delete(key);
        this.cancelledCount++;
        this.onCancel?.(key);
      }
    }
    for (const [key] of this.results) if (!wanted.has(key)) this.results.delete(key);
    this.wanted = wanted;
    const sorted = [...requests].sort(byPriority);
    let added = 0;
    for (const r of sorted) {
      if (this.inFlight.has(r.key) || this.results.has(r.key)) continue;
      const q = this.queued.get(r.key);
      if (q) {
        if (q.priority !== r.priority) {
          q.priority = r.priority;
          q.version = ++this.version;
          this.heap.push(r.key, r.priority, q.version);
        }
        continue;
      }
      if (added >= this.maxNewPerFrame) continue;
      const version = ++this.version;
      this.queued.set(r.key, { priority: r.priority, version });
      this.heap.push(r.key, r.priority, version);
      added++;
    }
    // Keep the heap from filling up with stale entries.
    if (this.heap.length > 4 * (this.queued.size + 16)) this.rebuildHeap();
    return added;
  }

  /** Keys to start now, most urgent first, as many as `maxInFlight` allows. They count as in flight. */
  dispatch(): ChunkKey[] {
    const out: ChunkKey[] = [];
    while (this.inFlight.size < this.maxInFlight) {
      const top = this.heap.pop();
      if (!top) break;
      const q = this.queued.get(top.key);
      if (!q || q.version !== top.version) continue; // stale heap entry
      this.queued.delete(top.key);
      this.inFlight.set(top.key, q.priority);
      out.push(top.key);
    }
    return out;
  }

  /** A dispatched job finished. Returns false (and drops the result) when it is no longer wanted. */
  complete(key: ChunkKey, result: R): boolean {
    if (!this.inFlight.has(key)) {
      this.staleResults++;
      return false;
    }
    this.inFlight.delete(key);
    const priority = this.wanted.get(key);
    if (priority === undefined) {
      this.staleResults++;
      return false;
    }
    this.results.set(key, { key, result, priority });
    return true;
  }

  /** A dispatched job failed: it leaves the in-flight set and is requeued by the next update. */
  fail(key: ChunkKey): void {
    this.inFlight.delete(key);
  }

  /**
   * Results to apply this frame, most urgent first: at most `maxCount`, and stops once `budgetMs` has
   * been used according to `now()` between results (pass the caller's clock; the apply work happens
   * in `apply`, called once per result in order).
   */
  applyResults(maxCount: number, apply: (r: ChunkResult<R>) => void, budgetMs = Infinity, now: () => number = () => 0): number {
    const list = [...this.results.values()].sort(byPriority);
    const start = now();
    let n = 0;
    for (const r of list) {
      if (n >= maxCount || now() - start >= budgetMs) break;
      this.results.delete(r.key);
      apply(r);
      n++;
    }
    return n;
  }

  get queuedCount(): number {
    return this.queued.size;
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  get pendingApplyCount(): number {
    return this.results.size;
  }

  isPending(key: ChunkKey): boolean {
    return this.queued.has(key) || this.inFlight.has(key) || this.results.has(key);
  }

  private rebuildHeap(): void {
    this.heap.clear();
    for (const [key, q] of this.queued) this.heap.push(key, q.priority, q.version);
  }
}
