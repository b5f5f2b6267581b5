/**
 * The capability probe that picks where field sampling runs, once at start-up:
 *
 * 1. `gpu-worker`: a WebGL2 context on an OffscreenCanvas in a worker — sampling never
 *    touches the main thread (preferred);
 * 2. `gpu-main`: the main thread's WebGL2 with async readback (fences + pixel-pack buffers);
 * 3. `js-worker`: the JS back end of the field in workers (always there).
 */
import { GpuSamplerClient, type GpuSamplerClientOptions } from './GpuSamplerClient';

export type SamplingPath = 'gpu-worker' | 'gpu-main' | 'js-worker';

export interface SamplingChoice {
  path: SamplingPath;
  /** One line for the stats overlay. */
  detail: string;
  /** The worker sampler when `path` is `gpu-worker` (the caller owns it). */
  gpuWorker: GpuSamplerClient | null;
}

export const SAMPLING_PATHS: readonly SamplingPath[] = ['gpu-worker', 'gpu-main', 'js-worker'];

/** A software rasteriser: its "GPU" is the same CPU the JS workers would use, only slower. */
export function isSoftwareRenderer(renderer: string): boolean {
  return /swiftshader|llvmpipe|softpipe|software|basic render driver/i.test(renderer);
}

/**
 * Picks the sampling path. `prefer` (from `?sampling=`) forces a path when it is available;
 * otherwise a software renderer gets the JS back end: `npm run bench -- sampling` measured
 * JS in one worker 1.4–1.9× faster than SwiftShader's grid pass on a 65³ grid.
 */
export async function chooseSamplingPath(
  main: { webgl2: boolean; floatRenderTargets: boolean; renderer: string },
  prefer: SamplingPath | 'auto' = 'auto',
  gpuOptions: GpuSamplerClientOptions = {},
): Promise<SamplingChoice> {
  const mainGpu = main.webgl2 && main.floatRenderTargets;
  if (prefer === 'js-worker' || (prefer === 'auto' && isSoftwareRenderer(main.renderer))) {
    const why = prefer === 'js-worker' ? 'forced by ?sampling' : `the GPU is a software renderer (${main.renderer.slice(0, 40)}…)`;
    return { path: 'js-worker', detail: `JS field in workers: ${why}`, gpuWorker: null };
  }
  if (prefer === 'gpu-main' && mainGpu) {
    return { path: 'gpu-main', detail: 'GPU on the main thread (async readback), forced by ?sampling', gpuWorker: null };
  }
  const gpuWorker = await GpuSamplerClient.create(gpuOptions);
  if (gpuWorker) {
    return { path: 'gpu-worker', detail: 'GPU in a worker (OffscreenCanvas WebGL2)', gpuWorker };
  }
  if (mainGpu) {
    return { path: 'gpu-main', detail: 'GPU on the main thread (async readback)', gpuWorker: null };
  }
  return { path: 'js-worker', detail: 'JS field in workers (no usable GPU sampling)', gpuWorker: null };
}
