import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SilenceWatch, stallAllowance } from '../../src/jobs/silenceWatch';

describe('the liveness rule (issue 45: body workers and the planet LOD worker alike)', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('allows 10 s or 10× the slowest answer, at most the cap', () => {
    expect(stallAllowance(10_000, 300, 120_000)).toBe(10_000);
    expect(stallAllowance(10_000, 2_000, 120_000)).toBe(20_000);
    expect(stallAllowance(10_000, 60_000, 120_000)).toBe(120_000);
  });

  it('a worker that owes an answer and stays silent past the allowance is reported once', () => {
    const silent: number[] = [];
    const watch = new SilenceWatch({ onSilent: (ms) => silent.push(ms) });
    watch.expect();
    vi.advanceTimersByTime(400);
    watch.answered(); // 0.4 s: the allowance stays 10 s
    watch.expect();
    vi.advanceTimersByTime(9_900);
    expect(silent).toEqual([]);
    vi.advanceTimersByTime(200);
    expect(silent).toHaveLength(1);
    expect(silent[0]).toBeGreaterThanOrEqual(10_000);
    vi.advanceTimersByTime(60_000);
    expect(silent).toHaveLength(1);
  });

  it('an untimed answer (start-up) does not raise the allowance; owing two, the deadline restarts at the first answer', () => {
    const silent: number[] = [];
    const watch = new SilenceWatch({ onSilent: (ms) => silent.push(ms) });
    watch.expect();
    watch.expect();
    vi.advanceTimersByTime(5_000);
    watch.answered(false);
    expect(watch.allowanceMs).toBe(10_000);
    vi.advanceTimersByTime(9_000);
    expect(silent).toEqual([]);
    vi.advanceTimersByTime(1_100);
    expect(silent).toHaveLength(1);
  });
});
