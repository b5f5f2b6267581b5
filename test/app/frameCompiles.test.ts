import { describe, expect, it } from 'vitest';
import { FrameCompileWatch } from '../../src/app/frameCompiles';

describe('FrameCompileWatch: programs compiled inside render calls', () => {
  it('counts what a render call added, not what was compiled between frames or released', () => {
    const w = new FrameCompileWatch();
    const a = { name: 'BodyMaterial' }, b = { name: 'SunDisc' }, c = { name: 'BodyMaterial' };
    w.beforeRender([]);
    w.afterRender([a, b]); // the first frame compiles two
    w.beforeRender([a, b, c]); // c compiled off the frame (compileAsync) before this one
    w.afterRender([a, b, c]);
    w.beforeRender([a, c]); // b released
    w.afterRender([a, c]);
    expect(w.report).toEqual({ frames: 1, programs: 2, names: ['BodyMaterial', 'SunDisc'] });
    w.beforeRender([a, c]);
    w.afterRender([a, c, { name: '' }]);
    expect(w.report.frames).toBe(2);
    expect(w.report.names.at(-1)).toBe('unnamed');
  });
});
