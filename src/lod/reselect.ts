/**
 * When the planet asks its LOD worker for a new selection (PlanetView.update). Pure.
 *
 * A selection is asked for when the camera moved (a share of its altitude) or the viewport
 * changed, and at least once a {@link RESELECT_INTERVAL_MS}. That timer alone made every flight
 * step wait up to a second after its last chunk landed before the answer that draws it (the
 * accelerator machine's small steps took 1.1–1.2 s each, pool idle). So it is also asked for early,
 * when the LOD worker has news (chunks in or gone since its last answer) and:
 *
 * - `'drained'` (default): every request of the last answer is done or running nowhere — the next
 *   answer is the one that draws them, and nothing is gained by waiting;
 * - `'idle'`: that, or no transaction is open, being planned or waiting — a snapshot that would be
 *   planned at once. More, smaller transactions mid-step (each re-does the seams it touches).
 * - `'timer'`: never early (the earlier behaviour, for A/B in the bench: `?reselect=timer`).
 *
 * Early selections keep a floor of twice the last selection's time (and {@link EARLY_RESELECT_MIN_MS}),
 * so a slow selection over thousands of chunks does not keep the LOD worker busy back to back.
 */

export type ReselectMode = 'drained' | 'idle' | 'timer';

/** The longest a selection may be out of date with the camera still. */
export const RESELECT_INTERVAL_MS = 1000;
/** The least time between early selections. */
export const EARLY_RESELECT_MIN_MS = 50;

export interface ReselectState {
  /** The camera moved enough, or the viewport changed, since the last selection. */
  moved: boolean;
  /** Time since the last selection was asked for (ms). */
  sinceSelectMs: number;
  /** What the last selection took in the LOD worker (ms). */
  lastSelectMs: number;
  /** The LOD worker was told something (ready, evicted, empty or full) since the selection it last answered. */
  news: boolean;
  /** No request of the last answer is waiting or running, and no finished chunk waits to be applied. */
  drained: boolean;
  /** No transaction is open, being planned, or waiting for one. */
  betweenTransactions: boolean;
}

export function isReselectMode(s: string): s is ReselectMode {
  return s === 'drained' || s === 'idle' || s === 'timer';
}

/** Whether to ask for a selection now (the caller also waits while one is in flight). */
export function shouldReselect(s: ReselectState, mode: ReselectMode = 'drained'): boolean {
  if (s.moved || s.sinceSelectMs > RESELECT_INTERVAL_MS) return true;
  if (mode === 'timer' || !s.news) return false;
  if (s.sinceSelectMs < Math.max(EARLY_RESELECT_MIN_MS, 2 * s.lastSelectMs)) return false;
  return s.drained || (mode === 'idle' && s.betweenTransactions);
}
