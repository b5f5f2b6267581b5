/**
 * Retry with backoff for a body's failed jobs (pure: the asteroid field drives it with its clock).
 * A job that failed (threw in its worker, or its worker died past the pool's own retries) is tried
 * again after `firstDelayMs`, then twice as long each time; after `retries` more failures the body
 * gives up, shows a placeholder, and waits for the user's retry (`reset`).
 */
export interface RetryPolicy {
  /** Tries after the first failure before giving up. */
  retries: number;
  firstDelayMs: number;
  /** Each wait is this many times the last. */
  factor: number;
}

/** 0.5 s, 1 s, 2 s: a transient failure heals in under 4 s; a deterministic one stops there. */
export const JOB_RETRY: Readonly<RetryPolicy> = Object.freeze({ retries: 3, firstDelayMs: 500, factor: 2 });

export type RetryVerdict = { retry: true; delayMs: number; attempt: number } | { retry: false; attempts: number };

export class RetryState {
  /** Failures since the last success or reset. */
  failures = 0;
  /** No new attempt before this time (ms, the caller's clock). */
  waitUntilMs = 0;
  gaveUp = false;

  constructor(private readonly policy: Readonly<RetryPolicy> = JOB_RETRY) {}

  /** Records a failure at `nowMs`: when to try again, or that it is time to give up. */
  fail(nowMs: number): RetryVerdict {
    this.failures++;
    if (this.failures > this.policy.retries) {
      this.gaveUp = true;
      return { retry: false, attempts: this.failures };
    }
    const delayMs = this.policy.firstDelayMs * this.policy.factor ** (this.failures - 1);
    this.waitUntilMs = nowMs + delayMs;
    return { retry: true, delayMs, attempt: this.failures + 1 };
  }

  /** May a job be submitted at `nowMs`? */
  ready(nowMs: number): boolean {
    return !this.gaveUp && nowMs >= this.waitUntilMs;
  }

  /** A job succeeded, or the user asked to try again: start over. */
  reset(): void {
    this.failures = 0;
    this.waitUntilMs = 0;
    this.gaveUp = false;
  }
}
