/**
 * Dual Contouring mesher vs the `isosurface` package's surfaceNets on the same sampled grid of a
 * noisy sphere (radius 24 cells + 4-octave fBm), at 64^3 and 128^3. Stage rows come from the stats
 * of a run with simplification on (threshold 0.01 squared cells); `total` is the plain mesher
 * (sampled grid → indexed mesh, no simplification), the like-for-like peer of surfaceNets.
 */
import { createRequire } from 'node:module';
import { createNoise3D } from 'simplex-noise';
import { createRandom } from '../../src/field/index.ts';
import { meshChunk, sampleChunk, sampleChunkNarrowBand } from '../../src/mesher/index.ts';
import type { ChunkStats, FieldFn } from '../../src/mesher/index.ts';
import { median } from './harness.ts';
import type { Benchmark } from './harness.ts';

type SurfaceNets = (dims: number[], potential: (x: number, y: number, z: number) => number) => { positions: number[][]; cells: number[][] };
const { surfaceNets } = createRequire(import.meta.url)('isosurface') as { surfaceNets: SurfaceNets };


function noisySphere(N: number): FieldFn {
  const noise = createNoise3D(createRandom(42));
  const c = N / 2;
  return (x, y, z) => {
    x -= c; y -= c; z -= c;
    let n = 0, amp = 2.5, fr = 0.06;
    for (let o = 0; o < 4; o++) { n += amp * noise(x * fr, y * fr, z * fr); amp *= 0.5; fr *= 2; }
    return Math.hypot(x, y, z) - 24 - n;
  };
}

const STAGES = ['hermite', 'qef', 'octree', 'simplify', 'contour'] as const;

function benchesFor(N: number): Benchmark[] {
  const spec = { originGrid: [0, 0, 0] as [number, number, number], level: 0, cells: N };
  const field = noisySphere(N);
  const values = sampleChunk(spec, field);
  const P = N + 1;
  const potential = (x: number, y: number, z: number): number => values[x + P * (y + P * z)];
  const stageRuns: ChunkStats[] = [];
  const totals: number[] = [];
  const nets: number[] = [];
  const pipelines: number[] = [];
  let tris = 0, netQuads = 0;
  const tag = `${N}^3`;
  const list: Benchmark[] = STAGES.map((stage) => ({
    name: `mesher/dc/${tag}/${stage}`,
    unit: 'ms',
    // The timed run is the whole mesher; the reported value is this stage's share of it.
    run: () => { stageRuns.push(meshChunk({ ...spec, values, simplify: 0.01 }).stats); },
    toValue: () => stageRuns[stageRuns.length - 1][`${stage}Ms`],
    notes: () => `simplify 0.01; ${stageRuns[stageRuns.length - 1].triangles} triangles, ${stageRuns[stageRuns.length - 1].leaves} leaves`,
  }));
  list.push({
    name: `mesher/dc/${tag}/total`,
    unit: 'ms',
    run: () => { tris = meshChunk({ ...spec, values }).stats.triangles; },
    toValue: (ms) => { totals.push(ms); return ms; },
    notes: () => `sampled grid → mesh, no simplification, grid normals; ${tris} triangles`,
  });
  list.push({
    name: `mesher/dc+simplify/${tag}/total`,
    unit: 'ms',
    run: () => meshChunk({ ...spec, values, simplify: 0.01 }),
    notes: 'simplify 0.01',
  });
  list.push({
    name: `mesher/surfaceNets/${tag}`,
    unit: 'ms',
    run: () => { netQuads = surfaceNets([P, P, P], potential).cells.length; },
    toValue: (ms) => { nets.push(ms); return ms; },
    notes: () => {
      const ratio = median(nets) / median(totals);
      return `isosurface@1.0.0 surfaceNets on the same grid, ${netQuads} quads; surfaceNets/dc median ratio ${ratio.toFixed(2)} (>1: DC faster)`;
    },
  });
  list.push({
    name: `mesher/pipeline/${tag}`,
    unit: 'ms',
    runs: N > 64 ? 3 : 5,
    warmup: 1,
    run: () => {
      const v = sampleChunk(spec, field);
      return meshChunk({ ...spec, values: v, field });
    },
    toValue: (ms) => { pipelines.push(ms); return ms; },
    notes: 'JS field evaluation (4-octave fBm) at every corner + crossing refinement and callback normals + DC',
  });
  let evaluations = 0;
  const narrow: number[] = [];
  list.push({
    name: `mesher/pipeline-narrow-band/${tag}`,
    unit: 'ms',
    runs: N > 64 ? 3 : 5,
    warmup: 1,
    run: () => {
      const s = sampleChunkNarrowBand(spec, field);
      evaluations = s.evaluations;
      return meshChunk({ ...spec, values: s.values, field });
    },
    toValue: (ms) => { narrow.push(ms); return ms; },
    notes: () => `as mesher/pipeline, the field evaluated narrow-band (src/mesher/narrowBand.ts, as body jobs do): ${evaluations} of ${P ** 3} points; the same mesh; ${(median(pipelines) / median(narrow)).toFixed(2)}x faster than the dense pipeline`,
  });
  return list;
}

export const benchmarks: Benchmark[] = [...benchesFor(64), ...benchesFor(128)];
