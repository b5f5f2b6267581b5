/**
 * Progress API: long work (generation jobs, gallery fills, exports) reports how far it
 * is; the UI shows one aggregated bar. Pure TypeScript, no DOM.
 *
 * ```ts
 * const task = progress.begin('asteroid field', 40);
 * for (...) { await buildOne(); task.advance(); }
 * task.finish();
 * ```
 */

export interface ProgressSnapshot {
  /** Tasks begun and not yet finished or failed. */
  active: number;
  /** Units done and total units over the active tasks (and those finished in this busy period). */
  done: number;
  total: number;
  /** done / total in 0..1; 1 when idle. */
  fraction: number;
  /** Label of the most recently begun active task, '' when idle. */
  label: string;
  /** Messages of tasks that failed in this busy period. */
  errors: string[];
}

export interface ProgressTask {
  readonly label: string;
  /** Adds `units` (default 1) done. Clamped to the task's total. */
  advance(units?: number): void;
  /** Grows the total when the work discovers more work. */
  addTotal(units: number): void;
  /** Marks the task complete (all its units done). Idempotent. */
  finish(): void;
  /** Ends the task with an error; the error shows until the next busy period starts. */
  fail(error: unknown): void;
}

export type ProgressListener = (snapshot: ProgressSnapshot) => void;

interface TaskRecord {
  label: string;
  done: number;
  total: number;
  open: boolean;
}

/**
 * Aggregates tasks. A "busy period" runs from the first task begun while idle until every
 * task has ended; the bar's fraction covers all tasks of the period, so it never jumps
 * backwards when a finished task drops out.
 */
export class Progress {
  private tasks: TaskRecord[] = [];
  private errors: string[] = [];
  private listeners = new Set<ProgressListener>();

  begin(label: string, total: number): ProgressTask {
    if (!(total >= 0) || !Number.isFinite(total)) throw new RangeError(`progress total must be ≥ 0, got ${total}`);
    if (this.tasks.every((t) => !t.open)) {
      this.tasks = [];
      this.errors = [];
    }
    const record: TaskRecord = { label, done: 0, total, open: true };
    this.tasks.push(record);
    const end = (): boolean => {
      if (!record.open) return false;
      record.open = false;
      record.done = record.total;
      return true;
    };
    const task: ProgressTask = {
      label,
      advance: (units = 1) => {
        if (!record.open) return;
        record.done = Math.min(record.total, record.done + units);
        this.emit();
      },
      addTotal: (units) => {
        if (!record.open) return;
        record.total += Math.max(0, units);
        this.emit();
      },
      finish: () => {
        if (end()) this.emit();
      },
      fail: (error) => {
        if (!end()) return;
        this.errors.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
        this.emit();
      },
    };
    this.emit();
    return task;
  }

  snapshot(): ProgressSnapshot {
    let done = 0;
    let total = 0;
    let active = 0;
    let label = '';
    for (const t of this.tasks) {
      done += t.done;
      total += t.total;
      if (t.open) {
        active++;
        label = t.label;
      }
    }
    const fraction = active === 0 ? 1 : total > 0 ? done / total : 0;
    return { active, done, total, fraction, label, errors: [...this.errors] };
  }

  /** Calls `listener` now and on every change; returns the unsubscribe function. */
  subscribe(listener: ProgressListener): () => void {
    this.listeners.add(listener);
    listener(this.snapshot());
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    if (this.listeners.size === 0) return;
    const snap = this.snapshot();
    for (const l of this.listeners) l(snap);
  }
}
