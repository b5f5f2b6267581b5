import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileToJs, NODE_TYPES, NOISE_KINDS, parseRecipeText, recipeBounds } from '../../src/field/index';

const DIR = resolve(import.meta.dirname, '../../assets/recipes');
const examples = readdirSync(DIR).filter((f) => f.endsWith('.json') && f !== 'schema.json').sort();

describe('assets/recipes examples', () => {
  it('there are examples', () => expect(examples.length).toBeGreaterThanOrEqual(5));

  for (const file of examples) {
    it(`${file} parses, is bounded and has both signs`, () => {
      const recipe = parseRecipeText(readFileSync(join(DIR, file), 'utf8'));
      const b = recipeBounds(recipe);
      expect(Number.isFinite(b.sphereRadiusM)).toBe(true);
      const f = compileToJs(recipe);
      let min = Infinity;
      for (let i = 0; i < 11 ** 3; i++) {
        const t = [i % 11, Math.floor(i / 11) % 11, Math.floor(i / 121)].map((k) => k / 10);
        min = Math.min(min, f(b.boxMin[0] + t[0] * (b.boxMax[0] - b.boxMin[0]), b.boxMin[1] + t[1] * (b.boxMax[1] - b.boxMin[1]), b.boxMin[2] + t[2] * (b.boxMax[2] - b.boxMin[2])));
      }
      expect(min).toBeLessThan(0);
      expect(f(b.boxMax[0] * 1.01 + 1, 0, 0)).toBeGreaterThan(0);
    });
  }

  it('schema.json lists exactly the node types and noise kinds parseRecipe knows', () => {
    const schema = JSON.parse(readFileSync(join(DIR, 'schema.json'), 'utf8'));
    const refs = (schema.$defs.node.oneOf as { $ref: string }[]).map((r) => r.$ref.replace('#/$defs/', ''));
    expect(refs.sort()).toEqual([...NODE_TYPES].sort());
    expect(schema.$defs.noiseLayer.properties.kind.enum.sort()).toEqual([...NOISE_KINDS].sort());
  });
});
