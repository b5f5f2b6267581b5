/**
 * The app's body mesher on the sampling path the start-up probe picks (workers/samplingPath.ts):
 * generation starts on the first answer — cached, forced, or JS while the GPU is measured — and
 * moves to the GPU if the measurement then says so (`BodyMesher.useGpu`).
 */
import { asteroidRecipe } from '../scene/index';
import { BodyMesher } from '../workers/BodyMesher';
import { chooseSamplingPath, type SamplingChoice, type SamplingPath } from '../workers/samplingPath';

export interface SamplingStartHooks {
  /** False once the app is disposed: a late answer's GPU worker is then disposed, not used. */
  alive(): boolean;
  /** Each choice as it comes (the first, then the measured one), for the overlay and `__sr`. */
  onSampling(choice: SamplingChoice): void;
  /** A body worker died or stopped answering and was replaced (WorkerPool's words). */
  onWorkerLost(why: string): void;
}

/** Resolves with the mesher once the first choice is in (null when the app went away first). */
export async function startMesher(
  caps: { webgl2: boolean; floatRenderTargets: boolean; renderer: string },
  prefer: SamplingPath | 'auto',
  hooks: SamplingStartHooks,
): Promise<BodyMesher | null> {
  // The probe body is a blob asteroid: the programs it compiles are the ones blob asteroids use next.
  const choice = await chooseSamplingPath(caps, prefer, {}, { measureInBackground: true, probeRecipe: asteroidRecipe(1, { family: 'potato' }) });
  if (!hooks.alive()) {
    choice.gpuWorker?.dispose();
    void choice.upgrade?.then((m) => m.gpuWorker?.dispose());
    return null;
  }
  hooks.onSampling(choice);
  const mesher = new BodyMesher({ sampling: choice.path, gpuWorker: choice.gpuWorker, onWorkerLost: hooks.onWorkerLost });
  void choice.upgrade?.then((measured) => {
    if (!hooks.alive()) {
      measured.gpuWorker?.dispose();
      return;
    }
    if (measured.gpuWorker) mesher.useGpu(measured.gpuWorker);
    hooks.onSampling(measured);
  });
  return mesher;
}
