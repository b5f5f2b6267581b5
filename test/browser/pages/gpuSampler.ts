/**
 * Page-side checks for test/browser/gpuSampler.test.ts, loaded with srImport() on the dev
 * server. Each function runs a GPU job, the same work in JS (float64), and returns numbers
 * for the Node side to assert on.
 */
import { compileToJs, recipeBounds, type FieldRecipe } from '../../../src/field/index';
import { GpuFieldSampler, type ChunkGrid, type EdgeSamples, type GpuCollect } from '../../../src/gpu/GpuFieldSampler';
import { signChangingEdges } from '../../../src/gpu/edgeList';
import { GpuSamplerClient } from '../../../src/workers/GpuSamplerClient';

const GRADIENT_STEP_CELLS = 0.02;

let gl: WebGL2RenderingContext | null = null;
let sampler: GpuFieldSampler | null = null;
/** The numbers-as-data sampler (issue 16: one program set per recipe shape), on its own context. */
let dataSampler: GpuFieldSampler | null = null;

function mainSampler(numbersAsData = false): GpuFieldSampler {
  if (numbersAsData) {
    dataSampler ??= new GpuFieldSampler(document.createElement('canvas').getContext('webgl2')!, {
      label: 'test (numbers as data)', poison: true, gradientStepCells: GRADIENT_STEP_CELLS, fieldOptions: { permutationTexture: true, numbersAsData: true },
    });
    return dataSampler;
  }
  if (!sampler) {
    gl = document.createElement('canvas').getContext('webgl2')!;
    sampler = new GpuFieldSampler(gl, { label: 'test', poison: true, gradientStepCells: GRADIENT_STEP_CELLS });
  }
  return sampler;
}

/** Program sets the numbers-as-data sampler built so far, and holds. */
export function dataSamplerPrograms(): { built: number; held: number } {
  const s = mainSampler(true);
  return { built: s.programsBuilt, held: s.programCount };
}

/**
 * Prepares `recipes` on a fresh numbers-as-data sampler, releases the first twice-held one once and
 * then every hold, sampling the first again at the end: what the sampler holds at each step.
 */
export async function releaseCycle(recipes: FieldRecipe[]): Promise<{ prepared: number; afterOneRelease: number; afterAll: number; programs: number; resampledNaN: number }> {
  const s = new GpuFieldSampler(document.createElement('canvas').getContext('webgl2')!, {
    label: 'release test', poison: true, gradientStepCells: GRADIENT_STEP_CELLS, fieldOptions: { permutationTexture: true, numbersAsData: true },
  });
  for (const r of recipes) s.prepare(r);
  s.prepare(recipes[0]); // a second holder of the first
  const prepared = s.recipeCount;
  s.release(recipes[0]);
  s.release(recipes[1]);
  const afterOneRelease = s.recipeCount;
  for (const r of recipes) s.release(r);
  const afterAll = s.recipeCount;
  const programs = s.programCount;
  const { values } = await s.sampleGrid(recipes[0], gridAround(recipes[0], 9)).promise;
  s.dispose();
  return { prepared, afterOneRelease, afterAll, programs, resampledNaN: values.filter(Number.isNaN).length };
}

/**
 * Recipes of one shape sampled together on a fresh numbers-as-data sampler: every grid job at once,
 * then every edge job at once (recipeSlots.ts: one batch holds several recipes), against each job
 * alone on the same sampler (the same programs and numbers: identical) and the grids against JS.
 */
export async function batchedRecipes(recipes: FieldRecipe[], points: number): Promise<{
  gridBatches: number; edgeBatches: number; worstGridOfSize: number; nanCount: number; signMismatches: number; gridsIdentical: boolean; edgesIdentical: boolean;
}> {
  const s = new GpuFieldSampler(document.createElement('canvas').getContext('webgl2')!, {
    label: 'batched recipes test', poison: true, gradientStepCells: GRADIENT_STEP_CELLS, fieldOptions: { permutationTexture: true, numbersAsData: true },
  });
  try {
    const grids = recipes.map((r) => gridAround(r, points));
    // Alone first (each job awaited before the next: a batch each), which also compiles the shape.
    const alone: Float32Array[] = [];
    for (let i = 0; i < recipes.length; i++) alone.push((await s.sampleGrid(recipes[i], grids[i]).promise).values);
    const ids = alone.map((values) => signChangingEdges(values, points).ids);
    const aloneEdges: EdgeSamples[] = [];
    for (let i = 0; i < recipes.length; i++) aloneEdges.push(await s.sampleEdges(recipes[i], grids[i], ids[i]).promise);
    const before = structuredClone(s.timing);
    const together = await Promise.all(recipes.map((r, i) => s.sampleGrid(r, grids[i]).promise));
    const togetherEdges = await Promise.all(recipes.map((r, i) => s.sampleEdges(r, grids[i], ids[i]).promise));
    const same = (x: ArrayLike<number>, y: ArrayLike<number>) => x.length === y.length && Array.from(x).every((v, i) => Object.is(v, y[i]));
    let worstGridOfSize = 0, nanCount = 0, signMismatches = 0;
    together.forEach((g, i) => {
      const parity = compareGrid(recipes[i], grids[i], g.values, g.latencyMs);
      worstGridOfSize = Math.max(worstGridOfSize, parity.maxAbsDiffM / parity.sizeM);
      nanCount += parity.nanCount;
      signMismatches += parity.signMismatches;
    });
    return {
      gridBatches: s.timing.grid.batches - before.grid.batches,
      edgeBatches: s.timing.edges.batches - before.edges.batches,
      worstGridOfSize, nanCount, signMismatches,
      gridsIdentical: together.every((g, i) => same(g.values, alone[i])),
      edgesIdentical: togetherEdges.every((e, i) => same(e.t, aloneEdges[i].t) && same(e.normals, aloneEdges[i].normals)),
    };
  } finally {
    s.dispose();
  }
}

/** A grid that covers the body's bounds with P points per axis. */
export function gridAround(recipe: FieldRecipe, points: number): ChunkGrid {
  const b = recipeBounds(recipe);
  const min = b.boxMin;
  const max = b.boxMax;
  const extent = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]) * 1.05;
  const stepM = extent / (points - 1);
  const c = [0, 1, 2].map((a) => 0.5 * (min[a] + max[a]));
  return { originM: [c[0] - extent / 2, c[1] - extent / 2, c[2] - extent / 2], stepM, points };
}

function jsGrid(recipe: FieldRecipe, grid: ChunkGrid): Float64Array {
  const f = compileToJs(recipe);
  const p = grid.points;
  const out = new Float64Array(p * p * p);
  for (let k = 0; k < p; k++)
    for (let j = 0; j < p; j++)
      for (let i = 0; i < p; i++)
        out[i + p * (j + p * k)] = f(
          grid.originM[0] + grid.stepM * i,
          grid.originM[1] + grid.stepM * j,
          grid.originM[2] + grid.stepM * k,
        );
  return out;
}

export interface GridParity {
  points: number;
  sizeM: number;
  maxAbsDiffM: number;
  worstIndex: number;
  nanCount: number;
  signMismatches: number;
  latencyMs: number;
}

function compareGrid(recipe: FieldRecipe, grid: ChunkGrid, gpu: Float32Array, latencyMs: number): GridParity {
  const cpu = jsGrid(recipe, grid);
  const sizeM = recipeBounds(recipe).sizeM;
  let maxAbsDiffM = 0;
  let worstIndex = -1;
  let nanCount = 0;
  let signMismatches = 0;
  for (let i = 0; i < cpu.length; i++) {
    if (!Number.isFinite(gpu[i])) {
      nanCount++;
      continue;
    }
    const d = Math.abs(gpu[i] - cpu[i]);
    if (d > maxAbsDiffM) {
      maxAbsDiffM = d;
      worstIndex = i;
    }
    if (Math.abs(cpu[i]) > 1e-4 * sizeM && gpu[i] < 0 !== cpu[i] < 0) signMismatches++;
  }
  return { points: grid.points, sizeM, maxAbsDiffM, worstIndex, nanCount, signMismatches, latencyMs };
}

export async function gridParity(recipe: FieldRecipe, points: number, numbersAsData = false): Promise<GridParity> {
  const grid = gridAround(recipe, points);
  const { values, latencyMs } = await mainSampler(numbersAsData).sampleGrid(recipe, grid).promise;
  return compareGrid(recipe, grid, values, latencyMs);
}

/** Reference crossing: the same Illinois iteration as the shader, in float64, plus a tight bisection. */
function referenceCrossing(f: (t: number) => number): number {
  let lo = 0;
  let hi = 1;
  let flo = f(0);
  let fhi = f(1);
  for (let s = 0; s < 60; s++) {
    const t = 0.5 * (lo + hi);
    const ft = f(t);
    if (ft < 0 === flo < 0) {
      lo = t;
      flo = ft;
    } else {
      hi = t;
      fhi = ft;
    }
  }
  void fhi;
  return 0.5 * (lo + hi);
}

export interface EdgeParity {
  edges: number;
  maxTDiff: number;
  maxAngleDeg: number;
  unresolved: number;
  /** Edges with several crossings where the GPU found a different (valid) one than the reference. */
  otherRoot: number;
  /** Edges nearly tangent to the surface, where |f(t_gpu)| ≤ 1e-5 of size but t moved more than 1e-3 cell. */
  grazing: number;
  /** The edge with the largest |Δt|: both t, the field there and along the edge (debugging). */
  worst: unknown;
  nanCount: number;
  latencyMs: number;
}

export async function edgeParity(recipe: FieldRecipe, points: number, numbersAsData = false): Promise<EdgeParity> {
  const grid = gridAround(recipe, points);
  const f = compileToJs(recipe);
  const values = jsGrid(recipe, grid);
  const ids = signChangingEdges(values, points).ids;
  const result = await mainSampler(numbersAsData).sampleEdges(recipe, grid, ids).promise;
  const p = points;
  const p3 = p * p * p;
  const at = (x: number, y: number, z: number): number =>
    f(grid.originM[0] + grid.stepM * x, grid.originM[1] + grid.stepM * y, grid.originM[2] + grid.stepM * z);
  let maxTDiff = 0;
  let maxAngleDeg = 0;
  let unresolved = 0;
  let nanCount = 0;
  let otherRoot = 0;
  let grazing = 0;
  let worst: unknown = null;
  const sizeM = recipeBounds(recipe).sizeM;
  for (let e = 0; e < ids.length; e++) {
    const id = ids[e];
    const axis = Math.floor(id / p3);
    let rest = id - axis * p3;
    const k = Math.floor(rest / (p * p));
    rest -= k * p * p;
    const j = Math.floor(rest / p);
    const i = rest - j * p;
    const d = [axis === 0 ? 1 : 0, axis === 1 ? 1 : 0, axis === 2 ? 1 : 0];
    const gpuT = result.t[e];
    const n = [result.normals[3 * e], result.normals[3 * e + 1], result.normals[3 * e + 2]];
    if (![gpuT, ...n].every(Number.isFinite)) {
      nanCount++;
      continue;
    }
    if (gpuT < 0) {
      unresolved++;
      continue;
    }
    const along = (s: number): number => at(i + s * d[0], j + s * d[1], k + s * d[2]);
    let t = referenceCrossing(along);
    if (Math.abs(t - gpuT) > 1e-3) {
      // An edge can cross the surface three times; the shader's regula falsi and this
      // bisection may then settle on different, equally valid roots. The GPU's answer counts
      // if a root lies within 1e-3 cell of it.
      const a = along(Math.max(0, gpuT - 1e-3));
      const b = along(Math.min(1, gpuT + 1e-3));
      if (a < 0 !== b < 0) {
        otherRoot++;
        t = gpuT;
      } else if (Math.abs(along(gpuT)) <= 1e-5 * sizeM) {
        // Grazing edge: the field is nearly tangent there, so the float32 field's error
        // (≈1e-6 of size) moves the root far along the edge. The GPU's t is still a root of
        // the field to float32 accuracy; count it, and compare its normal at its own t.
        grazing++;
        t = gpuT;
      }
    }
    if (Math.abs(t - gpuT) > maxTDiff) {
      const samples = [];
      for (let q = 0; q <= 20; q++) samples.push(+along(q / 20).toPrecision(4));
      worst = { gpuT, t, fGpu: along(gpuT), fRef: along(t), samples, sizeM };
    }
    maxTDiff = Math.max(maxTDiff, Math.abs(t - gpuT));
    // Reference normal: the same definition as the shader (central differences in grid
    // coordinates, step GRADIENT_STEP_CELLS) in float64, at the reference crossing. A
    // smaller step would disagree legitimately at creases, where the gradient jumps.
    const c = [i + t * d[0], j + t * d[1], k + t * d[2]];
    const h = GRADIENT_STEP_CELLS;
    const g = [0, 1, 2].map((a) => {
      const plus = [...c];
      const minus = [...c];
      plus[a] += h;
      minus[a] -= h;
      return at(plus[0], plus[1], plus[2]) - at(minus[0], minus[1], minus[2]);
    });
    const gl = Math.hypot(g[0], g[1], g[2]);
    const cos = (g[0] * n[0] + g[1] * n[1] + g[2] * n[2]) / gl;
    maxAngleDeg = Math.max(maxAngleDeg, (Math.acos(Math.min(1, Math.max(-1, cos))) * 180) / Math.PI);
  }
  return { worst, edges: ids.length, maxTDiff, maxAngleDeg, unresolved, otherRoot, grazing, nanCount, latencyMs: result.latencyMs };
}

/** Runs a grid job on the main-thread context and records requestAnimationFrame gaps meanwhile. */
export async function rafDuringGrid(recipe: FieldRecipe, points: number): Promise<{ frames: number; longestGapMs: number; latencyMs: number }> {
  const s = mainSampler();
  const grid = gridAround(recipe, points);
  // Compile first, so the measurement is about sampling (compiles are async too, but slow on SwiftShader).
  await s.sampleGrid(recipe, { ...grid, points: 2 }).promise;
  let frames = 0;
  let last = performance.now();
  let longestGapMs = 0;
  let running = true;
  const tick = (now: number): void => {
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
    frames++;
    if (running) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const { latencyMs } = await s.sampleGrid(recipe, grid).promise;
  running = false;
  return { frames, longestGapMs, latencyMs };
}

/** Loses the main-thread context while a job is pending; returns the job's rejection name. */
export async function contextLossRejects(recipe: FieldRecipe): Promise<{ name: string; after: string }> {
  const s = mainSampler();
  const job = s.sampleGrid(recipe, gridAround(recipe, 33));
  const lose = gl!.getExtension('WEBGL_lose_context')!;
  lose.loseContext();
  let name = 'resolved';
  try {
    await job.promise;
  } catch (e) {
    name = (e as Error).name;
  }
  // New work while lost is refused at once, with the same recognisable error.
  let after = 'resolved';
  try {
    await s.sampleGrid(recipe, gridAround(recipe, 9)).promise;
  } catch (e) {
    after = (e as Error).name;
  }
  lose.restoreContext();
  sampler = null;
  return { name, after };
}

/** The same grid through the OffscreenCanvas worker, its sampler finding finished batches by `collect`. */
export async function workerGridParity(recipe: FieldRecipe, points: number, collect: GpuCollect = 'poll'): Promise<GridParity & { renderer: string }> {
  const client = await GpuSamplerClient.create({ poison: true, collect });
  if (!client) throw new Error('no GPU sampling worker (OffscreenCanvas WebGL2) in this browser');
  try {
    const grid = gridAround(recipe, points);
    client.registerBody('parity', { recipe });
    const { values, latencyMs } = await client.sampleGrid('parity', grid).promise;
    return { ...compareGrid(recipe, grid, values, latencyMs), renderer: client.capabilities.renderer };
  } finally {
    client.dispose();
  }
}

export async function workerRecipeError(): Promise<string> {
  const client = await GpuSamplerClient.create();
  if (!client) throw new Error('no GPU sampling worker');
  try {
    client.registerBody('bogus', { recipe: { bogus: true } as unknown as FieldRecipe });
    await client.sampleGrid('bogus', { originM: [0, 0, 0], stepM: 1, points: 9 }).promise;
    return 'resolved';
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  } finally {
    client.dispose();
  }
}

/** A mapping chunk with a GLSL error: the job must reject with a GpuShaderError that names the recipe and line. */
export async function brokenMappingError(recipe: FieldRecipe): Promise<{ name: string; message: string }> {
  const ctx = document.createElement('canvas').getContext('webgl2')!;
  const broken = new GpuFieldSampler(ctx, {
    label: 'broken-mapping test',
    mappingGlsl: 'uniform float sr_chunkStepM;\nvec3 sr_chunkPointM(vec3 localIndex) {\n  return localIndex * sr_chunkStepM + notDeclared;\n}',
  });
  try {
    await broken.sampleGrid(recipe, { originM: [0, 0, 0], stepM: 1, points: 5 }).promise;
    return { name: 'resolved', message: '' };
  } catch (e) {
    return { name: (e as Error).name, message: (e as Error).message };
  } finally {
    broken.dispose();
    ctx.getExtension('WEBGL_lose_context')?.loseContext();
  }
}
