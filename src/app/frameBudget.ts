/** The main thread's budgets a frame for streaming work (the asteroid field and the planet). */

/**
 * Main-thread time a frame may spend turning worker results into geometry, ms (at least one result
 * a frame, so work always progresses): the asteroid field and the planet share it.
 */
export const APPLY_BUDGET_MS = 4;

const START_SHARE = 0.1;
const START_MIN_MS = 4;
const START_MAX_MS = 12;
/**
 * Main-thread time a frame may spend starting jobs (the planet's): a tenth of the frame interval,
 * within 4-12 ms. A start clones the job's parameters (a seam's packed leaves, ~10 kB a part); on
 * the H100 machine unbudgeted starts after a LOD answer took 70 ms of one frame. Seams alone were
 * budgeted before: at a fixed 6 ms and ~4 software-rendered frames a second they capped the flight
 * at ~8 seams/s.
 */
export function startBudgetMs(frameMs: number): number {
  return Math.min(START_MAX_MS, Math.max(START_MIN_MS, START_SHARE * frameMs));
}
