/**
 * Browser waits with a cap that never aborts the bench (issue 43): the Node-driven rows
 * (renderFrames.ts, brushEdits.ts, coldStart.ts, run.ts) wait on the page through these, and a wait
 * that reaches its cap answers `false` (or {@link CAPPED}) instead of throwing, so the row is
 * reported as capped — its notes say `CAPPED at N s` — and the bench goes on. Anything else that
 * goes wrong in a row becomes its `FAILED:` row (harness.ts `failedRow`).
 */
import type { Page } from 'playwright-core';

/** What {@link withinCap} answers when the cap came first. */
export const CAPPED = Symbol('capped');

/** The note of a capped row. */
export function cappedNote(capMs: number, what: string): string {
  return `CAPPED at ${(capMs / 1000).toFixed(0)} s: ${what}`;
}

/**
 * Waits until `predicate(arg)` is truthy in the page, at most `capMs`: true when it was, false at the
 * cap (playwright's TimeoutError). Other errors (a crashed page) are thrown.
 */
export async function settleWithin<A>(
  page: Page, predicate: (arg: A) => unknown, arg: A, capMs: number, pollingMs = 250,
): Promise<boolean> {
  try {
    await page.waitForFunction(predicate as (arg: unknown) => unknown, arg as unknown, { timeout: capMs, polling: pollingMs });
    return true;
  } catch (e) {
    if (e instanceof Error && e.name === 'TimeoutError') return false;
    throw e;
  }
}

/** `work`'s answer, or {@link CAPPED} when `capMs` passes first (the work is left to finish or fail unseen). */
export async function withinCap<T>(work: Promise<T>, capMs: number): Promise<T | typeof CAPPED> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cap = new Promise<typeof CAPPED>((resolve) => {
    timer = setTimeout(() => resolve(CAPPED), capMs);
  });
  work.catch(() => {}); // a rejection after the cap is nobody's
  try {
    return await Promise.race([work, cap]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Navigates without waiting for the load event (playwright's default waits 30 s for it and throws:
 * a loaded software-GPU machine took longer): the document is committed, and the caller's capped
 * wait ({@link settleWithin}) does the waiting.
 */
export async function gotoCapped(page: Page, url: string, capMs: number): Promise<void> {
  await page.goto(url, { waitUntil: 'commit', timeout: capMs });
}
