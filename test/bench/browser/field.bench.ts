/**
 * GLSL field back end throughput in this browser: the same 65³ grids as
 * test/bench/field.bench.ts, sampled by the production grid pass (GpuFieldSampler.sampleGrid on a
 * main-thread context: one draw into an RGBA32F target, readPixels into a pixel-pack buffer, a
 * fence, getBufferSubData once it signals). The first job, which compiles the programs, is the
 * warm-up and is reported in the notes, not timed.
 */
import type { Benchmark } from '../harness';
import { ASTEROID6, benchGrid, GRID_N, POTATO } from '../field.bench';
import { createFieldContext } from '../../browser/pages/fieldEval';
import type { FieldRecipe } from '../../../src/field/index';
import { GpuFieldSampler } from '../../../src/gpu/GpuFieldSampler';

function glslBench(label: string, recipe: FieldRecipe): Benchmark {
  let sampler: GpuFieldSampler | null = null;
  let firstMs = NaN;
  const { originM, stepM } = benchGrid(recipe);
  const grid = { originM, stepM, points: GRID_N };
  return {
    name: `field/glsl/65^3/${label}`,
    unit: 'evals/s',
    runs: 5,
    warmup: 0,
    setup: async () => {
      sampler = new GpuFieldSampler(createFieldContext(), { label });
      const t0 = performance.now();
      await sampler.sampleGrid(recipe, grid).promise;
      firstMs = performance.now() - t0;
    },
    run: async () => {
      await sampler!.sampleGrid(recipe, grid).promise;
    },
    toValue: (ms) => GRID_N ** 3 / (ms / 1000),
    notes: () => `the production grid pass (one job: draw, readPixels into a buffer, fence, readback); ${recipe.name}; first job with the program compile ${firstMs.toFixed(0)} ms`,
  };
}

export const benchmarks: Benchmark[] = [glslBench('asteroid6', ASTEROID6), glslBench('potato', POTATO)];
