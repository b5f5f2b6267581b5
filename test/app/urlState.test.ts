import { describe, expect, it } from 'vitest';
import { DEFAULT_STATE, formatAppState, parseAppState } from '../../src/app/urlState';

describe('parseAppState', () => {
  it('reads seed, mode and camera', () => {
    const { state, problems } = parseAppState('?seed=42&mode=gallery&cam=1,2,3.5,0,0,-1');
    expect(problems).toEqual([]);
    expect(state).toEqual({ seed: 42, mode: 'gallery', sampling: 'auto', camera: { position: [1, 2, 3.5], target: [0, 0, -1] } });
  });

  it('falls back to defaults with a problem naming each bad parameter', () => {
    const { state, problems } = parseAppState('?seed=abc&mode=nonsense&cam=1,2,x');
    expect(state).toEqual(DEFAULT_STATE);
    expect(problems.map((p) => p.param)).toEqual(['seed', 'mode', 'cam']);
    expect(problems[1].message).toMatch(/mode "nonsense" is not one of explore, gallery, screenshot/);
  });

  it.each(['-1', '1.5', '4294967296', '', ' ', '1e3', '0x10', 'NaN'])('rejects seed %j', (seed) => {
    const { state, problems } = parseAppState(`?seed=${encodeURIComponent(seed)}`);
    expect(state.seed).toBe(DEFAULT_STATE.seed);
    expect(problems[0].param).toBe('seed');
  });

  it.each(['0', '4294967295', '007'])('accepts seed %j', (seed) => {
    expect(parseAppState(`?seed=${seed}`).problems).toEqual([]);
  });

  it.each(['1,2,3,4,5', '1,2,3,4,5,6,7', '1,2,3,1,2,3', '1,2,Infinity,0,0,0', '1,,3,0,0,0'])(
    'rejects cam %j',
    (cam) => {
      expect(parseAppState(`?cam=${cam}`).problems[0].param).toBe('cam');
    },
  );

  it('never throws on hostile input', () => {
    const junk = ['?%', '?seed=%E0%A4%A', '?mode=<script>', `?cam=${'9'.repeat(5000)}`, '?seed=1&seed=2'];
    for (const s of junk) expect(() => parseAppState(s)).not.toThrow();
  });
});

describe('formatAppState', () => {
  it('round-trips and keeps unrelated parameters', () => {
    const state = { seed: 7, mode: 'explore' as const, sampling: 'auto' as const, camera: { position: [1.23456, -2, 3] as [number, number, number], target: [0, 0, 0] as [number, number, number] } };
    const search = formatAppState(state, '?foo=bar&seed=1');
    expect(search).toBe('?foo=bar&seed=7&mode=explore&cam=1.2346,-2,3,0,0,0');
    const back = parseAppState(search).state;
    expect(back.seed).toBe(7);
    expect(back.camera?.position[0]).toBeCloseTo(1.2346, 6);
  });

  it('drops cam when the view is the default', () => {
    expect(formatAppState({ seed: 3, mode: 'gallery', sampling: 'auto', camera: null }, '?cam=1,2,3,4,5,6')).toBe('?seed=3&mode=gallery');
  });

  it('reads and writes a forced sampling path, and rejects unknown ones', () => {
    expect(parseAppState('?sampling=gpu-main').state.sampling).toBe('gpu-main');
    expect(parseAppState('?sampling=quantum').problems[0].param).toBe('sampling');
    expect(formatAppState({ seed: 1, mode: 'explore', sampling: 'js-worker', camera: null })).toBe('?seed=1&mode=explore&sampling=js-worker');
  });
});
