/**
 * The liveness rule every worker the app owns is held to (WorkerPool's body workers, the planet's LOD
 * worker): a worker that owes an answer may stay silent for `stallMs` (10 s) or 10× the slowest answer
 * seen, whichever is longer, at most `capMs`. A deadline that fires late — the main thread was blocked,
 * so the worker's words may wait in the queue behind the timer — gets one grace second before it counts.
 */

/** The stall allowance is this many times the slowest job seen. */
export const STALL_FACTOR = 10;
/** A deadline that fired this late was held up by the main thread: look again after GRACE_MS. */
export const LATE_MS = 500;
export const GRACE_MS = 1000;

/** Silence allowed before a worker that owes an answer counts as gone, ms. */
export function stallAllowance(stallMs: number, slowestMs: number, capMs: number): number {
  return Math.min(capMs, Math.max(stallMs, STALL_FACTOR * slowestMs));
}

export interface SilenceWatchOptions {
  /** Default 10 s. */
  stallMs?: number;
  /** Default 120 s. */
  capMs?: number;
  /** The worker owed an answer longer than allowed (`silentMs`). */
  onSilent: (silentMs: number) => void;
}

/** One worker's deadline: {@link expect} when it owes an answer, {@link answered} when it gives one. */
export class SilenceWatch {
  slowestMs = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private since = 0;
  private readonly stallMs: number;
  private readonly capMs: number;

  constructor(private readonly options: SilenceWatchOptions) {
    this.stallMs = options.stallMs ?? 10_000;
    this.capMs = options.capMs ?? 120_000;
  }

  get allowanceMs(): number {
    return stallAllowance(this.stallMs, this.slowestMs, this.capMs);
  }

  /** The worker owes one more answer; the deadline runs from its last word (or from now). */
  expect(): void {
    this.owed++;
    if (this.timer !== undefined) return;
    this.since = performance.now();
    this.arm(this.allowanceMs);
  }

  /**
   * It answered one: the wait counts towards the allowance (unless `timed` is false: a start-up's
   * answer, which waited for the worker's script to load), and the deadline starts again for the rest.
   */
  answered(timed = true): void {
    if (this.owed === 0) return;
    this.owed--;
    const now = performance.now();
    if (timed) this.slowestMs = Math.max(this.slowestMs, now - this.since);
    this.stop(this.owed);
    if (this.owed > 0) {
      this.since = now;
      this.arm(this.allowanceMs);
    }
  }

  /** Owes nothing (the worker is gone, or what it owed will not be asked for). */
  stop(owed = 0): void {
    this.owed = owed;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private owed = 0;

  private arm(delayMs: number, grace = false): void {
    clearTimeout(this.timer);
    const due = performance.now() + delayMs;
    this.timer = setTimeout(() => {
      const now = performance.now();
      if (now - due > LATE_MS && !grace) return this.arm(GRACE_MS, true);
      const silent = now - this.since;
      if (silent < this.allowanceMs) return this.arm(this.allowanceMs - silent);
      this.stop();
      this.options.onSilent(silent);
    }, delayMs);
  }
}
