/**
 * The generated field evaluator (issue 43: src/field/jsCodegen.ts, compileField.ts) is bitwise the
 * closure chain (compileJs.ts `compileClosures`, the oracle): exact equality (Object.is: the sign of
 * a zero and NaN included) at golden point sets — a 12³ lattice over 1.3× each recipe's bounding
 * box, the surface band, repeats and zeros, and points it hands to the closures (huge, infinite,
 * NaN) — for every example recipe in assets/recipes, the seven planet classes (full and
 * band-limited, shells dropped), every asteroid family and brushed recipes; through `point` and the
 * lattice call `points` (float64 and float32 outputs). Also: one source per recipe shape (numbers
 * are data), no recipe text in the source, and the closures where generated code is refused.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compileClosures, compileToJs, evaluatePoints, fieldEvaluatorStatus, Prng, recipeBounds, type Brush, type FieldRecipe } from '../../src/field/index';
import { resetFieldEvaluatorStatus } from '../../src/field/compileField';
import { fieldProgram } from '../../src/field/jsCodegen';
import { ASTEROID_FAMILIES, asteroidRecipe, PLANET_CLASSES, planetRecipe } from '../../src/scene/index';

const RECIPES_DIR = join(import.meta.dirname, '../../assets/recipes');
const N = 12;

/** The golden points of a recipe, xyz interleaved. */
function goldenPoints(recipe: FieldRecipe, seed: number): Float64Array {
  const b = recipeBounds(recipe);
  const out: number[] = [];
  const finite = (v: number, fallback: number): number => (Number.isFinite(v) ? v : fallback);
  for (let k = 0; k < N; k++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
    const at = (a: number, t: number): number => {
      const lo = finite(b.boxMin[a], -100), hi = finite(b.boxMax[a], 100);
      const c = (lo + hi) / 2, h = ((hi - lo) / 2) * 1.3;
      return c - h + (2 * h * t) / (N - 1);
    };
    out.push(at(0, i), at(1, j), at(2, k));
  }
  const r = new Prng(seed);
  const dir = [0, 0, 0];
  const c = b.sphereCenter.map((v) => finite(v, 0)), R = finite(b.sphereRadiusM, 100);
  for (let i = 0; i < 400; i++) {
    r.unitVector(dir);
    const rad = i % 4 === 0 ? r.range(0, 1.2) * R : R * r.range(0.97, 1.01);
    out.push(c[0] + dir[0] * rad, c[1] + dir[1] * rad, c[2] + dir[2] * rad);
  }
  out.push(0, 0, 0, -0, 0, -0, 1, 2, 3, 1, 2, 3, 1e120, 0, 0, -3e200, 5, 5, Infinity, 0, 0, 0, -Infinity, 1, NaN, 0, 0);
  return Float64Array.from(out);
}

function expectBitwise(recipe: FieldRecipe, seed: number, minWavelengthM = 0): void {
  const oracle = compileClosures(recipe, { minWavelengthM });
  const plain = compileClosures(recipe, { minWavelengthM, reference: true });
  const gen = compileToJs(recipe, { minWavelengthM, evaluator: 'generated' });
  expect(gen.points, 'the generated evaluator has a lattice call').toBeTypeOf('function');
  const xyz = goldenPoints(recipe, seed);
  const n = xyz.length / 3;
  const out64 = new Float64Array(n), out32 = new Float32Array(n);
  gen.points!(xyz, out64, n);
  evaluatePoints(gen, xyz, out32, n);
  let bad = 0;
  const where: string[] = [];
  for (let p = 0; p < n; p++) {
    const x = xyz[3 * p], y = xyz[3 * p + 1], z = xyz[3 * p + 2];
    const want = oracle(x, y, z);
    const ok = Object.is(gen(x, y, z), want) && Object.is(out64[p], want) && Object.is(out32[p], Math.fround(want)) && Object.is(plain(x, y, z), want);
    if (!ok && bad++ < 3) where.push(`(${x}, ${y}, ${z}): closures ${want}, generated ${gen(x, y, z)} / ${out64[p]}`);
  }
  expect(bad, `${recipe.name ?? 'recipe'} at ${minWavelengthM} m: ${where.join('; ')}`).toBe(0);
}

function examples(): FieldRecipe[] {
  return readdirSync(RECIPES_DIR)
    .filter((f) => f.endsWith('.json') && f !== 'schema.json')
    .map((f) => ({ ...(JSON.parse(readFileSync(join(RECIPES_DIR, f), 'utf8')) as FieldRecipe), name: f.replace('.json', '') }));
}

const BRUSHES: Brush[] = [
  { op: 'carve', center: [0, 0, 0], radius: 30, blend: 0 },
  { op: 'add', center: [10, -5, 3], radius: 12, blend: 4 },
  { op: 'carve', center: [-8, 2, 1], radius: 9, blend: 2.5 },
  { op: 'add', center: [3, 3, 3], radius: 5, blend: 0 },
];

/** The recipe with brushes around a point of its surface band. */
function brushed(recipe: FieldRecipe): FieldRecipe {
  const b = recipeBounds(recipe);
  const s = b.sphereRadiusM / 100;
  const at = [b.sphereCenter[0] + 0.98 * b.sphereRadiusM, b.sphereCenter[1], b.sphereCenter[2]];
  const brushes = BRUSHES.map((br) => ({ ...br, radius: br.radius * s, blend: br.blend * s, center: [at[0] + br.center[0] * s, at[1] + br.center[1] * s, at[2] + br.center[2] * s] as [number, number, number] }));
  return { ...recipe, name: `${recipe.name} brushed`, brushes };
}

afterEach(() => {
  vi.unstubAllGlobals();
  resetFieldEvaluatorStatus();
});

describe('the generated evaluator is bitwise the closures', () => {
  it('every example recipe', () => {
    for (const [i, r] of examples().entries()) expectBitwise(r, i);
  });

  it('the seven planet classes, full and band-limited (shells dropped at 30 m and over)', () => {
    for (const cls of PLANET_CLASSES) {
      for (const seed of [4, 2003]) {
        const recipe = planetRecipe(seed, cls);
        expectBitwise(recipe, seed);
        for (const wl of [3, 30, 3000]) expectBitwise(recipe, seed, wl);
      }
    }
  });

  it('every asteroid family', () => {
    for (const family of ASTEROID_FAMILIES) for (const seed of [3, 8, 21]) expectBitwise(asteroidRecipe(seed, { family }), seed);
  });

  it('brushed recipes: planet 4, a karst planet band-limited, a potato, an example', () => {
    expectBitwise(brushed(planetRecipe(4)), 1);
    expectBitwise(brushed(planetRecipe(42, 'karst')), 2, 30);
    expectBitwise(brushed(asteroidRecipe(3, { family: 'potato' })), 3);
    expectBitwise(brushed(examples()[0]), 4);
  });
});

describe('programs', () => {
  it('one source per shape: seeds of a family, levels of a planet and brush sets share it; no recipe text in it', () => {
    const a = fieldProgram(asteroidRecipe(3, { family: 'potato' }));
    const b = fieldProgram(asteroidRecipe(8, { family: 'cratered' }));
    expect(a.source).toBe(b.source);
    const p = planetRecipe(4);
    expect(fieldProgram(p, 30).source).toBe(fieldProgram(brushed(p), 3000).source);
    expect(a.source).not.toContain('asteroid');
  });
});

describe('where generated code is refused (a content security policy)', () => {
  it('falls back to the closures and says why', () => {
    vi.stubGlobal('Function', function refused(): never {
      throw new EvalError("Refused to evaluate a string as JavaScript because 'unsafe-eval' is not an allowed source");
    });
    resetFieldEvaluatorStatus();
    const status = fieldEvaluatorStatus();
    expect(status.evaluator).toBe('closures');
    expect(status.reason).toMatch(/EvalError/);
    const recipe = asteroidRecipe(3, { family: 'potato' });
    const f = compileToJs(recipe);
    expect(f.points).toBeUndefined();
    const oracle = compileClosures(recipe);
    const xyz = goldenPoints(recipe, 1);
    const out = new Float64Array(xyz.length / 3);
    evaluatePoints(f, xyz, out, out.length);
    for (let p = 0; p < out.length; p++) expect(Object.is(out[p], oracle(xyz[3 * p], xyz[3 * p + 1], xyz[3 * p + 2]))).toBe(true);
  });
});
