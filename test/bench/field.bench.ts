/**
 * JS field back end throughput: evaluations per second on a 65³ grid spanning the
 * bounding box of a 6-octave asteroid (and of a full seeded "potato" asteroid: fbm + detail
 * + warp + craters). The GLSL rows with the same names live in test/bench/browser/field.bench.ts.
 */
import type { Benchmark } from './harness';
import { compileToJs, parseRecipe, recipeBounds, type FieldFn, type FieldRecipe } from '../../src/field/index';
import { asteroidRecipe } from '../../src/scene/index';

export const GRID_N = 65;

/** The benchmark body: an ellipsoid with one 6-octave fbm layer. */
export const ASTEROID6: FieldRecipe = parseRecipe({
  version: 1,
  name: 'bench asteroid6',
  root: {
    type: 'ellipsoid',
    radii: [600, 450, 380],
    noise: { kind: 'fbm', seed: 6, frequency: 0.0015, octaves: 6, amplitude: 80 },
  },
});

/** A full seeded asteroid (potato family: 6 + 4 octaves, 2-octave warp, craters). */
export const POTATO: FieldRecipe = asteroidRecipe(6, { family: 'potato' });

/** Grid origin and step (m) covering the recipe's bounding box. */
export function benchGrid(recipe: FieldRecipe): { originM: [number, number, number]; stepM: number } {
  const b = recipeBounds(recipe);
  const extent = Math.max(b.boxMax[0] - b.boxMin[0], b.boxMax[1] - b.boxMin[1], b.boxMax[2] - b.boxMin[2]);
  return { originM: [b.boxMin[0], b.boxMin[1], b.boxMin[2]], stepM: extent / (GRID_N - 1) };
}

function jsBench(label: string, recipe: FieldRecipe): Benchmark {
  let field: FieldFn | null = null;
  const values = new Float32Array(GRID_N ** 3);
  const { originM, stepM } = benchGrid(recipe);
  let inside = 0;
  return {
    name: `field/js/65^3/${label}`,
    unit: 'evals/s',
    runs: 5,
    warmup: 1,
    setup: () => {
      field = compileToJs(recipe);
    },
    run: () => {
      const f = field!;
      let i = 0;
      inside = 0;
      for (let z = 0; z < GRID_N; z++) {
        const pz = originM[2] + z * stepM;
        for (let y = 0; y < GRID_N; y++) {
          const py = originM[1] + y * stepM;
          for (let x = 0; x < GRID_N; x++) {
            const v = f(originM[0] + x * stepM, py, pz);
            values[i++] = v;
            if (v < 0) inside++;
          }
        }
      }
    },
    toValue: (ms) => GRID_N ** 3 / (ms / 1000),
    notes: () => `one thread, double precision; ${recipe.name}; ${((100 * inside) / GRID_N ** 3).toFixed(1)}% of corners inside`,
  };
}

export const benchmarks: Benchmark[] = [jsBench('asteroid6', ASTEROID6), jsBench('potato', POTATO)];
