/**
 * Asteroid mesh resolution by screen size (pure: the asteroid field asks it each frame).
 * Level l meshes ASTEROID_LEVEL_CELLS[l]³ cells over the asteroid's bounding box.
 */

/** Cells per axis of each resolution level. */
export const ASTEROID_LEVEL_CELLS = [16, 32, 64] as const;
/** Target on-screen size of one mesh cell, pixels: finer than this is wasted, coarser shows facets. */
const TARGET_CELL_PX = 5;
/** Go down a level only when the lower level would be this much finer than needed (hysteresis). */
const DOWNGRADE_MARGIN = 0.7;

/**
 * The level an asteroid of projected radius `radiusPx` wants, given the level drawn now
 * (−1: none): the coarsest whose cells are at most TARGET_CELL_PX on screen (the finest when none
 * is), keeping a finer drawn level until the coarser one is clearly enough.
 */
export function asteroidLevel(radiusPx: number, drawnLevel: number): number {
  const neededCells = (2 * radiusPx) / TARGET_CELL_PX;
  let level = ASTEROID_LEVEL_CELLS.findIndex((c) => c >= neededCells);
  if (level < 0) level = ASTEROID_LEVEL_CELLS.length - 1;
  if (drawnLevel > level && neededCells > ASTEROID_LEVEL_CELLS[level] * DOWNGRADE_MARGIN) level = drawnLevel;
  return level;
}
