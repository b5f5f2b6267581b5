/**
 * Golden hashes of the field compiler's output: generateFieldGlsl (through compileToGlsl, which
 * picks the gradient step) for a zoo of recipes × every codegen option, each hashed (sha256 of the
 * chunk and the other result fields) against a table made from the code as it was before
 * glslCodegen.ts was split into stages. A refactor of the compiler must leave every hash as it is.
 *
 * The recipe's own hash is in the table too: when planetRecipe or asteroidRecipe changes on
 * purpose, the `recipe` column moves with the `glsl` one and the table is to be made again
 * (GOLDEN_PRINT=1 prints it); when only `glsl` moves, the compiler's output changed.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileToGlsl, generateFieldGlsl, NODE_TYPES, NOISE_KINDS, parseRecipe, parseRecipeText, type CompileGlslOptions } from '../../src/field/glsl';
import type { FieldNode, FieldRecipe } from '../../src/field/recipe';
import { ASTEROID_FAMILIES, asteroidFamily, asteroidRecipe, planetRecipe } from '../../src/scene/index';

const DIR = resolve(import.meta.dirname, '../../assets/recipes');
const EXAMPLES = readdirSync(DIR).filter((f) => f.endsWith('.json') && f !== 'schema.json').sort();

const PLANET_SEEDS = [1, 2, 7, 42];

/** The first seed ≥ 1 of each asteroid family, plus a few more. */
function asteroidSeeds(): number[] {
  const seeds = new Set<number>([1, 2, 3]);
  for (const family of ASTEROID_FAMILIES) {
    let seed = 1;
    while (asteroidFamily(seed) !== family) seed++;
    seeds.add(seed);
  }
  return [...seeds].sort((a, b) => a - b);
}

const noise = (seed: number, kind: 'fbm' | 'ridged' | 'billow', amplitude: number) => ({ kind, seed, frequency: 0.3, octaves: 4, lacunarity: 2, gain: 0.5, amplitude });
const warp = { seed: 9, frequency: 0.2, octaves: 3, lacunarity: 2.1, gain: 0.45, amplitude: 0.4 };
const craters = { seed: 5, count: 6, center: [0, 0, 0], sphereRadius: 3, radiusMin: 0.2, radiusMax: 0.6, sizeExponent: 2, depth: 0.1, rimHeight: 0.03, ejectaFalloff: 0.8 };

/**
 * Every node type, noise kind, warp, craters, every brush form (sharp/smooth add/carve), and two
 * modifier groups that are shared (same modifiers on several nodes at the field's own point) next
 * to one that is not (held below a warped node as well as at the field's own point).
 */
const ZOO_RECIPE = {
  version: 1,
  root: {
    type: 'union',
    children: [
      { type: 'sphere', radius: 3, noise: [noise(1, 'fbm', 0.2), noise(2, 'ridged', 0.1)], warp, craters },
      { type: 'shell', thickness: 0.2, child: { type: 'sphere', radius: 3, noise: [noise(1, 'fbm', 0.2), noise(2, 'ridged', 0.1)], warp, craters } },
      { type: 'box', halfExtents: [1, 2, 1], noise: [noise(3, 'billow', 0.05)] },
      { type: 'roundBox', halfExtents: [1, 1, 1], radius: 0.25, noise: [noise(3, 'billow', 0.05)] },
      {
        type: 'subtraction',
        warp: { ...warp, seed: 11 },
        children: [
          { type: 'torus', majorRadius: 2, minorRadius: 0.5, noise: [noise(4, 'billow', 0.05)] },
          { type: 'capsule', a: [0, -1, 0], b: [0, 1, 0], radius: 0.3, noise: [noise(4, 'billow', 0.05)] },
        ],
      },
      {
        type: 'intersection',
        children: [
          { type: 'plane', normal: [0, 1, 0], offset: -0.5, noise: [noise(4, 'billow', 0.05)] },
          { type: 'ellipsoid', radii: [1, 2, 3] },
        ],
      },
      {
        type: 'smoothIntersection', blend: 0.2,
        children: [
          { type: 'translate', offset: [1, 0, 0], child: { type: 'sphere', radius: 1 } },
          { type: 'rotate', axis: [0, 0, 1], angleDeg: 30, child: { type: 'box', halfExtents: [1, 1, 1] } },
        ],
      },
      {
        type: 'smoothUnion', blend: 0.1,
        children: [
          { type: 'scale', factor: 2, child: { type: 'sphere', radius: 0.5 } },
          { type: 'smoothSubtraction', blend: 0.3, children: [{ type: 'sphere', radius: 1 }, { type: 'sphere', radius: 0.5 }] },
        ],
      },
      { type: 'shell', thickness: 0.1, child: { type: 'sphere', radius: 4 } },
    ],
  },
  brushes: [
    { op: 'add', center: [4, 0, 0], radius: 0.5, blend: 0 },
    { op: 'add', center: [-4, 0, 0], radius: 0.5, blend: 0.1 },
    { op: 'carve', center: [0, 3, 0], radius: 0.5, blend: 0 },
    { op: 'carve', center: [0, -3, 0], radius: 0.5, blend: 0.2 },
  ],
};

function zoo(): [string, FieldRecipe][] {
  return [
    ...EXAMPLES.map((f): [string, FieldRecipe] => [`example ${f}`, parseRecipeText(readFileSync(join(DIR, f), 'utf8'))]),
    ...PLANET_SEEDS.map((s): [string, FieldRecipe] => [`planet ${s}`, planetRecipe(s)]),
    ...asteroidSeeds().map((s): [string, FieldRecipe] => [`asteroid ${s} (${asteroidFamily(s)})`, asteroidRecipe(s)]),
    ...ASTEROID_FAMILIES.map((f): [string, FieldRecipe] => [`asteroid 11 as ${f}`, asteroidRecipe(11, { family: f })]),
    ['zoo (every node type and brush, shared modifiers)', parseRecipe(ZOO_RECIPE)],
  ];
}

const OPTIONS: [string, CompileGlslOptions][] = [
  ['plain', {}],
  ['band', { bandUniforms: true }],
  ['texture', { permutationTexture: true }],
  ['band+texture', { bandUniforms: true, permutationTexture: true }],
  ['data', { numbersAsData: true, permutationTexture: true }],
  ['gradient', { gradient: true }],
  ['data+gradient', { numbersAsData: true, permutationTexture: true, gradient: true }],
];

function sha(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Hash of everything generateFieldGlsl returns (the chunk, seeds, tables, counts, band slots). */
function resultHash(recipe: FieldRecipe, options: CompileGlslOptions): string {
  const c = compileToGlsl(recipe, options);
  const gen = generateFieldGlsl(recipe, c.gradientStepM, options);
  expect(gen.chunk).toBe(c.chunk);
  const rest = JSON.stringify({ seeds: gen.noiseSeeds, craters: gen.craterCount, nodes: gen.nodeCount, band: gen.bandSlots });
  const params = gen.params.length > 0 ? `\u0000${sha(new Uint8Array(gen.params.buffer))}` : '';
  return sha(`${gen.chunk}\u0000${rest}\u0000${sha(gen.permutation)}${params}`);
}

function actualTable(): Record<string, { recipe: string; glsl: Record<string, string> }> {
  const table: Record<string, { recipe: string; glsl: Record<string, string> }> = {};
  for (const [name, recipe] of zoo()) {
    const glsl: Record<string, string> = {};
    for (const [optName, options] of OPTIONS) glsl[optName] = resultHash(recipe, options);
    table[name] = { recipe: sha(JSON.stringify(recipe)), glsl };
  }
  return table;
}

// Made from the code before the split (GOLDEN_PRINT=1 npx vitest run --project unit test/field/glslGolden.test.ts); the
// asteroid rows (their recipes) and the data column made again when the asteroid families got three shapes (issue 16),
// every glsl column when the noise hash read its first two lookups as one (sr_permYZ), the data
// column of recipes with brushes when brushes became data (a list with room, as craters), the
// gradient columns when the compiler learnt the analytic gradient, the data column of
// recipes with a warp when a warp of amplitude 0 was skipped at run time, and the shard and
// metallic rows (their recipes) when their cuts became a smooth intersection, and the planet rows
// when planets became classes with relief in metres (issue 41; new noise kinds craters, terrace).
const EXPECTED: Record<string, { recipe: string; glsl: Record<string, string> }> = {
  'example cratered-moon.json': { recipe: '63c79277bdf3ebe9', glsl: { plain: 'bc038fe14d8b04f4', band: '18473021658ad528', texture: 'b937b33bcdacf595', 'band+texture': '96519c7899d97686', data: '0885caa2f7fd6789', gradient: '1af71fe7ab6ca0ce', 'data+gradient': '2d7b905e29112d2e' } },
  'example csg-showcase.json': { recipe: '2ba59902cac2012e', glsl: { plain: '9304a0a0d14ce339', band: '684ed40c14cde60e', texture: '30a54d990e12c6ff', 'band+texture': 'a9d26e82dbc2be15', data: '1fd03b40e3073fcf', gradient: '2cbdd9a3e5d5f1b1', 'data+gradient': 'ff57d7d89aecaf00' } },
  'example noisy-sphere.json': { recipe: '85d138123cf9859d', glsl: { plain: '97617f8baa8c52b9', band: 'e94c9d856e8902c0', texture: '02ae86757fc93d22', 'band+texture': '4dfd0557cfd4254c', data: '2f43e368afdcfad4', gradient: 'daf0caf72510e914', 'data+gradient': '247f4045b603e2de' } },
  'example potato.json': { recipe: 'd96f59484ad744d1', glsl: { plain: 'a71968009044baca', band: '15312ea7bbabda3c', texture: '26ad7e131f640a85', 'band+texture': 'bfc6ddd01e0b88f6', data: '28a3d5a4cb941c5f', gradient: '7c711838deed74c9', 'data+gradient': '37ba480df58d2580' } },
  'example small-planet.json': { recipe: '60718b2cd8b4735c', glsl: { plain: '02c8c8fe0da5287e', band: '2b9a440fc34fe003', texture: 'f4d7a00d5a0dc3d1', 'band+texture': '93d78d7ca2d6ea37', data: 'da49acfab492e746', gradient: '58f689cd7d16e036', 'data+gradient': '6c6c452054a71403' } },
  'example terraced-crater-field.json': { recipe: 'c2167665b6164695', glsl: { plain: '33b3de7781ea4de7', band: 'f3b56cf9c4104cf3', texture: 'd321db88b58c7e58', 'band+texture': '45a8d5b6a0326e33', data: 'bc50351fc2adf8fd', gradient: 'c7935652d85b66d5', 'data+gradient': 'b749ffec1c377b57' } },
  'example tiny-planet.json': { recipe: 'c661cc44ac572536', glsl: { plain: '4e025069636f5ace', band: '4432e098cc31e269', texture: '55aa6a29997fb95c', 'band+texture': '5374cdc7b78cd360', data: '22912950cff6a4a6', gradient: 'b60c27181af69f61', 'data+gradient': '51eabb9915651fdf' } },
  'example tunnelled-rock.json': { recipe: '537e56f62dfc1e6f', glsl: { plain: 'daf5ff0ecd7fe0c2', band: 'b87f123b2ee282b7', texture: 'b5e1811322d9bbea', 'band+texture': 'd56c82af5ae6a551', data: 'c7dcd319d791262e', gradient: '250fe85b391c2e1e', 'data+gradient': '1f83dd4c156f3f3e' } },
  'planet 1': { recipe: '058c83225b227b49', glsl: { plain: '53252228e6901699', band: 'b913d0d868b398bf', texture: '691793ebc78caa53', 'band+texture': '4b33e990a9f03239', data: '735a85ea965df226', gradient: '8615c2c8b61500da', 'data+gradient': '352dd3b02f8ac0ea' } },
  'planet 2': { recipe: '66fe8efa0b65cf89', glsl: { plain: '5618ea90004873b2', band: 'a8005bc443135cfb', texture: '3b6b77a84a3dcf0f', 'band+texture': '6af8c70b1ce87932', data: 'f13ecaea914564f2', gradient: '57f60e440f3c808f', 'data+gradient': 'b135b37d8db22a4c' } },
  'planet 7': { recipe: '0b6ac45b8c4ea0ec', glsl: { plain: 'acecdf186bf56cc4', band: 'b3a34976c6f55ad5', texture: 'fd53da2874f40986', 'band+texture': '546bf8f4bda204ed', data: '1c711f2a70b58558', gradient: '5c86b8a88eca9b5d', 'data+gradient': 'c62ef7b67307ce09' } },
  'planet 42': { recipe: 'fb95c19b88944409', glsl: { plain: 'b41ef6759a24ef85', band: 'ab6c18fe2029863d', texture: 'a836c3b345fcfbb6', 'band+texture': 'f6ede10570657462', data: '019633c2f7e731f6', gradient: '8aedae5f2b691372', 'data+gradient': '6d1a4d8b09393feb' } },
  'asteroid 1 (contactBinary)': { recipe: 'f00d222833b4cf66', glsl: { plain: '9f860ee7033b322c', band: 'e2333385ed2c5d05', texture: 'e0481ac61f7fca9a', 'band+texture': '2605744adaa6210f', data: '4181657e5929148c', gradient: '67b8752a3c89b4bb', 'data+gradient': 'ca3940a907697586' } },
  'asteroid 2 (metallic)': { recipe: '44610535a707cf16', glsl: { plain: '46ebaa3cc2841402', band: '1785ae9bab745d35', texture: 'b73a0884f66f9a36', 'band+texture': 'f3ef984dfb53c6c3', data: '89f110babc496838', gradient: '54580e3355484c0f', 'data+gradient': 'da250d35c2f8ec80' } },
  'asteroid 3 (contactBinary)': { recipe: '8e6b23177fdd08e9', glsl: { plain: 'a6f443762bfb520b', band: '66e8555cb78505e5', texture: '3c1c02e10b61e038', 'band+texture': '5b2f0e3279b8794b', data: '908b5ef4ca8f35df', gradient: 'f101ab7c1635fe03', 'data+gradient': 'c0fb27ad80095b43' } },
  'asteroid 4 (potato)': { recipe: '0cacb58466e153bc', glsl: { plain: 'b3e46efca0fa9ab6', band: '15bc3619085f2479', texture: '864b5a80a3e2bf83', 'band+texture': '3dfd5c8314b871bd', data: '52c5a65ed1149528', gradient: 'b81770a6b0bc8028', 'data+gradient': 'c8a7d2f78f750f8a' } },
  'asteroid 5 (cratered)': { recipe: '908c5863c810ce8a', glsl: { plain: '79c086ae5a60f955', band: '666264c28d7b030e', texture: 'edbce00675d49375', 'band+texture': '5b5f120f5927540f', data: '92d0304c74a7b8a0', gradient: 'e548da2cc124ebb8', 'data+gradient': 'dffc5dcda5f72c58' } },
  'asteroid 7 (shard)': { recipe: '6907e1fd465b77e2', glsl: { plain: '773f2b32761229d0', band: 'c4ce5676f16bc656', texture: '813580d0488b4d88', 'band+texture': '29fc8329741a1431', data: 'c00a658771824118', gradient: '78c54e6a6de20cf3', 'data+gradient': '297d7160fc96e484' } },
  'asteroid 26 (porous)': { recipe: '9032b34e5e204ccc', glsl: { plain: '2cbe9d97891f0ae3', band: '293232f36a78fa5e', texture: '08eb9ef43a28fb32', 'band+texture': 'a146c09d62168b1b', data: '75e7c8ff4458d618', gradient: '37256efb93e2250e', 'data+gradient': 'cac3797e6c138649' } },
  'asteroid 11 as potato': { recipe: '81211a5bedcaaf40', glsl: { plain: '196327b9d1c09222', band: '68a89fd0a26758f3', texture: '57b38bea03feddbe', 'band+texture': 'a71ab76b86215def', data: 'f0b418b3f32c24e0', gradient: 'ec9bd72ec47f3a50', 'data+gradient': 'fa88006b86bb47c8' } },
  'asteroid 11 as shard': { recipe: '72037f30129537f3', glsl: { plain: '89e72ed52ee1f02a', band: 'ddc3c54158f94c7e', texture: '278eb20406685699', 'band+texture': 'b9ca473caac49567', data: '469612900012ee52', gradient: 'bc7ef3bdab9e78ea', 'data+gradient': 'fba2929c406158f0' } },
  'asteroid 11 as contactBinary': { recipe: 'ee21fd0ba16fab19', glsl: { plain: 'c920787772d669a3', band: '18353c598a964f2a', texture: 'f041f136b2d2158d', 'band+texture': '19bfeef69b8cf0e7', data: 'e65e2154bbcd7bf9', gradient: '1eadfcc70011a3ae', 'data+gradient': 'dbedf5b7242fb0d7' } },
  'asteroid 11 as cratered': { recipe: '16003e8dd420e390', glsl: { plain: '7ea1b9cc78b6def5', band: '0ec730b2ff71163f', texture: 'ae268dd4b45c6ada', 'band+texture': '15d550918e7dbc93', data: '396c5a2b047002f7', gradient: '9295c93a85f2c84d', 'data+gradient': 'dd06c800d9eb0679' } },
  'asteroid 11 as metallic': { recipe: '7b53521e1226dfb3', glsl: { plain: '64a8e30ad37c94d5', band: 'f8967aee1679948a', texture: '288f553c92fce042', 'band+texture': '2d28365229e9a1a0', data: 'de96fc68e8e31add', gradient: '86e5105289ea972c', 'data+gradient': '28cf8dcd748073a4' } },
  'asteroid 11 as porous': { recipe: 'f2bbb6f729790792', glsl: { plain: 'fb03b8eedb1bb693', band: '7340aa9c50e91c56', texture: 'f1b1854d1812ec0d', 'band+texture': '1b4bd830c8b4d265', data: '263459be207cf1b3', gradient: '350c0b032a4d60e9', 'data+gradient': 'd9504ba38178f82e' } },
  'zoo (every node type and brush, shared modifiers)': { recipe: '113077953d275b36', glsl: { plain: '313dc43bb07f64ac', band: '0a0cc4c1c9ce713f', texture: '026d24f4fc8f0ff2', 'band+texture': '1ba11dfc414149b7', data: '353f14be13b6f87e', gradient: 'ce16533539dfef3f', 'data+gradient': '4fc7cb17f3c9b40f' } },
};

describe('generated GLSL is byte-identical to the golden table', () => {
  it('the zoo covers every node type, noise kind and asteroid family', () => {
    const types = new Set<string>();
    const kinds = new Set<string>();
    const visit = (n: FieldNode): void => {
      types.add(n.type);
      for (const l of n.noise ?? []) kinds.add(l.kind);
      if ('children' in n) n.children.forEach(visit);
      if ('child' in n) visit(n.child);
    };
    for (const [, recipe] of zoo()) visit(recipe.root);
    expect([...types].sort()).toEqual([...NODE_TYPES].sort());
    expect([...kinds].sort()).toEqual([...NOISE_KINDS].sort());
    expect(new Set(asteroidSeeds().map(asteroidFamily))).toEqual(new Set(ASTEROID_FAMILIES));
  });

  it('the zoo exercises shared modifier groups, band slots and brushes', () => {
    const gen = generateFieldGlsl(parseRecipe(ZOO_RECIPE), 0.01, { bandUniforms: true });
    expect(gen.chunk).toContain('sr_m0_update(p);');
    expect(gen.chunk).toContain('sr_m1_update(p);');
    expect(gen.chunk).not.toContain('sr_m2_update(p);');
    expect(gen.bandSlots.some((s) => s.kind === 'shell')).toBe(true);
    expect(gen.chunk).toMatch(/d = sr_smax\(d, -\(length/);
  });

  it('every recipe × option hashes as in the table', () => {
    const actual = actualTable();
    if (process.env.GOLDEN_PRINT) console.log(JSON.stringify(actual, null, 2));
    expect(Object.keys(EXPECTED).length).toBeGreaterThanOrEqual(20);
    expect(actual).toEqual(EXPECTED);
  });
});
