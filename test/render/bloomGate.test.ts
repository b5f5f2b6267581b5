import { describe, expect, it } from 'vitest';
import { BloomGate, MAX_LAG_FRAMES, type QueryBackend } from '../../src/render/bloomGate';

/** Queries answered `lag` frames after they were issued (Infinity: never), passed when the frame drew something bright. */
class FakeQueries implements QueryBackend<number> {
  readonly issued: { frame: number; bright: boolean; deleted: boolean }[] = [];
  frame = 0;
  bright = false;
  inQuery = -1;
  constructor(public lag: number) {}
  create(): number {
    this.issued.push({ frame: this.frame, bright: false, deleted: false });
    return this.issued.length - 1;
  }
  begin(q: number): void {
    expect(this.inQuery).toBe(-1);
    this.inQuery = q;
  }
  end(): void {
    this.issued[this.inQuery].bright = this.bright;
    this.inQuery = -1;
  }
  available(q: number): boolean {
    return this.frame - this.issued[q].frame >= this.lag;
  }
  anyPassed(q: number): boolean {
    expect(this.available(q)).toBe(true);
    return this.issued[q].bright;
  }
  delete(q: number): void {
    this.issued[q].deleted = true;
  }
}

/** One frame: whether it blurred; `bright`: whether its high pass finds something. */
function frame(gate: BloomGate<number>, queries: FakeQueries, bright: boolean): boolean {
  queries.frame++;
  queries.bright = bright;
  const blur = gate.beginFrame();
  let drew = false;
  gate.measure(() => {
    drew = true;
  });
  expect(drew, 'the high pass is drawn every frame').toBe(true);
  return blur;
}

describe('BloomGate', () => {
  it('blurs until an answer says nothing was bright, then skips; a bright frame brings the blur back one answer later', () => {
    const q = new FakeQueries(1);
    const gate = new BloomGate(q);
    expect(frame(gate, q, false), 'no answer yet: blur').toBe(true);
    expect(frame(gate, q, false), 'the first frame was black').toBe(false);
    expect(frame(gate, q, true)).toBe(false);
    expect(frame(gate, q, true), 'the bright frame answered').toBe(true);
    expect(frame(gate, q, false)).toBe(true);
    expect(frame(gate, q, false)).toBe(false);
    expect(gate.stats).toEqual({ blurred: 3, skipped: 3 });
  });

  it('goes by the newest answer when several arrive at once, and deletes every query it read', () => {
    const q = new FakeQueries(3);
    const gate = new BloomGate(q);
    const blurs = [true, true, false, false].map((b) => frame(gate, q, b));
    // Answers for frames 1 and 2 (bright) arrive at frame 4: still blurring; frame 3's (black) at 6.
    expect(blurs).toEqual([true, true, true, true]);
    expect(frame(gate, q, false)).toBe(true);
    expect(frame(gate, q, false), 'frame 3 was black').toBe(false);
    const read = q.issued.filter((i) => i.deleted).length;
    expect(read).toBe(3);
  });

  it('with answers that never come it blurs again after the lag limit and keeps the queries in flight bounded', () => {
    const q = new FakeQueries(1);
    const gate = new BloomGate(q);
    frame(gate, q, false);
    expect(frame(gate, q, false)).toBe(false);
    q.lag = Infinity; // a lost context: nothing is ever available again
    const blurs: boolean[] = [];
    for (let i = 0; i < MAX_LAG_FRAMES + 3; i++) blurs.push(frame(gate, q, false));
    expect(blurs.slice(0, MAX_LAG_FRAMES - 1).every((b) => !b), 'the last answer holds a while').toBe(true);
    expect(blurs.at(-1), 'then it blurs: a missing answer never drops a glow').toBe(true);
    const inFlight = q.issued.filter((i) => !i.deleted).length;
    expect(inFlight).toBeLessThanOrEqual(4);
  });

  it('reset forgets the answers and deletes the queries in flight (a screenshot tile drew another view)', () => {
    const q = new FakeQueries(1);
    const gate = new BloomGate(q);
    frame(gate, q, false);
    expect(frame(gate, q, false)).toBe(false);
    gate.reset();
    expect(q.issued.every((i) => i.deleted)).toBe(true);
    expect(frame(gate, q, false), 'no answer since the reset: blur').toBe(true);
  });

  it('without queries (create answers null) it blurs every frame and still draws the high pass', () => {
    const gate = new BloomGate<number>({ create: () => null, begin: () => {}, end: () => {}, available: () => true, anyPassed: () => false, delete: () => {} });
    let draws = 0;
    for (let i = 0; i < 5; i++) {
      expect(gate.beginFrame()).toBe(true);
      gate.measure(() => draws++);
    }
    expect(draws).toBe(5);
  });
});
