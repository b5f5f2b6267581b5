/**
 * Work that can be spread over frames: a generator that yields between slices and returns its
 * result (issue 15: planning a transaction over ~4,000 chunks took 11–42 ms of one frame on the
 * accelerator machine). Pure; Node tests drive it with any clock.
 */

/** A computation in slices: `next()` runs one slice; done with the result. */
export type Steps<T> = Generator<void, T, void>;

/** Runs `steps` to the end at once (what callers that do not slice use). */
export function finishSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * Runs slices of `steps` until it is done or `overBudget()` says the frame's share is spent; at
 * least one slice a call, so it always progresses. Returns the result when done, else undefined.
 */
export function runSteps<T>(steps: Steps<T>, overBudget: () => boolean): { value: T } | undefined {
  for (;;) {
    const r = steps.next();
    if (r.done) return { value: r.value };
    if (overBudget()) return undefined;
  }
}
