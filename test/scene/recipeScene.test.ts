import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recipeBounds } from '../../src/field/bounds';
import { compileToJs, parseRecipeText } from '../../src/field/index';
import { recipeKey, recipeSceneSpec, sceneSpec } from '../../src/scene/index';

const DIR = resolve(import.meta.dirname, '../../assets/recipes');
const SHIPPED = readdirSync(DIR).filter((f) => f.endsWith('.json') && f !== 'schema.json');

describe('an imported recipe as a scene (issue 45)', () => {
  it('every shipped recipe becomes asteroid mode’s one body: its own id, framed outside it, the field negative at its centre', () => {
    expect(SHIPPED.length).toBeGreaterThanOrEqual(8);
    const ids = new Set<string>();
    for (const file of SHIPPED) {
      const recipe = parseRecipeText(readFileSync(join(DIR, file), 'utf8'));
      const spec = recipeSceneSpec(recipe, 7);
      const body = spec.asteroids!.asteroids[0];
      expect(spec.kind).toBe('asteroid');
      expect(spec.planet).toBeNull();
      expect(spec.asteroids!.asteroids).toHaveLength(1);
      expect(body.recipe).toBe(recipe);
      expect(body.id).toMatch(/^import:[0-9a-z]+$/);
      ids.add(body.id);
      expect(body.radiusM).toBeCloseTo(recipeBounds(recipe).sphereRadiusM, 9);
      const cam = spec.camera.position;
      expect(Math.hypot(...cam)).toBeGreaterThan(3 * body.radiusM);
      const field = compileToJs(recipe);
      const c = body.bodyCenterM;
      expect(field(c[0], c[1], c[2]), file).toBeLessThan(0.5 * body.radiusM + 1);
    }
    expect(ids.size).toBe(SHIPPED.length);
  });

  it('the key is a content key: the same recipe, the same key; a generated asteroid’s id never matches', () => {
    const recipe = parseRecipeText(readFileSync(join(DIR, 'potato.json'), 'utf8'));
    expect(recipeKey(recipe)).toBe(recipeKey(JSON.parse(JSON.stringify(recipe))));
    expect(recipeKey(recipe)).toMatch(/^[0-9a-z]{2,14}$/);
    expect(recipeKey({ ...recipe, brushes: [...recipe.brushes, { op: 'carve' as const, center: [0, 0, 0] as [number, number, number], radius: 5, blend: 1 }] })).not.toBe(recipeKey(recipe));
    const seeded = sceneSpec(7, 'asteroid');
    expect(recipeSceneSpec(seeded.asteroids!.asteroids[0].recipe, 7).asteroids!.asteroids[0].id).not.toBe(seeded.asteroids!.asteroids[0].id);
  });
});
