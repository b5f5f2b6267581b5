import { describe, expect, it } from 'vitest';
import mapCubeSphere from '../../glsl/sr_map_cubesphere.glsl?raw';
import mapCartesian from '../../glsl/sr_map_cartesian.glsl?raw';
import { chunkBlockGlsl, chunkBlockLayout, extractChunkUniforms, packChunkBlock } from '../../src/gpu/chunkBlock';
import { compileToGlsl } from '../../src/field/compileGlsl';
import { planetRecipe } from '../../src/scene/planets';

describe('chunk block', () => {
  it('turns per-chunk uniforms into globals on the same lines, leaving pass-wide uniforms and samplers', () => {
    const source = [
      'uniform int sr_gridPoints;',
      'uniform highp usampler2DArray sr_permutation;',
      '  uniform mat3 sr_csBasis; // columns',
      'uniform int sr_band[5];',
      '// uniform float sr_commented;',
    ].join('\n');
    const r = extractChunkUniforms([source]);
    expect(r.declarations).toEqual([
      { name: 'sr_csBasis', type: 'mat3', count: 0 },
      { name: 'sr_band', type: 'int', count: 5 },
    ]);
    expect(r.sources[0].split('\n')).toEqual([
      'uniform int sr_gridPoints;',
      'uniform highp usampler2DArray sr_permutation;',
      '  mat3 sr_csBasis; // columns',
      'int sr_band[5];',
      '// uniform float sr_commented;',
    ]);
  });

  it('lays the cube-sphere mapping and a band-limited field out by std140', () => {
    const field = compileToGlsl(planetRecipe(4), { bandUniforms: true, permutationTexture: true });
    const { declarations } = extractChunkUniforms([field.source, mapCubeSphere]);
    const names = declarations.map((d) => d.name);
    expect(names).toEqual(['sr_band', 'sr_csBasis', 'sr_csTan0', 'sr_csAngleStep', 'sr_csRadius0M', 'sr_csRadiusStepM', 'sr_csOriginHighM', 'sr_csOriginLowM']);
    const k = declarations[0].count;
    expect(k).toBe(field.bandSlots.length);
    const l = chunkBlockLayout(declarations, 16384, 32);
    const at = Object.fromEntries(l.members.map((m) => [m.name, m.offset]));
    // int[K]: 16 B an element; mat3: three 16 B columns; vec2 at 8 B alignment; then floats packed.
    expect(at.sr_band).toBe(0);
    expect(at.sr_csBasis).toBe(16 * k);
    expect(at.sr_csTan0).toBe(16 * k + 48);
    expect(at.sr_csAngleStep).toBe(16 * k + 56);
    expect(at.sr_csRadius0M).toBe(16 * k + 60);
    expect(at.sr_csRadiusStepM).toBe(16 * k + 64);
    expect(at.sr_csOriginHighM).toBe(16 * k + 80);
    expect(at.sr_csOriginLowM).toBe(16 * k + 96);
    expect(l.slotBytes).toBe(16 * k + 112);
    expect(l.slots).toBe(Math.min(32, Math.floor(16384 / l.slotBytes)));
    expect(chunkBlockLayout(declarations, l.slotBytes * 3, 32).slots).toBe(3);
    const glsl = chunkBlockGlsl(l);
    expect(glsl).toContain(`SrChunk sr_chunks[${l.slots}]`);
    expect(glsl).toContain('sr_band = sr_chunks[slot].sr_band;');
  });

  it('packs each slot where the layout says (cartesian mapping: a vec3 then a float in its fourth component)', () => {
    const { declarations } = extractChunkUniforms([mapCartesian]);
    const l = chunkBlockLayout(declarations, 16384, 4);
    expect(l.members.map((m) => [m.name, m.offset])).toEqual([['sr_chunkOriginM', 0], ['sr_chunkStepM', 12]]);
    expect(l.slotBytes).toBe(16);
    const bytes = packChunkBlock(l, [
      { sr_chunkOriginM: [1, 2, 3], sr_chunkStepM: 0.5, ignored: 7 },
      { sr_chunkOriginM: [4, 5, 6], sr_chunkStepM: 2 },
    ]);
    expect([...new Float32Array(bytes)]).toEqual([1, 2, 3, 0.5, 4, 5, 6, 2]);
  });

  it('packs matrices by column and int arrays one element a 16 B row', () => {
    const l = chunkBlockLayout([{ name: 'm', type: 'mat3', count: 0 }, { name: 'b', type: 'int', count: 2 }], 16384, 2);
    const bytes = packChunkBlock(l, [{ m: [1, 2, 3, 4, 5, 6, 7, 8, 9], b: [11, -12] }]);
    const f = new Float32Array(bytes), i = new Int32Array(bytes);
    expect([...f.slice(0, 12)]).toEqual([1, 2, 3, 0, 4, 5, 6, 0, 7, 8, 9, 0]);
    expect([i[12], i[16]]).toEqual([11, -12]);
  });

  it('refuses values of the wrong size, types it cannot lay out, and more chunks than slots', () => {
    const l = chunkBlockLayout([{ name: 'v', type: 'vec3', count: 0 }], 16384, 1);
    expect(() => packChunkBlock(l, [{ v: [1, 2] }])).toThrow(/2 numbers for vec3/);
    expect(() => packChunkBlock(l, [{}, {}])).toThrow(RangeError);
    expect(() => extractChunkUniforms(['uniform bvec2 sr_flags;'])).toThrow(/bvec2 is not supported/);
  });
});
