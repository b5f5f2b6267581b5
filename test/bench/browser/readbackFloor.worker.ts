/**
 * The readback floor (readbackFloor.ts) on an OffscreenCanvas context in a worker, as the GPU
 * sampler runs. Message: { bytes, route, runs } → { samples } or { error }.
 */
import { ReadbackFloor, type ReadbackRoute } from './readbackFloor';

let floor: ReadbackFloor | null = null;

self.onmessage = async (event: MessageEvent<{ bytes: number; route: ReadbackRoute; runs: number }>) => {
  const { bytes, route, runs } = event.data;
  try {
    if (!floor) {
      const gl = new OffscreenCanvas(1, 1).getContext('webgl2');
      if (!gl) throw new Error('no OffscreenCanvas WebGL2 in this worker');
      floor = new ReadbackFloor(gl);
    }
    const samples = [];
    for (let i = 0; i < runs; i++) samples.push(await floor.once(bytes, route));
    (self as unknown as Worker).postMessage({ samples });
  } catch (error) {
    (self as unknown as Worker).postMessage({ error: String(error) });
  }
};
