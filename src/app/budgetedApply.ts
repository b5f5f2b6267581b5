/**
 * Worker results applied on the main thread in a budgeted step, with progress (design.md, house
 * rule 11; issue 44: the asteroid field and the planet wrote this loop each their own way). Each
 * frame finished results are turned into geometry for at most {@link APPLY_BUDGET_MS} — at least
 * one, so work always progresses — and the progress task (begun with the first job started,
 * finished once nothing is left) advances once a frame: every change re-renders the progress bar's
 * listeners. Jobs that end without a result (cancelled, failed) count as done at the next step.
 */
import { APPLY_BUDGET_MS } from './frameBudget';
import type { Progress, ProgressTask } from './progress';

export class BudgetedApply {
  private task: ProgressTask | null = null;
  /** Jobs that ended without a result since the last step. */
  private ended = 0;

  constructor(private readonly progress: Progress, private readonly label: string, private readonly budgetMs = APPLY_BUDGET_MS) {}

  /** `units` jobs started: the task's total grows (it begins if none is open). */
  started(units = 1): void {
    if (units <= 0) return;
    this.task ??= this.progress.begin(this.label, 0);
    this.task.addTotal(units);
  }

  /** `units` jobs ended without a result to apply: done at the next {@link step}. */
  endedWithoutResult(units = 1): void {
    this.ended += units;
  }

  /**
   * Applies results while `applyNext()` finds one (it applies it and returns true) and the frame's
   * budget lasts, at least one; then, once `settled()` says nothing is running or waiting, finishes
   * the task. Returns how many it applied.
   */
  step(applyNext: () => boolean, settled: () => boolean): number {
    const t0 = performance.now();
    let applied = 0;
    while ((applied === 0 || performance.now() - t0 < this.budgetMs) && applyNext()) applied++;
    if (applied + this.ended > 0) this.task?.advance(applied + this.ended);
    this.ended = 0;
    if (this.task && settled()) {
      this.task.finish();
      this.task = null;
    }
    return applied;
  }

  /** Ends the task (the owner is disposed). */
  finish(): void {
    this.task?.finish();
    this.task = null;
  }
}
