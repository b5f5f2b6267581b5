/**
 * A pool of long-lived module workers speaking the one envelope of protocol.ts
 * (`{ id, kind, params }` → `{ id, result | error }`), with priorities, cancellation,
 * back-pressure, and recovery from workers that die (docs/design.md, house rules 9–11; godot_voxel's
 * priority/cancel/apply split; Cesium's scheduleTask returning undefined when full).
 *
 * - A job that throws in the worker rejects with that error (name and message kept).
 * - A worker that dies (an `error` event) or stops answering is terminated and replaced; its job
 *   is retried up to `maxRetries` times, then rejects with {@link WorkerCrashedError}. Other jobs
 *   keep running. `onWorkerLost` is told either way, so the user can be.
 * - Stopped answering: a worker holding jobs says something at every job start and end, so its
 *   silence lasts at most one job. The pool allows `stallMs` (default 10 s) or 10× the slowest job
 *   seen so far, whichever is longer, at most `jobTimeoutMs`: a terminated or hung worker is found
 *   in seconds, not after the 120 s cap. A deadline that fires late (the main thread was blocked,
 *   so the worker's words may be waiting in the queue behind the timer) gets one short grace period
 *   before it counts.
 * - `cancel()` drops a queued job at once; a running job's result is discarded when it
 *   arrives (the worker is told, so it can stop early if it checks).
 * - Each worker is handed up to `jobsPerWorker` jobs (default 2). They wait in the worker's own
 *   queue (jobQueue.ts), which runs the highest priority next, drops jobs cancelled before they
 *   start and takes priority changes, so the worker starts its next job the moment it finishes,
 *   not a main-thread round trip later (a main thread blocked in a software-rendered frame answers
 *   after 100-250 ms). The worker says when it starts a job: that is the one a crash is blamed on.
 *
 * - `broadcast(key, message)` posts a standing message to every worker and to every replacement
 *   before its first job (body registrations: jobs name a body each worker must know); `retract`
 *   withdraws it.
 *
 * Ownership: buffers listed in `transfer` belong to the worker once `run` is called; result
 * buffers transferred back belong to the caller.
 */
import { deserializeError, type PoolWorkerMessage } from './protocol';
import { GRACE_MS, LATE_MS, stallAllowance } from '../jobs/silenceWatch';

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
  /** Longest a worker holding jobs may stay silent, whatever the jobs (default 120 s). */
  jobTimeoutMs?: number;
  /** Silence that counts as a dead worker before any job has been slow (default 10 s); see the header. */
  stallMs?: number;
  /** Told when a worker died or stopped answering and was replaced (`why` says which). */
  onWorkerLost?: (why: string) => void;
  /** `tryRun` refuses new jobs while this many are queued (default 256). */
  maxQueued?: number;
  /** Jobs handed to one worker at a time, the running one included (default 2). */
  jobsPerWorker?: number;
  /** Label for errors. */
  name?: string;
}

export interface RunOptions {
  /** Higher runs first (default 0). Ties run in submission order. */
  priority?: number;
  /** Buffers to transfer to the worker with the params. */
  transfer?: Transferable[];
  /**
   * Jobs with the same affinity go to the worker that ran the last one while it holds fewer than
   * twice `jobsPerWorker`, so what that worker kept (a planet chunk's samples, for its re-mesh) is
   * found there; otherwise, after {@link AFFINITY_WAIT_MS} queued, any worker takes it.
   */
  affinity?: string;
}

/** How long a job waits for the worker its affinity names before any worker may take it (ms). */
export const AFFINITY_WAIT_MS = 150;
/** Affinities remembered (least recently used forgotten). */
const AFFINITY_ENTRIES = 8192;

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
  /** Posted to a worker once: its transfer list is gone. */
  sent: boolean;
  cancelled: boolean;
  affinity: string | undefined;
  queuedAt: number;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

interface Slot {
  worker: Worker;
  /** Jobs handed to the worker and not answered yet. */
  tasks: Task[];
  /** The one it said it started. */
  running: Task | null;
  /** The worker's time with no job to run, as of its last start (ms). */
  idleMs: number;
  /** Deadline for the worker's next word (a start or an answer) while it holds jobs. */
  timer: ReturnType<typeof setTimeout> | undefined;
  /** performance.now() of its last word (or of being handed its first job). */
  lastWordMs: number;
  /** When the running job started (main-thread clock). */
  runningSinceMs: number;
}


/** Workers a pool gets by default: one per core but the main thread's, at least one. */
export function defaultWorkerCount(): number {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(1, cores - 1);
}

export class WorkerPool {
  readonly size: number;
  private readonly options: Required<Omit<WorkerPoolOptions, 'size'>>;
  private readonly slots: Slot[] = [];
  private queue: Task[] = [];
  /** The worker that last took a job of each affinity. */
  private readonly affinity = new Map<string, Slot>();
  private seq = 0;
  /** The next job's id (0 is the control messages'): ids are this pool's, each worker sees only its pool's. */
  private nextJobId = 1;
  private disposed = false;
  /** Standing messages by key (broadcast): every worker has been sent each, in order, before any job. */
  private readonly standing = new Map<string, unknown>();
  /** Workers replaced after dying (for the stats overlay and tests). */
  crashes = 0;
  /** Slowest job so far, start to answer (ms): scales the stall allowance. */
  slowestJobMs = 0;

  constructor(options: WorkerPoolOptions) {
    this.size = Math.max(1, Math.floor(options.size ?? defaultWorkerCount()));
    this.options = {
      create: options.create,
      maxRetries: options.maxRetries ?? 2,
      jobTimeoutMs: options.jobTimeoutMs ?? 120_000,
      stallMs: options.stallMs ?? 10_000,
      onWorkerLost: options.onWorkerLost ?? (() => {}),
      maxQueued: options.maxQueued ?? 256,
      jobsPerWorker: Math.max(1, options.jobsPerWorker ?? 2),
      name: options.name ?? 'worker pool',
    };
    for (let i = 0; i < this.size; i++) this.slots.push(this.spawn());
  }

  /** Jobs waiting for a worker. */
  get queued(): number {
    return this.queue.length;
  }

  /** The live workers' time with no job to run since they started (ms, as of their last job start). */
  get workerIdleMs(): number {
    return this.slots.reduce((sum, s) => sum + s.idleMs, 0);
  }

  /** Workers running a job now. */
  get busy(): number {
    return this.slots.filter((s) => s.tasks.length > 0).length;
  }

  /** Submits a job; it runs when a worker is free, highest priority first. */
  run<R>(kind: string, params: unknown, options: RunOptions = {}): PoolJob<R> {
    const id = this.nextJobId++;
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
        sent: false,
        cancelled: false,
        affinity: options.affinity,
        queuedAt: performance.now(),
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
        if (task.priority === priority) return;
        task.priority = priority;
        const slot = this.slots.find((s) => s.tasks.includes(task));
        if (slot && slot.running !== task) slot.worker.postMessage({ id: 0, kind: 'priority', params: { id: task.id, priority } });
      },
    };
  }

  /**
   * Posts `message` to every worker now and to every worker spawned later (replacements) before its
   * first job, until {@link retract}ed. A second broadcast under one key replaces the first.
   */
  broadcast(key: string, message: unknown): void {
    if (this.disposed) return;
    this.standing.delete(key);
    this.standing.set(key, message);
    for (const slot of this.slots) slot.worker.postMessage(message);
  }

  /** Withdraws the standing message `key`, posting `message` (its undoing) to every worker. */
  retract(key: string, message: unknown): void {
    if (this.disposed || !this.standing.delete(key)) return;
    for (const slot of this.slots) slot.worker.postMessage(message);
  }

  /** Standing messages in force (tests, stats). */
  get standingCount(): number {
    return this.standing.size;
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
    // Handed to a worker: it stays in the slot until its (discarded) answer comes back.
    const slot = this.slots.find((s) => s.tasks.includes(task));
    if (slot) slot.worker.postMessage({ id: 0, kind: 'cancel', params: { id: task.id } });
    task.reject(new JobCancelledError());
  }

  private spawn(): Slot {
    const slot: Slot = { worker: this.options.create(), tasks: [], running: null, idleMs: 0, timer: undefined, lastWordMs: 0, runningSinceMs: 0 };
    slot.worker.onmessage = (event: MessageEvent<PoolWorkerMessage>) => this.onMessage(slot, event.data);
    slot.worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.onDeath(slot, `crashed: ${event.message || 'uncaught error'}`);
    };
    slot.worker.onmessageerror = () => this.onDeath(slot, 'sent a message that could not be read');
    for (const message of this.standing.values()) slot.worker.postMessage(message);
    return slot;
  }

  private pump(): void {
    const now = performance.now();
    // A job whose affinity names a live worker goes there even when that worker holds its share
    // (up to twice it): busy workers are the common case under load, and the worker's own queue runs
    // the highest priority next. Waiting for room there sent most re-meshes elsewhere on 15 workers.
    for (let i = 0; i < this.queue.length; i++) {
      const task = this.queue[i];
      if (task.affinity === undefined) continue;
      const owner = this.affinity.get(task.affinity);
      if (!owner || !this.slots.includes(owner) || owner.tasks.length >= 2 * this.options.jobsPerWorker) continue;
      this.queue.splice(i--, 1);
      this.handTo(owner, task);
    }
    // Idle workers first, then a second job each, and so on.
    for (let depth = 0; depth < this.options.jobsPerWorker; depth++) {
      for (const slot of this.slots) {
        if (slot.tasks.length > depth || this.queue.length === 0) continue;
        // Highest priority first; FIFO among equals. Queues are short: a scan beats a heap here.
        let best = -1;
        for (let i = 0; i < this.queue.length; i++) {
          const a = this.queue[i];
          if (!this.mayTake(slot, a, now)) continue;
          const b = best < 0 ? null : this.queue[best];
          if (!b || a.priority > b.priority || (a.priority === b.priority && a.seq < b.seq)) best = i;
        }
        if (best < 0) continue;
        this.handTo(slot, this.queue.splice(best, 1)[0]);
      }
    }
    // A job left waiting for its worker is taken by any once its wait is over.
    if (this.queue.some((t) => t.affinity !== undefined)) {
      clearTimeout(this.affinityTimer);
      this.affinityTimer = setTimeout(() => this.pump(), AFFINITY_WAIT_MS);
    }
  }

  private affinityTimer: ReturnType<typeof setTimeout> | undefined;

  private handTo(slot: Slot, task: Task): void {
    if (task.affinity !== undefined) {
      this.affinity.delete(task.affinity);
      this.affinity.set(task.affinity, slot);
      if (this.affinity.size > AFFINITY_ENTRIES) this.affinity.delete(this.affinity.keys().next().value!);
    }
    slot.tasks.push(task);
    if (slot.tasks.length === 1) this.arm(slot);
    // Transfer only the first time: after that the buffers are gone (a retried job whose params
    // were transferred fails cleanly in the worker instead).
    const msg = { id: task.id, kind: task.kind, params: task.params, priority: task.priority };
    slot.worker.postMessage(msg, task.sent ? [] : task.transfer);
    task.sent = true;
  }

  /** May `slot` take `task` now: no affinity, its worker, its worker gone or full, or it waited long enough. */
  private mayTake(slot: Slot, task: Task, now: number): boolean {
    if (task.affinity === undefined) return true;
    const owner = this.affinity.get(task.affinity);
    if (!owner || owner === slot || !this.slots.includes(owner)) return true;
    return now - task.queuedAt >= AFFINITY_WAIT_MS;
  }

  /** Silence allowed before a worker holding jobs counts as dead (see the header). */
  get stallAllowanceMs(): number {
    return stallAllowance(this.options.stallMs, this.slowestJobMs, this.options.jobTimeoutMs);
  }

  /** (Re)starts the deadline for the worker's next word, counted from now. */
  private arm(slot: Slot): void {
    slot.lastWordMs = performance.now();
    this.armIn(slot, this.stallAllowanceMs);
  }

  private armIn(slot: Slot, delayMs: number, grace = false): void {
    clearTimeout(slot.timer);
    const due = performance.now() + delayMs;
    slot.timer = setTimeout(() => {
      const now = performance.now();
      if (now - due > LATE_MS && !grace) {
        // The main thread was busy past the deadline: words the worker sent meanwhile may still
        // be queued behind this timer. Let them in before judging (once: a main thread that is
        // always late, a software-rendered frame of 0.5 s, would otherwise postpone it forever).
        this.armIn(slot, GRACE_MS, true);
        return;
      }
      const allowed = this.stallAllowanceMs;
      const silent = now - slot.lastWordMs;
      if (silent < allowed) {
        this.armIn(slot, allowed - silent); // a slow job raised the allowance meanwhile
        return;
      }
      const job = slot.running ? ` running "${slot.running.kind}"` : '';
      this.onDeath(slot, `stopped answering (no word for ${(silent / 1000).toFixed(1)} s${job})`);
    }, delayMs);
  }

  private onMessage(slot: Slot, msg: PoolWorkerMessage): void {
    const i = slot.tasks.findIndex((t) => t.id === msg.id);
    if (i < 0) return;
    const task = slot.tasks[i];
    if ('started' in msg) {
      slot.idleMs = msg.idleMs;
      slot.running = task;
      slot.runningSinceMs = performance.now();
      task.attempts++;
      this.arm(slot);
      return;
    }
    clearTimeout(slot.timer);
    if (slot.running === task) this.slowestJobMs = Math.max(this.slowestJobMs, performance.now() - slot.runningSinceMs);
    slot.tasks.splice(i, 1);
    if (slot.running === task) slot.running = null;
    if (slot.tasks.length > 0) this.arm(slot);
    if (!task.cancelled) {
      if ('error' in msg) task.reject(deserializeError(msg.error));
      else task.resolve(msg.result);
    }
    this.pump();
  }

  private onDeath(slot: Slot, why: string): void {
    clearTimeout(slot.timer);
    const tasks = slot.tasks.splice(0);
    const running = slot.running;
    slot.running = null;
    slot.worker.terminate();
    this.crashes++;
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    if (!this.disposed) this.slots[index] = this.spawn();
    // The running job has used an attempt; the ones waiting behind it go back as they were.
    let fate = '';
    tasks.forEach((task) => {
      if (task.cancelled) return;
      if (task !== running || task.attempts <= this.options.maxRetries) {
        this.queue.push(task); // keeps its priority and original order
        if (task === running) fate = ', its job retried';
      } else {
        task.reject(
          new WorkerCrashedError(`${this.options.name}: worker ${why}; job "${task.kind}" failed after ${task.attempts} attempts`),
        );
        fate = `, its job failed after ${task.attempts} attempts`;
      }
    });
    if (!this.disposed) this.options.onWorkerLost(`${this.options.name}: a worker ${why}; replaced it${fate}`);
    this.pump();
  }

  /** Rejects everything pending and terminates the workers. */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.affinityTimer);
    for (const task of this.queue.splice(0)) task.reject(new Error(`${this.options.name} disposed`));
    for (const slot of this.slots) {
      clearTimeout(slot.timer);
      for (const task of slot.tasks.splice(0)) task.reject(new Error(`${this.options.name} disposed`));
      slot.worker.terminate();
    }
  }
}
