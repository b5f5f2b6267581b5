/**
 * Page side of test/browser/fieldParity.test.ts: evaluates recipes with the GLSL back end
 * (one draw into an RGBA32F target) and the JS back end at the same float32 points, and
 * returns the error statistics. Points: a third uniform in the bounding box, two thirds on
 * random rays in the shell where the surface can be (bounding radius − 4 × elevation to the
 * bounding radius), so the comparison is dense near the surface.
 */
import { compileToJs, Prng, recipeBounds, type FieldRecipe } from '../../../src/field/index';
import { asteroidRecipe, planetRecipe } from '../../../src/scene/index';
import { createFieldContext, createFieldPass } from './fieldEval';

export interface ParityResult {
  name: string;
  points: number;
  sizeM: number;
  maxAbsErrM: number;
  maxRelErr: number;
  signMismatches: number;
  worst: { p: [number, number, number]; gpu: number; cpu: number };
  compileMs: number;
  gpuMs: number;
}

function parityPoints(recipe: FieldRecipe, count: number, seed: number): Float32Array {
  const b = recipeBounds(recipe);
  const prng = new Prng(seed);
  const out = new Float32Array(count * 3);
  const dir = [0, 0, 0];
  const outer = b.sphereRadiusM * 1.05;
  const inner = Math.max(0, b.sphereRadiusM - 4 * b.elevationM);
  for (let i = 0; i < count; i++) {
    if (i % 3 === 0) {
      for (let a = 0; a < 3; a++) out[i * 3 + a] = prng.range(b.boxMin[a], b.boxMax[a]);
    } else {
      prng.unitVector(dir);
      const r = prng.range(inner, outer);
      for (let a = 0; a < 3; a++) out[i * 3 + a] = b.sphereCenter[a] + dir[a] * r;
    }
  }
  return out;
}

export function checkParity(name: string, recipe: FieldRecipe, count: number, seed: number, gl = createFieldContext()): ParityResult {
  const pass = createFieldPass(gl, recipe);
  const sizeM = pass.compiled.bounds.sizeM;
  const points = parityPoints(recipe, count, seed);
  const t0 = performance.now();
  const gpu = pass.evaluatePoints(points);
  const gpuMs = performance.now() - t0;
  pass.dispose();
  const js = compileToJs(recipe);
  let maxAbsErrM = 0;
  let worstIndex = 0;
  let signMismatches = 0;
  const signEps = 1e-4 * sizeM;
  for (let i = 0; i < count; i++) {
    const cpu = js(points[i * 3], points[i * 3 + 1], points[i * 3 + 2]);
    const err = Math.abs(gpu[i] - cpu);
    if (!(err <= maxAbsErrM)) {
      maxAbsErrM = Number.isNaN(err) ? Infinity : err;
      worstIndex = i;
    }
    if (Math.abs(cpu) > signEps && Math.sign(cpu) !== Math.sign(gpu[i])) signMismatches++;
  }
  const w = worstIndex * 3;
  return {
    name,
    points: count,
    sizeM,
    maxAbsErrM,
    maxRelErr: maxAbsErrM / sizeM,
    signMismatches,
    worst: { p: [points[w], points[w + 1], points[w + 2]], gpu: gpu[worstIndex], cpu: js(points[w], points[w + 1], points[w + 2]) },
    compileMs: pass.compileMs,
    gpuMs,
  };
}

/** Runs the whole parity suite in this page: the given example recipes, then seeded ones. */
export function runParitySuite(examples: { name: string; recipe: unknown }[], seeded: number, count: number): ParityResult[] {
  const gl = createFieldContext();
  const results: ParityResult[] = [];
  for (const e of examples) results.push(checkParity(e.name, e.recipe as FieldRecipe, count, 1, gl));
  for (let s = 0; s < seeded; s++) {
    const a = asteroidRecipe(1000 + s);
    results.push(checkParity(a.name ?? `asteroid ${s}`, a, count, 2 + s, gl));
    const p = planetRecipe(2000 + s);
    results.push(checkParity(p.name ?? `planet ${s}`, p, count, 100 + s, gl));
  }
  return results;
}
