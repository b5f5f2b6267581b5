/**
 * The ground detail's camera split (src/render/planetGround.ts groundCameraSplit): the high part
 * on a power-of-two grid, exact in float32, and the low part small, so that in float32 a ground
 * point's `high + (low + offset)` comes out the same wherever the camera stands — the pattern stays
 * on the ground as the camera moves. One float32 camera position does not: its rounding changes
 * from frame to frame.
 */
import { describe, expect, it } from 'vitest';
import { GROUND_CAMERA_GRID_M, groundCameraSplit } from '../../src/render/planetGround';

const f32 = Math.fround;

describe('groundCameraSplit', () => {
  it('high is on the grid and exact in float32, high + low is the camera, low is small', () => {
    for (const c of [[0, 62010.88, 0], [-421.353, 61970.8864, -1516.8709], [3.2e6, -4.1e6, 2.9e6]] as [number, number, number][]) {
      const { high, low } = groundCameraSplit(c);
      high.forEach((h, i) => {
        expect(Math.abs(h % GROUND_CAMERA_GRID_M)).toBe(0);
        expect(f32(h)).toBe(h);
        expect(Math.abs(low[i])).toBeLessThanOrEqual(GROUND_CAMERA_GRID_M / 2);
        expect(high[i] + low[i]).toBeCloseTo(c[i], 9);
      });
    }
  });

  it('in float32 a ground point comes out the same from cameras a few cm apart; with one camera uniform it does not', () => {
    const ground = 62003.1234567; // a ground point's coordinate near seed 4's radius
    const split: number[] = [];
    const single: number[] = [];
    for (let k = 0; k < 200; k++) {
      const camera = 62005 + k * 0.0137; // the camera drifting along
      const offset = f32(ground - camera); // what the shader rebuilds from the view position
      const { high, low } = groundCameraSplit([0, camera, 0]);
      split.push(f32(f32(high[1]) + f32(f32(low[1]) + offset)));
      single.push(f32(f32(camera) + offset));
    }
    expect(new Set(split).size).toBe(1);
    expect(new Set(single).size).toBeGreaterThan(1);
  });
});
