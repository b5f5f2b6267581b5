import { describe, expect, it } from 'vitest';
import { EARLY_RESELECT_MIN_MS, RESELECT_INTERVAL_MS, shouldReselect, type ReselectState } from '../../src/lod/reselect';

const still: ReselectState = { moved: false, sinceSelectMs: 200, lastSelectMs: 10, news: false, drained: false, betweenTransactions: false };

describe('shouldReselect: when the planet asks for a new selection', () => {
  it('on a move, and on the timer, whatever the mode', () => {
    for (const mode of ['drained', 'idle', 'timer'] as const) {
      expect(shouldReselect({ ...still, moved: true, sinceSelectMs: 0 }, mode)).toBe(true);
      expect(shouldReselect({ ...still, sinceSelectMs: RESELECT_INTERVAL_MS + 1 }, mode)).toBe(true);
      expect(shouldReselect(still, mode)).toBe(false);
    }
  });

  it('early once the requests are drained and the LOD worker has news', () => {
    expect(shouldReselect({ ...still, news: true, drained: true })).toBe(true);
    // No news: the answer in hand is current.
    expect(shouldReselect({ ...still, drained: true })).toBe(false);
    // Requests still out: wait for them (or the timer).
    expect(shouldReselect({ ...still, news: true, betweenTransactions: true })).toBe(false);
    expect(shouldReselect({ ...still, news: true, drained: true }, 'timer')).toBe(false);
  });

  it("'idle' also selects early between transactions", () => {
    expect(shouldReselect({ ...still, news: true, betweenTransactions: true }, 'idle')).toBe(true);
    expect(shouldReselect({ ...still, news: true }, 'idle')).toBe(false);
  });

  it('keeps a floor of twice the last selection time between early selections', () => {
    const s = { ...still, news: true, drained: true };
    expect(shouldReselect({ ...s, sinceSelectMs: EARLY_RESELECT_MIN_MS - 1, lastSelectMs: 1 })).toBe(false);
    expect(shouldReselect({ ...s, sinceSelectMs: 150, lastSelectMs: 80 })).toBe(false);
    expect(shouldReselect({ ...s, sinceSelectMs: 170, lastSelectMs: 80 })).toBe(true);
  });
});
