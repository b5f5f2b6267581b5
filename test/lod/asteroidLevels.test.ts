import { describe, expect, it } from 'vitest';
import { asteroidLevel, asteroidLodStep, type AsteroidLodInput } from '../../src/lod/asteroidLevels';

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

describe('asteroidLodStep', () => {
  const idle: AsteroidLodInput = { radiusPx: 100, drawnLevel: -1, jobLevel: -1, failed: false, retryReady: true };

  it('asks for level 0 first whatever the size, ahead of any detail', () => {
    const d = asteroidLodStep(idle);
    expect(d).toEqual({ want: 0, cancelJob: false, request: { level: 0, priority: 1e6 + 100 } });
  });

  it('then the level the size asks for, bigger on screen first', () => {
    const near = asteroidLodStep({ ...idle, drawnLevel: 0, radiusPx: 100 });
    const far = asteroidLodStep({ ...idle, drawnLevel: 0, radiusPx: 50 });
    expect(near.request).toEqual({ level: 2, priority: 100 });
    expect(far.request).toEqual({ level: 1, priority: 50 });
    expect(asteroidLodStep({ ...idle, drawnLevel: 2, radiusPx: 100 }).request).toBeNull(); // drawn as wanted
  });

  it('meshes an edited asteroid again at the level drawn, ahead of everything', () => {
    expect(asteroidLodStep({ ...idle, drawnLevel: 2, radiusPx: 100, edited: true }).request).toEqual({ level: 2, priority: 1e7 + 100 });
    expect(asteroidLodStep({ ...idle, drawnLevel: 2, jobLevel: 2, radiusPx: 100, edited: true }).request).toBeNull(); // on its way
  });

  it('cancels a detail job the camera moved away from, never a first mesh', () => {
    const stale = asteroidLodStep({ ...idle, drawnLevel: 0, jobLevel: 2, radiusPx: 20 });
    expect(stale).toEqual({ want: 0, cancelJob: true, request: null }); // level 0 is drawn already
    const moved = asteroidLodStep({ ...idle, drawnLevel: 0, jobLevel: 2, radiusPx: 50 });
    expect(moved.cancelJob).toBe(true);
    expect(moved.request).toEqual({ level: 1, priority: 50 });
    expect(asteroidLodStep({ ...idle, jobLevel: 0, radiusPx: 1e4 })).toEqual({ want: 0, cancelJob: false, request: null });
    expect(asteroidLodStep({ ...idle, drawnLevel: 0, jobLevel: 2, radiusPx: 100 }).cancelJob).toBe(false);
  });

  it('waits for the retry backoff, and asks nothing once retries gave up', () => {
    expect(asteroidLodStep({ ...idle, retryReady: false }).request).toBeNull();
    expect(asteroidLodStep({ ...idle, failed: true }).request).toBeNull();
  });
});
