import { describe, expect, it } from 'vitest';
import { asteroidEdit, clampRadius, encodeEdits, gateEdit, MAX_EDITS, parseEdits } from '../../src/field/index';

describe('the edit gate (issue 45)', () => {
  it('refuses NaN, ∞ and out-of-range values with a reason', () => {
    const ok = { target: asteroidEdit(0), op: 'dig' as const, center: [1, 2, 3], radiusM: 20 };
    expect(gateEdit(ok).reason).toBeNull();
    expect(gateEdit(ok).edit!.brush).toMatchObject({ op: 'carve', center: [1, 2, 3], radius: 20 });
    expect(gateEdit({ ...ok, radiusM: NaN }).reason).toMatch(/radius NaN is not a finite number/);
    expect(gateEdit({ ...ok, radiusM: Infinity }).reason).toMatch(/radius Infinity is not a finite number/);
    expect(gateEdit({ ...ok, radiusM: 1e6 }).reason).toMatch(/radius 1000000 m is outside 0.5…5000 m/);
    expect(gateEdit({ ...ok, radiusM: 0.1 }).reason).toMatch(/outside/);
    expect(gateEdit({ ...ok, center: [0, NaN, 0] }).reason).toMatch(/centre coordinate NaN/);
    expect(gateEdit({ ...ok, center: [0, -Infinity, 0] }).reason).toMatch(/not a finite number/);
    expect(gateEdit({ ...ok, center: [2e8, 0, 0] }).reason).toMatch(/beyond/);
    expect(gateEdit({ ...ok, center: [1, 2] }).reason).toMatch(/three coordinates/);
    expect(gateEdit({ ...ok, target: { kind: 'moon' } as never }).reason).toMatch(/no body/);
  });

  it('a clamp says so', () => {
    expect(clampRadius(20)).toEqual({ radiusM: 20, note: null });
    expect(clampRadius(1e6)).toEqual({ radiusM: 5000, note: 'radius held at 5000 m, the largest the brush makes' });
    expect(clampRadius(0.01).note).toMatch(/smallest/);
  });
});

describe('edits= read entry by entry (issue 45)', () => {
  it('keeps the good entries and names each bad one', () => {
    const parsed = parseEdits('a0d10,0,0,20;zz;a1b1,2,3,4;a0dNaN,0,0,5;a0d1,2,3,1000000');
    expect(encodeEdits(parsed.edits)).toBe('a0d10,0,0,20;a1b1,2,3,4');
    expect(parsed.texts).toEqual(['a0d10,0,0,20', 'a1b1,2,3,4']);
    expect(parsed.problems).toHaveLength(3);
    expect(parsed.problems[0]).toMatch(/^edit 2 \("zz"\) is not/);
    expect(parsed.problems[1]).toMatch(/^edit 4 \("a0dNaN,0,0,5"\) is not/);
    expect(parsed.problems[2]).toMatch(/^edit 5 .*radius 1000000 m is outside/);
  });

  it(`past ${MAX_EDITS} entries the rest are named, the first ${MAX_EDITS} kept`, () => {
    const text = Array.from({ length: 100_000 }, (_, i) => `a0d${i % 50},0,0,5`).join(';');
    const t0 = performance.now();
    const parsed = parseEdits(text);
    expect(performance.now() - t0).toBeLessThan(500);
    expect(parsed.edits).toHaveLength(MAX_EDITS);
    expect(parsed.problems).toEqual([`${100_000 - MAX_EDITS} edits past the ${MAX_EDITS}th (at most ${MAX_EDITS} a scene)`]);
  });

  it('an empty value is no edits and no problem', () => {
    expect(parseEdits('')).toEqual({ edits: [], problems: [], texts: [] });
  });
});
