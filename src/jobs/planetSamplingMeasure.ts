/**
 * The sampling probe on the scene's planet (issue 16), run inside the GPU sampling worker: a few of
 * the planet's drawn surface chunks meshed in JS as a body worker meshes them, then sampled on the
 * GPU worker's planet sampler in one batch and meshed again from those samples (what a body worker
 * does on the GPU path: settle the shared faces, mesh). The programs it compiles are the ones the
 * planet's chunks use once the GPU takes over, so a scene with a planet compiles no probe program of
 * its own (explore: 12 programs with the GPU path, not 14), and the figure is the planet's chunks,
 * the bulk of a planet scene's work, rather than an asteroid's.
 *
 * In the pipeline model of samplingDecision.ts (JS: W / (sample + mesh); GPU: min(1 / gpu, W / mesh))
 * `jsMeshMs` is the worker's time on the GPU path and `jsSampleMs` what the JS path costs beyond it.
 */
import { MAX_BATCH_JOBS } from '../gpu/batches';
import type { GpuJob } from '../gpu/GpuFieldSampler';
import type { GpuChunkSamples } from '../gpu/samplerTypes';
import { CubeSphereSpace, parseChunkKey } from '../lod/index';
import type { BodyDefinition } from './bodyRegistry';
import { meshPlanetChunk } from './planetChunkJob';
import type { WorkerState } from './workerState';
import type { PreparedMeasurement } from './samplingMeasure';
import type { SamplingMeasurement } from './samplingDecision';
import { BODY_SIMPLIFY } from '../mesher/index';

/** What the page gives the probe: its planet (as registered with the workers) and chunks it draws. */
export interface PlanetMeasureBody {
  body: string;
  definition: BodyDefinition;
  /** Drawn chunk keys with a surface, finest first; the probe takes up to {@link PLANET_MEASURE_CHUNKS}. */
  keys: string[];
}

/** Chunks a planet probe meshes in JS (and again from GPU samples). */
export const PLANET_MEASURE_CHUNKS = 8;
/**
 * Chunks in the probe's GPU batches (its keys repeated): a streaming planet keeps the GPU's batches
 * full, and a batch of 8 would pay its round trips over a quarter as many chunks.
 */
const PLANET_MEASURE_BATCH = MAX_BATCH_JOBS;
/** No more full batches after one this many times slower than the JS path. */
const LOST_BY = 3;
/** No full batches where one would take longer than this at the keys' batch's rate (ms; the H100 machine's take ~40 ms). */
const FULL_BATCH_CAP_MS = 1000;

function chunkParams(probe: PlanetMeasureBody, key: string) {
  const a = parseChunkKey(key);
  return { body: probe.body, face: a.face, level: a.level, ci: a.ci, cj: a.cj, ck: a.ck, coarser: [], simplify: BODY_SIMPLIFY };
}

/** The keys the probe times (throws when the page gave none). */
function measureKeys(probe: PlanetMeasureBody): string[] {
  const keys = probe.keys.slice(0, PLANET_MEASURE_CHUNKS);
  if (keys.length === 0) throw new Error('sampling probe: the planet has no drawn surface chunk to time');
  return keys;
}

/** Grid points per axis of the planet's chunks. */
export function planetMeasurePoints(probe: PlanetMeasureBody): number {
  if (!probe.definition.space) throw new Error(`sampling probe: body "${probe.body}" has no chunk space: not a planet`);
  return new CubeSphereSpace(probe.definition.space).chunkCells + 1;
}

/**
 * Phase 1, with the page's frames running: registers the planet here, meshes its chunks in JS (no
 * kept samples), per chunk ms; then compiles its GPU programs and draws them once, untimed. The
 * compile is here, not in the quiet phase: a planet's programs took 5.5–7 s on the H100 machine
 * (no parallel compile there), longer than the page's frames may pause, and the explore frames that
 * came back meanwhile made its timed batches 13 ms a chunk against 1.7 ms in planet mode.
 */
export async function preparePlanetMeasurement(
  worker: WorkerState,
  probe: PlanetMeasureBody,
  sample: (key: string) => GpuJob<GpuChunkSamples>,
): Promise<PreparedMeasurement> {
  worker.registry.register(probe.body, probe.definition);
  const keys = measureKeys(probe);
  const run = (key: string) => {
    worker.planet.clear(); // a kept sample would skip the sampling this times
    return meshPlanetChunk(worker, chunkParams(probe, key));
  };
  run(keys[0]); // compiles the level's field; JIT warm-up
  let sampleMs = 0, meshMs = 0;
  for (const key of keys) {
    const r = run(key);
    sampleMs += r.sampleMs;
    meshMs += r.ms - r.sampleMs;
  }
  const chunk = { points: planetMeasurePoints(probe), sampleMs: sampleMs / keys.length, meshMs: meshMs / keys.length };
  const start = performance.now();
  await sample(keys[0]).promise; // compile, link, and the driver's first-draw pipelines
  return { js: { coarse: chunk, fine: chunk }, gpuFirstMs: performance.now() - start };
}

/**
 * Phase 2, the page's frames paused: the chunks in one batch, then (unless that lost by far) in full
 * batches, best of three; then each meshed here from its GPU samples as a body worker would.
 */
export async function measurePlanetGpu(
  worker: WorkerState,
  probe: PlanetMeasureBody,
  sample: (key: string) => GpuJob<GpuChunkSamples>,
  prepared: PreparedMeasurement,
  workers: number,
): Promise<SamplingMeasurement> {
  const keys = measureKeys(probe);
  const js = prepared.js.coarse;
  const jsPerWorkerMs = (js.sampleMs + js.meshMs) / Math.max(1, workers);
  const timeBatch = async (batch: string[]) => {
    const t0 = performance.now();
    const out = await Promise.all(batch.map((k) => sample(k).promise));
    return { ms: (performance.now() - t0) / batch.length, samples: out };
  };
  // The keys alone first. Full batches amortise a real GPU's round trips; a GPU whose full batch
  // would take seconds (a software one: its cost is per sample, so there is nothing to amortise)
  // stops here. SwiftShader's full batches (~3 s each) took the probe past its time limit. Not a
  // rate test: this batch also pays the driver's first draws at its size (the H100 machine: 5.6–6.2
  // ms a chunk, then 1.0–1.2 in full batches).
  const alone = await timeBatch(keys);
  let gpuMs = alone.ms, samples = alone.samples, batchSize = keys.length;
  if (gpuMs * PLANET_MEASURE_BATCH <= FULL_BATCH_CAP_MS) {
    // Best of three full batches: one alone came out 1.1–2.9 ms a chunk over four H100 loads.
    const batch = Array.from({ length: PLANET_MEASURE_BATCH }, (_, n) => keys[n % keys.length]);
    for (let i = 0; i < 3; i++) {
      const full = await timeBatch(batch);
      // Full batches are what a streaming planet runs: the first replaces the keys' batch.
      if (full.ms < gpuMs || batchSize === keys.length) {
        gpuMs = full.ms;
        samples = full.samples.slice(0, keys.length);
        batchSize = batch.length;
      }
      if (full.ms > LOST_BY * jsPerWorkerMs) break;
    }
  }
  const gpuFirstMs = prepared.gpuFirstMs ?? 0;
  let gpuPathMeshMs = 0;
  keys.forEach((key, n) => {
    worker.planet.clear();
    const s = samples[n];
    gpuPathMeshMs += meshPlanetChunk(worker, { ...chunkParams(probe, key), gpu: { values: s.values, hermite: s.hermite } }).ms;
  });
  gpuPathMeshMs /= keys.length;
  return {
    body: 'planet', compileSunk: true, points: planetMeasurePoints(probe), batch: batchSize, gpuMs, gpuFirstMs,
    jsSampleMs: Math.max(0, js.sampleMs + js.meshMs - gpuPathMeshMs), jsMeshMs: gpuPathMeshMs,
  };
}
