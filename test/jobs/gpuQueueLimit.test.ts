import { describe, expect, it } from 'vitest';
import { GPU_QUEUE_HARD_FACTOR, GPU_QUEUE_INITIAL, GPU_QUEUE_MAX, GPU_QUEUE_MIN, GpuQueueLimit } from '../../src/jobs/gpuQueueLimit';

/** Completions at `perS` chunks a second, in batches of 32 (as the sampler returns them). */
function feed(q: GpuQueueLimit, perS: number, count: number, t0 = 0): number {
  let t = t0;
  for (let i = 0; i < count; i += 32) {
    t += (32 / perS) * 1000;
    for (let j = 0; j < 32; j++) q.completed(t);
  }
  return t;
}

describe('GpuQueueLimit: about a second of the GPU’s measured throughput', () => {
  it('starts at the initial limit until the rate is known', () => {
    const q = new GpuQueueLimit();
    expect(q.limit).toBe(GPU_QUEUE_INITIAL);
    const t = feed(q, 600, 32); // one batch: no interval measured yet
    expect(q.limit).toBe(GPU_QUEUE_INITIAL);
    feed(q, 600, 32, t); // two: a rate
    expect(q.limit).toBeGreaterThan(500);
  });

  it('follows the rate: a fast GPU may hold more, a slow one less', () => {
    const fast = new GpuQueueLimit();
    feed(fast, 700, 512);
    expect(fast.rate!).toBeGreaterThan(600);
    expect(fast.limit).toBeGreaterThan(600);
    expect(fast.limit).toBeLessThan(800);
    const slow = new GpuQueueLimit();
    feed(slow, 90, 512);
    expect(slow.limit).toBeLessThan(110);
    expect(slow.limit).toBeGreaterThanOrEqual(GPU_QUEUE_MIN);
  });

  it('keeps the peak: a lull in demand does not shrink it; bounds hold', () => {
    const q = new GpuQueueLimit();
    const t = feed(q, 700, 512);
    feed(q, 150, 512, t); // few chunks asked for: few returned
    expect(q.limit).toBeGreaterThan(600);
    const crawl = new GpuQueueLimit();
    feed(crawl, 5, 512);
    expect(crawl.limit).toBe(GPU_QUEUE_MIN);
    const flood = new GpuQueueLimit();
    feed(flood, 1e6, 512);
    expect(flood.limit).toBe(GPU_QUEUE_MAX);
  });

  it('a fixed limit (benchmarks) ignores the rate', () => {
    const q = new GpuQueueLimit(100);
    feed(q, 700, 512);
    expect(q.limit).toBe(100);
  });
});

describe('GpuQueueLimit.route: past the limit, JS sampling on a free worker; on busy ones past the hard bound', () => {
  it('sends to the GPU under the limit, free workers or not', () => {
    const q = new GpuQueueLimit();
    feed(q, 1000, 512);
    expect(q.route(q.limit - 1, false)).toBe('gpu');
    expect(q.route(q.limit - 1, true)).toBe('gpu');
  });

  it('past the limit: JS when a worker is free, else the GPU up to the hard bound, then JS', () => {
    const q = new GpuQueueLimit();
    const limit = q.limit;
    expect(q.route(limit, true)).toBe('js');
    expect(q.route(limit, false)).toBe('gpu');
    expect(q.route(GPU_QUEUE_HARD_FACTOR * limit - 1, false)).toBe('gpu');
    expect(q.route(GPU_QUEUE_HARD_FACTOR * limit, false)).toBe('js');
  });

  it("'always' and a fixed limit (benchmarks) spill at the limit whatever the workers", () => {
    expect(new GpuQueueLimit(100).route(100, false)).toBe('js');
    expect(new GpuQueueLimit(100).route(99, true)).toBe('gpu');
    const always = new GpuQueueLimit(null, 'always');
    expect(always.route(always.limit, false)).toBe('js');
  });
});
