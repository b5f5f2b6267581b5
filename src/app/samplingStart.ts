/**
 * The app's body mesher on the sampling path the start-up probe picks (workers/samplingPath.ts).
 * Generation starts in JS at once (unless `?sampling=` forced a path); once the scene has settled,
 * a first page load measures the GPU (frames paused around its compile and timed batches), and the GPU takes
 * the jobs from then on if it won, now or in the cached answer (`BodyMesher.useGpu`). So neither
 * the measurement nor the GPU path's program compiles slow the page's start. A planet's surface
 * (`gpuFirst`) on a hardware GPU does not wait: its chunks are the work the GPU is for — with a
 * cached answer for the GPU for good, on a first visit provisionally (`provisionalGpu`), until the
 * measurement after settling says otherwise.
 */
import { asteroidRecipe } from '../scene/index';
import { BodyMesher } from '../workers/BodyMesher';
import { chooseSamplingPath, isSoftwareRenderer, type SamplingChoice, type SamplingPreference } from '../workers/samplingPath';
import { GpuSamplerClient } from '../workers/GpuSamplerClient';
import type { PlanetMeasureBody } from '../jobs/planetSamplingMeasure';

export interface SamplingStartHooks {
  /** False once the app is disposed: a late answer's GPU worker is then disposed, not used. */
  alive(): boolean;
  /** Each choice as it comes (the first, then the measured one), for the overlay and `__sr`. */
  onSampling(choice: SamplingChoice): void;
  /** A body worker died or stopped answering and was replaced (WorkerPool's words). */
  onWorkerLost(why: string): void;
  /** Whether the scene has settled: a first page load measures the GPU then (or after IDLE_CAP_MS). */
  settled(): boolean;
  /** Stops (true) and restarts (false) the page's frames: the probe's GPU compile and timed batches run without them. */
  pauseFrames(paused: boolean): void;
  /** Resolves once the GPU has done what the page issued so far (gpuDrain.ts), at most GPU_DRAIN_CAP_MS. */
  gpuDrained(): Promise<void>;
  /** The scene's planet as the probe times it (PlanetView.measureBody), or null when it has none. */
  planetMeasureBody(): PlanetMeasureBody | null;
  /**
   * True when the scene's work is its planet's surface (planet mode): where the cached answer says
   * the GPU wins, the GPU path starts at once, not after the scene settles (default false: explore,
   * asteroids; a first visit measures after settling in every mode, see `upgradeWhen`).
   */
  gpuFirst?(): boolean;
}

/**
 * Longest the page's frames stay paused for the probe's GPU compile and batches, whatever happens
 * (the H100: 2–2.5 s, once a profile; SwiftShader here takes longer and resumes at the cap).
 */
const PAUSE_CAP_MS = 5_000;

/** Longest the probe waits for the page's queued GPU work after pausing its frames. */
export const GPU_DRAIN_CAP_MS = 1_500;

/** Longest a first page load waits for the scene to settle before it measures the GPU anyway. */
const IDLE_CAP_MS = 20_000;

function whenSettled(settled: () => boolean, capMs: number): Promise<void> {
  const start = performance.now();
  return new Promise((resolve) => {
    const check = () => (settled() || performance.now() - start > capMs ? resolve() : setTimeout(check, 250));
    check();
  });
}

/**
 * Resolves with the mesher once the first choice is in (null when the app went away first).
 * `workers`: the body workers (`workers=`; default the pool's, cores − 1), also the cached probe's key.
 */
export async function startMesher(
  caps: { webgl2: boolean; floatRenderTargets: boolean; renderer: string },
  prefer: SamplingPreference,
  hooks: SamplingStartHooks,
  workers?: number,
): Promise<BodyMesher | null> {
  // The probe body is the scene's planet where it draws surface chunks: the programs it compiles are
  // the ones its chunks use next (explore: 12 programs on the GPU path, not 14 with a probe shape of
  // its own), and its chunks are most of a planet scene's work. Else a blob asteroid, whose programs
  // the blob asteroids use next.
  const choice = await chooseSamplingPath(caps, prefer, {}, {
    ...(workers !== undefined ? { workers } : {}),
    measureInBackground: true,
    measureBody: () => {
      const planet = hooks.planetMeasureBody();
      return planet && planet.keys.length > 0 ? planet : asteroidRecipe(1, { family: 'potato' });
    },
    quietGpu: async () => {
      hooks.pauseFrames(true);
      const timer = setTimeout(() => hooks.pauseFrames(false), PAUSE_CAP_MS);
      // What the page queued before the pause runs first: planet quality=high's frames and the first
      // draw of its detail material (the pipeline ANGLE builds then) took the probe's compile from
      // 2.0 to 5.1 s on the H100, paused or not.
      await hooks.gpuDrained();
      return () => {
        clearTimeout(timer);
        hooks.pauseFrames(false);
      };
    },
  });
  if (!hooks.alive()) {
    choice.gpuWorker?.dispose();
    return null;
  }
  // The scene starts in JS unless a path was forced (chooseSamplingPath's `measureInBackground`):
  // the GPU path's worker and program compiles share the GPU process with the page's own start
  // (no KHR_parallel_shader_compile on the H100 machine). The GPU takes the jobs from when the
  // scene has settled — flights, new bodies, teleports — if it won, now or in the cached answer.
  hooks.onSampling(choice);
  const mesher = new BodyMesher({ sampling: choice.path, gpuWorker: choice.gpuWorker, onWorkerLost: hooks.onWorkerLost, workers });
  const later = choice.upgrade;
  // A first visit to a planet's surface on a hardware GPU: the GPU takes the chunks from when its
  // programs link, before any measurement (provisionalGpu); the measurement still runs once the
  // scene has settled, is cached, and hands sampling back to JS if JS won.
  const provisional = later !== null && !choice.cached && (hooks.gpuFirst?.() ?? false) && !isSoftwareRenderer(caps.renderer)
    ? provisionalGpu(mesher, choice, hooks)
    : Promise.resolve(false);
  if (later) void upgradeWhen(choice, hooks).then(() => (hooks.alive() ? later() : null)).then(async (measured) => {
    if (!measured) return;
    if (!hooks.alive()) {
      measured.gpuWorker?.dispose();
      return;
    }
    if (measured.gpuWorker) mesher.useGpu(measured.gpuWorker); // keeps a provisional client, drops this one
    else if (await provisional) mesher.useJs();
    hooks.onSampling(measured);
  });
  return mesher;
}

/**
 * Starts the GPU sampling worker at once and gives it the mesher (`BodyMesher.useGpu`): chunks are
 * sampled in JS until the planet's programs have linked there, on the GPU from then on. Resolves
 * true when the GPU took over. Why not measure first: beside the page's own start the probe's
 * figures are the contention's (it chose JS on the H100 machine, 6.0 s for a 2.0 s compile), and
 * waiting for the scene to settle left a shared surface link on JS: planets 2, 4, 5 and 9 at 400 m
 * completed in 16–21 s there, all in JS, where the GPU path samples 570–1,400 chunks/s against
 * JS's 260–760 (H100, 15 body workers; docs/lod.md, "The GPU from the first chunk").
 */
async function provisionalGpu(mesher: BodyMesher, choice: SamplingChoice, hooks: SamplingStartHooks): Promise<boolean> {
  const client = await GpuSamplerClient.create();
  if (!client) return false;
  if (!hooks.alive()) {
    client.dispose();
    return false;
  }
  mesher.useGpu(client);
  if (mesher.gpuWorker !== client) return false; // the measurement's client came first and stays (useGpu disposed this one)
  hooks.onSampling({
    ...choice,
    path: 'gpu-worker',
    gpuWorker: client,
    detail: 'GPU in a worker from when its programs link (a planet\'s surface on a hardware GPU; measured once the scene settles)',
  });
  return true;
}

/**
 * When the GPU path takes over: after the scene has settled (the page's own start-up keeps the GPU
 * process to itself: on the H100 machine explore settled in 2.6–5.6 s without the GPU worker's
 * context, 8.3–10.2 s with it), or for a `gpuFirst` scene whose cached answer says the GPU wins, at
 * once — a planet's surface, where the GPU path completed planet 4 at 20 m in 6.4 s against 16.6 s
 * starting in JS on the H200 (issue 42). A first visit still measures after the scene settles: a
 * measurement beside the page's own compiles (planet `quality=high`: 6.0 s for a 2.0 s compile)
 * chose JS, and the answer is cached for every mode.
 */
function upgradeWhen(choice: SamplingChoice, hooks: SamplingStartHooks): Promise<void> {
  if (hooks.gpuFirst?.() && choice.cached) return Promise.resolve();
  return whenSettled(hooks.settled, IDLE_CAP_MS);
}
