/**
 * WorkerPool's stall detection, in Node with fake workers and fake timers: a worker that stops
 * answering (terminated from outside, hung) is found in seconds and replaced, its job retried and
 * the caller told; slow jobs raise the allowance so a healthy slow worker is left alone. Real
 * workers (crashes, priorities, handoff) are tested in Chromium: test/browser/workerPool.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkerPool } from '../../src/workers/WorkerPool';

interface Posted { id: number; kind: string; params: unknown }

/** A stand-in for a module worker: records what it is sent; the test speaks for it. */
class FakeWorker {
  static all: FakeWorker[] = [];
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  posted: Posted[] = [];
  terminated = false;
  constructor() {
    FakeWorker.all.push(this);
  }
  postMessage(msg: Posted): void {
    if (msg.kind !== 'cancel' && msg.kind !== 'priority') this.posted.push(msg);
  }
  terminate(): void {
    this.terminated = true;
  }
  say(data: unknown): void {
    if (!this.terminated) this.onmessage?.({ data });
  }
  start(i = 0): void {
    this.say({ id: this.posted[i].id, started: true, idleMs: 0 });
  }
  answer(i = 0, result: unknown = 'ok'): void {
    this.say({ id: this.posted[i].id, result });
  }
}

function makePool(lost: string[]): WorkerPool {
  return new WorkerPool({
    name: 'test pool',
    size: 1,
    create: () => new FakeWorker() as unknown as Worker,
    onWorkerLost: (why) => lost.push(why),
  });
}

describe('WorkerPool: a worker that stops answering', () => {
  beforeEach(() => {
    FakeWorker.all = [];
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => vi.useRealTimers());

  it('is replaced within the 10 s allowance, not the 120 s cap; its job is retried and the caller told', async () => {
    const lost: string[] = [];
    const pool = makePool(lost);
    const job = pool.run<string>('meshBody', { n: 1 });
    const first = FakeWorker.all[0];
    first.start();
    // Terminated from outside (devtools, the browser): no error event, no word ever again.
    first.terminated = true;
    await vi.advanceTimersByTimeAsync(9_000);
    expect(FakeWorker.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_500);
    expect(FakeWorker.all, 'replaced after 10 s of silence').toHaveLength(2);
    expect(pool.crashes).toBe(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatch(/test pool: a worker stopped answering \(no word for 10\.0 s running "meshBody"\); replaced it, its job retried/);
    const second = FakeWorker.all[1];
    expect(second.posted.map((m) => m.kind)).toEqual(['meshBody']);
    second.start();
    second.answer(0, 'meshed');
    await expect(job.promise).resolves.toBe('meshed');
    pool.dispose();
  });

  it('a worker handed jobs that never says it started one is replaced too', async () => {
    const lost: string[] = [];
    const pool = makePool(lost);
    const job = pool.run<string>('meshBody', {});
    await vi.advanceTimersByTimeAsync(10_500);
    expect(pool.crashes).toBe(1);
    FakeWorker.all[1].start();
    FakeWorker.all[1].answer();
    await expect(job.promise).resolves.toBe('ok');
    pool.dispose();
  });

  it('slow jobs raise the allowance: 10× the slowest job seen, so a healthy slow worker is left alone', async () => {
    const lost: string[] = [];
    const pool = makePool(lost);
    const a = pool.run<string>('meshBody', {});
    const w = FakeWorker.all[0];
    w.start();
    await vi.advanceTimersByTimeAsync(3_000); // a 3 s job: allowance becomes 30 s
    w.answer();
    await a.promise;
    expect(pool.stallAllowanceMs).toBeGreaterThanOrEqual(30_000);
    const b = pool.run<string>('meshBody', {});
    w.start(1);
    await vi.advanceTimersByTimeAsync(25_000);
    expect(pool.crashes, 'not killed at 25 s of a job like one that took 3 s').toBe(0);
    w.answer(1);
    await expect(b.promise).resolves.toBe('ok');
    expect(lost).toEqual([]);
    pool.dispose();
  });

  it('a job that hangs every worker it lands on fails after its retries, and each loss is told', async () => {
    const lost: string[] = [];
    const pool = makePool(lost);
    const job = pool.run<string>('meshBody', {});
    const failed = job.promise.catch((e: Error) => e);
    for (let attempt = 0; attempt < 3; attempt++) {
      FakeWorker.all[attempt].start();
      await vi.advanceTimersByTimeAsync(10_500);
    }
    const e = await failed;
    expect(e).toBeInstanceOf(Error);
    expect((e as Error).name).toBe('WorkerCrashedError');
    expect((e as Error).message).toMatch(/stopped answering.*failed after 3 attempts/);
    expect(lost).toHaveLength(3);
    expect(lost[2]).toMatch(/its job failed/);
    pool.dispose();
  });
});

describe('WorkerPool: affinity', () => {
  beforeEach(() => {
    FakeWorker.all = [];
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => vi.useRealTimers());

  const pool3 = (): WorkerPool => new WorkerPool({ name: 'affinity pool', size: 3, jobsPerWorker: 1, create: () => new FakeWorker() as unknown as Worker });
  const posted = (): string[][] => FakeWorker.all.map((w) => w.posted.map((m) => (m.params as { tag: string }).tag));

  it('sends a job to the worker that ran the last job of its affinity, even when another is idle', async () => {
    const pool = pool3();
    pool.run('meshPlanetChunk', { tag: 'a1' }, { affinity: 'a' });
    pool.run('meshPlanetChunk', { tag: 'b1' }, { affinity: 'b' });
    expect(posted()).toEqual([['a1'], ['b1'], []]);
    FakeWorker.all[0].start();
    FakeWorker.all[0].answer(0);
    FakeWorker.all[1].start();
    FakeWorker.all[1].answer(0);
    await vi.advanceTimersByTimeAsync(0);
    // Both workers 0 and 1 are idle, and worker 2 has never had a job: b's re-run goes to worker 1.
    pool.run('meshPlanetChunk', { tag: 'b2' }, { affinity: 'b' }).promise.catch(() => {}); // disposed below
    expect(posted()).toEqual([['a1'], ['b1', 'b2'], []]);
    pool.dispose();
  });

  it('joins a busy affine worker up to twice its share, then waits only AFFINITY_WAIT_MS before any worker takes the job', async () => {
    const pool = pool3();
    pool.run('meshPlanetChunk', { tag: 'a1' }, { affinity: 'a' }).promise.catch(() => {}); // disposed below
    pool.run('meshPlanetChunk', { tag: 'a2' }, { affinity: 'a' }).promise.catch(() => {});
    // Worker 0 may hold up to twice its share (2) for its affinity: a2 joins it, a3 waits.
    expect(posted()).toEqual([['a1', 'a2'], [], []]);
    const again = pool.run<string>('meshPlanetChunk', { tag: 'a3' }, { affinity: 'a' });
    expect(posted()).toEqual([['a1', 'a2'], [], []]);
    await vi.advanceTimersByTimeAsync(200);
    expect(posted()).toEqual([['a1', 'a2'], ['a3'], []]);
    FakeWorker.all[1].start();
    FakeWorker.all[1].answer(0, 'done');
    await expect(again.promise).resolves.toBe('done');
    pool.dispose();
  });
});

describe('WorkerPool: standing messages (body registrations)', () => {
  beforeEach(() => {
    FakeWorker.all = [];
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => vi.useRealTimers());

  it('reach every worker, and a replacement before its first job; retract undoes them', async () => {
    const pool = new WorkerPool({ name: 'test pool', size: 2, create: () => new FakeWorker() as unknown as Worker, onWorkerLost: () => {} });
    pool.broadcast('body:a', { id: 0, kind: 'registerBody', params: { body: 'a' } });
    pool.broadcast('body:b', { id: 0, kind: 'registerBody', params: { body: 'b' } });
    for (const w of FakeWorker.all) expect(w.posted.map((m) => (m.params as { body: string }).body)).toEqual(['a', 'b']);
    const job = pool.run<string>('meshBody', { body: 'a' });
    const first = FakeWorker.all.find((w) => w.posted.some((m) => m.kind === 'meshBody'))!;
    first.start(2);
    first.onerror?.({ message: 'boom', preventDefault: () => {} });
    // The replacement was told both bodies, in order, before the retried job.
    const replacement = FakeWorker.all[2];
    expect(replacement.posted.map((m) => m.kind)).toEqual(['registerBody', 'registerBody', 'meshBody']);
    replacement.start(2);
    replacement.answer(2, 'meshed');
    await expect(job.promise).resolves.toBe('meshed');
    pool.retract('body:a', { id: 0, kind: 'unregisterBody', params: { body: 'a' } });
    expect(pool.standingCount).toBe(1);
    for (const w of FakeWorker.all.filter((x) => !x.terminated)) expect(w.posted.at(-1)!.kind).toBe('unregisterBody');
    pool.retract('body:a', { id: 0, kind: 'unregisterBody', params: { body: 'a' } }); // twice: nothing more sent
    const sent = FakeWorker.all.map((w) => w.posted.length);
    expect(FakeWorker.all.map((w) => w.posted.length)).toEqual(sent);
    pool.dispose();
  });
});
