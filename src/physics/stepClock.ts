/**
 * The physics world's clock (issue 45: physics in real time): scene time turned into fixed steps of
 * {@link STEP_S}, as many as the frame owes, within two limits — at most {@link MAX_STEPS} an update
 * (1 s of scene time, so the world keeps the clock down to one frame a second) and a wall-clock
 * budget, {@link STEP_BUDGET_MS} or {@link STEP_BUDGET_FRACTION} of the wall time since the last update,
 * whichever is larger. Past either, the rest is dropped and counted (`droppedS`): the world then runs
 * slower than real time rather than stall the frame or spiral.
 *
 * Measured here (SwiftShader, 2 cores, explore at ~1.4 fps): the old limit of 12 steps (0.1 s) a
 * frame ran the world ~8× slower than the wall clock, and a probe thrown in explore had simulated
 * 31 s after 4 minutes; a fixed 25 ms budget still dropped 45 % of the time (~0.5 ms a step).
 *
 * Pure: no cannon-es, no DOM; `nowMs` is injectable for tests.
 */

/** Fixed step, seconds. */
export const STEP_S = 1 / 120;
/** Most steps one update runs: 1 s of scene time (12, 0.1 s, ran the world 8× slow at ~1.3 fps). */
export const MAX_STEPS = 120;
/** Least wall-clock budget of one update's steps, ms. */
export const STEP_BUDGET_MS = 25;
/** The budget grows with the frame: this fraction of the wall time since the last update (below ~12 fps a frame may spend more). */
export const STEP_BUDGET_FRACTION = 0.3;

export class StepClock {
  /** Scene time reached, seconds (null before the first update). */
  private clockS: number | null = null;
  private lastWallMs = Number.NaN;
  /** Scene time owed to the world and not yet stepped, seconds (< STEP_S after an update). */
  accumulatorS = 0;
  /** Scene time never simulated (an update past MAX_STEPS or its budget), seconds. */
  droppedS = 0;

  constructor(private readonly nowMs: () => number = () => performance.now()) {}

  /**
   * Advances to scene time `timeS`: `step(t)` runs once a fixed step, `t` that step's end time. With
   * `idle` nothing steps (the time is kept, less than a step owed). A clock that went backwards or
   * jumped more than 10 s resynchronises without stepping. Returns the steps run.
   */
  advance(timeS: number, idle: boolean, step: (t: number) => void): number {
    const wallMs = this.nowMs();
    const sinceMs = wallMs - this.lastWallMs;
    this.lastWallMs = wallMs;
    if (this.clockS === null || timeS < this.clockS || timeS - this.clockS > 10) {
      if (this.clockS !== null && timeS > this.clockS && !idle) this.droppedS += timeS - this.clockS; // a stall of the page
      this.clockS = timeS;
      this.accumulatorS = 0;
      return 0;
    }
    this.accumulatorS += timeS - this.clockS;
    this.clockS = timeS;
    if (idle) {
      this.accumulatorS %= STEP_S;
      return 0;
    }
    const budgetMs = Math.max(STEP_BUDGET_MS, Number.isFinite(sinceMs) ? STEP_BUDGET_FRACTION * sinceMs : 0);
    let steps = 0;
    let overBudget = false;
    while (this.accumulatorS >= STEP_S - 1e-9 && steps < MAX_STEPS && !overBudget) {
      this.accumulatorS -= STEP_S;
      steps++;
      step(timeS - this.accumulatorS);
      overBudget = (steps & 3) === 0 && this.nowMs() - wallMs > budgetMs;
    }
    if (steps === MAX_STEPS || overBudget) {
      const kept = this.accumulatorS % STEP_S; // whole steps dropped, the fraction kept for the views' interpolation
      this.droppedS += this.accumulatorS - kept;
      this.accumulatorS = kept;
    }
    return steps;
  }
}
