/**
 * Which sampling path wins, from a measurement rather than the renderer's name (issue 16), and
 * the cache that keeps the answer per GPU and core count so later page loads skip the probe.
 * Pure: no DOM beyond a Storage-like object, so Node tests reach it.
 *
 * The measurement (samplingMeasure.ts, run in the GPU sampling worker) times one asteroid-like
 * chunk: on the GPU (grid values + hermite edges, per chunk in a batch), and in JS as a body worker
 * meshes it (sampling, then the rest of Dual Contouring). The two paths are pipelines:
 *
 * - JS path: each of W body workers samples and meshes: W / (sample + mesh) chunks per ms;
 * - GPU path: the GPU samples while the workers only mesh: min(1 / gpu, W / mesh).
 *
 * The faster pipeline wins. A software rasteriser shows itself here: its "GPU" time is CPU time,
 * and it loses to the workers without anyone reading its name.
 */

/** Bump when the sampler, the probe or this rule changes: cached answers from before are measured again. */
export const SAMPLING_MEASURE_VERSION = 10;
/** A cached answer older than this is measured again (drivers and browsers update in place). */
export const SAMPLING_MEASURE_MAX_AGE_MS = 14 * 24 * 3600 * 1000;
export const SAMPLING_MEASURE_STORAGE_KEY = 'space-renderer.samplingProbe';

/** What the GPU sampling worker measured on probe chunks (the best of warm runs). */
export interface SamplingMeasurement {
  /** Grid points per axis of the probe chunk. */
  points: number;
  /** What was timed: the scene's planet chunks (planetSamplingMeasure.ts) or an asteroid-like body's (absent in older answers). */
  body?: 'planet' | 'asteroid';
  /**
   * The compile built the programs the GPU path runs next (the planet's: planetSamplingMeasure.ts), so it is
   * paid already and not weighed against the GPU's lead. A later load compiles them again in the
   * background while its chunks run in JS (the worker's `bodyReady`).
   */
  compileSunk?: boolean;
  /** Chunks the GPU was given at once. */
  batch: number;
  /** GPU grid + edge passes per chunk, dispatch → results in the worker, ms. */
  gpuMs: number;
  /** The first GPU run (a 2³ grid: the program compile), ms (reported, not compared). */
  gpuFirstMs: number;
  /** JS grid values + hermite edges for the chunk in one worker, ms. */
  jsSampleMs: number;
  /** The rest of the body job in that worker (QEF, octree, contouring), ms: both paths pay it. */
  jsMeshMs: number;
}

export interface SamplingDecision {
  path: 'gpu-worker' | 'js-worker';
  /** One line for the overlay: the figures and the comparison. */
  why: string;
}

/** A cached measurement, with what it is valid for. */
export interface CachedSamplingMeasurement {
  version: number;
  renderer: string;
  cores: number;
  workers: number;
  atMs: number;
  measurement: SamplingMeasurement;
}

const ms = (v: number): string => (v >= 10 ? v.toFixed(0) : v.toFixed(1));

/** Chunks per second of each path for `workers` body workers. */
export function pathRates(m: SamplingMeasurement, workers: number): { gpu: number; js: number } {
  const w = Math.max(1, Math.floor(workers));
  return {
    js: (1000 * w) / (m.jsSampleMs + m.jsMeshMs),
    gpu: Math.min(1000 / m.gpuMs, (1000 * w) / m.jsMeshMs),
  };
}

/**
 * The GPU path must also pay its program compiles (a set for each recipe shape: the probe's first
 * run measures one): its lead must cover that time over this horizon of work. SwiftShader here
 * compiles a set in ~4 s and led by nothing once it did; the H100 compiles one in 0.1–0.6 s.
 */
export const COMPILE_HORIZON_MS = 10_000;

/** The faster path for `workers` body workers. */
export function decideSamplingPath(m: SamplingMeasurement, workers: number): SamplingDecision {
  const w = Math.max(1, Math.floor(workers));
  const rates = pathRates(m, w);
  const ws = `${w} worker${w === 1 ? '' : 's'}`;
  const compile = m.gpuFirstMs >= 1000 ? `, its compile ${(m.gpuFirstMs / 1000).toFixed(1)} s` : '';
  const gpu = `GPU path ${rates.gpu.toFixed(0)}/s (GPU ${ms(m.gpuMs)} ms a chunk in batches of ${m.batch}, meshing ${ms(m.jsMeshMs)} ms ÷ ${ws}${compile})`;
  const js = `JS path ${rates.js.toFixed(0)}/s (${ms(m.jsSampleMs)} + ${ms(m.jsMeshMs)} ms ÷ ${ws})`;
  const head = `measured ${m.points}³ ${m.body ? `${m.body} ` : ''}chunks:`;
  const lead = 1 + (m.compileSunk ? 0 : m.gpuFirstMs / COMPILE_HORIZON_MS);
  if (rates.gpu > rates.js * lead) return { path: 'gpu-worker', why: `${head} ${gpu} > ${js}` };
  // Faster, but not by enough to pay its compile: say so, or the figures read as the wrong choice.
  const short = rates.gpu > rates.js ? `; the GPU's lead is under the ${lead.toFixed(2)}× its compile asks over ${COMPILE_HORIZON_MS / 1000} s of work` : '';
  return { path: 'js-worker', why: `${head} ${js} ≥ ${gpu}${short}` };
}

const finitePositive = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

function isMeasurement(v: unknown): v is SamplingMeasurement {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as Record<string, unknown>;
  return [m.points, m.batch, m.gpuMs, m.gpuFirstMs, m.jsSampleMs, m.jsMeshMs].every(finitePositive);
}

/**
 * The cached probe for this GPU, core count and worker count, or null when there is none, it is
 * stale, from another version, or unreadable (a damaged entry is measured again, never trusted).
 */
export function readCachedMeasurement(
  storage: Pick<Storage, 'getItem'> | null,
  key: { renderer: string; cores: number; workers: number },
  nowMs: number,
): CachedSamplingMeasurement | null {
  let raw: string | null = null;
  try {
    raw = storage?.getItem(SAMPLING_MEASURE_STORAGE_KEY) ?? null;
  } catch {
    return null; // storage blocked (privacy settings): measure every time
  }
  if (!raw) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const c = parsed as Partial<CachedSamplingMeasurement>;
  if (c.version !== SAMPLING_MEASURE_VERSION || c.renderer !== key.renderer || c.cores !== key.cores || c.workers !== key.workers) return null;
  if (!finitePositive(c.atMs) || nowMs - c.atMs > SAMPLING_MEASURE_MAX_AGE_MS || c.atMs > nowMs + 60_000) return null;
  if (!isMeasurement(c.measurement)) return null;
  return c as CachedSamplingMeasurement;
}

/** Stores a measurement; a full or blocked storage only means the next load measures again. */
export function writeCachedMeasurement(storage: Pick<Storage, 'setItem'> | null, probe: CachedSamplingMeasurement): void {
  try {
    storage?.setItem(SAMPLING_MEASURE_STORAGE_KEY, JSON.stringify(probe));
  } catch {
    // quota or privacy mode: nothing lost but the shortcut
  }
}
