/** The worker side of the pool (WorkerJobQueue): order, priority changes, cancels, a dying worker. */
import { describe, expect, it } from 'vitest';
import { WorkerJobQueue } from '../../src/jobs/jobQueue';
import type { PoolWorkerMessage } from '../../src/workers/protocol';

function setup() {
  const sent: PoolWorkerMessage[] = [];
  const ran: string[] = [];
  const tasks: (() => void)[] = [];
  const q = new WorkerJobQueue(
    (msg) => sent.push(msg),
    (kind, params) => {
      if (kind === 'fail') throw new TypeError('bad params');
      ran.push(String(params));
      return { result: `done ${String(params)}` };
    },
    (run) => tasks.push(run),
  );
  /** Runs the event-loop tasks the queue asked for, one at a time. */
  const drain = (): void => {
    while (tasks.length > 0) tasks.shift()!();
  };
  return { q, sent, ran, drain, tasks };
}

describe('WorkerJobQueue', () => {
  it('runs the highest priority first, FIFO among equals, one job per task, announcing each', () => {
    const { q, sent, ran, drain, tasks } = setup();
    q.onMessage({ id: 1, kind: 'job', params: 'a', priority: 0 });
    q.onMessage({ id: 2, kind: 'job', params: 'b', priority: 5 });
    q.onMessage({ id: 3, kind: 'job', params: 'c', priority: 0 });
    expect(ran).toEqual([]); // nothing runs inside onMessage
    expect(tasks.length).toBe(1);
    tasks.shift()!();
    expect(ran).toEqual(['b']);
    drain();
    expect(ran).toEqual(['b', 'a', 'c']);
    expect(sent.slice(0, 2)).toEqual([{ id: 2, started: true, idleMs: expect.any(Number) }, { id: 2, result: 'done b' }]);
  });

  it('takes priority changes and cancels of jobs not started; answers errors', () => {
    const { q, sent, ran, drain } = setup();
    q.onMessage({ id: 1, kind: 'job', params: 'a', priority: 1 });
    q.onMessage({ id: 2, kind: 'job', params: 'b', priority: 2 });
    q.onMessage({ id: 3, kind: 'job', params: 'c', priority: 3 });
    q.onMessage({ id: 4, kind: 'fail', params: 'd', priority: 0 });
    q.onMessage({ id: 0, kind: 'priority', params: { id: 1, priority: 9 } });
    q.onMessage({ id: 0, kind: 'cancel', params: { id: 2 } });
    expect(sent).toEqual([{ id: 2, error: { name: 'JobCancelledError', message: 'job cancelled', stack: expect.any(String) } }]);
    drain();
    expect(ran).toEqual(['a', 'c']);
    const err = sent.find((m) => m.id === 4 && 'error' in m) as { error: { name: string; message: string } };
    expect(err.error.name).toBe('TypeError');
    expect(err.error.message).toBe('bad params');
    // A cancel or priority change for a job already run is ignored.
    q.onMessage({ id: 0, kind: 'cancel', params: { id: 1 } });
    expect(sent.filter((m) => m.id === 1).length).toBe(2); // started + result only
  });

  it('starts nothing and answers nothing once stopped (a dying worker)', () => {
    const { q, sent, ran, drain } = setup();
    q.onMessage({ id: 1, kind: 'job', params: 'a' });
    q.stop();
    q.onMessage({ id: 2, kind: 'job', params: 'b' });
    drain();
    expect(ran).toEqual([]);
    expect(sent).toEqual([]);
    expect(q.waiting).toBe(2);
  });
});
