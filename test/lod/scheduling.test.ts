/** Requests and cache: frontier-first priorities, budgeted least-recently-visible eviction (the streaming simulation is streamingSim.ts). */
import { describe, expect, it } from 'vitest';
import {
  chunkKey, CubeSphereSpace, drawnSet, FRONTIER_TIER, frontierFirst, GeometryCache, requestsForSelection, selectChunks,
  type PlanetShell, type Selection,
} from '../../src/lod/index';
import { lookAtView, scale } from './helpers';

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
