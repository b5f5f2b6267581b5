/**
 * Picks where field sampling runs, once at start-up:
 *
 * 1. `gpu-worker`: a WebGL2 context on an OffscreenCanvas in a worker — sampling never
 *    touches the main thread;
 * 2. `gpu-main`: the main thread's WebGL2 with async readback (fences + pixel-pack buffers),
 *    only when asked for (`?sampling=gpu-main`);
 * 3. `js-worker`: the JS back end of the field in the body workers (always there).
 *
 * Between 1 and 3 the choice is measured, not read from the renderer's name (issue 16): the GPU
 * worker times probe chunks on its GPU and in JS (samplingMeasure.ts), and samplingDecision.ts
 * compares the two pipelines (the workers sampling and meshing, or the GPU sampling while they
 * mesh). The answer is cached per renderer, core count and worker count, so only a profile's
 * first load measures; the overlay says which figures chose the path and whether they were cached.
 *
 * A software rasteriser (SwiftShader, llvmpipe) is not measured under `auto`: its "GPU" is the CPU
 * the workers already use, it always lost (JS 17–25 chunks/s against 9–11 on SwiftShader), and
 * its probe draws ran for seconds each — long enough, beside a busy page, for Chromium's GPU
 * watchdog to kill the GPU process and every WebGL context with it (docs/robustness.md).
 * `?sampling=measure` measures it anyway.
 */
import { GpuSamplerClient, type GpuSamplerClientOptions } from './GpuSamplerClient';
import {
  decideSamplingPath, readCachedMeasurement, writeCachedMeasurement, SAMPLING_MEASURE_VERSION,
  type SamplingMeasurement,
} from '../jobs/samplingDecision';
import { defaultWorkerCount } from './WorkerPool';
import { fieldEvaluatorStatus, type FieldRecipe } from '../field/index';
import type { PlanetMeasureBody } from '../jobs/planetSamplingMeasure';

export type SamplingPath = 'gpu-worker' | 'gpu-main' | 'js-worker';

/** What a caller may ask for: a path, `auto` (measure a real GPU), or `measure` (a software one too). */
export type SamplingPreference = SamplingPath | 'auto' | 'measure';

export interface SamplingChoice {
  path: SamplingPath;
  /** One line for the stats overlay. */
  detail: string;
  /** The worker sampler when `path` is `gpu-worker` (the caller owns it). */
  gpuWorker: GpuSamplerClient | null;
  /** The figures that chose the path (null when forced or when no GPU worker could start). */
  measurement: SamplingMeasurement | null;
  /** Whether `measurement` came from an earlier page load's probe. */
  cached: boolean;
  /**
   * With `measureInBackground`, unless JS won: starts the GPU path — measuring it first when
   * nothing is cached — and resolves with that choice, while this one (JS in workers) lets
   * generation start at once. The caller says when: beside the page's own start-up the GPU's
   * figures are its contention's (on the H100 machine, 218 ms a chunk beside explore's start,
   * 6–16 ms once settled), and even an idle GPU worker's context slowed that start. Null otherwise.
   */
  upgrade: (() => Promise<SamplingChoice>) | null;
}

export const SAMPLING_PATHS: readonly SamplingPath[] = ['gpu-worker', 'gpu-main', 'js-worker'];

/**
 * Longest the measurement may take before the GPU is taken as too slow (a stalled or software GPU).
 * A planet probe compiles the planet's programs (planetSamplingMeasure.ts): 4–7 s on the H100 machine, with no
 * parallel compile there, and 8.5 s on SwiftShader here, whose whole probe then takes ~11 s. The page
 * runs in JS meanwhile.
 */
const MEASURE_TIMEOUT_MS = 30_000;

/** A software rasteriser: its "GPU" is the same CPU the JS workers would use (shown in overlays, not used to choose). */
export function isSoftwareRenderer(renderer: string): boolean {
  return /swiftshader|llvmpipe|softpipe|software|basic render driver/i.test(renderer);
}

export interface SamplingProbeEnv {
  /** Where measurements are cached (default: localStorage when there is one). */
  storage?: Storage | null;
  /** Body workers the scene will run (default: the pool's default). */
  workers?: number;
  /** Clock for the cache's age (default: Date.now). */
  nowMs?: number;
  /**
   * With nothing cached, answer JS at once and leave the measurement to the caller (`upgrade`),
   * rather than hold generation back: it costs a program compile, which a software GPU takes
   * seconds over. Default false (benchmarks wait for the measured path).
   */
  measureInBackground?: boolean;
  /**
   * The probe body, asked for when the measurement starts (default: samplingMeasure's noisy sphere):
   * a recipe, or the scene's planet and chunks it draws (planetSamplingMeasure.ts). A scene body shares its programs.
   */
  measureBody?: () => FieldRecipe | PlanetMeasureBody;
  /** Keeps the page's frames off the GPU during its compile and timed batches; returns the resume (GpuSamplerClient.measure). */
  quietGpu?: () => Promise<() => void>;
}

function defaultStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function measureWithin(client: GpuSamplerClient, workers: number, env: SamplingProbeEnv, ms: number): Promise<SamplingMeasurement> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the GPU probe took over ${ms / 1000} s`)), ms);
    client.measure(workers, env.measureBody?.(), env.quietGpu).then(
      (m) => { clearTimeout(timer); resolve(m); },
      (e: unknown) => { clearTimeout(timer); reject(e instanceof Error ? e : new Error(String(e))); },
    );
  });
}

/**
 * Picks the sampling path. `prefer` (from `?sampling=`) forces a path when it is available;
 * `auto` measures (or reads the cached measurement) and takes the faster. The choice's overlay
 * line (and its upgrade's) says so where the JS field runs on the closures because this page
 * refuses generated code ({@link evaluatorNote}).
 */
export async function chooseSamplingPath(
  main: { webgl2: boolean; floatRenderTargets: boolean; renderer: string },
  prefer: SamplingPreference = 'auto',
  gpuOptions: GpuSamplerClientOptions = {},
  env: SamplingProbeEnv = {},
): Promise<SamplingChoice> {
  return withEvaluatorNote(await choosePath(main, prefer, gpuOptions, env));
}

/**
 * The overlay's word on the JS field's evaluator (issue 43): '' with the generated evaluator, else
 * that the closures run and why (a content security policy without 'unsafe-eval' refuses `new
 * Function`). Asked on this thread: workers served with the page's headers answer the same.
 */
export function evaluatorNote(): string {
  const s = fieldEvaluatorStatus();
  return s.evaluator === 'generated' ? '' : `; JS field on the closures (CSP fallback, slower): ${s.reason}`;
}

function withEvaluatorNote(choice: SamplingChoice): SamplingChoice {
  const upgrade = choice.upgrade;
  return {
    ...choice,
    detail: `${choice.detail}${evaluatorNote()}`,
    upgrade: upgrade && (async () => withEvaluatorNote(await upgrade())),
  };
}

async function choosePath(
  main: { webgl2: boolean; floatRenderTargets: boolean; renderer: string },
  prefer: SamplingPreference,
  gpuOptions: GpuSamplerClientOptions,
  env: SamplingProbeEnv,
): Promise<SamplingChoice> {
  const forced = { measurement: null, cached: false, upgrade: null };
  const mainGpu = main.webgl2 && main.floatRenderTargets;
  if (prefer === 'js-worker') return { path: 'js-worker', detail: 'JS field in workers: forced by ?sampling', gpuWorker: null, ...forced };
  if (prefer === 'gpu-main' && mainGpu) {
    return { path: 'gpu-main', detail: 'GPU on the main thread (async readback), forced by ?sampling', gpuWorker: null, ...forced };
  }
  if (prefer === 'gpu-worker') {
    const gpuWorker = await GpuSamplerClient.create(gpuOptions);
    if (gpuWorker) return { path: 'gpu-worker', detail: 'GPU in a worker (OffscreenCanvas WebGL2), forced by ?sampling', gpuWorker, ...forced };
    return { path: 'js-worker', detail: 'JS field in workers: no WebGL2 in workers for ?sampling=gpu-worker', gpuWorker: null, ...forced };
  }
  if (prefer === 'auto' && isSoftwareRenderer(main.renderer)) {
    return { path: 'js-worker', detail: 'JS field in workers: a software GPU runs on the same CPU (not measured; ?sampling=measure times it)', gpuWorker: null, ...forced };
  }
  return measuredChoice(main.renderer, gpuOptions, env);
}

async function measuredChoice(renderer: string, gpuOptions: GpuSamplerClientOptions, env: SamplingProbeEnv): Promise<SamplingChoice> {
  const storage = env.storage === undefined ? defaultStorage() : env.storage;
  const workers = env.workers ?? defaultWorkerCount();
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 0 : 0;
  const key = { renderer, cores, workers };
  const nowMs = env.nowMs ?? Date.now();
  const cachedMeasurement = readCachedMeasurement(storage, key, nowMs);

  if (cachedMeasurement) {
    const decision = decideSamplingPath(cachedMeasurement.measurement, workers);
    const when = new Date(cachedMeasurement.atMs).toISOString().slice(0, 10);
    const detail = `${decision.why} (cached ${when})`;
    const base = { measurement: cachedMeasurement.measurement, cached: true, upgrade: null };
    if (decision.path === 'js-worker') return { path: 'js-worker', detail: `JS field in workers: ${detail}`, gpuWorker: null, ...base };
    const start = async (): Promise<SamplingChoice> => {
      const gpuWorker = await GpuSamplerClient.create(gpuOptions);
      if (gpuWorker) return { path: 'gpu-worker', detail: `GPU in a worker: ${detail}`, gpuWorker, ...base };
      return { path: 'js-worker', detail: 'JS field in workers: the GPU worker did not start this time', gpuWorker: null, ...base };
    };
    if (!env.measureInBackground) return start();
    // Not even the worker's context at start: on the H100 machine explore's later loads settled in
    // 8.3–10.2 s (planet 10.6–15.5 s) with it there, idle, against 2.6–5.6 s (3.0–8.8 s) without.
    return { path: 'js-worker', detail: `JS field in workers until the scene settles, then GPU in a worker: ${detail}`, gpuWorker: null, ...base, upgrade: start };
  }

  const run = () => measure(gpuOptions, workers, env, (measurement) =>
    writeCachedMeasurement(storage, { version: SAMPLING_MEASURE_VERSION, ...key, atMs: Date.now(), measurement }));
  if (!env.measureInBackground) return run();
  return { path: 'js-worker', detail: 'JS field in workers until the GPU is measured…', gpuWorker: null, measurement: null, cached: false, upgrade: run };
}

/** Starts the GPU worker, times the probe chunk on both paths and keeps the faster (JS when anything fails). */
async function measure(
  gpuOptions: GpuSamplerClientOptions,
  workers: number,
  env: SamplingProbeEnv,
  store: (m: SamplingMeasurement) => void,
): Promise<SamplingChoice> {
  const none = { gpuWorker: null, measurement: null, cached: false, upgrade: null };
  const gpuWorker = await GpuSamplerClient.create(gpuOptions);
  if (!gpuWorker) return { path: 'js-worker', detail: 'JS field in workers: no WebGL2 in workers', ...none };
  let measurement: SamplingMeasurement;
  try {
    measurement = await measureWithin(gpuWorker, workers, env, MEASURE_TIMEOUT_MS);
  } catch (e) {
    gpuWorker.dispose();
    const why = e instanceof Error ? e.message : String(e);
    return { path: 'js-worker', detail: `JS field in workers: ${why}`, ...none };
  }
  store(measurement);
  const decision = decideSamplingPath(measurement, workers);
  const base = { measurement, cached: false, upgrade: null };
  if (decision.path === 'gpu-worker') return { path: 'gpu-worker', detail: `GPU in a worker: ${decision.why}`, gpuWorker, ...base };
  gpuWorker.dispose();
  return { path: 'js-worker', detail: `JS field in workers: ${decision.why}`, gpuWorker: null, ...base };
}
