import { describe, expect, it } from 'vitest';
import { asteroidLevel } from '../../src/lod/asteroidLevels';

describe('asteroidLevel', () => {
  it('picks the coarsest level whose cells are at most 5 px, the finest past it', () => {
    expect(asteroidLevel(10, -1)).toBe(0); // 4 cells needed
    expect(asteroidLevel(40, -1)).toBe(0); // 16
    expect(asteroidLevel(41, -1)).toBe(1);
    expect(asteroidLevel(80, -1)).toBe(1); // 32
    expect(asteroidLevel(81, -1)).toBe(2);
    expect(asteroidLevel(1e4, -1)).toBe(2);
  });

  it('keeps a finer drawn level until the coarser one is clearly enough (hysteresis)', () => {
    expect(asteroidLevel(39, 1)).toBe(1); // 15.6 cells > 0.7 × 16: stay at 32
    expect(asteroidLevel(27, 1)).toBe(0); // 10.8 cells < 11.2: go down
    expect(asteroidLevel(60, 2)).toBe(2);
    expect(asteroidLevel(50, 2)).toBe(1);
  });
});
