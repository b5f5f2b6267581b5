/**
 * A pool of long-lived module workers speaking the one envelope of protocol.ts
 * (`{ id, kind, params }` → `{ id, result | error }`), with priorities, cancellation,
 * back-pressure, and recovery from workers that die (STYLE.md §11–13; godot_voxel's
 * priority/cancel/apply split; Cesium's scheduleTask returning undefined when full).
 *
 * - A job that throws in the worker rejects with that error (name and message kept).
 * - A worker that dies (an `error` event, or no answer within `jobTimeoutMs`) is terminated
 *   and replaced; its job is retried up to `maxRetries` times, then rejects with
 *   {@link WorkerCrashedError}. Other jobs keep running.
 * - `cancel()` drops a queued job at once; a running job's result is discarded when it
 *   arrives (the worker is told, so it can stop early if it checks).
 *
 * Ownership: buffers listed in `transfer` belong to the worker once `run` is called; result
 * buffers transferred back belong to the caller.
 */
import { deserializeError, type WorkerResponse } from './protocol';

export class JobCancelledError extends Error {
  constructor() {
    super('job cancelled');
    this.name = 'JobCancelledError';
  }
}

export class WorkerCrashedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerCrashedError';
  }
}

export interface WorkerPoolOptions {
  /** Creates one worker (e.g. `() => new Worker(new URL('./body.worker.ts', import.meta.url), { type: 'module' })`). */
  create: () => Worker;
  /** Workers in the pool (default: hardwareConcurrency − 1, at least 1). */
  size?: number;
  /** Retries of a job whose worker died (default 2). */
  maxRetries?: number;
  /** A running job with no answer after this long counts as a dead worker (default 120 s). */
  jobTimeoutMs?: number;
  /** `tryRun` refuses new jobs while this many are queued (default 256). */
  maxQueued?: number;
  /** Label for errors. */
  name?: string;
}

export interface RunOptions {
  /** Higher runs first (default 0). Ties run in submission order. */
  priority?: number;
  /** Buffers to transfer to the worker with the params. */
  transfer?: Transferable[];
}

export interface PoolJob<R> {
  readonly id: number;
  readonly promise: Promise<R>;
  cancel(): void;
  /** Re-prioritises a job that is still queued. */
  setPriority(priority: number): void;
}

interface Task {
  id: number;
  kind: string;
  params: unknown;
  transfer: Transferable[];
  priority: number;
  seq: number;
  attempts: number;
  cancelled: boolean;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

interface Slot {
  worker: Worker;
  task: Task | null;
  timer: ReturnType<typeof setTimeout> | undefined;
}

let nextJobId = 1;

export class WorkerPool {
  readonly size: number;
  private readonly options: Required<Omit<WorkerPoolOptions, 'size'>>;
  private readonly slots: Slot[] = [];
  private queue: Task[] = [];
  private seq = 0;
  private disposed = false;
  /** Workers replaced after dying (for the stats overlay and tests). */
  crashes = 0;

  constructor(options: WorkerPoolOptions) {
    const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
    this.size = Math.max(1, Math.floor(options.size ?? cores - 1));
    this.options = {
      create: options.create,
      maxRetries: options.maxRetries ?? 2,
      jobTimeoutMs: options.jobTimeoutMs ?? 120_000,
      maxQueued: options.maxQueued ?? 256,
      name: options.name ?? 'worker pool',
    };
    for (let i = 0; i < this.size; i++) this.slots.push(this.spawn());
  }

  /** Jobs waiting for a worker. */
  get queued(): number {
    return this.queue.length;
  }

  /** Workers running a job now. */
  get busy(): number {
    return this.slots.filter((s) => s.task !== null).length;
  }

  /** Submits a job; it runs when a worker is free, highest priority first. */
  run<R>(kind: string, params: unknown, options: RunOptions = {}): PoolJob<R> {
    const id = nextJobId++;
    let task!: Task;
    const promise = new Promise<R>((resolve, reject) => {
      task = {
        id,
        kind,
        params,
        transfer: options.transfer ?? [],
        priority: options.priority ?? 0,
        seq: this.seq++,
        attempts: 0,
        cancelled: false,
        resolve: resolve as (value: unknown) => void,
        reject,
      };
    });
    if (this.disposed) {
      task.reject(new Error(`${this.options.name} is disposed`));
    } else {
      this.queue.push(task);
      this.pump();
    }
    return {
      id,
      promise,
      cancel: () => this.cancel(task),
      setPriority: (priority) => {
        task.priority = priority;
      },
    };
  }

  /** Back-pressure: like {@link run}, but returns undefined while the queue is full. */
  tryRun<R>(kind: string, params: unknown, options: RunOptions = {}): PoolJob<R> | undefined {
    if (this.queue.length >= this.options.maxQueued) return undefined;
    return this.run<R>(kind, params, options);
  }

  private cancel(task: Task): void {
    if (task.cancelled) return;
    task.cancelled = true;
    const i = this.queue.indexOf(task);
    if (i >= 0) this.queue.splice(i, 1);
    const slot = this.slots.find((s) => s.task === task);
    if (slot) slot.worker.postMessage({ id: 0, kind: 'cancel', params: { id: task.id } });
    task.reject(new JobCancelledError());
  }

  private spawn(): Slot {
    const slot: Slot = { worker: this.options.create(), task: null, timer: undefined };
    slot.worker.onmessage = (event: MessageEvent<WorkerResponse>) => this.onMessage(slot, event.data);
    slot.worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.onDeath(slot, `crashed: ${event.message || 'uncaught error'}`);
    };
    slot.worker.onmessageerror = () => this.onDeath(slot, 'sent a message that could not be read');
    return slot;
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.task || this.queue.length === 0) continue;
      // Highest priority first; FIFO among equals. Queues are short: a scan beats a heap here.
      let best = 0;
      for (let i = 1; i < this.queue.length; i++) {
        const a = this.queue[i];
        const b = this.queue[best];
        if (a.priority > b.priority || (a.priority === b.priority && a.seq < b.seq)) best = i;
      }
      const task = this.queue.splice(best, 1)[0];
      slot.task = task;
      task.attempts++;
      slot.timer = setTimeout(
        () => this.onDeath(slot, `did not answer within ${this.options.jobTimeoutMs} ms`),
        this.options.jobTimeoutMs,
      );
      // Transfer only on the first attempt: after that the buffers are gone (a retried job
      // whose params were transferred fails cleanly in the worker instead).
      slot.worker.postMessage({ id: task.id, kind: task.kind, params: task.params }, task.attempts === 1 ? task.transfer : []);
    }
  }

  private onMessage(slot: Slot, msg: WorkerResponse): void {
    const task = slot.task;
    if (!task || msg.id !== task.id) return;
    clearTimeout(slot.timer);
    slot.task = null;
    if (!task.cancelled) {
      if ('error' in msg) task.reject(deserializeError(msg.error));
      else task.resolve(msg.result);
    }
    this.pump();
  }

  private onDeath(slot: Slot, why: string): void {
    clearTimeout(slot.timer);
    const task = slot.task;
    slot.worker.terminate();
    this.crashes++;
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    if (!this.disposed) this.slots[index] = this.spawn();
    if (task && !task.cancelled) {
      if (task.attempts <= this.options.maxRetries) {
        this.queue.push(task); // keeps its priority and original order
      } else {
        task.reject(
          new WorkerCrashedError(`${this.options.name}: worker ${why}; job "${task.kind}" failed after ${task.attempts} attempts`),
        );
      }
    }
    this.pump();
  }

  /** Rejects everything pending and terminates the workers. */
  dispose(): void {
    this.disposed = true;
    for (const task of this.queue.splice(0)) task.reject(new Error(`${this.options.name} disposed`));
    for (const slot of this.slots) {
      clearTimeout(slot.timer);
      slot.task?.reject(new Error(`${this.options.name} disposed`));
      slot.task = null;
      slot.worker.terminate();
    }
  }
}
