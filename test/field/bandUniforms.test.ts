/**
 * One GLSL program for every band limit (src/field/glslCodegen.ts `bandUniforms`, `sr_band`):
 * the default text is unchanged, the slots are declared and described, and bandSlotValues drops
 * what bandLimitSummary (and so compileToJs's `minWavelengthM`) drops. Values on a GPU:
 * test/browser/fieldBandParity.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  bandLimitSummary,
  bandSlotValues,
  compileToGlsl,
  compileToJs,
  generateFieldGlsl,
  glslFloat,
  parseRecipe,
  recipeBounds,
  RecipeError,
  type BandSlot,
  type FieldNode,
  type FieldRecipe,
} from '../../src/field/glsl';
import { planetRecipe } from '../../src/scene/index';

/** Caves under a noisy ground: a kept shell, a thin shell nested in it, warps, a shell with its own noise. */
const SHELLS: FieldRecipe = parseRecipe({
  version: 1,
  name: 'shells',
  root: {
    type: 'smoothSubtraction', blend: 4, children: [
      { type: 'sphere', radius: 1000, noise: [{ kind: 'fbm', seed: 1, frequency: 1 / 300, octaves: 6, amplitude: 40 }] },
      {
        type: 'shell', thickness: 30,
        noise: [{ kind: 'billow', seed: 2, frequency: 1 / 40, octaves: 4, amplitude: -5 }],
        child: {
          type: 'union', children: [
            { type: 'sphere', radius: 900, warp: { seed: 3, frequency: 1 / 200, octaves: 4, amplitude: 20 } },
            { type: 'shell', thickness: 2, child: { type: 'sphere', radius: 800, noise: [{ kind: 'ridged', seed: 4, frequency: 1 / 50, octaves: 5, amplitude: 6 }] } },
          ],
        },
      },
    ],
  },
});

const RECIPES: [string, FieldRecipe][] = [['planetRecipe(4, karst)', planetRecipe(4, 'karst')], ['shells', SHELLS]];
const LIMITS_M = [0, 0.5, 2, 5, 16, 64, 100, 500, 2048, 65536, 1e7];

/** Every identifier the field compiler may emit (as in compileGlsl.test.ts, plus `uniform`). */
const ALLOWED_WORDS = new Set([
  'float', 'vec2', 'vec3', 'int', 'uint', 'bool', 'void', 'true', 'false', 'const', 'return', 'if', 'else', 'for', 'continue', 'define', 'include', 'uniform',
  'length', 'abs', 'max', 'min', 'dot', 'clamp', 'sqrt', 'p', 'q', 'd', 'h', 'n', 'k', 'k0', 'k1', 'pa', 'ba', 'len',
  'raised', 'lowered', 'dd', 'x2', 't', 'u', 'i', 'word', 'table', 'x', 'y', 'z', 'xz',
]);

function expectOnlyCompilerText(chunk: string): void {
  const code = chunk
    .replace(/\/\/.*$/gm, '')
    .replace(/(?<![A-Za-z0-9_.])[0-9]+\.[0-9]+(e[+-][0-9]+)?(?![A-Za-z0-9_.])/g, ' ')
    .replace(/(?<![A-Za-z0-9_.])[0-9]+u?(?![A-Za-z0-9_.])/g, ' ');
  for (const word of code.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) {
    if (/^(sr|SR)_[A-Za-z0-9_]+$/.test(word)) continue;
    expect(ALLOWED_WORDS.has(word), `unexpected identifier "${word}" in generated GLSL`).toBe(true);
  }
  expect(code.replace(/[A-Za-z_][A-Za-z0-9_]*/g, ' ')).not.toMatch(/[0-9]/);
  expect(chunk).not.toMatch(/["'\\`]/);
  for (const line of chunk.split('\n')) {
    if (line.startsWith('#')) expect(line).toMatch(/^#(define SR_FIELD_GRADIENT_STEP [0-9.e+-]+|include <sr_noise>)$/);
  }
}

function children(node: FieldNode): FieldNode[] {
  return 'children' in node ? node.children : 'child' in node ? [node.child] : [];
}

/**
 * bandLimitSummary's signature rebuilt from the slot values, walking the tree in the codegen's slot
 * order (pre-order: a node's shell, its noise layers, its warp, then its children).
 */
function signatureFromSlots(recipe: FieldRecipe, values: Int32Array): { signature: string; cursor: number } {
  const parts: string[] = [];
  let c = 0;
  const visit = (node: FieldNode, gone: boolean): void => {
    if (node.type === 'shell' && values[c++] === 0) {
      parts.push('shell-');
      gone = true;
    }
    for (let i = 0; i < (node.noise ?? []).length; i++) {
      const v = values[c++];
      if (!gone) parts.push(String(v));
    }
    if (node.warp && node.warp.amplitude > 0) {
      const v = values[c++];
      if (!gone) parts.push(String(v));
    }
    for (const child of children(node)) visit(child, gone);
  };
  visit(recipe.root, false);
  return { signature: parts.join(','), cursor: c };
}

function droppedOctaves(slots: readonly BandSlot[], values: Int32Array): number {
  return slots.reduce((s, slot, i) => s + (slot.kind === 'octaves' ? slot.octaves - values[i] : 0), 0);
}

describe('band uniforms (one GLSL program for every band limit)', () => {
  for (const [name, recipe] of RECIPES) {
    it(`${name}: the default output is unchanged and has no uniform`, () => {
      const plain = generateFieldGlsl(recipe, 0.01);
      expect(generateFieldGlsl(recipe, 0.01, { bandUniforms: false }).chunk).toBe(plain.chunk);
      expect(plain.bandSlots).toEqual([]);
      expect(plain.chunk).not.toMatch(/sr_band|sr_fractalBand|uniform/);
      const compiled = compileToGlsl(recipe);
      expect(compiled.chunk).toBe(generateFieldGlsl(recipe, compiled.gradientStepM).chunk);
      expect(compiled.bandSlots).toEqual([]);
    });

    it(`${name}: declares uniform int sr_band[K], K = bandSlots.length, and uses every slot`, () => {
      const gen = generateFieldGlsl(recipe, 0.01, { bandUniforms: true });
      const K = gen.bandSlots.length;
      expect(K).toBeGreaterThan(0);
      expect(gen.chunk.match(/^uniform int sr_band\[([0-9]+)\];$/gm)).toEqual([`uniform int sr_band[${K}];`]);
      const used = new Set([...gen.chunk.matchAll(/sr_band\[([0-9]+)\](?!;)/g)].map((m) => Number(m[1])));
      // A slot is read, or it belongs to a node that shares its modifiers with an earlier one
      // (glslCodegen.ts), which reads a slot of the same band.
      const same = (a: BandSlot, b: BandSlot): boolean => JSON.stringify(a) === JSON.stringify(b);
      for (let k = 0; k < K; k++) {
        if (used.has(k)) continue;
        expect(gen.bandSlots[k].kind, `slot ${k} is never read`).toBe('octaves');
        expect([...used].some((u) => u < k && same(gen.bandSlots[u], gen.bandSlots[k])), `slot ${k} is never read`).toBe(true);
      }
      // Every fractal is band-limited, every shell can be dropped.
      expect(gen.chunk).not.toMatch(/sr_fractal\(/);
      expect(gen.chunk.match(/if \(sr_band\[[0-9]+\] == 0\) return 1\.00000000e\+30;/g)?.length)
        .toBe(gen.bandSlots.filter((s) => s.kind === 'shell').length);
      // Same tables, craters and nodes as the default compile.
      const plain = generateFieldGlsl(recipe, 0.01);
      expect(gen.noiseSeeds).toEqual(plain.noiseSeeds);
      expect(gen.permutation).toEqual(plain.permutation);
      expect(gen.nodeCount).toBe(plain.nodeCount);
      expect(compileToGlsl(recipe, { bandUniforms: true }).bandSlots).toEqual(gen.bandSlots);
    });

    it(`${name}: generated band code holds only compiler text`, () => {
      expectOnlyCompilerText(generateFieldGlsl(recipe, 0.01, { bandUniforms: true }).chunk);
    });

    it(`${name}: at limit 0 every octave and shell is used`, () => {
      const { bandSlots } = generateFieldGlsl(recipe, 0.01, { bandUniforms: true });
      expect([...bandSlotValues(bandSlots, 0)]).toEqual(bandSlots.map((s) => (s.kind === 'shell' ? 1 : s.octaves)));
    });

    it(`${name}: drops what bandLimitSummary drops, at limits ${LIMITS_M.join(', ')} m`, () => {
      const { bandSlots } = generateFieldGlsl(recipe, 0.01, { bandUniforms: true });
      const L = recipeBounds(recipe).lipschitz;
      const signatures = new Set<string>();
      for (const minWavelengthM of LIMITS_M) {
        const values = bandSlotValues(bandSlots, minWavelengthM);
        const summary = bandLimitSummary(recipe, minWavelengthM, L);
        const rebuilt = signatureFromSlots(recipe, values);
        expect(rebuilt.cursor).toBe(bandSlots.length);
        expect(rebuilt.signature, `limit ${minWavelengthM} m`).toBe(summary.signature);
        expect(values.some((v, i) => bandSlots[i].kind === 'shell' && v === 0)).toBe(summary.shellsDropped);
        // Nothing dropped outside a dropped shell ⇔ summary unchanged.
        expect(droppedOctaves(bandSlots, values) > 0 || summary.shellsDropped).toBe(summary.changed);
        signatures.add(summary.signature);
      }
      expect(signatures.size).toBeGreaterThanOrEqual(4);
    });
  }

  it('bandSlotValues writes into `out` and refuses a short one', () => {
    const slots: BandSlot[] = [
      { kind: 'octaves', frequency: 1 / 1000, octaves: 6, lacunarity: 2 },
      { kind: 'shell', thickness: 10 },
    ];
    const out = new Int32Array(3).fill(-7);
    expect(bandSlotValues(slots, 250, out)).toBe(out);
    expect([...out]).toEqual([3, 0, -7]); // 1000, 500, 250 m kept; 10 m < 250 m
    expect([...bandSlotValues(slots, 10)]).toEqual([6, 1]); // 10 m = 10 m: kept
    expect([...bandSlotValues(slots, 10.5)]).toEqual([6, 0]); // thinner than two 5.25 m cells: dropped
    expect(() => bandSlotValues(slots, 0, new Int32Array(1))).toThrow(RangeError);
  });

  it('a recipe without noise or shells still declares a valid sr_band[1]', () => {
    const gen = generateFieldGlsl(parseRecipe({ version: 1, root: { type: 'sphere', radius: 1 } }), 0.01, { bandUniforms: true });
    expect(gen.bandSlots).toEqual([]);
    expect(gen.chunk).toMatch(/^uniform int sr_band\[1\];$/m);
    expect(bandSlotValues(gen.bandSlots, 100).length).toBe(0);
  });

  it('a dropped shell is compileJs.ts DROPPED_SHELL (1e30) in both back ends', () => {
    const recipe = parseRecipe({ version: 1, root: { type: 'shell', thickness: 1, child: { type: 'sphere', radius: 10 } } });
    expect(compileToJs(recipe, { minWavelengthM: 100 })(3, 4, 5)).toBe(1e30);
    expect(generateFieldGlsl(recipe, 0.01, { bandUniforms: true }).chunk).toContain(`return ${glslFloat(1e30)};`);
  });

  it('hostile recipes are still refused with bandUniforms', () => {
    const bad = { version: 1, root: { type: 'shell', thickness: '1); }', child: { type: 'sphere', radius: 1 } } };
    expect(() => compileToGlsl(bad, { bandUniforms: true })).toThrow(RecipeError);
  });
});

describe('permutation tables as a texture (planet grid passes)', () => {
  it('reads sr_perm from the sr_permutation texture instead of a constant array; the tables are the same bytes', async () => {
    const { generateFieldGlsl } = await import('../../src/field/glslCodegen');
    const { planetRecipe } = await import('../../src/scene/planets');
    const r = planetRecipe(4);
    const plain = generateFieldGlsl(r, 1);
    const textured = generateFieldGlsl(r, 1, { permutationTexture: true, bandUniforms: true });
    expect(plain.chunk).toContain('const uint SR_PERM[');
    expect(textured.chunk).not.toContain('SR_PERM');
    expect(textured.chunk).toContain('uniform highp usampler2DArray sr_permutation;');
    expect(textured.chunk).toContain('texelFetch(sr_permutation, ivec3(y & 255, z & 255, sr_permLayer(table)), 0)');
    expect(Array.from(textured.permutation)).toEqual(Array.from(plain.permutation));
    expect(textured.permutation.length).toBe(256 * textured.noiseSeeds.length);
  });
});
