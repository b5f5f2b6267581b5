import { afterEach, describe, expect, it } from 'vitest';
import { PollTimer } from '../../src/gpu/pollTimer';

const timers: PollTimer[] = [];
const timer = (): PollTimer => {
  const t = new PollTimer();
  timers.push(t);
  return t;
};
const tick = (ms = 0): Promise<void> => new Promise((r) => setTimeout(r, ms));

afterEach(() => {
  for (const t of timers.splice(0)) t.close();
});

describe('PollTimer', () => {
  it('runs a soon poll once, as a task of its own', async () => {
    const t = timer();
    let runs = 0;
    t.soon(() => runs++);
    expect(t.pending).toBe(true);
    expect(runs).toBe(0); // not synchronously
    await tick(5);
    expect(runs).toBe(1);
    expect(t.pending).toBe(false);
  });

  it('keeps one poll pending: a new one replaces it, cancel drops it', async () => {
    const t = timer();
    const ran: string[] = [];
    t.soon(() => ran.push('first'));
    t.soon(() => ran.push('second'));
    t.after(1, () => ran.push('timer'));
    await tick(10);
    expect(ran).toEqual(['timer']);
    t.soon(() => ran.push('cancelled'));
    t.cancel();
    expect(t.pending).toBe(false);
    await tick(5);
    expect(ran).toEqual(['timer']);
  });

  it('runs a chain of soon polls, each set from the one before (a job submitted from a result)', async () => {
    // The 4 ms clamp this avoids is the browser's, measured in the sampling bench, not asserted here.
    const t = timer();
    const done = new Promise<number>((resolve) => {
      let n = 0;
      const step = (): void => (++n === 10 ? resolve(n) : t.soon(step));
      t.soon(step);
    });
    expect(await done).toBe(10);
  });
});
