import { describe, expect, it } from 'vitest';
import { DEFAULT_STATE, editsOutOfLink, encodeView, formatAppState, MAX_QUERY_CHARS, parseAppState } from '../../src/app/urlState';

describe('parseAppState', () => {
  it('reads seed, mode and camera', () => {
    const { state, problems } = parseAppState('?seed=42&mode=gallery&cam=1,2,3.5,0,0,-1');
    expect(problems).toEqual([]);
    expect(state).toEqual({ ...DEFAULT_STATE, seed: 42, mode: 'gallery', camera: { position: [1, 2, 3.5], target: [0, 0, -1] } });
  });

  it('falls back to defaults with a problem naming each bad parameter', () => {
    const { state, problems } = parseAppState('?seed=abc&mode=nonsense&cam=1,2,x');
    expect(state).toEqual(DEFAULT_STATE);
    expect(problems.map((p) => p.param)).toEqual(['seed', 'mode', 'cam']);
    expect(problems[1].message).toMatch(/mode "nonsense" is not one of explore, asteroid, planet, gallery, screenshot/);
  });

  it.each(['-1', '1.5', '4294967296', '', ' ', '1e3', '0x10', 'NaN'])('rejects seed %j', (seed) => {
    const { state, problems } = parseAppState(`?seed=${encodeURIComponent(seed)}`);
    expect(state.seed).toBe(DEFAULT_STATE.seed);
    expect(problems[0].param).toBe('seed');
  });

  it.each(['0', '4294967295', '007'])('accepts seed %j', (seed) => {
    expect(parseAppState(`?seed=${seed}`).problems).toEqual([]);
  });

  it.each([
    '1,2,3,4,5', '1,2,3,4,5,6,7', '1,2,3,1,2,3', '1,2,Infinity,0,0,0', '1,,3,0,0,0',
    // Finite but beyond anything the scene can draw (was accepted: a white frame, altitude NaN).
    '1e308,1e308,1e308,0,0,0', '0,0,4,0,0,-2e8', '1e-300,0,0,0,0,0', '1,0,0,1.001,0,0',
  ])(
    'rejects cam %j, naming the parameter, and keeps the default view',
    (cam) => {
      const { state, problems } = parseAppState(`?cam=${cam}`);
      expect(problems[0].param).toBe('cam');
      expect(problems[0].message).toMatch(/within ±100000000 m/);
      expect(state.camera).toBeNull();
    },
  );

  it('accepts cameras out to the far plane, and a view code beyond it is refused', () => {
    expect(parseAppState('?cam=1e8,0,0,0,0,0').problems).toEqual([]);
    const far = encodeView({ position: [3e38, 0, 0], target: [0, 0, 0] }, 0);
    expect(parseAppState(`?view=${far}`).problems.map((p) => p.param)).toEqual(['view']);
  });

  it('never throws on hostile input', () => {
    const junk = ['?%', '?seed=%E0%A4%A', '?mode=<script>', `?cam=${'9'.repeat(5000)}`, '?seed=1&seed=2'];
    for (const s of junk) expect(() => parseAppState(s)).not.toThrow();
  });
});

describe('formatAppState', () => {
  it('round-trips and keeps unrelated parameters', () => {
    const state = { ...DEFAULT_STATE, seed: 7, mode: 'explore' as const, camera: { position: [1.23456, -2, 3] as [number, number, number], target: [0, 0, 0] as [number, number, number] } };
    const search = formatAppState(state, '?foo=bar&seed=1');
    expect(search).toBe('?foo=bar&seed=7&mode=explore&cam=1.2346,-2,3,0,0,0');
    const back = parseAppState(search).state;
    expect(back.seed).toBe(7);
    expect(back.camera?.position[0]).toBeCloseTo(1.2346, 6);
  });

  it('drops cam when the view is the default', () => {
    expect(formatAppState({ ...DEFAULT_STATE, seed: 3, mode: 'gallery' }, '?cam=1,2,3,4,5,6')).toBe('?seed=3&mode=gallery');
  });

  it('reads and writes a forced sampling path, and rejects unknown ones', () => {
    expect(parseAppState('?sampling=gpu-main').state.sampling).toBe('gpu-main');
    expect(parseAppState('?sampling=quantum').problems[0].param).toBe('sampling');
    expect(formatAppState({ ...DEFAULT_STATE, sampling: 'js-worker' })).toBe('?seed=1&mode=explore&sampling=js-worker');
  });
});

describe('views, time, UI and gallery parameters', () => {
  it('a view code round-trips camera and time through float32', () => {
    const camera = { position: [1234.5, -20.25, 3e4] as [number, number, number], target: [0, 1, 2] as [number, number, number] };
    const code = encodeView(camera, 12.5);
    expect(code).toMatch(/^[A-Za-z0-9_-]{38}$/);
    const { state, problems } = parseAppState(`?view=${code}`);
    expect(problems).toEqual([]);
    expect(state.camera).toEqual(camera);
    expect(state.time).toBe(12.5);
    expect(parseAppState('?view=abc').problems[0].param).toBe('view');
  });

  it('screenshot mode hides the UI and freezes time at 0 unless t says otherwise', () => {
    expect(parseAppState('?mode=screenshot').state).toMatchObject({ ui: false, time: 0 });
    expect(parseAppState('?mode=screenshot&t=3').state.time).toBe(3);
    expect(parseAppState('?mode=asteroid&ui=0').state).toMatchObject({ mode: 'asteroid', ui: false, time: null });
  });

  it.each([
    ['t', '-1'],
    ['t', 'soon'],
    ['ui', 'no'],
    ['start', '-3'],
    ['count', '0'],
    ['count', '61'],
    ['count', '2.5'],
  ])('rejects %s=%s by name', (param, value) => {
    const { state, problems } = parseAppState(`?${param}=${value}`);
    expect(problems.map((p) => p.param)).toEqual([param]);
    expect(state).toEqual(DEFAULT_STATE);
  });

  it('writes gallery paging only in the gallery, time only when frozen', () => {
    expect(formatAppState({ ...DEFAULT_STATE, mode: 'gallery', start: 13, count: 24 })).toBe('?seed=1&mode=gallery&start=13&count=24');
    expect(formatAppState({ ...DEFAULT_STATE, start: 13 })).toBe('?seed=1&mode=explore');
    expect(formatAppState({ ...DEFAULT_STATE, time: 4.25, ui: false })).toBe('?seed=1&mode=explore&t=4.25&ui=0');
  });

  it('reads and writes brush edits readably (issue 19), never in the gallery', () => {
    const { state, problems } = parseAppState('?seed=6&mode=asteroid&edits=a0d10.5,-3,7,20;a0b1,2,3,4.25');
    expect(problems).toEqual([]);
    expect(state.edits).toBe('a0d10.5,-3,7,20;a0b1,2,3,4.25');
    expect(formatAppState(state)).toBe('?seed=6&mode=asteroid&edits=a0d10.5,-3,7,20;a0b1,2,3,4.25');
    expect(formatAppState({ ...state, mode: 'gallery' })).toBe('?seed=6&mode=gallery');
  });

  it('edits are read entry by entry: the bad ones named, the URL text kept until the user edits (issue 45)', () => {
    const text = 'a0d10,0,0,20;a0dNaN,1,2,3;a0b1,2,3,4';
    const { state, problems } = parseAppState(`?seed=6&mode=asteroid&edits=${text}`);
    expect(problems.map((p) => p.param)).toEqual(['edits']);
    expect(problems[0].message).toMatch(/edit 2 \("a0dNaN,1,2,3"\) is not .*showing the 2 good ones/);
    expect(state.edits).toBe(text);
    expect(formatAppState(state)).toBe(`?seed=6&mode=asteroid&edits=${text}`);
    for (const bad of ['a1d1,2,3', 'q1d1,2,3,4']) {
      const r = parseAppState(`?edits=${bad}`);
      expect(r.problems.map((p) => p.param)).toEqual(['edits']);
      expect(r.state.edits).toBe(bad);
    }
  });

  it('never writes a link past the safe length: long edits stay out of it (issue 45)', () => {
    const edits = Array.from({ length: 256 }, (_, i) => `pd${6_000_000 + i}.25,-1234567.5,7654321.75,120`).join(';');
    const state = { ...DEFAULT_STATE, mode: 'planet' as const, edits };
    const url = formatAppState(state);
    expect(url.length).toBeLessThanOrEqual(MAX_QUERY_CHARS);
    expect(url).not.toContain('edits=');
    expect(editsOutOfLink(state)).toBe(true);
    expect(editsOutOfLink({ ...state, edits: 'pd1,2,3,4' })).toBe(false);
  });
});

describe('planet class and gallery kind (issue 41)', () => {
  it('class= picks a planet class; written back in planet mode only', () => {
    const { state, problems } = parseAppState('?seed=4&mode=planet&class=ocean');
    expect(problems).toEqual([]);
    expect(state).toEqual({ ...DEFAULT_STATE, seed: 4, mode: 'planet', planetClass: 'ocean' });
    expect(formatAppState(state)).toBe('?seed=4&mode=planet&class=ocean');
    // Where it does not apply it is read (no notice) and dropped from the URL.
    for (const mode of ['explore', 'asteroid', 'gallery', 'screenshot'] as const) {
      expect(formatAppState({ ...state, mode }), mode).not.toContain('class=');
    }
    expect(formatAppState({ ...state, planetClass: null })).toBe('?seed=4&mode=planet');
  });

  it.each(['moon', 'desert', 'alpine', 'ocean', 'ice', 'volcanic', 'karst'])('accepts class %j', (cls) => {
    const { state, problems } = parseAppState(`?mode=planet&class=${cls}`);
    expect(problems).toEqual([]);
    expect(state.planetClass).toBe(cls);
    expect(parseAppState(formatAppState(state)).state).toEqual(state);
  });

  it.each(['', 'Ocean', 'lava', 'ocean ', '1'])('refuses class %j: a notice naming the parameter and the classes, the seed’s own class', (cls) => {
    const { state, problems } = parseAppState(`?seed=4&mode=planet&class=${encodeURIComponent(cls)}`);
    expect(state.planetClass).toBeNull();
    expect(problems.map((p) => p.param)).toEqual(['class']);
    expect(problems[0].message).toMatch(/^class ".*" is not one of moon, desert, alpine, ocean, ice, volcanic, karst; using the seed's own class$/);
  });

  it('kind= says what the gallery shows; written back in the gallery only, when not the default', () => {
    const { state, problems } = parseAppState('?mode=gallery&kind=planets&start=10&count=3');
    expect(problems).toEqual([]);
    expect(state).toMatchObject({ mode: 'gallery', galleryKind: 'planets', start: 10, count: 3 });
    expect(formatAppState(state)).toBe('?seed=1&mode=gallery&kind=planets&start=10&count=3');
    expect(formatAppState({ ...state, galleryKind: 'asteroids' })).toBe('?seed=1&mode=gallery&start=10&count=3');
    expect(formatAppState({ ...state, mode: 'planet' })).toBe('?seed=1&mode=planet');
    expect(parseAppState('?mode=gallery&kind=asteroids').state.galleryKind).toBe('asteroids');
  });

  it.each(['planet', 'moons', 'PLANETS', ''])('refuses kind %j with a notice and shows asteroids', (kind) => {
    const { state, problems } = parseAppState(`?mode=gallery&kind=${encodeURIComponent(kind)}`);
    expect(state.galleryKind).toBe('asteroids');
    expect(problems.map((p) => p.param)).toEqual(['kind']);
    expect(problems[0].message).toMatch(/is not one of asteroids, planets; using asteroids$/);
  });

  it('recipe= names an imported recipe (issue 45): written back in asteroid mode only; a bad key is named', () => {
    const { state, problems } = parseAppState('?mode=asteroid&seed=3&recipe=kf624p27yuft');
    expect(problems).toEqual([]);
    expect(state.recipe).toBe('kf624p27yuft');
    expect(formatAppState(state)).toBe('?seed=3&mode=asteroid&recipe=kf624p27yuft');
    expect(formatAppState({ ...state, mode: 'explore' })).toBe('?seed=3&mode=explore');
    const bad = parseAppState('?mode=asteroid&recipe=BAD!');
    expect(bad.state.recipe).toBe('');
    expect(bad.problems.map((p) => p.param)).toEqual(['recipe']);
  });
});

describe('workers= (issue 42: a smaller machine on a bigger one)', () => {
  it('a whole number from 1 to the cores sets the body workers, and is written back', () => {
    const { state, problems } = parseAppState('?seed=4&mode=planet&workers=3', 16);
    expect(problems).toEqual([]);
    expect(state.workers).toBe(3);
    expect(formatAppState(state)).toBe('?seed=4&mode=planet&workers=3');
    expect(parseAppState(formatAppState(state), 16).state).toEqual(state);
    expect(parseAppState('?workers=16', 16).state.workers).toBe(16);
    expect(formatAppState({ ...state, workers: null })).toBe('?seed=4&mode=planet');
  });

  it.each(['0', '17', '-1', '2.5', 'four', '', '1e1', '99999'])('refuses workers=%j on 16 cores: named, the default kept', (w) => {
    const { state, problems } = parseAppState(`?workers=${encodeURIComponent(w)}`, 16);
    expect(state.workers).toBeNull();
    expect(problems.map((p) => p.param)).toEqual(['workers']);
    expect(problems[0].message).toContain('1 to 16');
  });
});

describe('lodTime= (issue 43: the planet time budget, src/lod/timeFactor.ts)', () => {
  it('seconds from 0 (off) to 600 set the budget, and are written back', () => {
    const { state, problems } = parseAppState('?seed=4&mode=planet&lodTime=45', 16);
    expect(problems).toEqual([]);
    expect(state.lodTimeS).toBe(45);
    expect(formatAppState(state)).toBe('?seed=4&mode=planet&lodTime=45');
    expect(parseAppState('?lodTime=0', 16).state.lodTimeS).toBe(0);
    expect(parseAppState('?lodTime=2.5', 16).state.lodTimeS).toBe(2.5);
    expect(parseAppState('?lodTime=600', 16).state.lodTimeS).toBe(600);
    expect(formatAppState({ ...state, lodTimeS: null })).toBe('?seed=4&mode=planet');
  });

  it.each(['601', '-1', 'fast', '', '1e2', 'NaN', 'Infinity', '9999'])('refuses lodTime=%j: named, the default kept', (v) => {
    const { state, problems } = parseAppState(`?lodTime=${encodeURIComponent(v)}`, 16);
    expect(state.lodTimeS).toBeNull();
    expect(problems.map((p) => p.param)).toEqual(['lodTime']);
    expect(problems[0].message).toContain('600');
  });
});
