import { describe, expect, it } from 'vitest';
import { Progress, type ProgressSnapshot } from '../../src/app/progress';

describe('Progress', () => {
  it('aggregates tasks over a busy period and returns to idle', () => {
    const progress = new Progress();
    const seen: ProgressSnapshot[] = [];
    progress.subscribe((s) => seen.push(s));
    expect(seen[0].active).toBe(0);
    expect(seen[0].fraction).toBe(1);

    const a = progress.begin('chunks', 4);
    const b = progress.begin('sky', 1);
    a.advance(2);
    expect(progress.snapshot()).toMatchObject({ active: 2, done: 2, total: 5, label: 'sky' });
    b.finish();
    // Finished tasks still count until the period ends: the bar never moves backwards.
    expect(progress.snapshot().fraction).toBeCloseTo(3 / 5);
    a.advance(10); // clamped
    expect(progress.snapshot().done).toBe(5);
    a.finish();
    expect(progress.snapshot()).toMatchObject({ active: 0, fraction: 1, label: '' });

    const fractions = seen.map((s) => s.fraction);
    const busy = fractions.slice(1, -1);
    for (let i = 1; i < busy.length; i++) expect(busy[i]).toBeGreaterThanOrEqual(busy[i - 1] - 1e-12);
  });

  it('records failures until the next busy period', () => {
    const progress = new Progress();
    const t = progress.begin('asteroid 3', 2);
    t.fail(new Error('worker died'));
    t.advance(); // ignored after the end
    expect(progress.snapshot().errors).toEqual(['asteroid 3: worker died']);
    progress.begin('asteroid 4', 1);
    expect(progress.snapshot().errors).toEqual([]);
  });

  it('grows totals and rejects nonsense totals', () => {
    const progress = new Progress();
    const t = progress.begin('seams', 1);
    t.addTotal(3);
    expect(progress.snapshot().total).toBe(4);
    expect(() => progress.begin('x', -1)).toThrow(RangeError);
    expect(() => progress.begin('x', NaN)).toThrow(RangeError);
  });
});
