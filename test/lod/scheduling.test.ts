/** Scheduling and cache: priorities, caps, cancellation, apply budget, budgeted LRU eviction, a streaming simulation. */
import { describe, expect, it } from 'vitest';
import {
  ChunkScheduler, chunkKey, CubeSphereSpace, drawnSet, FRONTIER_TIER, frontierFirst, GeometryCache, requestsForSelection, selectChunks,
  type ChunkKey, type PlanetShell, type Selection,
} from '../../src/lod/index';
import { lookAtView, Prng, randomDirection, scale } from './helpers';

describe('ChunkScheduler', () => {
  it('dispatches by priority (ties by key), caps new requests and jobs in flight', () => {
    const s = new ChunkScheduler<number>({ maxInFlight: 2, maxNewPerFrame: 3 });
    const added = s.update([{ key: 'a', priority: 1 }, { key: 'b', priority: 5 }, { key: 'c', priority: 5 }, { key: 'd', priority: 9 }]);
    expect(added).toBe(3); // d, b, c (a waits for the next frame)
    expect(s.dispatch()).toEqual(['d', 'b']);
    expect(s.dispatch()).toEqual([]); // back-pressure
    s.update([{ key: 'a', priority: 1 }, { key: 'b', priority: 5 }, { key: 'c', priority: 5 }, { key: 'd', priority: 9 }]);
    expect(s.queuedCount).toBe(2);
    expect(s.complete('d', 1)).toBe(true);
    expect(s.dispatch()).toEqual(['c']);
  });

  it('cancels stale jobs: queued ones dropped, in-flight ones reported once, their results ignored', () => {
    const cancelled: ChunkKey[] = [];
    const s = new ChunkScheduler<string>({ maxInFlight: 2, onCancel: (k) => cancelled.push(k) });
    s.update([{ key: 'x', priority: 3 }, { key: 'y', priority: 2 }, { key: 'z', priority: 1 }]);
    expect(s.dispatch()).toEqual(['x', 'y']);
    s.update([{ key: 'y', priority: 2 }, { key: 'w', priority: 7 }]);
    expect(cancelled).toEqual(['x']);
    expect(s.cancelledCount).toBe(2); // x in flight, z queued
    expect(s.complete('x', 'late')).toBe(false);
    expect(s.staleResults).toBe(1);
    expect(s.dispatch()).toEqual(['w']);
  });

  it('raises the priority of a queued job when it becomes more urgent', () => {
    const s = new ChunkScheduler<number>({ maxInFlight: 1 });
    s.update([{ key: 'a', priority: 1 }, { key: 'b', priority: 2 }]);
    s.update([{ key: 'a', priority: 10 }, { key: 'b', priority: 2 }]);
    expect(s.dispatch()).toEqual(['a']);
  });

  it('applies results in priority order within a count and time budget', () => {
    const s = new ChunkScheduler<number>({ maxInFlight: 10 });
    const req = Array.from({ length: 6 }, (_, i) => ({ key: `k${i}`, priority: i }));
    s.update(req);
    for (const k of s.dispatch()) s.complete(k, 0);
    const applied: string[] = [];
    expect(s.applyResults(2, (r) => applied.push(r.key))).toBe(2);
    expect(applied).toEqual(['k5', 'k4']);
    let t = 0;
    expect(s.applyResults(10, (r) => { applied.push(r.key); t += 3; }, 5, () => t)).toBe(2);
    expect(s.pendingApplyCount).toBe(2);
  });
});

describe('GeometryCache', () => {
  it('evicts least-recently-visible values down to the budget, never the kept ones, disposing each once', () => {
    const disposed: string[] = [];
    const c = new GeometryCache<{ id: string }>({ budgetBytes: 300, dispose: (k, v) => { expect(v.id).toBe(k); disposed.push(k); } });
    for (let i = 0; i < 6; i++) c.set(`k${i}`, { id: `k${i}` }, 100, i);
    c.markVisible(['k0'], 10);
    const evicted = c.trim(new Set(['k1']));
    expect(evicted).toEqual(['k2', 'k3', 'k4']);
    expect(c.bytes).toBe(300);
    expect(disposed).toEqual(evicted);
    c.set('k0', { id: 'k0' }, 50, 11); // replacement disposes the old value
    expect(disposed).toEqual([...evicted, 'k0']);
    c.clear();
    expect(c.size).toBe(0);
    expect(c.bytes).toBe(0);
    expect(new Set(disposed).size).toBe(disposed.length - 1); // k0 twice: two different values
    expect(c.disposedCount).toBe(disposed.length);
  });

  it('reports overBudget when the kept set alone does not fit', () => {
    const c = new GeometryCache<number>({ budgetBytes: 100, dispose: () => {} });
    c.set('a', 1, 80, 0);
    c.set('b', 2, 80, 0);
    expect(c.trim(new Set(['a', 'b']))).toEqual([]);
    expect(c.overBudget).toBe(60);
  });
});

describe('streaming simulation (selection → scheduler → cache → drawn set)', () => {
  const space = new CubeSphereSpace({ radiusM: 50e3, chunkCells: 32, finestCellM: 8 });
  const shell: PlanetShell = { innerM: 50e3 - 1000, outerM: 50e3 + 600 };

  for (const seed of [1, 2]) {
    it(`seed ${seed}: no holes once roots are loaded, memory within budget, every value disposed exactly once`, () => {
      const r = new Prng(seed);
      const BYTES = 1000;
      const budget = 600 * BYTES;
      const disposed = new Map<ChunkKey, number>();
      const cache = new GeometryCache<ChunkKey>({ budgetBytes: budget, dispose: (k) => disposed.set(k, (disposed.get(k) ?? 0) + 1) });
      const sched = new ChunkScheduler<ChunkKey>({ maxInFlight: 6, maxNewPerFrame: 12 });
      const roots = Array.from({ length: 6 }, (_, f) => chunkKey(f, space.levels, 0, 0, 0));
      for (const k of roots) cache.set(k, k, BYTES, 0); // the app keeps the roots resident
      let d = randomDirection(r);
      let alt = 3 * space.radiusM;
      let prev: Selection | null = null;
      let inFlight: ChunkKey[] = [];
      let worstOver = 0, holesAfterStart = 0, drawnMax = 0, finest = Infinity;
      for (let frame = 1; frame <= 120; frame++) {
        alt = Math.max(20, alt * (frame < 80 ? 0.9 : 1.15));
        const j = randomDirection(r);
        d = [d[0] + 0.01 * j[0], d[1] + 0.01 * j[1], d[2] + 0.01 * j[2]];
        const cam = scale(d, (space.radiusM + alt) / Math.hypot(...d));
        const sel = selectChunks(space, shell, lookAtView(cam, [0, 0, 0]), {}, prev);
        prev = sel;
        sched.update(requestsForSelection(sel, (k) => cache.has(k)));
        // Workers: finish last frame's jobs (results may be stale by now), start new ones.
        for (const k of inFlight) sched.complete(k, k);
        inFlight = sched.dispatch();
        sched.applyResults(8, (res) => cache.set(res.key, res.result, BYTES, frame));
        const drawn = drawnSet(space, shell, sel, (k) => cache.has(k), [...cache.keys()]);
        holesAfterStart += drawn.holes.length;
        drawnMax = Math.max(drawnMax, drawn.drawn.length);
        for (const k of drawn.drawn) finest = Math.min(finest, +k.split("/")[1]);
        cache.markVisible(drawn.drawn, frame);
        const keep = new Set([...drawn.drawn, ...roots]);
        cache.trim(keep);
        // Over budget only by what must stay drawn.
        worstOver = Math.max(worstOver, cache.bytes - Math.max(budget, keep.size * BYTES));
        for (const k of drawn.drawn) expect(cache.has(k)).toBe(true);
      }
      expect(holesAfterStart).toBe(0);
      expect(worstOver).toBeLessThanOrEqual(0);
      for (const [, n] of disposed) expect(n).toBe(1);
      expect(sched.cancelledCount).toBeGreaterThan(0);
      console.log(`seed ${seed}: ${cache.size} cached, ${disposed.size} evicted, ${sched.cancelledCount} cancelled, ${sched.staleResults} stale results, max drawn ${drawnMax}, finest drawn level ${finest}`);
      expect(finest).toBeLessThanOrEqual(space.levels - 5);
    });
  }
});

describe('frontierFirst: detail shows up group by group', () => {
  const space = new CubeSphereSpace({ radiusM: 50e3, chunkCells: 32, finestCellM: 2 });
  const shell: PlanetShell = { innerM: 50e3 - 300, outerM: 50e3 + 200 };

  it('puts the requests whose parent is drawn first, keeping the order within each tier', () => {
    const cam = scale([0.3, 0.55, 0.78], (50e3 + 50) / Math.hypot(0.3, 0.55, 0.78));
    const sel = selectChunks(space, shell, lookAtView(cam, [0, 0, 0]));
    const requests = requestsForSelection(sel, () => false);
    const drawn = new Set(Array.from({ length: 6 }, (_, f) => chunkKey(f, space.levels, 0, 0, 0)));
    const before = new Map(requests.map((r) => [r.key, r.priority]));
    const out = frontierFirst(requests.map((r) => ({ ...r })), drawn, space.levels);
    const onFrontier = (key: string): boolean => {
      const [f, l, i, j, k] = key.split('/').map(Number);
      return l === space.levels - 1 && drawn.has(chunkKey(f, l + 1, i >> 1, j >> 1, k >> 1));
    };
    const frontier = out.filter((r) => onFrontier(r.key)).length;
    expect(frontier).toBeGreaterThan(0);
    expect(frontier).toBeLessThan(out.length);
    // The frontier first, then the rest; within each, the original order by error.
    expect(out.slice(0, frontier).every((r) => onFrontier(r.key) && r.priority >= FRONTIER_TIER)).toBe(true);
    expect(out.slice(frontier).every((r) => !onFrontier(r.key) && r.priority < FRONTIER_TIER)).toBe(true);
    for (let n = 1; n < out.length; n++) {
      if (n === frontier) continue;
      expect(before.get(out[n - 1].key)!).toBeGreaterThanOrEqual(before.get(out[n].key)!);
    }
  });

  it('a camera parked 50 m up at 3 jobs per frame: the drawn set grows sooner and deeper than by error alone', () => {
    const cam = scale([0.3, 0.55, 0.78], (50e3 + 50) / Math.hypot(0.3, 0.55, 0.78));
    const view = lookAtView(cam, scale([0.35, 0.5, 0.78], 50e3));
    const run = (frontier: boolean): { drawnAt: number[]; finestAt: number[] } => {
      const ready = new Set(Array.from({ length: 6 }, (_, f) => chunkKey(f, space.levels, 0, 0, 0)));
      let prev: Selection | null = null;
      let drawn: string[] = [...ready];
      const drawnAt: number[] = [], finestAt: number[] = [];
      for (let frame = 1; frame <= 60; frame++) {
        const sel = selectChunks(space, shell, view, {}, prev);
        prev = sel;
        let requests = requestsForSelection(sel, (k) => ready.has(k));
        if (frontier) requests = frontierFirst(requests, new Set(drawn), space.levels);
        for (const r of requests.slice(0, 3)) ready.add(r.key);
        drawn = drawnSet(space, shell, sel, (k) => ready.has(k), [...ready]).drawn;
        drawnAt.push(drawn.length);
        finestAt.push(Math.min(...drawn.map((k) => +k.split('/')[1])));
      }
      return { drawnAt, finestAt };
    };
    const base = run(false), front = run(true);
    console.log(`drawn chunks every 10 frames — by error: ${base.drawnAt.filter((_, i) => i % 10 === 9).join(' ')}; frontier first: ${front.drawnAt.filter((_, i) => i % 10 === 9).join(' ')}`);
    console.log(`finest drawn level every 10 frames — by error: ${base.finestAt.filter((_, i) => i % 10 === 9).join(' ')}; frontier first: ${front.finestAt.filter((_, i) => i % 10 === 9).join(' ')}`);
    const sum = (a: number[]): number => a.reduce((s, v) => s + v, 0);
    // More chunks drawn over the run (detail earlier), and at least as fine by the end.
    expect(sum(front.drawnAt)).toBeGreaterThan(sum(base.drawnAt));
    expect(front.finestAt.at(-1)!).toBeLessThanOrEqual(base.finestAt.at(-1)!);
  });
});
