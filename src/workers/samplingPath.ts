/**
 * The capability probe that picks where field sampling runs, once at start-up:
 *
 * 1. `gpu-worker`: a WebGL2 context on an OffscreenCanvas in a worker — sampling never
 *    touches the main thread (preferred);
 * 2. `gpu-main`: the main thread's WebGL2 with async readback (fences + pixel-pack buffers);
 * 3. `js-worker`: the JS back end of the field in workers (always there).
 */
import { GpuSamplerClient } from './GpuSamplerClient';

export type SamplingPath = 'gpu-worker' | 'gpu-main' | 'js-worker';

export interface SamplingChoice {
  path: SamplingPath;
  /** One line for the stats overlay. */
  detail: string;
  /** The worker sampler when `path` is `gpu-worker` (the caller owns it). */
  gpuWorker: GpuSamplerClient | null;
}

export async function chooseSamplingPath(main: { webgl2: boolean; floatRenderTargets: boolean }): Promise<SamplingChoice> {
  const gpuWorker = await GpuSamplerClient.create();
  if (gpuWorker) {
    return { path: 'gpu-worker', detail: 'GPU in a worker (OffscreenCanvas WebGL2)', gpuWorker };
  }
  if (main.webgl2 && main.floatRenderTargets) {
    return { path: 'gpu-main', detail: 'GPU on the main thread (async readback)', gpuWorker: null };
  }
  return { path: 'js-worker', detail: 'JS field in workers (no usable GPU sampling)', gpuWorker: null };
}
