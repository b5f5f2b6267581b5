import { describe, expect, it } from 'vitest';
import { compileToGlsl } from '../../src/field/compileGlsl';
import { PERM_LAYER_LINE } from '../../src/field/glslCodegen';
import { packBatchRecipes, recipeSlots, recipeSlotsSource, splitByRecipes } from '../../src/gpu/recipeSlots';
import { asteroidRecipe } from '../../src/scene/index';

const DATA = { numbersAsData: true, permutationTexture: true } as const;

describe('several recipes of one shape in a batch', () => {
  const a = compileToGlsl(asteroidRecipe(3, { family: 'potato' }), DATA);
  const b = compileToGlsl(asteroidRecipe(8, { family: 'cratered' }), DATA);

  it('as many recipes as their params blocks fit the largest uniform block, at most the batch', () => {
    const vec4s = a.params.length / 4;
    expect(recipeSlots(a.params.length, a.noiseSeeds.length, 16384, 32, 256).recipes).toBe(Math.floor(16384 / (16 * vec4s)));
    expect(recipeSlots(a.params.length, a.noiseSeeds.length, 65536, 32, 256).recipes).toBe(Math.floor(65536 / (16 * vec4s)));
    expect(recipeSlots(64, 1, 65536, 32, 256).recipes).toBe(32);
    expect(recipeSlots(0, 0, 65536, 32, 256).recipes).toBe(1);
    // Each recipe's tables are layers of one texture: no more recipes than their tables fit.
    expect(recipeSlots(64, 3, 65536, 32, 64).recipes).toBe(21);
  });

  it("the field reads every number and table through its chunk's bases, on the same lines", () => {
    const slots = recipeSlots(a.params.length, a.noiseSeeds.length, 65536, 32, 256);
    const out = recipeSlotsSource(a.source, slots);
    expect(out.split('\n').length).toBe(a.source.split('\n').length);
    expect(out).toContain(`uniform SrParams { vec4 sr_params[${(a.params.length / 4) * slots.recipes}]; };`);
    // Every read goes through the base: no `sr_params[` is followed by anything else.
    const reads = [...out.matchAll(/sr_params\[([^\]]*)/g)].map((m) => m[1]);
    expect(reads.length).toBeGreaterThan(10);
    for (const r of reads.slice(1)) expect(r.startsWith('sr_paramBase + ')).toBe(true);
    expect(out).toContain('int sr_permLayer(int table) { return sr_permBase + table; }');
    expect(out).not.toContain(PERM_LAYER_LINE);
    // The same shape gives the same text whatever the numbers.
    expect(recipeSlotsSource(b.source, slots)).toBe(out);
  });

  it('refuses a field without a numbers block', () => {
    const plain = compileToGlsl(asteroidRecipe(3, { family: 'potato' }), { permutationTexture: true });
    expect(() => recipeSlotsSource(plain.source, recipeSlots(a.params.length, a.noiseSeeds.length, 65536, 32, 256))).toThrow(/SrParams/);
  });

  it("packs each recipe's numbers and tables once, and each job's bases into them", () => {
    const slots = recipeSlots(a.params.length, a.noiseSeeds.length, 65536, 32, 256);
    const ra = { params: a.params, permutation: a.permutation };
    const rb = { params: b.params, permutation: b.permutation };
    const jobs = [ra, rb, ra];
    const packed = packBatchRecipes(jobs, (n) => jobs[n], slots);
    const v = a.params.length / 4;
    expect(packed.recipes).toEqual([ra, rb]);
    expect(packed.bases).toEqual([
      { sr_paramBase: 0, sr_permBase: 0 },
      { sr_paramBase: v, sr_permBase: slots.tables },
      { sr_paramBase: 0, sr_permBase: 0 },
    ]);
    expect(packed.params.length).toBe(4 * v * slots.recipes);
    expect([...packed.params.subarray(4 * v, 8 * v)]).toEqual([...b.params]);
    expect(packed.permutation).toEqual([a.permutation, b.permutation]);
    const one = recipeSlots(a.params.length, a.noiseSeeds.length, 16 * v, 32, 256);
    expect(() => packBatchRecipes(jobs, (n) => jobs[n], one)).toThrow(/2 recipes in a batch that holds 1/);
  });

  it('splits a group at the most recipes and the most jobs a batch, in arrival order', () => {
    const jobs = ['a', 'b', 'a', 'c', 'c', 'd', 'a'];
    expect(splitByRecipes(jobs, (j) => j, 2, 32)).toEqual([['a', 'b', 'a'], ['c', 'c', 'd'], ['a']]);
    expect(splitByRecipes(jobs, (j) => j, 8, 3)).toEqual([['a', 'b', 'a'], ['c', 'c', 'd'], ['a']]);
    expect(splitByRecipes(jobs, (j) => j, 8, 32)).toEqual([jobs]);
  });
});
