import { describe, expect, it } from 'vitest';
import { annotateGlslLog, GlslIncludeError, resolveIncludes } from '../../src/field/glslInclude';
import { GLSL_CHUNKS, glslWithIncludes } from '../../src/field/glslChunks';

const chunks = {
  sr_a: 'float a() { return 1.0; }',
  sr_b: '#include <sr_a>\nfloat b() { return a(); }',
};

describe('resolveIncludes', () => {
  it('expands nested includes once each and keeps line numbers with #line', () => {
    const src = 'line1\n#include <sr_b>\nline3\n#include <sr_a>\nline5';
    const out = resolveIncludes(src, chunks).split('\n');
    expect(out).toEqual([
      'line1',
      '#line 1 2', // sr_b is source 2 (sorted: sr_a=1, sr_b=2)
      '#line 1 1',
      'float a() { return 1.0; }',
      '#line 2 2', // back in sr_b, at its line 2
      'float b() { return a(); }',
      '#line 3 0', // back in main, at line 3
      'line3',
      '', // sr_a already included: the line stays, empty, so numbering holds
      'line5',
    ]);
  });

  it('throws on unknown chunk names, naming the line and the known chunks', () => {
    expect(() => resolveIncludes('x\n#include <sr_nope>', chunks, { sourceName: 'sky.frag' })).toThrow(
      /sky\.frag:2: unknown GLSL chunk <sr_nope> \(known: sr_a, sr_b\)/,
    );
    expect(() => resolveIncludes('#include <sr_nope>', chunks)).toThrow(GlslIncludeError);
  });

  it('rejects unprefixed chunk names in includes and in the registry', () => {
    expect(() => resolveIncludes('#include <noise>', chunks)).toThrow(/start with "sr_"/);
    expect(() => resolveIncludes('', { noise: '' })).toThrow(/prefix/);
  });

  it('leaves lines that only look like includes alone', () => {
    const src = '// #include <sr_a> in a comment\nfloat x; #include <sr_a>';
    expect(resolveIncludes(src, chunks)).toBe(src);
  });

  it('survives include cycles', () => {
    const cyc = { sr_x: '#include <sr_y>\nx', sr_y: '#include <sr_x>\ny' };
    expect(resolveIncludes('#include <sr_x>', cyc, { lineDirectives: false }).split('\n')).toEqual([
      '',
      'y',
      'x',
    ]);
  });

  it('maps driver error locations back to chunk names', () => {
    const log = "ERROR: 2:7: 'q' : undeclared identifier\nERROR: 0:3: syntax error";
    expect(annotateGlslLog(log, chunks, 'body.frag')).toBe(
      "ERROR: sr_b:7: 'q' : undeclared identifier\nERROR: body.frag:3: syntax error",
    );
  });

  it('the project registry holds only sr_-prefixed chunks and resolves them', () => {
    for (const name of Object.keys(GLSL_CHUNKS)) expect(name.startsWith('sr_')).toBe(true);
    expect(glslWithIncludes('#include <sr_common>', 'test')).toContain('sr_hashU');
  });
});
