/**
 * GLSL field back end throughput in this browser: the same 65³ grids as
 * test/bench/field.bench.ts, evaluated by one fragment-shader draw into an RGBA32F target
 * (z-slices tiled), read back with readPixels; gl.finish() closes the timing. Program
 * compile time is reported in the notes, not timed.
 */
import type { Benchmark } from '../harness';
import { ASTEROID6, benchGrid, GRID_N, POTATO } from '../field.bench';
import { createFieldContext, createFieldPass, type FieldPass } from '../../browser/pages/fieldEval';
import type { FieldRecipe } from '../../../src/field/index';

function glslBench(label: string, recipe: FieldRecipe): Benchmark {
  let pass: FieldPass | null = null;
  const { originM, stepM } = benchGrid(recipe);
  return {
    name: `field/glsl/65^3/${label}`,
    unit: 'evals/s',
    runs: 5,
    warmup: 1,
    setup: () => {
      pass = createFieldPass(createFieldContext(), recipe);
    },
    run: () => pass!.evaluateGrid(originM, stepM, GRID_N),
    toValue: (ms) => GRID_N ** 3 / (ms / 1000),
    notes: () => `one draw + readPixels + finish; ${recipe.name}; program compile ${pass ? pass.compileMs.toFixed(0) : '?'} ms`,
  };
}

export const benchmarks: Benchmark[] = [glslBench('asteroid6', ASTEROID6), glslBench('potato', POTATO)];
