/**
 * The generated field evaluator (issue 43: src/field/jsCodegen.ts) against the closure chain it
 * replaces (compileJs.ts `compileClosures`): evaluations per second of CPU time (process.cpuUsage:
 * this machine's two cores are shared, so wall time would count other processes) on a 41³ lattice
 * over 1.3× the recipe's bounds, both evaluators timed in every run, alternately, the generated one
 * through its lattice call (`points`), the closures point by point as the workers called them.
 * Rows per recipe: `field/generated/…` and `field/closures/…` (evals/s) and `field/generated-ratio/…`
 * (×, the median ratio; target ≥ 4 in issue 43). Each row's notes say whether both gave the same
 * value at every lattice point (Object.is); test/field/generatedField.test.ts asserts it on the
 * golden point sets. Recipes: planetRecipe(4), one asteroid of each family, planet 4 brushed.
 */
import type { Benchmark, BenchRow } from './harness';
import { median, rowFrom } from './harness';
import { compileClosures, compileToJs, recipeBounds, type Brush, type FieldFn, type FieldRecipe } from '../../src/field/index';
import { ASTEROID_FAMILIES, asteroidRecipe, planetRecipe } from '../../src/scene/index';

const N = 41;

function lattice(recipe: FieldRecipe): Float64Array {
  const b = recipeBounds(recipe);
  const xyz = new Float64Array(3 * N ** 3);
  let q = 0;
  for (let k = 0; k < N; k++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++, q += 3) {
    const at = (a: number, t: number): number => {
      const c = (b.boxMin[a] + b.boxMax[a]) / 2, h = ((b.boxMax[a] - b.boxMin[a]) / 2) * 1.3;
      return c - h + (2 * h * t) / (N - 1);
    };
    xyz[q] = at(0, i); xyz[q + 1] = at(1, j); xyz[q + 2] = at(2, k);
  }
  return xyz;
}

/** Planet 4 with four brushes (digs and builds, sharp and blended) on its surface band. */
export function brushedPlanet(): FieldRecipe {
  const recipe = planetRecipe(4);
  const b = recipeBounds(recipe);
  const at = 0.98 * b.sphereRadiusM;
  const brushes: Brush[] = [
    { op: 'carve', center: [at, 0, 0], radius: 300, blend: 0 },
    { op: 'add', center: [at + 100, -50, 30], radius: 120, blend: 40 },
    { op: 'carve', center: [at - 80, 20, 10], radius: 90, blend: 25 },
    { op: 'add', center: [at, 30, 30], radius: 50, blend: 0 },
  ];
  return { ...recipe, name: `${recipe.name} brushed`, brushes };
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function pairBench(label: string, recipe: FieldRecipe): Benchmark {
  const xyz = lattice(recipe);
  const n = N ** 3;
  const gen = new Float64Array(n), clo = new Float64Array(n);
  let generated: FieldFn | null = null, closures: FieldFn | null = null;
  const genRates: number[] = [], cloRates: number[] = [], ratios: number[] = [];
  let compileMs = 0;
  const same = (): string => {
    let bad = 0;
    for (let p = 0; p < n; p++) if (!Object.is(gen[p], clo[p])) bad++;
    return bad === 0 ? `identical at all ${n} points` : `DIFFERENT at ${bad} of ${n} points`;
  };
  return {
    name: `field/generated/${N}^3/${label}`,
    unit: 'evals/s',
    runs: 5,
    warmup: 2,
    setup: () => {
      const t0 = performance.now();
      generated = compileToJs(recipe, { evaluator: 'generated' });
      compileMs = performance.now() - t0;
      closures = compileClosures(recipe);
    },
    run: () => {
      const g = generated!, c = closures!;
      let t = cpuMs();
      g.points!(xyz, gen, n);
      const tg = cpuMs() - t;
      t = cpuMs();
      for (let p = 0, i = 0; p < n; p++, i += 3) clo[p] = c(xyz[i], xyz[i + 1], xyz[i + 2]);
      const tc = cpuMs() - t;
      genRates.push(n / (tg / 1000));
      cloRates.push(n / (tc / 1000));
      ratios.push(tc / tg);
    },
    // The harness's wall time covers both evaluators: report the generated one's CPU rate instead.
    toValue: () => genRates[genRates.length - 1],
    notes: () => `CPU time, lattice call; closures ${median(cloRates.slice(-5)).toExponential(3)} evals/s; ratio ${median(ratios.slice(-5)).toFixed(2)}x; ${same()}; program ${compileMs.toFixed(1)} ms (source + compile, cached by shape); ${recipe.name}`,
    extraRows: (): BenchRow[] => [
      rowFrom(`field/closures/${N}^3/${label}`, 'evals/s', cloRates.slice(-5), `CPU time, point by point (compileClosures); ${recipe.name}`),
      rowFrom(`field/generated-ratio/${N}^3/${label}`, 'x', ratios.slice(-5), `generated / closures evals/s, same runs; target >= 4 (issue 43); ${same()}`),
    ],
  };
}

export const benchmarks: Benchmark[] = [
  pairBench('planet4', planetRecipe(4)),
  ...ASTEROID_FAMILIES.map((family) => pairBench(family, asteroidRecipe(6, { family }))),
  pairBench('planet4-brushed', brushedPlanet()),
];
