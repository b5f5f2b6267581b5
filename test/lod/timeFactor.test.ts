/** The time policy (src/lod/timeFactor.ts): its rate, its factor under and over the budget, and its refinement while still. */
import { describe, expect, it } from 'vitest';
import { jobsPerSecond, MAX_TIME_FACTOR, MIN_MEASURED_JOBS, REFINE_AFTER_MS, REFINE_STEP, TimeBudget, type TimeInput } from '../../src/lod/index';

/** Runs `b` for `ms` in 100 ms frames with `input`; returns the last factor. */
function run(b: TimeBudget, from: number, ms: number, input: Omit<TimeInput, 'nowMs'>): number {
  for (let t = from; t <= from + ms; t += 100) b.update({ ...input, nowMs: t });
  return b.factor;
}

describe('jobsPerSecond', () => {
  it('is the workers times the jobs a worker does a second, once enough jobs are measured', () => {
    expect(jobsPerSecond({ workers: 4, chunkJobs: MIN_MEASURED_JOBS - 1, workerMs: 1000 })).toBeNull();
    // 100 chunk jobs in 5 s of worker time (seams included): 20 a second a worker.
    expect(jobsPerSecond({ workers: 4, chunkJobs: 100, workerMs: 5000 })).toBeCloseTo(80, 9);
    expect(jobsPerSecond({ workers: 4, chunkJobs: 100, workerMs: 0 })).toBeNull();
    expect(jobsPerSecond({ workers: 0, chunkJobs: 100, workerMs: 10 })).toBeNull();
  });
});

describe('TimeBudget', () => {
  const over = { viewJobs: 4000, jobsPerS: 20, complete: false, working: true, still: true }; // 200 s against 20
  const under = { viewJobs: 100, jobsPerS: 20, complete: false, working: true, still: true }; // 5 s
  const done = { complete: true, working: false };

  it('off (0, NaN): the factor stays 1', () => {
    for (const budget of [0, -1, Number.NaN]) expect(run(new TimeBudget(budget), 0, 5000, over)).toBe(1);
  });

  it('doubles every second while the view would take longer than the budget, up to the cap; holds while unmeasured', () => {
    const b = new TimeBudget(20);
    expect(run(b, 0, 1000, { ...over, jobsPerS: null })).toBe(1);
    expect(run(b, 1100, 1000, over)).toBeCloseTo(2 ** 1.1, 1);
    expect(b.predictedS).toBeCloseTo(200, 9);
    expect(run(b, 2200, 20_000, over)).toBe(MAX_TIME_FACTOR);
  });

  it('comes back toward 1 under half the budget and holds between (a dead band)', () => {
    const b = new TimeBudget(20);
    run(b, 0, 2000, over);
    const raised = b.factor;
    expect(run(b, 2100, 1000, { ...under, viewJobs: 300 })).toBe(raised); // 15 s: within the band
    expect(run(b, 3200, 10_000, under)).toBe(1);
  });

  it('once complete with the camera still, refines a step each time the view has been complete a while, and never raises', () => {
    const b = new TimeBudget(20);
    run(b, 0, 3000, over);
    const landed = b.factor;
    // Complete: nothing for REFINE_AFTER_MS, then one step.
    b.update({ ...over, ...done, nowMs: 3100 });
    b.update({ ...over, ...done, nowMs: 3100 + REFINE_AFTER_MS - 1 });
    expect(b.factor).toBe(landed);
    // A new selection being answered (neither complete nor working) does not restart the wait.
    b.update({ ...over, complete: false, working: false, nowMs: 3100 + REFINE_AFTER_MS / 2 });
    b.update({ ...over, ...done, nowMs: 3100 + REFINE_AFTER_MS });
    expect(b.factor).toBeCloseTo(landed / REFINE_STEP, 9);
    // The finer view's work: over budget, but the camera is still, so no raise.
    expect(run(b, 4200, 5000, over)).toBeCloseTo(landed / REFINE_STEP, 9);
    // Complete again and again: down to 1, no lower.
    let t = 10_000;
    for (let i = 0; i < 40; i++, t += REFINE_AFTER_MS + 100) run(b, t, REFINE_AFTER_MS, { ...over, ...done });
    expect(b.factor).toBe(1);
    expect(b.refinements).toBe(Math.ceil(Math.log(landed) / Math.log(REFINE_STEP)));
  });

  it('a camera that moves gets the budget back: the factor rises again', () => {
    const b = new TimeBudget(20);
    run(b, 0, 200, { ...under, ...done });
    expect(run(b, 300, 2000, over)).toBe(1); // landed and still: held
    b.moved();
    expect(run(b, 2400, 2000, { ...over, still: false })).toBeGreaterThan(3);
  });
});
