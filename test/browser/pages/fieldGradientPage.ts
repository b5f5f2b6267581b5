/**
 * Page side of test/browser/fieldGradient.test.ts: the GLSL field's analytic gradient
 * (sr_fieldGrad, src/field/glslGradient.ts) against central differences of sr_field, at points on
 * the surface (found by bisection between random points of opposite sign with the JS field), where
 * a body's normals are taken.
 */
import { compileToJs, Prng, recipeBounds, type FieldRecipe } from '../../../src/field/index';
import { asteroidRecipe, planetRecipe } from '../../../src/scene/index';
import { createFieldContext, createFieldPass } from './fieldEval';

export interface GradientResult {
  name: string;
  points: number;
  /** |sr_fieldGrad(p).w − sr_field(p)|, largest, metres. */
  maxValueErrM: number;
  /** Angle between the analytic gradient and the difference's, degrees: median, 95th percentile, largest. */
  angleMedianDeg: number;
  angleP95Deg: number;
  angleMaxDeg: number;
  /** | |analytic| / |difference| − 1 |, median. */
  magnitudeMedianErr: number;
  /** With a footprint of 1 % of the size: the filtered normal's angle to the exact one, median (degrees). */
  filteredMedianDeg: number;
}

/** Points on the surface: bisection between random points of the bounding box of opposite sign. */
function surfacePoints(recipe: FieldRecipe, count: number, seed: number): Float32Array {
  const f = compileToJs(recipe);
  const b = recipeBounds(recipe);
  const prng = new Prng(seed);
  const out: number[] = [];
  const a = [0, 0, 0], c = [0, 0, 0], m = [0, 0, 0];
  for (let tries = 0; out.length < 3 * count && tries < 200 * count; tries++) {
    for (let k = 0; k < 3; k++) {
      a[k] = prng.range(b.boxMin[k], b.boxMax[k]);
      c[k] = prng.range(b.boxMin[k], b.boxMax[k]);
    }
    let fa = f(a[0], a[1], a[2]);
    const fc = f(c[0], c[1], c[2]);
    if (Math.sign(fa) === Math.sign(fc)) continue;
    for (let it = 0; it < 40; it++) {
      for (let k = 0; k < 3; k++) m[k] = 0.5 * (a[k] + c[k]);
      const fm = f(m[0], m[1], m[2]);
      if (Math.sign(fm) === Math.sign(fa)) { a[0] = m[0]; a[1] = m[1]; a[2] = m[2]; fa = fm; } else { c[0] = m[0]; c[1] = m[1]; c[2] = m[2]; }
    }
    out.push(m[0], m[1], m[2]);
  }
  return new Float32Array(out);
}

const angleDeg = (u: number[], v: number[]): number => {
  const d = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  const lu = Math.hypot(u[0], u[1], u[2]), lv = Math.hypot(v[0], v[1], v[2]);
  return (Math.acos(Math.max(-1, Math.min(1, d / (lu * lv)))) * 180) / Math.PI;
};

function quantile(values: number[], q: number): number {
  const s = [...values].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/**
 * `reference`: what the analytic gradient is held to. 'glsl': central differences of sr_field (float32)
 * at 1e-5 and 2e-5 of the size. 'js': central differences of the JS field (float64) at 2e-7 and 4e-7
 * of the size — for planets, whose ladders reach metre wavelengths (issue 41): at 62 km a float32
 * difference step of 1e-5 of the size is 0.66 m, too long for a 5 m octave, and a shorter one drowns
 * in float32's rounding of the value near R (~4 mm).
 */
export function checkGradient(name: string, recipe: FieldRecipe, count: number, seed: number, gl = createFieldContext(), reference: 'glsl' | 'js' = 'glsl'): GradientResult {
  const pass = createFieldPass(gl, recipe, { gradient: true });
  try {
    const sizeM = pass.compiled.bounds.sizeM;
    const points = surfacePoints(recipe, count, seed);
    const n = points.length / 3;
    const grad = pass.evaluateGradients(points);
    const filtered = pass.evaluateGradients(points, 0.01 * sizeM);
    const value = pass.evaluatePoints(points);
    // Central differences of sr_field at two steps, 1e-5 and 2e-5 of the size: float32's rounding
    // of p (~6e-8 of the size) limits the shorter, fine octaves limit the longer; each point is
    // compared with the closer of the two.
    const jsField = reference === 'js' ? compileToJs(recipe) : null;
    const differences = (jsField ? [2e-7, 4e-7] : [1e-5, 2e-5]).map((step) => {
      const h = step * sizeM;
      if (jsField) {
        return (i: number): number[] => [0, 1, 2].map((axis) => {
          const p = [points[3 * i], points[3 * i + 1], points[3 * i + 2]];
          const q = p.slice();
          p[axis] += h;
          q[axis] -= h;
          return (jsField(p[0], p[1], p[2]) - jsField(q[0], q[1], q[2])) / (2 * h);
        });
      }
      const shifted = new Float32Array(n * 18);
      for (let i = 0; i < n; i++) {
        for (let axis = 0; axis < 3; axis++) {
          for (let s = 0; s < 2; s++) {
            const o = (i * 6 + axis * 2 + s) * 3;
            shifted[o] = points[3 * i]; shifted[o + 1] = points[3 * i + 1]; shifted[o + 2] = points[3 * i + 2];
            shifted[o + axis] += s === 0 ? h : -h;
          }
        }
      }
      const fs = pass.evaluatePoints(shifted);
      return (i: number): number[] => [0, 1, 2].map((axis) => (fs[i * 6 + axis * 2] - fs[i * 6 + axis * 2 + 1]) / (2 * h));
    });
    const angles: number[] = [], magnitudes: number[] = [], filteredAngles: number[] = [];
    let maxValueErrM = 0;
    for (let i = 0; i < n; i++) {
      maxValueErrM = Math.max(maxValueErrM, Math.abs(grad[4 * i + 3] - value[i]));
      const g = [grad[4 * i], grad[4 * i + 1], grad[4 * i + 2]];
      const [a, b] = differences.map((d) => d(i));
      const diff = angleDeg(g, a) <= angleDeg(g, b) ? a : b;
      angles.push(angleDeg(g, diff));
      magnitudes.push(Math.abs(Math.hypot(g[0], g[1], g[2]) / Math.hypot(diff[0], diff[1], diff[2]) - 1));
      filteredAngles.push(angleDeg([filtered[4 * i], filtered[4 * i + 1], filtered[4 * i + 2]], g));
    }
    return {
      name, points: n, maxValueErrM,
      angleMedianDeg: quantile(angles, 0.5), angleP95Deg: quantile(angles, 0.95), angleMaxDeg: quantile(angles, 1),
      magnitudeMedianErr: quantile(magnitudes, 0.5), filteredMedianDeg: quantile(filteredAngles, 0.5),
    };
  } finally {
    pass.dispose();
  }
}

/**
 * What the examples leave out: subtraction, smooth intersection, a warp, and brushes (hard and
 * blended, adding and carving).
 */
const BRUSHED: FieldRecipe = {
  version: 1,
  name: 'brushed',
  root: {
    type: 'subtraction',
    children: [
      {
        type: 'smoothIntersection', blend: 6,
        children: [{ type: 'sphere', radius: 80 }, { type: 'box', halfExtents: [70, 70, 70] }],
        warp: { seed: 5, frequency: 0.02, octaves: 2, lacunarity: 2, gain: 0.5, amplitude: 6 },
        noise: [{ kind: 'billow', seed: 9, frequency: 0.05, octaves: 4, lacunarity: 2, gain: 0.5, amplitude: 2 }],
      },
      { type: 'translate', offset: [60, 0, 0], child: { type: 'sphere', radius: 25 } },
    ],
  },
  brushes: [
    { op: 'add', center: [0, 85, 0], radius: 12, blend: 4 },
    { op: 'carve', center: [0, -75, 0], radius: 15, blend: 3 },
    { op: 'add', center: [0, 0, 85], radius: 10, blend: 0 },
    { op: 'carve', center: [-75, 0, 0], radius: 12, blend: 0 },
  ],
} as FieldRecipe;

/** The examples (name, recipe), a recipe with what they leave out, `seeded` asteroids and two planets. */
export function runGradientSuite(examples: { name: string; recipe: unknown }[], seeded: number, count: number): GradientResult[] {
  const gl = createFieldContext();
  const out: GradientResult[] = [];
  examples.forEach((e, i) => out.push(checkGradient(e.name, e.recipe as FieldRecipe, count, 100 + i, gl)));
  out.push(checkGradient('brushed', BRUSHED, count, 150, gl));
  for (let s = 0; s < seeded; s++) out.push(checkGradient(`asteroid ${s + 1}`, asteroidRecipe(s + 1), count, 200 + s, gl));
  for (const s of [4, 15]) out.push(checkGradient(`planet ${s}`, planetRecipe(s), count, 300 + s, gl, 'js'));
  return out;
}
