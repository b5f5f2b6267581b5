/**
 * When a page's scene reached each stage of its start (issue 16's cold start): seconds since
 * navigation began (performance.now() / 1000), each recorded the first frame its condition held.
 * Read by `window.__sr.startup()`, the cold-start bench and the accelerator machine's route, so a
 * slow start says which stage took the time.
 */
export type StartupStage =
  /** The body workers got their first jobs. */
  | 'jobsStarted'
  /** The first frame drew the scene. */
  | 'firstFrame'
  /** Every asteroid had its wanted mesh. */
  | 'asteroidsGenerated'
  /** …and its materials compiled and fades done. */
  | 'asteroidsSettled'
  /** The planet drew every chunk its view wanted. */
  | 'planetComplete';

export class StartupTimeline {
  private readonly reached = new Map<StartupStage, number>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Records `stage` the first time `held()` is true; once reached, `held` is not asked again. */
  note(stage: StartupStage, held: () => boolean = () => true): void {
    if (!this.reached.has(stage) && held()) this.reached.set(stage, this.now() / 1000);
  }

  /** Seconds since navigation for each stage reached so far, in the order they were reached. */
  report(): Partial<Record<StartupStage, number>> {
    return Object.fromEntries([...this.reached].map(([stage, s]) => [stage, Math.round(s * 100) / 100]));
  }
}
