/**
 * The sun's cascade arithmetic (src/render/cascadeFit.ts), against direct computations: the practical
 * split scheme, the slice's bounding sphere (brute force over the slice's corners), the radius steps,
 * texel snapping, map sizes, the stagger schedule, biases and the map cache.
 */
import { describe, expect, it } from 'vitest';
import {
  CascadeMapCache,
  cascadeDepthRange,
  cascadeDue,
  cascadeMapScale,
  cascadeMapSize,
  cascadeRadiusM,
  cascadeSplits,
  shadowBias,
  sliceSphere,
  snapToTexel,
  type CascadeFitKey,
} from '../../src/render/cascadeFit';

describe('cascadeFit', () => {
  it('splits: n + 1 increasing boundaries; lambda 1 logarithmic, 0 uniform', () => {
    const log = cascadeSplits(3, 1, 1000, 1);
    expect(log.length).toBe(4);
    [1, 10, 100, 1000].forEach((v, i) => expect(log[i]).toBeCloseTo(v, 9));
    const uniform = cascadeSplits(4, 0, 400, 0);
    expect(uniform[0]).toBe(1e-3); // the near distance is kept off zero
    expect(uniform[2]).toBeCloseTo(200, 2);
    const mixed = cascadeSplits(3, 10, 9000, 0.7);
    for (let i = 1; i < mixed.length; i++) expect(mixed[i]).toBeGreaterThan(mixed[i - 1]);
    expect(mixed[3]).toBe(9000);
  });

  it('slice sphere: holds every corner of the slice, and no smaller sphere on the axis does', () => {
    for (const [n, f, tx, ty] of [
      [1, 10, 0.5, 0.3],
      [10, 9000, 0.9, 0.5],
      [100, 150, 1.2, 0.7],
    ]) {
      const s = sliceSphere(n, f, tx, ty);
      const corners = [n, f].flatMap((d) => [1, -1].flatMap((sx) => [1, -1].map((sy) => [sx * d * tx, sy * d * ty, d])));
      const dist = (c: number) => Math.max(...corners.map(([x, y, z]) => Math.hypot(x, y, z - c)));
      for (const [x, y, z] of corners) expect(Math.hypot(x, y, z - s.centerM)).toBeLessThanOrEqual(s.radiusM * (1 + 1e-12));
      // Brute force over centers on the axis: none gives a smaller bound.
      let best = Infinity;
      for (let k = 0; k <= 2000; k++) best = Math.min(best, dist(n + ((f - n) * k) / 2000));
      expect(s.radiusM).toBeLessThanOrEqual(best * (1 + 1e-9));
    }
  });

  it('radius: at least 2 % over the slice, on 1/8-octave steps, unchanged by small changes', () => {
    for (const r of [0.7, 3, 95, 1234.5, 8e5]) {
      const c = cascadeRadiusM(r);
      expect(c).toBeGreaterThanOrEqual(r * 1.02);
      expect(c).toBeLessThan(r * 1.02 * 2 ** (1 / 8) * (1 + 1e-12));
      expect(Number.isInteger(Math.round(Math.log2(c) * 8 * 1e9) / 1e9)).toBe(true);
    }
    expect(cascadeRadiusM(100)).toBe(cascadeRadiusM(100.5));
  });

  it('depth range: the single map (reach 0.5 r) has its light 2 r away, near 0.5 r, far 3.5 r', () => {
    expect(cascadeDepthRange(10, 5)).toEqual({ lightDistanceM: 20, nearM: 5, farM: 35 });
    expect(cascadeDepthRange(10, 1000)).toEqual({ lightDistanceM: 1015, nearM: 5, farM: 1030 });
  });

  it('texel snapping, map sizes and scales', () => {
    expect(snapToTexel(10.26, 0.5)).toBe(10.5);
    expect(snapToTexel(-3.74, 0.5)).toBe(-3.5);
    expect([0, 1, 2].map((i) => cascadeMapScale(i, 3))).toEqual([1, 1, 0.5]);
    expect(cascadeMapScale(0, 1)).toBe(1);
    expect(cascadeMapScale(1, 3, [1, 0.25])).toBe(0.25);
    expect(cascadeMapSize(2048, 0.5)).toBe(1024);
    expect(cascadeMapSize(100, 0.1)).toBe(64);
  });

  it('stagger: cascade 0 every frame, the far ones in turn', () => {
    const due = (frame: number) => [0, 1, 2].map((i) => cascadeDue(i, 3, frame, true));
    expect(due(1)).toEqual([true, false, true]);
    expect(due(2)).toEqual([true, true, false]);
    expect([0, 1, 2, 3].map((i) => cascadeDue(i, 4, 7, false))).toEqual([true, true, true, true]);
  });

  it('bias: texels of world size over the depth range; normal bias in metres', () => {
    expect(shadowBias(-1, 1.5, 0.1, 50)).toEqual({ bias: -0.002, normalBias: 0.15000000000000002 });
    expect(Number.isFinite(shadowBias(-1, 1, 0.1, 0).bias)).toBe(true);
  });

  it('map cache: renders a new key, a changed key or an old one; clear renders all', () => {
    const cache = new CascadeMapCache(10);
    const key: CascadeFitKey = { x: 1, y: 2, z: 3, radiusM: 64, casters: 7 };
    expect(cache.needsRender(0, key, 0)).toBe(true);
    expect(cache.needsRender(0, { ...key }, 5)).toBe(false);
    expect(cache.needsRender(1, key, 5)).toBe(true);
    expect(cache.needsRender(0, { ...key, x: 2 }, 6)).toBe(true);
    expect(cache.needsRender(0, { ...key, x: 2 }, 15)).toBe(false);
    expect(cache.needsRender(0, { ...key, x: 2 }, 16)).toBe(true); // 10 frames old
    expect(cache.needsRender(0, { ...key, x: 2, casters: 8 }, 17)).toBe(true);
    cache.clear();
    expect(cache.needsRender(1, key, 18)).toBe(true);
  });
});
