import { describe, expect, it } from 'vitest';
import { StartupTimeline } from '../../src/app/startupTimeline';

describe('StartupTimeline', () => {
  it('records each stage the first time it holds, in seconds, and never asks again', () => {
    let nowMs = 1234;
    const t = new StartupTimeline(() => nowMs);
    let asked = 0;
    const planetComplete = (): boolean => (asked++, nowMs >= 4000);
    t.note('firstFrame');
    t.note('planetComplete', planetComplete);
    nowMs = 4000;
    t.note('firstFrame');
    t.note('planetComplete', planetComplete);
    nowMs = 9000;
    t.note('planetComplete', planetComplete);
    expect(t.report()).toEqual({ firstFrame: 1.23, planetComplete: 4 });
    expect(asked).toBe(2);
  });
});
