/**
 * The planet's time policy (issue 43; docs/lod.md "A time budget for weak machines"): a factor on the
 * screen-space error threshold, so that the view the selection wants can be built in about
 * {@link TimeBudget.budgetS} seconds by the workers this machine has.
 *
 * The memory policy (memoryFactor.ts) coarsens the selection when the predicted bytes do not fit;
 * this one when the predicted time does not: the chunk jobs the view needs from nothing (the
 * selection's wanted chunks, leaves and their ancestors) over the jobs a second the workers can do,
 * measured from their own job times (a GPU compile that holds the page's frames does not slow
 * them). With 15 workers and the GPU sampling, a 4,000-chunk view is a few seconds and the factor
 * stays 1; with one worker sampling in JS (a software renderer, or a 4-core laptop without a GPU)
 * the same view is minutes, and the selection lands coarser, then refines while the camera stays
 * still: each time the view completes and has been complete for {@link REFINE_AFTER_MS}, the factor
 * steps down by {@link REFINE_STEP}, until 1. A camera that moves again gets the budget back.
 */

/** Default budget (s): a view should be built within it; `lodTime=` in the URL, 0 = off. */
export const DEFAULT_TIME_BUDGET_S = 20;
/** While over budget the factor doubles every this many ms (and halves while under the dead band). */
export const DOUBLING_MS = 1000;
/** The factor comes back toward 1 (moving camera) once the predicted time is under this share of the budget. */
export const TIME_LOWER_BELOW = 0.5;
/** Largest time factor (16× the user's threshold). */
export const MAX_TIME_FACTOR = 16;
/** A still camera's complete view refines after this long complete. */
export const REFINE_AFTER_MS = 1000;
/** Each refinement step divides the factor by this. */
export const REFINE_STEP = 2;
/** Chunk jobs measured before the rate is trusted. */
export const MIN_MEASURED_JOBS = 32;

/** The workers' pace, from their own totals (PlanetJobs' stats). */
export interface WorkerPace {
  /** Body workers in the pool. */
  workers: number;
  /** Chunk jobs done so far. */
  chunkJobs: number;
  /** Milliseconds the workers spent on chunk and seam jobs so far. */
  workerMs: number;
}

/**
 * Chunk jobs a second the workers can do (seams included in their cost), or null while fewer than
 * {@link MIN_MEASURED_JOBS} are measured.
 */
export function jobsPerSecond(pace: WorkerPace): number | null {
  if (pace.chunkJobs < MIN_MEASURED_JOBS || !(pace.workerMs > 0) || !(pace.workers >= 1)) return null;
  return (pace.workers * 1000 * pace.chunkJobs) / pace.workerMs;
}

/** The workers' pace and the camera's state, for the time policy (timeFactor.ts); PlanetView measures them. */
export interface StreamingPace {
  /** Chunk jobs a second the workers can do, or null while unmeasured. */
  jobsPerS: number | null;
  /** The camera has not moved lately. */
  still: boolean;
  /**
   * The latest selection was answered after everything it was told, for the camera as it is, and
   * requests nothing (the caller knows; the model alone would call the moments before a new answer
   * complete).
   */
  answered: boolean;
}

export interface TimeInput {
  nowMs: number;
  /** Chunk jobs the view needs from nothing (the selection's wanted chunks). */
  viewJobs: number;
  /** {@link jobsPerSecond}, or null: unmeasured (the factor holds). */
  jobsPerS: number | null;
  /** Nothing open and nothing wanted left: the view is complete at this factor. */
  complete: boolean;
  /**
   * Work is open (jobs out, requests queued, a transaction): the view is not complete. Neither this
   * nor `complete` while a new selection is being answered (every second, the camera still): that
   * moment does not restart the wait before a refinement step.
   */
  working: boolean;
  /** The camera has held still since the view last changed. */
  still: boolean;
}

export class TimeBudget {
  /** Multiplies the user's error threshold (≥ 1): the time policy's answer. */
  factor = 1;
  /** Seconds the view would take from nothing at the measured pace (last update; NaN: unmeasured). */
  predictedS = Number.NaN;
  /** Refinement steps taken since the camera last moved. */
  refinements = 0;
  private lastMs: number | null = null;
  /** When the view became complete (null: it is not). */
  private completeSince: number | null = null;
  /** The view completed at the current camera position: the budget no longer raises the factor. */
  private landed = false;

  /** `budgetS` ≤ 0 (or not finite) turns the policy off: the factor stays 1. */
  constructor(readonly budgetS: number) {}

  get enabled(): boolean {
    return Number.isFinite(this.budgetS) && this.budgetS > 0;
  }

  /** The camera moved: the next completion lands the view again, under the budget. */
  moved(): void {
    this.landed = false;
    this.refinements = 0;
  }

  /** The frame's factor (see the module comment). */
  update(input: TimeInput): number {
    const dt = this.lastMs === null ? 0 : Math.min(250, Math.max(0, input.nowMs - this.lastMs));
    this.lastMs = input.nowMs;
    if (!this.enabled) return (this.factor = 1);
    this.predictedS = input.jobsPerS && input.jobsPerS > 0 ? input.viewJobs / input.jobsPerS : Number.NaN;
    if (input.working) this.completeSince = null;
    else if (input.complete && this.completeSince === null) this.completeSince = input.nowMs;
    if (input.complete) this.landed = true;
    if (this.landed && input.still) {
      // Refine: one step each time the view has been complete for a while.
      if (this.completeSince !== null && this.factor > 1 && input.nowMs - this.completeSince >= REFINE_AFTER_MS) {
        this.factor = Math.max(1, this.factor / REFINE_STEP);
        this.refinements++;
        this.completeSince = null;
      }
      return this.factor;
    }
    if (!Number.isFinite(this.predictedS)) return this.factor;
    const step = 2 ** (dt / DOUBLING_MS);
    if (this.predictedS > this.budgetS) this.factor = Math.min(MAX_TIME_FACTOR, this.factor * step);
    else if (this.predictedS < TIME_LOWER_BELOW * this.budgetS) this.factor = Math.max(1, this.factor / step);
    return this.factor;
  }
}
