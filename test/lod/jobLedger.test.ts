/**
 * The planet's job ledger (src/lod/jobLedger.ts): jobs out until taken back, answers matched to the
 * entry they were made for, cancels only of running jobs, ended jobs counted for progress, the
 * priority offset on running jobs.
 */
import { describe, expect, it } from 'vitest';
import { JobLedger } from '../../src/lod/index';

function handle(): { cancelled: number; priority: number | null; cancel(): void; setPriority(p: number): void } {
  const h = {
    cancelled: 0, priority: null as number | null,
    cancel: () => void h.cancelled++,
    setPriority: (p: number) => void (h.priority = p),
  };
  return h;
}

describe('JobLedger', () => {
  it('keeps a job out until taken back; an answered one waits, counted out but not in flight', () => {
    const l = new JobLedger<string>();
    const e = l.add('c:a|', 'chunk', 'a', 3);
    e.handle = handle();
    expect([l.size, l.inFlight, l.chunksOut, l.chunkOut('a'), l.has('c:a|')]).toEqual([1, 1, 1, true, true]);
    l.answer(e, 'piece a');
    expect([l.size, l.inFlight, l.finishedCount]).toEqual([1, 0, 1]);
    l.answer(e, 'again'); // a second answer is ignored
    expect(l.finishedCount).toBe(1);
    const f = l.takeFinished()!;
    expect(f.make).toBe('piece a');
    expect(l.removeEntry(f.entry)).toBe(true);
    expect([l.size, l.chunksOut, l.chunkOut('a')]).toEqual([0, 0, false]);
  });

  it('cancels running jobs only; an answer for a job cancelled and started again under its id goes to neither', () => {
    const l = new JobLedger<string>();
    const first = l.add('c:a|', 'chunk', 'a', 1);
    const h1 = handle();
    first.handle = h1;
    l.cancel('c:a|');
    expect([h1.cancelled, l.size, l.inFlight, l.takeEnded()]).toEqual([1, 0, 0, 1]);
    const second = l.add('c:a|', 'chunk', 'a', 1);
    second.handle = handle();
    l.answer(first, 'stale');
    expect(l.finishedCount).toBe(0);
    l.fail(first); // a late failure of the old job takes nothing back
    expect([l.size, l.inFlight, l.takeEnded()]).toEqual([1, 1, 1]);
    // An answered job is taken back without a cancel; its answer is still applied.
    l.answer(second, 'fresh');
    l.cancel('c:a|');
    expect([(second.handle as ReturnType<typeof handle>).cancelled, l.size, l.finishedCount, l.takeEnded()]).toEqual([0, 0, 1, 0]);
  });

  it('re-prioritises running jobs when the offset changes; clear cancels every running job', () => {
    const l = new JobLedger<string>();
    const a = l.add('c:a|', 'chunk', 'a', 5);
    const b = l.add('s:a|x', 'seam', 'a', 7);
    const ha = handle(), hb = handle();
    a.handle = ha;
    b.handle = hb;
    l.answer(b, 'seam');
    l.reprioritise(0);
    expect(ha.priority).toBe(null); // unchanged offset: nothing to do
    l.reprioritise(-100);
    expect([ha.priority, hb.priority, l.priorityOffset]).toEqual([-95, null, -100]);
    l.clear();
    expect([ha.cancelled, hb.cancelled, l.size, l.finishedCount, l.inFlight]).toEqual([1, 0, 0, 0, 0]);
  });
});
