/**
 * compileToJs shares the modifier evaluation between nodes with structurally identical modifiers
 * evaluated at the same point (the planet's cave shell follows the terrain with the terrain's own
 * warp, noise and craters). The values must be bitwise those of the plain closure chain
 * (`reference: true`), for every recipe, at random points and at repeated points.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileToJs, Prng, recipeBounds, type FieldNode, type FieldRecipe } from '../../src/field/index';
import { ASTEROID_FAMILIES, asteroidRecipe, planetRecipe } from '../../src/scene/index';

const RECIPES_DIR = join(import.meta.dirname, '../../assets/recipes');

/** Points in and around the recipe's bounds, near its surface radius, and a few repeats and zeros. */
function points(recipe: FieldRecipe, seed: number, n: number): number[] {
  const b = recipeBounds(recipe);
  const r = new Prng(seed);
  const out: number[] = [];
  const c = b.sphereCenter, R = b.sphereRadiusM;
  const dir = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    r.unitVector(dir);
    // Mostly within a few percent of the bounding radius (the surface band), some anywhere.
    const rad = i % 4 === 0 ? r.range(0, 1.2) * R : R * r.range(0.9, 1.02);
    out.push(c[0] + dir[0] * rad, c[1] + dir[1] * rad, c[2] + dir[2] * rad);
  }
  out.push(0, 0, 0, -0, 0, -0, 0, 0, 0, 1, 2, 3, 1, 2, 3);
  return out;
}

function expectSame(recipe: FieldRecipe, seed: number, n = 600): void {
  const plain = compileToJs(recipe, { reference: true });
  const shared = compileToJs(recipe);
  const pts = points(recipe, seed, n);
  let bad = 0;
  for (let i = 0; i < pts.length; i += 3) {
    const a = plain(pts[i], pts[i + 1], pts[i + 2]);
    const b = shared(pts[i], pts[i + 1], pts[i + 2]);
    // Twice at the same point: a memo hit must give the same value again.
    const b2 = shared(pts[i], pts[i + 1], pts[i + 2]);
    if (!Object.is(a, b) || !Object.is(a, b2)) bad++;
  }
  expect(bad, `${recipe.name}: values differing from the plain closure chain`).toBe(0);
}

describe('shared modifier evaluation is bitwise the plain closure chain', () => {
  it('planet recipes (terrain and cave shell share warp, noise and craters)', () => {
    for (const seed of [0, 1, 4, 7, 123456]) expectSame(planetRecipe(seed), seed);
  });

  it('every asteroid family and the example recipes', () => {
    for (const [i, family] of ASTEROID_FAMILIES.entries()) expectSame(asteroidRecipe(10 + i, { family }), i, 200);
    for (const f of readdirSync(RECIPES_DIR).filter((n) => n.endsWith('.json') && n !== 'schema.json')) {
      expectSame(JSON.parse(readFileSync(join(RECIPES_DIR, f), 'utf8')) as FieldRecipe, 99, 200);
    }
  });

  it('nested nodes of one group evaluated at different points (the memo is re-checked after the base)', () => {
    const mods = {
      noise: [{ kind: 'fbm' as const, seed: 3, frequency: 0.05, octaves: 3, lacunarity: 2, gain: 0.5, amplitude: 2 }],
      warp: { seed: 5, frequency: 0.02, octaves: 2, lacunarity: 2, gain: 0.5, amplitude: 3 },
      craters: {
        seed: 9, count: 12, center: [0, 0, 0] as [number, number, number], sphereRadius: 20, radiusMin: 1, radiusMax: 5,
        sizeExponent: 2, depth: 0.2, rimHeight: 0.05, ejectaFalloff: 1,
      },
    };
    const inner: FieldNode = { type: 'sphere', radius: 18, ...mods };
    const root: FieldNode = {
      type: 'union',
      children: [
        { type: 'translate', offset: [1.5, -2, 0.25], child: { type: 'union', children: [inner, { type: 'box', halfExtents: [4, 4, 4] }], ...mods } },
        { type: 'sphere', radius: 20, ...mods },
        { type: 'scale', factor: 1.3, child: { type: 'shell', thickness: 1, child: { type: 'sphere', radius: 15, ...mods } } },
      ],
    };
    expectSame({ version: 1, name: 'nested groups', root, brushes: [] }, 5, 400);
  });
});
