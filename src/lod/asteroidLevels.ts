/**
 * Asteroid LOD, pure (the asteroid field asks it each frame, per asteroid): the mesh resolution
 * by screen size with hysteresis, and what to do about jobs — which level to request next, with
 * which priority, and which job went stale. Level l meshes ASTEROID_LEVEL_CELLS[l]³ cells over the
 * asteroid's bounding box. Every asteroid first gets level 0 (cheap, so the whole field appears
 * quickly), then the level its size asks for; a drawn mesh stays until its replacement is ready.
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

/** One asteroid as the LOD step sees it. */
export interface AsteroidLodInput {
  /** Projected radius, pixels. */
  radiusPx: number;
  /** Level drawn now (−1: none yet). */
  drawnLevel: number;
  /** Level of the job in flight (−1: none). */
  jobLevel: number;
  /** Retries gave up: nothing is requested until the user retries. */
  failed: boolean;
  /** The retry backoff allows a new job now. */
  retryReady: boolean;
  /** The drawn mesh predates the body's newest edit (issue 19): it is meshed again at the level drawn. */
  edited?: boolean;
}

export interface AsteroidLodDecision {
  /** The level the asteroid should show. */
  want: number;
  /** Cancel the job in flight: the camera moved on (level-0 jobs are always wanted, never cancelled). */
  cancelJob: boolean;
  /** Start a job for this level with this priority (higher first), or nothing. */
  request: { level: number; priority: number } | null;
}

/** Priority boost of a first mesh: coverage before detail. */
const COVERAGE_PRIORITY = 1e6;

/** Priority of an edited asteroid's re-mesh: the user is waiting to see the dig. */
const EDIT_PRIORITY = 1e7;

/** What to do for one asteroid this frame. */
export function asteroidLodStep(s: AsteroidLodInput): AsteroidLodDecision {
  const want = s.drawnLevel >= 0 ? asteroidLevel(s.radiusPx, s.drawnLevel) : 0;
  const cancelJob = s.jobLevel >= 0 && s.jobLevel !== want && s.jobLevel !== 0;
  const busy = s.jobLevel >= 0 && !cancelJob;
  const request = busy || s.failed || (s.drawnLevel === want && !s.edited) || !s.retryReady
    ? null
    // An edit first, then coverage (level 0), then what is biggest on screen.
    : { level: want, priority: (s.edited ? EDIT_PRIORITY : want === 0 ? COVERAGE_PRIORITY : 0) + s.radiusPx };
  return { want, cancelJob, request };
}
