/**
 * Main-thread time a frame may spend turning worker results into geometry, ms (at least one result
 * a frame, so work always progresses): the asteroid field and the planet share it.
 */
export const APPLY_BUDGET_MS = 4;
