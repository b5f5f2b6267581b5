import { describe, expect, it } from 'vitest';
import { GPU_QUEUE_HARD_FACTOR, GPU_QUEUE_INITIAL, GPU_SPILL_WAIT_S, GPU_QUEUE_MAX, GPU_QUEUE_MIN, GpuQueueLimit } from '../../src/workers/gpuQueueLimit';

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

describe('GpuQueueLimit.route: JS sampling on a free worker when the GPU would be late, on busy ones past the hard bound', () => {
  it('before a rate is known: the GPU under the initial limit; past it, a free worker', () => {
    const q = new GpuQueueLimit();
    expect(q.route(GPU_QUEUE_INITIAL - 1, true)).toBe('gpu');
    expect(q.route(GPU_QUEUE_INITIAL, true)).toBe('js');
    expect(q.route(GPU_QUEUE_INITIAL, false)).toBe('gpu');
  });

  it('with a rate: a free worker takes a chunk the GPU would reach after GPU_SPILL_WAIT_S; busy workers wait for the GPU up to the hard bound', () => {
    const q = new GpuQueueLimit();
    feed(q, 1000, 512);
    const rate = q.rate!;
    const late = Math.ceil(rate * GPU_SPILL_WAIT_S) + 1;
    expect(q.route(late - 2, true)).toBe('gpu');
    expect(q.route(late, true)).toBe('js');
    expect(q.route(late, false)).toBe('gpu');
    expect(q.route(GPU_QUEUE_HARD_FACTOR * q.limit - 1, false)).toBe('gpu');
    expect(q.route(GPU_QUEUE_HARD_FACTOR * q.limit, false)).toBe('js');
  });

  it("'limit': free workers only past the limit; 'always' and a fixed limit (benchmarks): past the limit whatever the workers", () => {
    const limitOnly = new GpuQueueLimit(null, 'limit');
    feed(limitOnly, 1000, 512);
    expect(limitOnly.route(limitOnly.limit - 1, true)).toBe('gpu');
    expect(limitOnly.route(limitOnly.limit, true)).toBe('js');
    expect(limitOnly.route(limitOnly.limit, false)).toBe('gpu');
    expect(new GpuQueueLimit(100).route(100, false)).toBe('js');
    expect(new GpuQueueLimit(100).route(99, true)).toBe('gpu');
    const always = new GpuQueueLimit(null, 'always');
    expect(always.route(always.limit, false)).toBe('js');
  });
});
