/**
 * The URL as the app's state (urlState.ts holds the format): camera moves are written back after
 * a short quiet time (replaceState, so the history is not flooded), navigations (seed, gallery
 * pages, opening an asteroid) push an entry, and Back/Forward re-apply what the URL says.
 */
import { formatAppState, parseAppState, type AppState, type UrlProblem } from './urlState';

const URL_WRITE_DELAY_MS = 250;

export interface UrlSyncHost {
  /** The state to write: the app's current one, with the camera as it is now. */
  current(): AppState;
  /** Back/Forward: apply this state and report what was wrong with the URL. */
  navigated(state: AppState, problems: readonly UrlProblem[]): void;
}

export class UrlSync {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly host: UrlSyncHost) {
    window.addEventListener('popstate', this.onPopState);
  }

  /** Writes the current state a little later (camera moves come in bursts). */
  scheduleWrite(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => history.replaceState(null, '', formatAppState(this.host.current(), location.search)), URL_WRITE_DELAY_MS);
  }

  /** Writes the current state now (a scheduled write is folded into it). */
  writeNow(): void {
    clearTimeout(this.timer);
    history.replaceState(null, '', formatAppState(this.host.current(), location.search));
  }

  /** A navigation: a new history entry, so Back returns to the state before it. */
  push(state: AppState): void {
    history.pushState(null, '', formatAppState(state, location.search));
  }

  /** Rewrites the current entry now. */
  replace(state: AppState): void {
    history.replaceState(null, '', formatAppState(state, location.search));
  }

  dispose(): void {
    clearTimeout(this.timer);
    window.removeEventListener('popstate', this.onPopState);
  }

  private readonly onPopState = (): void => {
    const { state, problems } = parseAppState(location.search);
    this.host.navigated(state, problems);
  };
}
