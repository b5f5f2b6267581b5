import { describe, expect, it } from 'vitest';
import { compileToJs, fieldGradient, parseRecipe, RecipeError, type FieldNode } from '../../src/field/index';

const EPS = 1e-9;

function field(root: unknown, brushes: unknown[] = []) {
  return compileToJs({ version: 1, root, brushes });
}

const sphere = (radius: number): FieldNode => ({ type: 'sphere', radius });

describe('shapes against analytic distances', () => {
  it('sphere', () => {
    const f = field(sphere(2));
    expect(f(0, 0, 0)).toBeCloseTo(-2, 12);
    expect(f(3, 4, 0)).toBeCloseTo(3, 12);
    expect(f(0, -2, 0)).toBeCloseTo(0, 12);
  });

  it('ellipsoid: exact on the axes, sign right off-axis', () => {
    const f = field({ type: 'ellipsoid', radii: [3, 2, 1] });
    expect(f(5, 0, 0)).toBeCloseTo(2, 12);
    expect(f(0, -2.5, 0)).toBeCloseTo(0.5, 12);
    expect(f(0, 0, 0.25)).toBeCloseTo(-0.75, 12);
    expect(f(0, 0, 0)).toBeCloseTo(-1, 12);
    expect(f(2, 1.5, 0.5)).toBeGreaterThan(0); // (2/3)²+(1.5/2)²+0.5² > 1
    expect(f(1, 1, 0.3)).toBeLessThan(0);
  });

  it('box: faces, edges and corners', () => {
    const f = field({ type: 'box', halfExtents: [1, 2, 3] });
    expect(f(0, 0, 0)).toBeCloseTo(-1, 12);
    expect(f(2, 0, 0)).toBeCloseTo(1, 12);
    expect(f(2, 3, 0)).toBeCloseTo(Math.SQRT2, 12);
    expect(f(2, 3, 4)).toBeCloseTo(Math.sqrt(3), 12);
    expect(f(0.5, 1.9, 0)).toBeCloseTo(-0.1, 12);
  });

  it('rounded box: flat faces unchanged, corners rounded by the radius', () => {
    const f = field({ type: 'roundBox', halfExtents: [1, 1, 1], radius: 0.25 });
    expect(f(2, 0, 0)).toBeCloseTo(1, 12);
    const c = 0.75 + 1 / Math.sqrt(3); // point on the diagonal at distance 1 from the corner sphere center
    expect(f(c, c, c)).toBeCloseTo(1 - 0.25, 12);
  });

  it('torus around y', () => {
    const f = field({ type: 'torus', majorRadius: 3, minorRadius: 1 });
    expect(f(3, 0, 0)).toBeCloseTo(-1, 12);
    expect(f(0, 0, 5)).toBeCloseTo(1, 12);
    expect(f(0, 0, 0)).toBeCloseTo(2, 12);
    expect(f(3, 2, 0)).toBeCloseTo(1, 12);
  });

  it('capsule: segment sides and caps; a degenerate capsule is a sphere', () => {
    const f = field({ type: 'capsule', a: [0, 0, 0], b: [0, 4, 0], radius: 1 });
    expect(f(3, 2, 0)).toBeCloseTo(2, 12);
    expect(f(0, 7, 0)).toBeCloseTo(2, 12);
    expect(f(0, -1, 0)).toBeCloseTo(0, 12);
    const g = field({ type: 'capsule', a: [1, 1, 1], b: [1, 1, 1], radius: 1 });
    expect(g(1, 1, 4)).toBeCloseTo(2, 12);
  });

  it('plane: normalised normal, signed offset', () => {
    const f = field({ type: 'plane', normal: [0, 2, 0], offset: 1 });
    expect(f(5, 3, -7)).toBeCloseTo(2, 12);
    expect(f(0, 0, 0)).toBeCloseTo(-1, 12);
  });
});

describe('operations', () => {
  const a: FieldNode = { type: 'translate', offset: [-1, 0, 0], child: sphere(1.5) };
  const b: FieldNode = { type: 'translate', offset: [1, 0, 0], child: sphere(1.5) };
  const da = (x: number, y: number, z: number) => Math.hypot(x + 1, y, z) - 1.5;
  const db = (x: number, y: number, z: number) => Math.hypot(x - 1, y, z) - 1.5;
  const points = [[0, 0, 0], [2, 1, 0], [-3, 0.5, 1], [0, 2, 0], [0.3, -0.2, 0.9]];

  it('union, intersection, subtraction = min, max, max(a, −b)', () => {
    const u = field({ type: 'union', children: [a, b] });
    const i = field({ type: 'intersection', children: [a, b] });
    const s = field({ type: 'subtraction', children: [a, b] });
    for (const [x, y, z] of points) {
      expect(u(x, y, z)).toBeCloseTo(Math.min(da(x, y, z), db(x, y, z)), 12);
      expect(i(x, y, z)).toBeCloseTo(Math.max(da(x, y, z), db(x, y, z)), 12);
      expect(s(x, y, z)).toBeCloseTo(Math.max(da(x, y, z), -db(x, y, z)), 12);
    }
  });

  it('smooth versions: equal to the sharp ones beyond the blend, k/4 deeper where equal', () => {
    const k = 0.5;
    const u = field({ type: 'smoothUnion', blend: k, children: [a, b] });
    const i = field({ type: 'smoothIntersection', blend: k, children: [a, b] });
    const s = field({ type: 'smoothSubtraction', blend: k, children: [a, b] });
    // On the mid plane a = b: smin = a − k/4, smax = a + k/4.
    expect(u(0, 1, 0)).toBeCloseTo(da(0, 1, 0) - k / 4, 12);
    expect(i(0, 1, 0)).toBeCloseTo(da(0, 1, 0) + k / 4, 12);
    // Far from the blend zone they are the sharp operations.
    expect(u(-3, 0, 0)).toBeCloseTo(da(-3, 0, 0), 12);
    expect(i(-3, 0, 0)).toBeCloseTo(db(-3, 0, 0), 12);
    expect(s(-3, 0, 0)).toBeCloseTo(da(-3, 0, 0), 12);
    // |smooth − sharp| ≤ k/4 everywhere.
    for (const [x, y, z] of points) {
      expect(Math.abs(u(x, y, z) - Math.min(da(x, y, z), db(x, y, z)))).toBeLessThanOrEqual(k / 4 + EPS);
      expect(Math.abs(s(x, y, z) - Math.max(da(x, y, z), -db(x, y, z)))).toBeLessThanOrEqual(k / 4 + EPS);
    }
  });

  it('n-ary CSG folds left; subtraction removes every later child', () => {
    const c: FieldNode = { type: 'translate', offset: [0, 1, 0], child: sphere(0.5) };
    const s = field({ type: 'subtraction', children: [sphere(3), a, c] });
    expect(s(0, 1, 0)).toBeCloseTo(0.5, 12);
    expect(s(0, -2.5, 0)).toBeCloseTo(-0.5, 12);
  });

  it('translate, rotate (right-handed, degrees), scale, shell', () => {
    const box: FieldNode = { type: 'box', halfExtents: [2, 0.5, 0.5] };
    const t = field({ type: 'translate', offset: [10, 0, 0], child: sphere(1) });
    expect(t(12, 0, 0)).toBeCloseTo(1, 12);
    // Rotating the x-long box by +90° about z makes it y-long.
    const r = field({ type: 'rotate', axis: [0, 0, 1], angleDeg: 90, child: box });
    expect(r(0, 3, 0)).toBeCloseTo(1, 12);
    expect(r(3, 0, 0)).toBeCloseTo(2.5, 12);
    const s = field({ type: 'scale', factor: 3, child: sphere(1) });
    expect(s(5, 0, 0)).toBeCloseTo(2, 12);
    const sh = field({ type: 'shell', thickness: 0.25, child: sphere(2) });
    expect(sh(0, 0, 0)).toBeCloseTo(1.75, 12);
    expect(sh(2, 0, 0)).toBeCloseTo(-0.25, 12);
  });
});

describe('modifiers and brushes', () => {
  const layer = { kind: 'fbm', seed: 5, frequency: 0.3, octaves: 5, amplitude: 0.4 };

  it('noise changes the value by at most its amplitude', () => {
    for (const kind of ['fbm', 'ridged', 'billow']) {
      const f = field({ type: 'sphere', radius: 3, noise: { ...layer, kind } });
      let changed = 0;
      for (let i = 0; i < 500; i++) {
        const x = Math.sin(i) * 4, y = Math.cos(i * 1.3) * 4, z = Math.sin(i * 0.7) * 4;
        const d = f(x, y, z) - (Math.hypot(x, y, z) - 3);
        expect(Math.abs(d)).toBeLessThanOrEqual(0.4 + EPS);
        if (kind === 'ridged') expect(d).toBeLessThanOrEqual(EPS); // ridged only raises
        if (Math.abs(d) > 1e-3) changed++;
      }
      expect(changed).toBeGreaterThan(400);
    }
  });

  it('warp moves the evaluation point by at most its amplitude', () => {
    const f = field({ type: 'plane', normal: [1, 0, 0], offset: 0, warp: { seed: 2, frequency: 0.5, octaves: 3, amplitude: 0.7 } });
    for (let i = 0; i < 300; i++) {
      const x = i * 0.05 - 7, y = i * 0.31, z = -i * 0.17;
      expect(Math.abs(f(x, y, z) - x)).toBeLessThanOrEqual(0.7 + EPS);
    }
  });

  it('craters: bowl below, rim above, nothing far away; bounded by max(depth, rim) × radiusMax', () => {
    const craters = { seed: 9, count: 1, sphereRadius: 100, radiusMin: 10, radiusMax: 10, depth: 0.2, rimHeight: 0.05, ejectaFalloff: 1 };
    const f = field({ type: 'sphere', radius: 100, craters });
    // Find the crater: the direction where the field at the surface is largest.
    let best = [0, 0, 0], bestValue = -Infinity;
    for (let i = 0; i < 20000; i++) {
      const z = 1 - (2 * (i + 0.5)) / 20000, phi = i * 2.399963229728653, r = Math.sqrt(1 - z * z);
      const v = f(100 * r * Math.cos(phi), 100 * r * Math.sin(phi), 100 * z);
      if (v > bestValue) { bestValue = v; best = [r * Math.cos(phi), r * Math.sin(phi), z]; }
    }
    expect(bestValue).toBeGreaterThan(1.9); // bowl floor: +depth·r = 2 m of removed rock
    expect(bestValue).toBeLessThanOrEqual(2 + EPS);
    const opposite = f(-100 * best[0], -100 * best[1], -100 * best[2]);
    expect(opposite).toBeCloseTo(0, 12);
  });

  it('brushes apply in order: add then carve', () => {
    const f = field(sphere(1), [
      { op: 'add', center: [3, 0, 0], radius: 1 },
      { op: 'carve', center: [3, 0, 0], radius: 0.5 },
      { op: 'add', center: [0, 3, 0], radius: 1, blend: 0.5 },
    ]);
    expect(f(3, 0, 0)).toBeCloseTo(0.5, 12);
    expect(f(3.75, 0, 0)).toBeCloseTo(-0.25, 12);
    expect(f(0, 3, 0)).toBeCloseTo(-1, 12);
    expect(f(0, 1.5, 0)).toBeCloseTo(0.5 - 0.5 / 4, 12); // blended where both are 0.5
  });
});

describe('compileToJs', () => {
  it('validates its input (untrusted JSON throws RecipeError)', () => {
    expect(() => compileToJs({ version: 1, root: { type: 'sphere', radius: '1' } })).toThrow(RecipeError);
  });

  it('is deterministic: two compilations give bit-identical values', () => {
    const recipe = parseRecipe({ version: 1, root: { type: 'sphere', radius: 3, noise: { kind: 'ridged', seed: 77, frequency: 0.7, octaves: 6, amplitude: 0.5 } } });
    const f = compileToJs(recipe), g = compileToJs(JSON.parse(JSON.stringify(recipe)));
    for (let i = 0; i < 200; i++) expect(f(i * 0.03, -i * 0.02, 1)).toBe(g(i * 0.03, -i * 0.02, 1));
  });

  it('fieldGradient: unit gradient of a sphere, pointing outwards', () => {
    const f = field(sphere(2));
    const out = new Float64Array(3);
    fieldGradient(f, 1, 2, 2, 1e-4, out);
    expect(out[0]).toBeCloseTo(1 / 3, 6);
    expect(out[1]).toBeCloseTo(2 / 3, 6);
    expect(out[2]).toBeCloseTo(2 / 3, 6);
  });
});
