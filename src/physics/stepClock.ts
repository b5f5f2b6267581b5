/**
 * The physics world's clock (issue 45: physics in real time): scene time turned into fixed steps of
 * {@link STEP_S}, as many as the frame owes, within two limits — at most {@link MAX_STEPS} an update
 * and a wall-clock budget, {@link STEP_BUDGET_MS} or {@link STEP_BUDGET_FRACTION} of the wall time
 * since the last update, whichever is larger.
 *
 * The policy when the owed steps do not fit (a slow frame, a stall of a second or more, steps made
 * dear by a loaded CPU): first the steps lengthen — 2 or 4 × STEP_S ({@link MAX_COARSE}), the finest
 * that fits at the measured cost of a step — so the world keeps the clock at the cost of precision
 * (counted: `coarseSteps`); only what even those cannot cover is dropped and counted (`droppedS`): the
 * world then runs slower than real time rather than stall the frame or spiral. So the world keeps real
 * time down to 0.25 fps (120 steps of 1/30 s), where it used to stop at 1 fps.
 *
 * Measured here (SwiftShader, 2 cores, explore at ~1.4 fps): the old limit of 12 steps (0.1 s) a
 * frame ran the world ~8× slower than the wall clock, and a probe thrown in explore had simulated
 * 31 s after 4 minutes; a fixed 25 ms budget still dropped 45 % of the time (~0.5 ms a step); a clean
 * CI run at 4.4 fps with 1/120 s steps only still dropped 19.1 s of 60 (frames of a second and more).
 *
 * Pure: no cannon-es, no DOM; `nowMs` is injectable for tests.
 */

/** Fixed step, seconds. */
export const STEP_S = 1 / 120;
/** Most steps one update runs (12 steps, 0.1 s, ran the world 8× slow at ~1.3 fps). */
export const MAX_STEPS = 120;
/** Least wall-clock budget of one update's steps, ms. */
export const STEP_BUDGET_MS = 25;
/** The budget grows with the frame: this fraction of the wall time since the last update (below ~12 fps a frame may spend more). */
export const STEP_BUDGET_FRACTION = 0.3;
/** Longest step, in fixed steps, when the fine ones do not fit (1/30 s: contacts and the swept test still hold). */
export const MAX_COARSE = 4;

export class StepClock {
  /** Scene time reached, seconds (null before the first update). */
  private clockS: number | null = null;
  private lastWallMs = Number.NaN;
  /** Scene time owed to the world and not yet stepped, seconds (< STEP_S after an update). */
  accumulatorS = 0;
  /** Scene time never simulated (past MAX_STEPS coarse steps or the budget, or a stall over 10 s), seconds. */
  droppedS = 0;
  /** Steps longer than STEP_S, run because the fine ones did not fit an update. */
  coarseSteps = 0;
  /** Length of the last step run, seconds (views interpolate over it). */
  lastStepS = STEP_S;
  /** Wall time a step has cost lately, ms (a moving average; 0 before any was measured). */
  stepCostMs = 0;

  constructor(private readonly nowMs: () => number = () => performance.now()) {}

  /**
   * Advances to scene time `timeS`: `step(t, dtS)` runs once a step, `t` that step's end time and `dtS`
   * its length (STEP_S, or up to MAX_COARSE × STEP_S when the fine steps do not fit). With `idle`
   * nothing steps (the time is kept, less than a step owed). A clock that went backwards or jumped
   * more than 10 s resynchronises without stepping. Returns the steps run.
   */
  advance(timeS: number, idle: boolean, step: (t: number, dtS: number) => void): number {
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
    // The finest step length whose steps fit the count and the budget at the cost measured lately.
    let k = 1;
    for (; k < MAX_COARSE; k *= 2) {
      const n = Math.floor((this.accumulatorS + 1e-9) / (k * STEP_S));
      if (n <= MAX_STEPS && n * this.stepCostMs <= budgetMs) break;
    }
    let steps = 0;
    let overBudget = false;
    // Coarse steps while a whole one is owed, then fine ones for the rest (fewer than k).
    for (let m = k; m >= 1 && !overBudget; m = m === 1 ? 0 : 1) {
      const dt = m * STEP_S;
      while (this.accumulatorS >= dt - 1e-9 && steps < MAX_STEPS && !overBudget) {
        this.accumulatorS -= dt;
        steps++;
        if (m > 1) this.coarseSteps++;
        this.lastStepS = dt;
        step(timeS - this.accumulatorS, dt);
        overBudget = (steps & 3) === 0 && this.nowMs() - wallMs > budgetMs;
      }
    }
    if (steps > 0) {
      const costMs = (this.nowMs() - wallMs) / steps;
      this.stepCostMs = this.stepCostMs === 0 ? costMs : 0.7 * this.stepCostMs + 0.3 * costMs;
    }
    if (this.accumulatorS >= STEP_S - 1e-9) {
      const kept = this.accumulatorS % STEP_S; // whole steps dropped, the fraction kept for the views' interpolation
      this.droppedS += this.accumulatorS - kept;
      this.accumulatorS = kept;
    }
    return steps;
  }
}
