/**
 * The worker side of the pool's envelope (WorkerPool.ts): jobs the pool hands over wait here, and the
 * worker runs the highest priority one next (FIFO among equals), one per event-loop task so that
 * control messages in between are seen. A job cancelled before it started is answered with a
 * JobCancelledError and never runs; a job whose priority changed is reordered. Each job is announced
 * with `{ id, started: true }` before it runs, so the pool knows which job a dying worker was running.
 * Pure (no DOM): the worker entry gives it its `postMessage` and a way to yield.
 */
import { serializeError, type JobOutput, type PoolWorkerMessage, type WorkerRequest } from '../workers/protocol';

interface Pending {
  id: number;
  kind: string;
  params: unknown;
  priority: number;
  seq: number;
}

export class WorkerJobQueue {
  private readonly pending: Pending[] = [];
  private seq = 0;
  private scheduled = false;
  private stopped = false;
  /** Time spent with nothing to run (ms), and since when (null while jobs wait or run). */
  private idleMs = 0;
  private idleSince: number | null = performance.now();

  constructor(
    private readonly post: (msg: PoolWorkerMessage, transfer?: Transferable[]) => void,
    private readonly handle: (kind: string, params: unknown) => JobOutput,
    /** Calls back in a later event-loop task (after messages already queued). */
    private readonly later: (run: () => void) => void,
  ) {}

  /** Jobs waiting (not started). */
  get waiting(): number {
    return this.pending.length;
  }

  /** No job starts after this (a worker that is about to die). */
  stop(): void {
    this.stopped = true;
  }

  onMessage(msg: WorkerRequest<string, unknown> & { priority?: number }): void {
    if (msg.kind === 'cancel' || msg.kind === 'priority') {
      const p = msg.params as { id: number; priority?: number };
      const i = this.pending.findIndex((j) => j.id === p.id);
      if (i < 0) return; // running or done: its answer is on its way
      if (msg.kind === 'priority') {
        this.pending[i].priority = p.priority ?? 0;
        return;
      }
      this.pending.splice(i, 1);
      const cancelled = new Error('job cancelled');
      cancelled.name = 'JobCancelledError';
      this.post({ id: p.id, error: serializeError(cancelled) });
      return;
    }
    this.pending.push({ id: msg.id, kind: msg.kind, params: msg.params, priority: msg.priority ?? 0, seq: this.seq++ });
    if (this.idleSince !== null) {
      this.idleMs += performance.now() - this.idleSince;
      this.idleSince = null;
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.pending.length === 0 || this.stopped) return;
    this.scheduled = true;
    this.later(() => {
      this.scheduled = false;
      this.runNext();
      if (this.pending.length === 0) this.idleSince ??= performance.now();
      this.schedule();
    });
  }

  private runNext(): void {
    if (this.pending.length === 0 || this.stopped) return;
    let best = 0;
    for (let i = 1; i < this.pending.length; i++) {
      const a = this.pending[i], b = this.pending[best];
      if (a.priority > b.priority || (a.priority === b.priority && a.seq < b.seq)) best = i;
    }
    const job = this.pending.splice(best, 1)[0];
    this.post({ id: job.id, started: true, idleMs: this.idleMs });
    try {
      const out = this.handle(job.kind, job.params);
      if (this.stopped) return; // dying: nothing more is said
      this.post({ id: job.id, result: out.result }, out.transfer ?? []);
    } catch (e) {
      this.post({ id: job.id, error: serializeError(e) });
    }
  }
}
