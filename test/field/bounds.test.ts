import { describe, expect, it } from 'vitest';
import { baseRecipe, compileToJs, fieldGradient, Prng, recipeBounds, type FieldRecipe } from '../../src/field/index';
import { asteroidRecipe, ASTEROID_FAMILIES, planetRecipe } from '../../src/scene/index';

const cases: [string, FieldRecipe][] = [
  ...ASTEROID_FAMILIES.map((family, i): [string, FieldRecipe] => [`asteroid seed ${i + 20} ${family}`, asteroidRecipe(i + 20, { family })]),
  ['planet seed 4', planetRecipe(4)],
];

describe('recipeBounds (oracle: random sampling of the JS field)', () => {
  for (const [name, recipe] of cases) {
    it(`${name}: nothing inside the body lies outside the box or sphere; |f − base| ≤ elevation`, () => {
      const b = recipeBounds(recipe);
      const f = compileToJs(recipe);
      const base = compileToJs(baseRecipe(recipe));
      const prng = new Prng(1);
      const dir = [0, 0, 0];
      for (let i = 0; i < 3000; i++) {
        // Points just outside the bounding sphere must be outside the body.
        prng.unitVector(dir);
        const r = b.sphereRadiusM * prng.range(1.0001, 1.2);
        const x = b.sphereCenter[0] + dir[0] * r, y = b.sphereCenter[1] + dir[1] * r, z = b.sphereCenter[2] + dir[2] * r;
        expect(f(x, y, z)).toBeGreaterThan(0);
        // Points on the box's faces must be outside the body too.
        const axis = i % 3, side = (i >> 1) & 1;
        const q = [prng.range(b.boxMin[0], b.boxMax[0]), prng.range(b.boxMin[1], b.boxMax[1]), prng.range(b.boxMin[2], b.boxMax[2])];
        q[axis] = side ? b.boxMax[axis] * 1.0001 + 1e-6 : b.boxMin[axis] * 1.0001 - 1e-6;
        expect(f(q[0], q[1], q[2])).toBeGreaterThan(0);
        // Anywhere: the modifiers change the value by at most elevationM.
        const s = b.sphereRadiusM * Math.cbrt(prng.next());
        prng.unitVector(dir);
        const px = b.sphereCenter[0] + dir[0] * s, py = b.sphereCenter[1] + dir[1] * s, pz = b.sphereCenter[2] + dir[2] * s;
        expect(Math.abs(f(px, py, pz) - base(px, py, pz))).toBeLessThanOrEqual(b.elevationM * (1 + 1e-9));
      }
    });

    it(`${name}: the Lipschitz estimate bounds measured gradients near the surface`, () => {
      const b = recipeBounds(recipe);
      const f = compileToJs(recipe);
      const prng = new Prng(2);
      const g = [0, 0, 0];
      const dir = [0, 0, 0];
      let maxGrad = 0;
      for (let i = 0; i < 1500; i++) {
        prng.unitVector(dir);
        const s = b.sphereRadiusM * prng.range(0.3, 1);
        fieldGradient(f, b.sphereCenter[0] + dir[0] * s, b.sphereCenter[1] + dir[1] * s, b.sphereCenter[2] + dir[2] * s, b.sizeM * 1e-4, g);
        maxGrad = Math.max(maxGrad, Math.hypot(g[0], g[1], g[2]));
      }
      expect(maxGrad).toBeLessThanOrEqual(b.lipschitz);
    });
  }

  it('a plane is unbounded; an intersection with a sphere is not', () => {
    const plane = recipeBounds({ version: 1, root: { type: 'plane', normal: [0, 1, 0], offset: 0 } });
    expect(plane.sphereRadiusM).toBe(Infinity);
    const capped = recipeBounds({ version: 1, root: { type: 'intersection', children: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }, { type: 'sphere', radius: 5 }] } });
    expect(capped.sphereRadiusM).toBeCloseTo(5, 9);
    expect(capped.lipschitz).toBe(1);
    expect(capped.elevationM).toBe(0);
  });

  it('translate/rotate/scale move the box', () => {
    const b = recipeBounds({ version: 1, root: { type: 'translate', offset: [10, 0, 0], child: { type: 'scale', factor: 2, child: { type: 'rotate', axis: [0, 0, 1], angleDeg: 90, child: { type: 'box', halfExtents: [3, 1, 1] } } } } });
    expect(b.boxMin[0]).toBeCloseTo(8, 9);
    expect(b.boxMax[0]).toBeCloseTo(12, 9);
    expect(b.boxMax[1]).toBeCloseTo(6, 9);
  });
});
