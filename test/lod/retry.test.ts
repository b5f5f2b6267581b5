import { describe, expect, it } from 'vitest';
import { JOB_RETRY, RetryState } from '../../src/lod/retry';

describe('RetryState', () => {
  it('waits 0.5, 1, 2 s between tries, then gives up; a reset starts over', () => {
    const r = new RetryState();
    expect(r.ready(0)).toBe(true);
    expect(r.fail(1000)).toEqual({ retry: true, delayMs: 500, attempt: 2 });
    expect(r.ready(1499)).toBe(false);
    expect(r.ready(1500)).toBe(true);
    expect(r.fail(2000)).toEqual({ retry: true, delayMs: 1000, attempt: 3 });
    expect(r.fail(4000)).toEqual({ retry: true, delayMs: 2000, attempt: 4 });
    expect(r.ready(5999)).toBe(false);
    expect(r.fail(7000)).toEqual({ retry: false, attempts: 1 + JOB_RETRY.retries });
    expect(r.gaveUp).toBe(true);
    expect(r.ready(1e12), 'never again by itself').toBe(false);
    r.reset();
    expect(r.ready(7000)).toBe(true);
    expect(r.fail(7000)).toMatchObject({ retry: true, delayMs: 500 });
  });
});
