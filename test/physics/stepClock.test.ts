import { describe, expect, it } from 'vitest';
import { MAX_COARSE, MAX_STEPS, STEP_BUDGET_MS, STEP_S, StepClock } from '../../src/physics/stepClock';

/** A fake wall clock: each step costs `stepMs`, frames are `frameMs` apart. */
function fakeWall(stepMs: number) {
  const wall = { ms: 0 };
  return { wall, clock: new StepClock(() => wall.ms), step: () => void (wall.ms += stepMs) };
}

describe('StepClock (issue 45: physics in real time)', () => {
  it('keeps real time at 1 fps when steps are cheap: 120 steps an update, nothing dropped', () => {
    const { wall, clock, step } = fakeWall(0.1);
    clock.advance(0, false, step);
    let steps = 0;
    for (let s = 1; s <= 10; s++) {
      wall.ms = s * 1000;
      steps += clock.advance(s, false, step);
    }
    expect(steps).toBeGreaterThanOrEqual(10 / STEP_S - 1);
    expect(clock.droppedS).toBe(0);
  });

  it('a slow frame may spend 30 % of its interval: at 0.7 s frames and 0.5 ms steps (SwiftShader explore) it keeps real time', () => {
    const { wall, clock, step } = fakeWall(0.5);
    clock.advance(0, false, step);
    let t = 0;
    for (let f = 1; f <= 20; f++) {
      wall.ms = f * 700 + 0; // the frame's own work
      t += 0.7;
      clock.advance(t, false, step);
    }
    // The old fixed 25 ms budget stepped 50 of the 84 steps a frame owed and dropped 40 %.
    expect(clock.droppedS).toBeLessThan(0.01);
  });

  it('past its budget it drops the rest and counts it, never stalling a frame for long', () => {
    const { wall, clock, step } = fakeWall(5); // 5 ms a step
    clock.advance(0, false, step);
    wall.ms = 100; // 100 ms frames: the budget is 25 ms, 5 steps of the 12 owed
    const t0 = wall.ms;
    const steps = clock.advance(0.1, false, step);
    expect(wall.ms - t0).toBeLessThanOrEqual(STEP_BUDGET_MS + 20);
    expect(steps).toBeLessThan(12);
    expect(clock.droppedS).toBeGreaterThan(0);
    expect(clock.accumulatorS).toBeLessThanOrEqual(STEP_S);
  });

  it('at most MAX_STEPS an update, coarse (4 × STEP_S) when the fine ones do not fit; a frozen or jumping clock steps nothing', () => {
    const { wall, clock, step } = fakeWall(0);
    clock.advance(0, false, step);
    wall.ms = 5000;
    // 3 s owed (a 5 s stall of frames, 0.2 fps): 360 fine steps do not fit 120, 90 of 1/30 s do.
    const lengths: number[] = [];
    expect(clock.advance(3, false, (_, dt) => lengths.push(dt))).toBe(90);
    expect(lengths.every((dt) => Math.abs(dt - MAX_COARSE * STEP_S) < 1e-12)).toBe(true);
    expect(clock.coarseSteps).toBe(90);
    expect(clock.droppedS).toBe(0);
    // 6 s owed: 120 coarse steps (4 s), 2 s dropped.
    wall.ms = 11000;
    expect(clock.advance(9, false, step)).toBe(MAX_STEPS);
    expect(clock.droppedS).toBeCloseTo(2, 6);
    expect(clock.advance(9, false, step)).toBe(0); // frozen
    expect(clock.advance(30, false, step)).toBe(0); // a jump resynchronises
    expect(clock.advance(29, false, step)).toBe(0); // backwards too
  });

  it('at 4.4 fps with steps of 4 ms (a loaded CPU: 27 fine steps cost 108 ms of a 68 ms budget) it keeps real time with longer steps, nothing dropped', () => {
    const { wall, clock, step } = fakeWall(4);
    clock.advance(0, false, step);
    let t = 0;
    for (let f = 1; f <= 60; f++) {
      wall.ms = (f * 1000) / 4.4;
      t = f / 4.4;
      clock.advance(t, false, step);
    }
    expect(clock.droppedS).toBeLessThan(0.2); // the first frames, before a step's cost is known
    expect(clock.coarseSteps).toBeGreaterThan(0);
  });
});
