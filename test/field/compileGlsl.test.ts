import { describe, expect, it } from 'vitest';
import { compileToGlsl, FIELD_TEMPLATES, glslFloat, glslInt, GlslCodegenError, RecipeError, spliceField } from '../../src/field/glsl';
import { asteroidRecipe, planetRecipe, ASTEROID_FAMILIES } from '../../src/scene/index';

const FLOAT_LITERAL = /^\(?-?[0-9]+\.[0-9]+(e[+-][0-9]+)?\)?$/;

/** Every identifier the field compiler may emit: GLSL words, its own locals, sr_/SR_ names. */
const ALLOWED_WORDS = new Set([
  'float', 'vec2', 'vec3', 'int', 'uint', 'bool', 'void', 'true', 'false', 'const', 'return', 'if', 'else', 'for', 'continue', 'define', 'include',
  'length', 'abs', 'max', 'min', 'dot', 'clamp', 'sqrt', 'p', 'q', 'd', 'h', 'n', 'k', 'k0', 'k1', 'pa', 'ba', 'len',
  'raised', 'lowered', 'dd', 'x2', 't', 'u', 'i', 'word', 'table', 'x', 'y', 'z', 'xz',
]);

function expectOnlyCompilerText(chunk: string): void {
  // Take out the compiler's number literals first (floats as glslFloat writes them, ints,
  // uints), then every word left must be GLSL, a local of the compiler or an sr_/SR_ name,
  // and no digit may remain outside those words.
  const code = chunk
    .replace(/\/\/.*$/gm, '')
    .replace(/(?<![A-Za-z0-9_.])[0-9]+\.[0-9]+(e[+-][0-9]+)?(?![A-Za-z0-9_.])/g, ' ')
    .replace(/(?<![A-Za-z0-9_.])[0-9]+u?(?![A-Za-z0-9_.])/g, ' ');
  for (const word of code.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) {
    if (/^(sr|SR)_[A-Za-z0-9_]+$/.test(word)) continue;
    expect(ALLOWED_WORDS.has(word), `unexpected identifier "${word}" in generated GLSL`).toBe(true);
  }
  expect(code.replace(/[A-Za-z_][A-Za-z0-9_]*/g, ' ')).not.toMatch(/[0-9]/);
  // No quotes, backslashes or preprocessor lines other than ours.
  expect(chunk).not.toMatch(/["'\\`]/);
  for (const line of chunk.split('\n')) {
    if (line.startsWith('#')) expect(line).toMatch(/^#(define SR_FIELD_GRADIENT_STEP [0-9.e+-]+|include <sr_noise>)$/);
  }
}

describe('number formatting', () => {
  it('formats finite numbers as float literals', () => {
    expect(glslFloat(1)).toBe('1.00000000');
    expect(glslFloat(-0.5)).toBe('(-0.500000000)');
    expect(glslFloat(-0)).toBe('0.00000000');
    expect(glslFloat(1e21)).toMatch(FLOAT_LITERAL);
    expect(glslFloat(1.5e-30)).toMatch(FLOAT_LITERAL);
    expect(glslInt(-3)).toBe('(-3)');
  });
  it('refuses anything else', () => {
    for (const bad of [NaN, Infinity, -Infinity, 1e39, '1' as unknown as number, {} as unknown as number]) {
      expect(() => glslFloat(bad)).toThrow(GlslCodegenError);
    }
    expect(() => glslInt(1.5)).toThrow(GlslCodegenError);
    expect(() => glslInt(2 ** 31)).toThrow(GlslCodegenError);
  });
});

describe('injection: hostile recipes never reach GLSL', () => {
  const hostile: [string, unknown][] = [
    ['shape type with code', { type: 'sphere;}void main(){', radius: 1 }],
    ['type with newline', { type: 'sphere\n#define x', radius: 1 }],
    ['number as string', { type: 'sphere', radius: '1.0); discard; (1' }],
    ['noise kind with code', { type: 'sphere', radius: 1, noise: { kind: 'fbm)+x(', seed: 1, frequency: 1, octaves: 2, amplitude: 1 } }],
    ['octaves as string', { type: 'sphere', radius: 1, noise: { kind: 'fbm', seed: 1, frequency: 1, octaves: '2; i < 99', amplitude: 1 } }],
    ['seed as expression', { type: 'sphere', radius: 1, noise: { kind: 'fbm', seed: '1+1', frequency: 1, octaves: 2, amplitude: 1 } }],
    ['extra key carrying code', { type: 'sphere', radius: 1, glsl: 'void main(){}' }],
    ['vector with string', { type: 'box', halfExtents: [1, '2*gl_FragCoord.x', 1] }],
    ['brush op with code', null],
  ];
  for (const [name, root] of hostile) {
    it(`rejects ${name} (parseRecipe and compileToGlsl both throw RecipeError)`, () => {
      const recipe = root === null
        ? { version: 1, root: { type: 'sphere', radius: 1 }, brushes: [{ op: 'add;}', center: [0, 0, 0], radius: 1 }] }
        : { version: 1, root };
      expect(() => compileToGlsl(recipe)).toThrow(RecipeError);
    });
  }

  it('rejects a hostile name (names never reach code anyway)', () => {
    expect(() => compileToGlsl({ version: 1, name: 'x\n#version 100', root: { type: 'sphere', radius: 1 } })).toThrow(RecipeError);
  });

  it('a recipe object mutated after parsing is validated again', () => {
    const recipe = asteroidRecipe(3);
    (recipe.root as unknown as { type: string }).type = 'sphere}';
    expect(() => compileToGlsl(recipe)).toThrow(RecipeError);
  });

  const recipes = [
    ...ASTEROID_FAMILIES.map((family) => asteroidRecipe(11, { family })),
    planetRecipe(5),
    {
      version: 1,
      root: {
        type: 'smoothSubtraction', blend: 0.5, children: [
          { type: 'union', children: [{ type: 'torus', majorRadius: 3, minorRadius: 1 }, { type: 'capsule', a: [0, -1e-20, 0], b: [0, 4, 0], radius: 1 }] },
          { type: 'scale', factor: 2, child: { type: 'shell', thickness: 0.1, child: { type: 'roundBox', halfExtents: [1, 1, 1], radius: 0.2 } } },
        ],
      },
      brushes: [{ op: 'carve', center: [-1e9, 0, 1e-9], radius: 1, blend: 0.1 }],
    },
  ];
  recipes.forEach((recipe, i) => {
    it(`generated code holds only compiler text (recipe ${i}: ${(recipe as { name?: string }).name ?? 'all node types'})`, () => {
      const compiled = compileToGlsl(recipe);
      expectOnlyCompilerText(compiled.chunk);
      expect(compiled.source).toContain('float sr_field(vec3 p)');
      expect(compiled.source).toContain('vec3 sr_fieldGradient(vec3 p)');
      expect(compiled.source).not.toContain('#include');
    });
  });
});

describe('splicing into templates', () => {
  it('expands the slot and the noise chunk, keeping #version first', () => {
    const compiled = compileToGlsl(asteroidRecipe(1));
    const frag = spliceField(FIELD_TEMPLATES.pointsFrag, compiled);
    expect(frag.startsWith('#version 300 es')).toBe(true);
    expect(frag).toContain('float sr_simplex3(vec3 v, int table)');
    expect(frag).toContain('float sr_field(vec3 p)');
    expect(frag).not.toMatch(/^\s*#include/m);
    expect(frag).toMatch(/^#line /m);
  });
  it('throws on a template without the slot', () => {
    expect(() => spliceField('#version 300 es\nvoid main() {}', compileToGlsl(asteroidRecipe(1)))).toThrow(/slot/);
  });
  it('nodes with the same modifiers share them: the planet cave shell evaluates the terrain noise once', () => {
    // A volcanic planet: terrain, arch band and lava tubes share the terrain's warp, craters and layers.
    const compiled = compileToGlsl(planetRecipe(4, 'volcanic'));
    expect(compiled.source.match(/void sr_m[0-9]+_update\(vec3 p\)/g)).toHaveLength(1);
    expect(compiled.source.match(/const vec3 SR_CRATER_DIR_/g)).toHaveLength(1);
    // Three warp fractals and six terrain layers, once; plus the two shells' own two layers each.
    expect(compiled.chunk.match(/sr_fractal\(SR_NOISE/g)).toHaveLength(13);
    expect(compiled.chunk.match(/sr_fractal\(SR_NOISE_FBM, u \+/g)).toHaveLength(3);
  });
  it('same seed → identical GLSL', () => {
    expect(compileToGlsl(planetRecipe(9)).source).toBe(compileToGlsl(planetRecipe(9)).source);
  });
  it('bakes one permutation table per distinct seed', () => {
    const compiled = compileToGlsl(asteroidRecipe(2, { family: 'potato' }));
    expect(compiled.permutation.length).toBe(256 * compiled.noiseSeeds.length);
    expect(compiled.source).toContain(`const uint SR_PERM[${64 * compiled.noiseSeeds.length}]`);
  });
});
