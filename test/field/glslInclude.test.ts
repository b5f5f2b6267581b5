import { describe, expect, it } from 'vitest';
import { annotateGlslLog, GlslIncludeError, resolveIncludes } from '../../src/field/glslInclude';
import { GLSL_CHUNKS, glslChunksWith, glslWithIncludes } from '../../src/render/renderGlslChunks';

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

  it('passes named external includes through untouched, with #line after each', () => {
    const external = new Set(['common', 'lights_pars_begin']);
    const src = '#include <common>\n#include <sr_a>\n  #include <lights_pars_begin>\nmain';
    expect(resolveIncludes(src, chunks, { external }).split('\n')).toEqual([
      '#include <common>',
      '#line 2 0', // three expands <common> in place: the next line is still line 2
      '#line 1 1',
      'float a() { return 1.0; }',
      '#line 3 0',
      '  #include <lights_pars_begin>',
      '#line 4 0',
      'main',
    ]);
    expect(resolveIncludes(src, chunks, { external, lineDirectives: false }).split('\n')).toEqual([
      '#include <common>',
      'float a() { return 1.0; }',
      '  #include <lights_pars_begin>',
      'main',
    ]);
  });

  it('passes externals through inside chunks too, numbering lines in the chunk', () => {
    const withExternal = { sr_c: 'x\n#include <common>\ny' };
    expect(resolveIncludes('#include <sr_c>', withExternal, { external: new Set(['common']) }).split('\n')).toEqual([
      '#line 1 1',
      'x',
      '#include <common>',
      '#line 3 1',
      'y',
      '#line 2 0',
    ]);
  });

  it('still throws on unprefixed names that are not external, and registered chunks win', () => {
    const external = new Set(['common']);
    expect(() => resolveIncludes('#include <noise>', chunks, { external })).toThrow(/start with "sr_"/);
    expect(() => resolveIncludes('#include <sr_nope>', chunks, { external })).toThrow(/unknown GLSL chunk/);
    const ours = { sr_a: 'ours' };
    expect(resolveIncludes('#include <sr_a>', ours, { external: new Set(['sr_a']), lineDirectives: false })).toBe('ours');
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

  it('glslWithIncludes takes externals and per-shader extra chunks', () => {
    const out = glslWithIncludes('#include <common>\n#include <sr_field>\nvoid main() {}', 'body.frag', {
      external: new Set(['common']),
      chunks: { sr_field: 'float sr_field(vec3 p) { return length(p) - 1.0; }' },
    });
    expect(out.startsWith('#line 1 0\n#include <common>\n')).toBe(true);
    expect(out).toContain('float sr_field(vec3 p)');
    expect(() => glslWithIncludes('#include <common>', 'x')).toThrow(/start with "sr_"/);
    expect(glslChunksWith({ sr_field: '' })).toHaveProperty('sr_common');
  });
});
