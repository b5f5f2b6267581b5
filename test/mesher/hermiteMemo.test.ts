import { describe, expect, it } from 'vitest';
import { Prng } from '../../src/field/index';
import { HermiteMemo } from '../../src/mesher/index';

describe('HermiteMemo', () => {
  it('recalls what it kept, through table growth, only for the same end values', () => {
    const memo = new HermiteMemo();
    const r = new Prng(11);
    const codes = new Set<number>();
    while (codes.size < 5000) codes.add(Math.floor(r.next() * 3 * 33 ** 3));
    const list = [...codes];
    const t = new Float64Array(1), n = new Float32Array(3);
    const kept = list.map((code) => {
      const va = Math.fround(r.next() - 0.5), vb = Math.fround(-va - r.next());
      t[0] = r.next();
      n.set([r.next(), r.next(), r.next()]);
      memo.keep(code, va, vb, t, 0, n);
      return { code, va, vb, t: t[0], n: [...n] };
    });
    expect(memo.size).toBe(5000);
    const tOut = new Float64Array(2), nOut = new Float32Array(6);
    for (const k of kept) {
      expect(memo.recall(k.code, k.va, k.vb, tOut, 1, nOut)).toBe(true);
      expect(tOut[1]).toBe(k.t);
      expect([...nOut.subarray(3)]).toEqual(k.n);
      // Another end value (a restriction rewrote it): not this entry.
      expect(memo.recall(k.code, k.va, Math.fround(k.vb * 0.5), tOut, 1, nOut)).toBe(false);
    }
    expect(memo.recall(3 * 33 ** 3 + 7, 0.25, -0.25, tOut, 0, nOut)).toBe(false);
    expect(memo.recalled).toBe(5000);
  });

  it('keeps nothing for values float32 cannot hold exactly (a float64 grid)', () => {
    const memo = new HermiteMemo();
    const t = new Float64Array([0.5]), n = new Float32Array([0, 0, 1]);
    memo.keep(42, 0.1, -0.2, t, 0, n);
    expect(memo.size).toBe(0);
    expect(memo.recall(42, 0.1, -0.2, t, 0, n)).toBe(false);
  });
});
