/**
 * The field compiler's numbers as data (issue 16, glslParams.ts): the code holds a recipe's shape
 * only, so recipes that differ in numbers compile to one text (one GPU program), and each asteroid
 * family has one shape whatever the seed.
 */
import { describe, expect, it } from 'vitest';
import { compileToGlsl, generateFieldGlsl, GlslCodegenError, parseRecipe, RecipeError } from '../../src/field/glsl';
import type { FieldRecipe } from '../../src/field/recipe';
import { ASTEROID_FAMILIES, asteroidRecipe, planetRecipe } from '../../src/scene/index';

const DATA = { numbersAsData: true, permutationTexture: true } as const;

/** Every number in `value` multiplied by `k` (seeds and octaves moved instead; the version and crater counts kept). */
function renumbered(value: unknown, k: number, key = ''): unknown {
  if (typeof value === 'number') {
    if (key === 'version' || key === 'count') return value; // a crater count may cross its list's capacity
    if (key === 'seed') return value + 17;
    if (key === 'octaves') return value + 1;
    return value * k;
  }
  if (Array.isArray(value)) return value.map((v) => renumbered(v, k));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([kk, v]) => [kk, renumbered(v, k, kk)]));
  return value;
}

describe('numbers as data: one text per recipe shape', () => {
  it('a recipe with every number changed compiles to the same text, with other params', () => {
    for (const recipe of [asteroidRecipe(4, { family: 'potato' }), asteroidRecipe(9, { family: 'porous' }), planetRecipe(4)]) {
      const other = parseRecipe(renumbered(recipe, 1.37));
      const a = compileToGlsl(recipe, DATA);
      const b = compileToGlsl(other, DATA);
      expect(b.chunk).toBe(a.chunk);
      expect(b.params.length).toBe(a.params.length);
      expect([...b.params]).not.toEqual([...a.params]);
      // Literals: the numbers are in the code, so the texts differ.
      expect(compileToGlsl(other, { permutationTexture: true }).chunk).not.toBe(compileToGlsl(recipe, { permutationTexture: true }).chunk);
    }
  });

  it('brushes are numbers too: an edit (a dig or a build) keeps the program until 16 brushes (issue 19)', () => {
    const base = asteroidRecipe(4, { family: 'potato' });
    const dig = (i: number) => ({ op: i % 2 ? 'add' : 'carve', center: [10 + i, -3 * i, 7], radius: 4 + i, blend: i % 3 ? 1.5 : 0 });
    const withBrushes = (n: number): FieldRecipe => parseRecipe({ ...base, brushes: Array.from({ length: n }, (_, i) => dig(i)) });
    const one = compileToGlsl(withBrushes(1), DATA);
    for (const n of [2, 5, 16]) expect(compileToGlsl(withBrushes(n), DATA).chunk).toBe(one.chunk);
    // Past the room: a list twice as long, another program.
    expect(compileToGlsl(withBrushes(17), DATA).chunk).not.toBe(one.chunk);
    // None: no brush loop at all (the families' programs stay as they are).
    expect(compileToGlsl(base, DATA).chunk).not.toContain('sr_brushes');
    expect(one.chunk).toContain('sr_brushes');
  });

  it('every asteroid family has one shape over 60 seeds (one program each)', () => {
    for (const family of ASTEROID_FAMILIES) {
      const texts = new Set<string>();
      for (let seed = 0; seed < 60; seed++) texts.add(compileToGlsl(asteroidRecipe(seed, { family }), DATA).chunk);
      expect(texts.size, family).toBe(1);
    }
  });

  it('the six families have three shapes: blob (potato, contactBinary, cratered), cut (shard, metallic), porous', () => {
    const families = new Map<string, string[]>();
    for (const family of ASTEROID_FAMILIES) {
      const text = compileToGlsl(asteroidRecipe(7, { family }), DATA).chunk;
      families.set(text, [...(families.get(text) ?? []), family]);
    }
    expect([...families.values()].map((f) => f.join('+')).sort()).toEqual(['porous', 'potato+contactBinary+cratered', 'shard+metallic']);
  });

  it('params hold the numbers: a std140 block of vec4s, within 16 KiB (the WebGL 2 minimum block size)', () => {
    for (const family of ASTEROID_FAMILIES) {
      const c = compileToGlsl(asteroidRecipe(3, { family }), DATA);
      expect(c.params.length % 4).toBe(0);
      expect(c.params.byteLength).toBeLessThanOrEqual(16384);
      expect(c.chunk).toContain(`uniform SrParams { vec4 sr_params[${c.params.length / 4}]; }`);
      for (const v of c.params) expect(Number.isFinite(v)).toBe(true);
    }
  });

  it('needs the permutation tables in a texture (they are numbers too)', () => {
    expect(() => compileToGlsl(asteroidRecipe(3), { numbersAsData: true })).toThrow(/permutationTexture/);
  });

  it('a hostile number never reaches GLSL, as text or as data', () => {
    const recipe = asteroidRecipe(5, { family: 'contactBinary' });
    for (const bad of [Number.NaN, 1e309, -1e309, 1e39]) {
      const hostile = JSON.parse(JSON.stringify(recipe)) as FieldRecipe;
      // rotate → translate: an offset reaches the code as it is.
      (hostile.root as unknown as { child: { offset: number[] } }).child.offset[0] = bad;
      expect(() => compileToGlsl(hostile, DATA)).toThrow(RecipeError);
      // Past the parser (a recipe built in code): the compiler refuses it as well.
      expect(() => generateFieldGlsl(hostile, 0.01, DATA)).toThrow(GlslCodegenError);
    }
  });
});
