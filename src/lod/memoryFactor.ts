/**
 * The planet's memory policy (docs/lod.md "Streaming that converges"): a factor on the screen-space
 * error threshold, from the predicted bytes of what the selection wants. CesiumJS's
 * memoryAdjustedScreenSpaceError multiplies its threshold by 1.02 a frame while the bytes loaded
 * exceed `cacheBytes + maximumCacheOverflowBytes` and divides it back under `cacheBytes`. Reacting to
 * bytes held overshot here (×42 in the simulation): the drawn set stays protected until a coarser
 * one commits, so held bytes fall long after the selection has shrunk. So the factor follows the
 * prediction, with a dead band between LOWER_BELOW × budget and the budget.
 */
/** Factor on the error threshold per frame while the predicted wanted set does not fit (Cesium's 1.02). */
export const ERROR_FACTOR_STEP = 1.02;
/** The factor comes back toward 1 once the predicted wanted set is under this share of the budget. */
export const LOWER_BELOW = 0.8;
/** Largest memory factor (the coarsest the selection gets; 64× the user's threshold). */
export const MAX_ERROR_FACTOR = 64;
/**
 * The next frame's factor: × ERROR_FACTOR_STEP while `predictedBytes` exceeds the budget and the cache
 * holds more than LOWER_BELOW of it (early in a teleport the few results so far make a poor average:
 * orbit chunks all hold surface, and coarsening on that guess overshot to ×5); ÷ ERROR_FACTOR_STEP
 * toward 1 under LOWER_BELOW × budget; unchanged between (no oscillation).
 */
export function nextErrorFactor(factor: number, predictedBytes: number, heldBytes: number, budgetBytes: number): number {
  if (predictedBytes > budgetBytes && heldBytes > LOWER_BELOW * budgetBytes) return Math.min(MAX_ERROR_FACTOR, factor * ERROR_FACTOR_STEP);
  if (predictedBytes < LOWER_BELOW * budgetBytes) return Math.max(1, factor / ERROR_FACTOR_STEP);
  return factor;
}
