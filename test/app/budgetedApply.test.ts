/**
 * The budgeted apply step the asteroid field and the planet share (src/app/budgetedApply.ts): at
 * least one result a frame, no more once the budget is spent, progress advanced once a step (jobs
 * that ended without a result included), the task finished once nothing is left.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BudgetedApply } from '../../src/app/budgetedApply';
import { Progress } from '../../src/app/progress';

afterEach(() => vi.restoreAllMocks());

describe('BudgetedApply', () => {
  it('applies within the budget, at least one a step; advances once a step; finishes when settled', () => {
    const progress = new Progress();
    let emits = 0;
    progress.subscribe(() => emits++);
    const apply = new BudgetedApply(progress, 'jobs', 4);
    let clockMs = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => clockMs);
    const queue = [1, 2, 3, 4, 5];
    const next = (): boolean => {
      if (queue.length === 0) return false;
      queue.shift();
      clockMs += 3; // each result costs 3 ms
      return true;
    };
    apply.started(6);
    expect(progress.snapshot()).toMatchObject({ active: 1, total: 6, done: 0, label: 'jobs' });
    expect(apply.step(next, () => false)).toBe(2); // 0 → 3 ms: under 4, a second; 6 ms: over
    expect(progress.snapshot().done).toBe(2);
    apply.endedWithoutResult(); // a cancelled job: done at the next step
    expect(progress.snapshot().done).toBe(2);
    emits = 0;
    expect(apply.step(next, () => false)).toBe(2);
    expect(progress.snapshot().done).toBe(5);
    expect(emits).toBe(1); // one advance a step
    clockMs += 100;
    expect(apply.step(next, () => queue.length === 0)).toBe(1);
    expect(progress.snapshot()).toMatchObject({ active: 0, fraction: 1 });
    // A later job begins a new task.
    apply.started(1);
    expect(progress.snapshot()).toMatchObject({ active: 1, total: 1, done: 0 });
    apply.finish();
    expect(progress.snapshot().active).toBe(0);
  });

  it('a step with nothing to apply still finishes a settled task', () => {
    const progress = new Progress();
    const apply = new BudgetedApply(progress, 'jobs');
    apply.started(2);
    apply.endedWithoutResult(2);
    expect(apply.step(() => false, () => true)).toBe(0);
    expect(progress.snapshot()).toMatchObject({ active: 0, done: 2, total: 2 });
  });
});
