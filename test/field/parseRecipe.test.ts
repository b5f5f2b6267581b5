import { describe, expect, it } from 'vitest';
import { parseRecipe, parseRecipeText, RecipeError, RECIPE_LIMITS } from '../../src/field/index';

const sphere = { type: 'sphere', radius: 10 };
const noise = { kind: 'fbm', seed: 1, frequency: 0.1, octaves: 4, amplitude: 1 };

function wrap(root: unknown, extra: Record<string, unknown> = {}): unknown {
  return { version: 1, root, ...extra };
}

/** Asserts parseRecipe throws a RecipeError at `path` whose message mentions `problem`. */
function expectError(json: unknown, path: string, problem: RegExp): void {
  let caught: unknown;
  try {
    parseRecipe(json);
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected RecipeError at ${path}`).toBeInstanceOf(RecipeError);
  const err = caught as RecipeError;
  expect(err.path).toBe(path);
  expect(err.message.startsWith(`${path || '(recipe)'}: `)).toBe(true);
  expect(err.message).toMatch(problem);
}

function nest(depth: number): unknown {
  let node: unknown = sphere;
  for (let i = 1; i < depth; i++) node = { type: 'translate', offset: [0, 0, 0], child: node };
  return node;
}

describe('parseRecipe accepts', () => {
  it('a minimal recipe and fills defaults canonically', () => {
    const r = parseRecipe(wrap({ ...sphere, noise }));
    expect(r).toEqual({
      version: 1,
      root: { type: 'sphere', radius: 10, noise: [{ ...noise, lacunarity: 2, gain: 0.5 }] },
      brushes: [],
    });
  });

  it('is idempotent (parsing its own output gives the same JSON)', () => {
    const r = parseRecipe(wrap({ type: 'rotate', axis: [0, 0, 2], angleDeg: 30, child: sphere }, { name: 'rock 1', brushes: [{ op: 'carve', center: [1, 2, 3], radius: 2 }] }));
    expect(JSON.stringify(parseRecipe(r))).toBe(JSON.stringify(r));
    expect((r.root as { axis: number[] }).axis).toEqual([0, 0, 1]);
  });

  it('does not keep references to the input', () => {
    const input = wrap({ type: 'ellipsoid', radii: [1, 2, 3] }) as { root: { radii: number[] } };
    const r = parseRecipe(input);
    input.root.radii[0] = 100;
    expect((r.root as { radii: number[] }).radii[0]).toBe(1);
  });

  it(`nesting of exactly ${RECIPE_LIMITS.maxDepth} levels`, () => {
    expect(() => parseRecipe(wrap(nest(RECIPE_LIMITS.maxDepth)))).not.toThrow();
  });
});

describe('parseRecipe rejects, naming the path', () => {
  const cases: [string, unknown, string, RegExp][] = [
    ['non-object recipe', 42, '', /expected an object, got number 42/],
    ['array recipe', [], '', /expected an object, got an array/],
    ['null recipe', null, '', /got null/],
    ['missing version', { root: sphere }, 'version', /missing required recipe version/],
    ['wrong version', { version: 2, root: sphere }, 'version', /unsupported recipe version number 2/],
    ['missing root', { version: 1 }, 'root', /missing required root/],
    ['unknown top-level key', wrap(sphere, { extra: 1 }), 'extra', /unknown property/],
    ['name with a newline', wrap(sphere, { name: 'a\nb' }), 'name', /letters, digits/],
    ['name of wrong type', wrap(sphere, { name: 5 }), 'name', /expected a string/],
    ['too long a name', wrap(sphere, { name: 'x'.repeat(65) }), 'name', /longer than 64/],
    ['unknown shape', wrap({ type: 'cube', radius: 1 }), 'root.type', /unknown shape or operation string "cube"/],
    ['injection in a type', wrap({ type: 'sphere;}void main(){', radius: 1 }), 'root.type', /unknown shape or operation/],
    ['missing type', wrap({ radius: 1 }), 'root.type', /missing required node type/],
    ['type of wrong type', wrap({ type: 3 }), 'root.type', /expected a node type string, got number 3/],
    ['node that is a string', wrap('sphere'), 'root', /expected a node object/],
    ['missing field', wrap({ type: 'sphere' }), 'root.radius', /missing required number/],
    ['number as string', wrap({ type: 'sphere', radius: '10' }), 'root.radius', /expected a number, got string "10"/],
    ['NaN', wrap({ type: 'sphere', radius: NaN }), 'root.radius', /finite/],
    ['Infinity', wrap({ type: 'sphere', radius: Infinity }), 'root.radius', /finite/],
    ['negative radius', wrap({ type: 'sphere', radius: -1 }), 'root.radius', /must be > 0/],
    ['huge length', wrap({ type: 'sphere', radius: 1e12 }), 'root.radius', /must be ≤ 1000000000/],
    ['unknown node key', wrap({ type: 'sphere', radius: 1, color: 'red' }), 'root.color', /unknown property/],
    ['vec3 of 2', wrap({ type: 'box', halfExtents: [1, 2] }), 'root.halfExtents', /array of 3 numbers, got an array of 2/],
    ['vec3 element string', wrap({ type: 'box', halfExtents: [1, '2', 3] }), 'root.halfExtents[1]', /expected a number/],
    ['vec3 not array', wrap({ type: 'ellipsoid', radii: 3 }), 'root.radii', /array of 3 numbers, got number 3/],
    ['zero plane normal', wrap({ type: 'plane', normal: [0, 0, 0], offset: 0 }), 'root.normal', /zero vector/],
    ['round box radius too big', wrap({ type: 'roundBox', halfExtents: [1, 2, 3], radius: 2 }), 'root.radius', /≤ 1/],
    ['torus missing minor', wrap({ type: 'torus', majorRadius: 2 }), 'root.minorRadius', /missing/],
    ['capsule a wrong', wrap({ type: 'capsule', a: null, b: [0, 0, 0], radius: 1 }), 'root.a', /got null/],
    ['unknown op', wrap({ type: 'xor', children: [sphere] }), 'root.type', /unknown shape or operation/],
    ['children not array', wrap({ type: 'union', children: sphere }), 'root.children', /expected an array, got object/],
    ['empty children', wrap({ type: 'union', children: [] }), 'root.children', /at least 1/],
    ['bad child deep', wrap({ type: 'union', children: [sphere, sphere, { type: 'sphere', radius: 1, noise: { ...noise, octaves: 13 } }] }), 'root.children[2].noise.octaves', /must be ≤ 12, got 13/],
    ['octaves zero', wrap({ ...sphere, noise: [{ ...noise, octaves: 0 }] }), 'root.noise[0].octaves', /≥ 1/],
    ['octaves fractional', wrap({ ...sphere, noise: { ...noise, octaves: 2.5 } }), 'root.noise.octaves', /integer/],
    ['unknown noise kind', wrap({ ...sphere, noise: { ...noise, kind: 'perlin' } }), 'root.noise.kind', /unknown noise kind string "perlin"/],
    ['noise seed negative', wrap({ ...sphere, noise: { ...noise, seed: -1 } }), 'root.noise.seed', /≥ 0/],
    ['noise gain > 1', wrap({ ...sphere, noise: { ...noise, gain: 2 } }), 'root.noise.gain', /≤ 1/],
    ['too many noise layers', wrap({ ...sphere, noise: new Array(9).fill(noise) }), 'root.noise', /more than the limit of 8/],
    ['warp negative amplitude', wrap({ ...sphere, warp: { seed: 1, frequency: 1, octaves: 2, amplitude: -1 } }), 'root.warp.amplitude', /≥ 0/],
    ['crater count too high', wrap({ ...sphere, craters: { seed: 1, count: 300, sphereRadius: 10, radiusMin: 1, radiusMax: 2 } }), 'root.craters.count', /≤ 256/],
    ['crater radii reversed', wrap({ ...sphere, craters: { seed: 1, count: 3, sphereRadius: 10, radiusMin: 2, radiusMax: 1 } }), 'root.craters.radiusMax', /≥ radiusMin/],
    ['crater too small', wrap({ ...sphere, craters: { seed: 1, count: 3, sphereRadius: 1e7, radiusMin: 1e-3, radiusMax: 1 } }), 'root.craters.radiusMin', /float precision/],
    ['translate missing child', wrap({ type: 'translate', offset: [0, 0, 0] }), 'root.child', /missing required child/],
    ['scale zero', wrap({ type: 'scale', factor: 0, child: sphere }), 'root.factor', /≥ 0.000001/],
    ['smooth without blend', wrap({ type: 'smoothUnion', children: [sphere] }), 'root.blend', /missing/],
    ['brushes not array', wrap(sphere, { brushes: {} }), 'brushes', /expected an array/],
    ['brush unknown op', wrap(sphere, { brushes: [{ op: 'paint', center: [0, 0, 0], radius: 1 }] }), 'brushes[0].op', /unknown brush op string "paint"/],
    ['brush missing op', wrap(sphere, { brushes: [{ center: [0, 0, 0], radius: 1 }] }), 'brushes[0].op', /missing/],
    ['nesting too deep', wrap(nest(RECIPE_LIMITS.maxDepth + 1)), `root${'.child'.repeat(RECIPE_LIMITS.maxDepth)}`, /nesting too deep/],
  ];
  for (const [name, json, path, problem] of cases) {
    it(name, () => expectError(json, path, problem));
  }

  it('too many distinct noise seeds', () => {
    const layers = (base: number) => [0, 1, 2, 3, 4, 5, 6, 7].map((s) => ({ ...noise, seed: base + s }));
    const json = wrap({ type: 'union', children: [{ ...sphere, noise: layers(0) }, { ...sphere, noise: layers(8) }, { ...sphere, noise: layers(16) }] });
    expectError(json, 'root.children[2].noise[0].seed', /more than 16 distinct noise seeds/);
  });

  it('too many nodes', () => {
    const json = wrap({ type: 'union', children: new Array(RECIPE_LIMITS.maxNodes).fill(sphere) });
    expectError(json, `root.children[${RECIPE_LIMITS.maxNodes - 1}]`, /too many nodes/);
  });

  it('too many craters in total', () => {
    const c = { seed: 1, count: 200, sphereRadius: 10, radiusMin: 1, radiusMax: 2 };
    const json = wrap({ type: 'union', children: [{ ...sphere, craters: c }, { ...sphere, craters: c }, { ...sphere, craters: c }] });
    expectError(json, 'root.children[2].craters.count', /more than 512 craters/);
  });

  it('wraps foreign exceptions (a throwing getter) as RecipeError', () => {
    const evil = { version: 1, get root(): unknown { throw new TypeError('boom'); } };
    expectError(evil, '', /could not be read: boom/);
  });

  it('rejects a cyclic structure through the depth limit', () => {
    const node: Record<string, unknown> = { type: 'translate', offset: [0, 0, 0] };
    node.child = node;
    expect(() => parseRecipe(wrap(node))).toThrow(RecipeError);
  });

  it('parseRecipeText turns JSON syntax errors into RecipeError', () => {
    expect(() => parseRecipeText('{"version": 1,')).toThrow(RecipeError);
    expect(() => parseRecipeText('{"version": 1,')).toThrow(/not valid JSON/);
  });
});
