import { describe, expect, it } from 'vitest';
import {
  chunkRelativeEligible, chunkRelativeRefusal, compileToJs, forEachOctaveOrigin, noisePermutation, reduceNoisePoint, relativeErrorM, relativeUniforms, simplex3, splitNoisePoint,
  type FieldRecipe,
} from '../../src/field/index';
import { craterCell, OCTAVE_BASE, OCTAVE_SHIFT } from '../../src/field/noise';
import { compileToGlsl } from '../../src/field/compileGlsl';
import { createRandom } from '../../src/field/prng';
import { planetRecipe } from '../../src/scene/planets';

/** Points from 1 to 10⁷ noise units out, any sign: the inputs of a 2,000 km planet's octaves. */
function farPoints(n: number): number[][] {
  const random = createRandom(7);
  const out: number[][] = [];
  for (let i = 0; i < n; i++) {
    const scale = 10 ** (7 * random());
    out.push([0, 1, 2].map(() => (2 * random() - 1) * scale));
  }
  return out;
}

describe('chunk-relative fields: the noise period', () => {
  const perm = noisePermutation(1234);

  it('moves a point by a period: simplex and crater noise read the same there', () => {
    let worst = 0, craterWorst = 0, moved = 0;
    for (const q of farPoints(4000)) {
      const r = reduceNoisePoint(q);
      if (r[0] !== q[0] || r[1] !== q[1] || r[2] !== q[2]) moved++;
      expect(Math.max(Math.abs(r[0]), Math.abs(r[1]), Math.abs(r[2]))).toBeLessThanOrEqual(384);
      // The reduced point is exact in float64 (a multiple of 256 subtracted); the far one carries
      // its own float64 rounding into the noise (~1e-9 at 10⁷ units).
      worst = Math.max(worst, Math.abs(simplex3(perm, q[0], q[1], q[2]) - simplex3(perm, r[0], r[1], r[2])));
      craterWorst = Math.max(craterWorst, Math.abs(craterCell(perm, q[0], q[1], q[2]) - craterCell(perm, r[0], r[1], r[2])));
    }
    expect(moved).toBeGreaterThan(2000);
    expect(worst).toBeLessThan(1e-6);
    expect(craterWorst).toBeLessThan(1e-6);
  });

  it('is not a period without the sum rule: a shift of 256 along one axis changes the simplex noise', () => {
    let differs = 0;
    for (const q of farPoints(200)) {
      if (Math.abs(simplex3(perm, q[0], q[1], q[2]) - simplex3(perm, q[0] + 256, q[1], q[2])) > 1e-3) differs++;
    }
    expect(differs).toBeGreaterThan(100);
  });

  it('splits a point into a whole point (coordinates summing to a multiple of 3) and a small rest: the noise there is the same', () => {
    const cell = [0, 0, 0], rest = [0, 0, 0];
    let worst = 0;
    for (const q0 of farPoints(500)) {
      const q = reduceNoisePoint(q0);
      splitNoisePoint(q, cell, rest);
      expect(((cell[0] + cell[1] + cell[2]) % 3 + 3) % 3).toBe(0);
      for (const r of rest) expect(r >= 0 && r < 3).toBe(true);
      worst = Math.max(worst, Math.abs(simplex3(perm, q[0], q[1], q[2]) - simplex3(perm, cell[0] + rest[0], cell[1] + rest[1], cell[2] + rest[2])));
    }
    expect(worst).toBeLessThan(1e-9);
  });

  it('leaves small points where they are', () => {
    expect(Array.from(reduceNoisePoint([1.5, -120, 3]))).toEqual([1.5, -120, 3]);
  });
});

describe('chunk-relative fields: which recipes', () => {
  it('takes every planet class and refuses what would move the origin per node', () => {
    for (let seed = 0; seed < 40; seed++) expect(chunkRelativeRefusal(planetRecipe(seed)), `planet ${seed}`).toBeNull();
    const sphere = { type: 'sphere', radius: 10 } as const;
    const r = (root: object, brushes: object[] = []): FieldRecipe => ({ version: 1, root, brushes }) as FieldRecipe;
    expect(chunkRelativeRefusal(r({ type: 'translate', offset: [1, 0, 0], child: sphere }))).toBe('a translate node');
    expect(chunkRelativeRefusal(r({ type: 'union', children: [sphere, { type: 'box', halfExtents: [1, 1, 1] }] }))).toBe('a box node');
    expect(chunkRelativeRefusal(r(sphere, [{ op: 'carve', center: [0, 0, 10], radius: 2, blend: 0 }]))).toBe('brushes');
    expect(chunkRelativeEligible(r({ type: 'shell', thickness: 1, child: sphere }))).toBe(true);
  });

  it('compiles only where asked and allowed; the plan lists every octave and crater field', () => {
    const recipe = planetRecipe(2);
    const plain = compileToGlsl(recipe, { bandUniforms: true });
    expect(plain.relative).toBeNull();
    expect(plain.source).not.toContain('sr_relOrigin');
    const rel = compileToGlsl(recipe, { bandUniforms: true, chunkRelative: true });
    const plan = rel.relative!;
    // Planet 2: a 3-octave warp (three components) and six layers of 4 + 5 + 4 + 3 + 3 + 2 octaves.
    expect(plan.noise.reduce((n, u) => n + u.octaves, 0)).toBe(9 + 21);
    expect(plan.craterCenters).toEqual([[0, 0, 0]]);
    expect(rel.source).toContain('#define SR_FIELD_CHUNK_RELATIVE');
    expect(rel.source).toContain('uniform vec3 sr_relOrigin[30];');
    expect(rel.source).toContain('uniform ivec3 sr_relCell[30];');
    expect(rel.source).toContain('sr_relSphere(p, ');
    expect(rel.source).not.toMatch(/length\(p\) - /);
    const boxed = { version: 1, root: { type: 'box', halfExtents: [1, 2, 3] }, brushes: [] };
    expect(compileToGlsl(boxed, { chunkRelative: true }).relative).toBeNull();
  });
});

describe('chunk-relative fields: the per-chunk numbers', () => {
  const recipe = planetRecipe(2);
  const plan = compileToGlsl(recipe, { bandUniforms: true, chunkRelative: true }).relative!;
  const origin = [123_456.789, 2_160_001.25, -98_765.4321];

  it('octave origins: the octave input at the origin as a whole point and a rest, a period of the noise away', () => {
    const u = relativeUniforms(plan, origin);
    let row = 0;
    for (const use of plan.noise) {
      let f = 1;
      for (let i = 0; i < use.octaves; i++, row++, f *= use.lacunarity) {
        const cell = [0, 1, 2].map((a) => u.sr_relCell[3 * row + a]);
        expect(((cell[0] + cell[1] + cell[2]) % 3 + 3) % 3).toBe(0);
        const periods = [0, 1, 2].map((a) => {
          const rest = u.sr_relOrigin[3 * row + a];
          expect(rest).toBeGreaterThanOrEqual(0);
          expect(rest).toBeLessThan(3);
          const q = (origin[a] * use.frequency + use.offset[a]) * f + OCTAVE_BASE[a] + i * OCTAVE_SHIFT[a];
          const k = (q - (cell[a] + rest)) / 256;
          // A whole number of periods apart, up to float32's rounding of the rest.
          expect(Math.abs(k - Math.round(k))).toBeLessThan(1e-8);
          return Math.round(k);
        });
        expect(((periods[0] + periods[1] + periods[2]) % 3 + 3) % 3).toBe(0);
      }
    }
    expect(row).toBe(30);
    const d = Math.hypot(...origin);
    expect(u.sr_relDist[0] + u.sr_relDist[1]).toBeCloseTo(d, 6);
    expect(Math.hypot(...u.sr_relDir)).toBeCloseTo(1, 6);
    expect(Array.from(u.sr_relCrater)).toEqual(origin.map(Math.fround));
  });

  it('the sphere in float32 as the shader forms it: within millimetres at 2,173 km, where |p| − R in float32 is 0.25 m off', () => {
    const f = Math.fround;
    const u = relativeUniforms(plan, origin);
    const R = 2_173_163.0629865434;
    const rh = f(R), rl = f(R - rh);
    const random = createRandom(3);
    let worst = 0, naive = 0;
    for (let n = 0; n < 2000; n++) {
      const l = [0, 1, 2].map(() => f((2 * random() - 1) * 600));
      const e = l.map((x) => f(x * u.sr_relDist[2]));
      const s0 = f(f(u.sr_relDist[0] - rh) + f(u.sr_relDist[1] - rl));
      const dot = (a: number[], b: ArrayLike<number>): number => f(f(f(a[0] * b[0]) + f(a[1] * b[1])) + f(a[2] * b[2]));
      const len = f(Math.sqrt(dot([0, 1, 2].map((a) => f(u.sr_relDir[a] + e[a])), [0, 1, 2].map((a) => f(u.sr_relDir[a] + e[a])))));
      const gpu = f(s0 + f(f(f(2 * dot(l, u.sr_relDir)) + dot(l, e)) / f(len + 1)));
      const exact = Math.hypot(origin[0] + l[0], origin[1] + l[1], origin[2] + l[2]) - R;
      worst = Math.max(worst, Math.abs(gpu - exact));
      const p = [0, 1, 2].map((a) => f(origin[a] + l[a]));
      naive = Math.max(naive, Math.abs(f(f(Math.sqrt(dot(p, p))) - f(R)) - exact));
    }
    expect(worst).toBeLessThan(2e-3);
    expect(naive).toBeGreaterThan(0.05);
  });

  it('error bounds: centimetres to decimetres at a fine chunk of a big planet, more for a chunk of 1,000 km', () => {
    const fine = relativeErrorM(recipe, origin, 60, 2);
    // Planet 2 at a 55 m chunk: its noise ~1 cm; its crater field sees a float32 point from the centre, ~0.2 m.
    expect(fine.valueM).toBeLessThan(0.03);
    expect(fine.positionM).toBeLessThan(0.5);
    const coarse = relativeErrorM(recipe, origin, 1e6, 3e4);
    expect(coarse.valueM).toBeGreaterThan(fine.valueM);
  });

  it('the octave origins are the JS octave inputs: a far octave evaluated at the reduced origin equals the JS noise there', () => {
    const perm = noisePermutation(99);
    let worst = 0;
    forEachOctaveOrigin({ noise: [{ frequency: 0.33, offset: [0, 0, 0], octaves: 3, lacunarity: 2 }] }, origin, (use, i, q) => {
      const f = use.lacunarity ** i;
      const abs = [0, 1, 2].map((a) => origin[a] * use.frequency * f + OCTAVE_BASE[a] + i * OCTAVE_SHIFT[a]);
      worst = Math.max(worst, Math.abs(simplex3(perm, abs[0], abs[1], abs[2]) - simplex3(perm, q[0], q[1], q[2])));
    });
    expect(worst).toBeLessThan(1e-6);
    // The field itself is untouched by all this: the JS back end still evaluates body-local points.
    expect(Number.isFinite(compileToJs(recipe)(origin[0], origin[1], origin[2]))).toBe(true);
  });
});
