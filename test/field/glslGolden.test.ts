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
// asteroid rows (their recipes) and the data column made again when the asteroid families got three shapes (issue 16).
const EXPECTED: Record<string, { recipe: string; glsl: Record<string, string> }> = {
  'example cratered-moon.json': { recipe: '63c79277bdf3ebe9', glsl: { plain: '0b98860838d50503', band: 'da9a27079651ea78', texture: '71fb83d6429b37bf', 'band+texture': '1097f8b72f11492d', data: 'db224684e4998738' } },
  'example csg-showcase.json': { recipe: '2ba59902cac2012e', glsl: { plain: '8f55ff5ad873e47e', band: 'fdd24aeb0ef045d1', texture: '000e9eb1a2a8996a', 'band+texture': '0a9b5d7f1d45c963', data: 'b578a70a779cf40c' } },
  'example noisy-sphere.json': { recipe: '85d138123cf9859d', glsl: { plain: '3be068410bd1e5d9', band: 'c6bcbf130f574660', texture: '3ab30fbd03c36818', 'band+texture': 'c8bfb877ff556cbe', data: 'a4ca06060e87447f' } },
  'example potato.json': { recipe: 'd96f59484ad744d1', glsl: { plain: '8e0f29bb795c7b0c', band: 'e23af07e59b1352c', texture: '35e8bace49bd466e', 'band+texture': '70d49ef245761bb5', data: '799109f11577d1e7' } },
  'example small-planet.json': { recipe: '60718b2cd8b4735c', glsl: { plain: '8a35817f1cded09e', band: 'a3fcab937abdf601', texture: '44d2b057ced811d3', 'band+texture': '606179167c153f2a', data: 'd16d634d1b54a8c6' } },
  'example tiny-planet.json': { recipe: 'c661cc44ac572536', glsl: { plain: '5a4810626fb6d4df', band: '77b56441a87fdad8', texture: '3f271e22b5259a54', 'band+texture': 'abd90d5a3cb8f603', data: '983dad205e029836' } },
  'example tunnelled-rock.json': { recipe: '537e56f62dfc1e6f', glsl: { plain: 'bfb51d2229b1bb65', band: '6a7ec0340dc80786', texture: '3cfbb05fd584ba8b', 'band+texture': '0853748e2c436065', data: 'f1b44deea0709a7e' } },
  'planet 1': { recipe: 'a913b7d73d43cc7c', glsl: { plain: '26d2b6c90f63395e', band: '893f49ffa1be9616', texture: '04beccb828e2e896', 'band+texture': 'f2f5c110a516f66f', data: '1f0550b2401061c6' } },
  'planet 2': { recipe: '3d44dcc05870a5da', glsl: { plain: '2f4e402ef0d4acc4', band: 'e1c1939a7fd0b90e', texture: '26c307a1a770579b', 'band+texture': '3f13d319ac9fbde1', data: '11dbe1b663df7098' } },
  'planet 7': { recipe: 'eac16821a6f544df', glsl: { plain: 'df0f32d8494ba47e', band: '8e84d6c6da664828', texture: 'ea2d18993ef287c4', 'band+texture': '84e9c1874f119ddd', data: 'b76e6b0539052099' } },
  'planet 42': { recipe: 'd95ad746ab6818da', glsl: { plain: '575e8d912148f8c3', band: '83021a84b6c4c1a3', texture: '749f91ba99874490', 'band+texture': '63a862b6299e5a61', data: '8b52bc68f56b2926' } },
  'asteroid 1 (contactBinary)': { recipe: 'f00d222833b4cf66', glsl: { plain: '1ba86bda2a2bf195', band: 'eb6f8f87c7ba7a50', texture: '8084a379e35612a9', 'band+texture': '427ee83de8b18961', data: '4d25bd6351ce5562' } },
  'asteroid 2 (metallic)': { recipe: 'e22a81c1144f1af0', glsl: { plain: 'f9b4da81aafc73dc', band: 'ee42aeda270ba9e1', texture: '44199c0f7de0367f', 'band+texture': '8670be8e0acceede', data: '8dbd9c86a61b3bb6' } },
  'asteroid 3 (contactBinary)': { recipe: '8e6b23177fdd08e9', glsl: { plain: '0971f337c1b17e96', band: 'd562770f66f5150e', texture: '0af870bf1f682c8a', 'band+texture': '18166e2f6be3757f', data: '97c1aaa72acc957e' } },
  'asteroid 4 (potato)': { recipe: '0cacb58466e153bc', glsl: { plain: '353b764e5877b3d2', band: 'a86862a0298ad961', texture: 'e81f2c00ed6ecf8c', 'band+texture': 'f4e5fe3f63f4667a', data: '2b414a4ed959c840' } },
  'asteroid 5 (cratered)': { recipe: '908c5863c810ce8a', glsl: { plain: '26b1db70f6b81590', band: '63add8ffe223ccc3', texture: '20ee51f1781afbb6', 'band+texture': '7c2cbc51d0265a3b', data: 'ed6fed702ddd6751' } },
  'asteroid 7 (shard)': { recipe: 'ebbd500dae799c0d', glsl: { plain: '15d71e84b1d57c38', band: 'd83c3b3e712dd620', texture: '11d55bd0942c4232', 'band+texture': 'b84816b4f26cc787', data: '2364c1e25d22fc53' } },
  'asteroid 26 (porous)': { recipe: '9032b34e5e204ccc', glsl: { plain: '9248b656a1a9a8e1', band: '990cc44937d04f2b', texture: '65292bc07d39243c', 'band+texture': '52c354e3d12e10e2', data: '74080c69873902d8' } },
  'asteroid 11 as potato': { recipe: '81211a5bedcaaf40', glsl: { plain: '41e92548493314f2', band: '64235de504a4647f', texture: '0b426a6f7de7ccd7', 'band+texture': '8bf233d6901b67e3', data: '670201c8c3a5f7be' } },
  'asteroid 11 as shard': { recipe: '368d96fe56d2a9d5', glsl: { plain: 'f5ad317de42d6cd5', band: 'f5bf0b4698331acf', texture: 'a04af8fd8e4dd978', 'band+texture': '5f6f97b393b91ad2', data: 'd44acf204b225614' } },
  'asteroid 11 as contactBinary': { recipe: 'ee21fd0ba16fab19', glsl: { plain: 'b6ccb833d26e8296', band: 'aaeff07090d76391', texture: '3210d3ebead4f76e', 'band+texture': 'eb830ef195d3cf40', data: 'fd3b2772f553060d' } },
  'asteroid 11 as cratered': { recipe: '16003e8dd420e390', glsl: { plain: '685de4d1b859d045', band: 'c72468362dfad88a', texture: 'd7bf426da198e0a0', 'band+texture': 'bba816cd0ef9c928', data: '62e60f435b6d013f' } },
  'asteroid 11 as metallic': { recipe: '81721049a9ffe385', glsl: { plain: '9449f774acedc9c1', band: '05e03e8296b2e987', texture: 'da079fd47d835a43', 'band+texture': '0c875e21a21b01c0', data: 'f32feadb9b982a6b' } },
  'asteroid 11 as porous': { recipe: 'f2bbb6f729790792', glsl: { plain: 'fe4abe8a3587ff1c', band: 'fdf612adf1f23896', texture: '695e9a439812a48f', 'band+texture': '2c36b17167a87bd7', data: '35b36afb07638b93' } },
  'zoo (every node type and brush, shared modifiers)': { recipe: '113077953d275b36', glsl: { plain: 'fffc6215141857a0', band: 'b6f49a76e4078bcc', texture: '870b4aef8df7cd0d', 'band+texture': 'c38a83be626b2f2d', data: '965ffe8e5d26011e' } },
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
