/**
 * `sampling/readback/<size>/<route>/<where>`: the readback floor of this browser and GPU
 * (readbackFloor.ts), the part of a GPU grid job's latency no field change can remove. Sizes are
 * a 65³ grid as 32-bit floats, 16-bit, 8-bit and sign bits; routes are the sampler's 'poll' and
 * 'sync' and a plain synchronous readPixels; on the page's context and in a worker's.
 */
import { median, type Benchmark } from '../harness';
import { READBACK_SIZES, ReadbackFloor, type ReadbackRoute, type ReadbackSample } from './readbackFloor';

const ROUTES: readonly ReadbackRoute[] = ['poll', 'sync-pbo', 'readpixels'];
const RUNS = 9;
const WARMUP = 2;

let pageFloor: ReadbackFloor | null = null;
let worker: Worker | null = null;

function onPage(bytes: number, route: ReadbackRoute, runs: number): Promise<ReadbackSample[]> {
  if (!pageFloor) {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) throw new Error('no WebGL2');
    pageFloor = new ReadbackFloor(gl);
  }
  const floor = pageFloor;
  return (async () => {
    const samples = [];
    for (let i = 0; i < runs; i++) samples.push(await floor.once(bytes, route));
    return samples;
  })();
}

function inWorker(bytes: number, route: ReadbackRoute, runs: number): Promise<ReadbackSample[]> {
  worker ??= new Worker(new URL('./readbackFloor.worker.ts', import.meta.url), { type: 'module' });
  const w = worker;
  return new Promise((resolve, reject) => {
    w.onmessage = (e: MessageEvent<{ samples?: ReadbackSample[]; error?: string }>) =>
      e.data.samples ? resolve(e.data.samples) : reject(new Error(e.data.error));
    w.postMessage({ bytes, route, runs });
  });
}

function row(label: string, bytes: number, route: ReadbackRoute, where: 'page' | 'worker'): Benchmark {
  const samples: ReadbackSample[] = [];
  let last: ReadbackSample | null = null;
  return {
    name: `sampling/readback/${label}/${route}/${where}`,
    unit: 'ms',
    runs: RUNS,
    warmup: WARMUP,
    run: async () => {
      [last] = await (where === 'page' ? onPage : inWorker)(bytes, route, 1);
      samples.push(last);
    },
    // The value is the latency timed inside the context (pass → values in JS), not the message round trip.
    toValue: () => last!.totalMs,
    notes: () => {
      const timed = samples.slice(WARMUP);
      const split = route === 'poll'
        ? `dispatch→fence seen ${median(timed.map((s) => s.waitMs)).toFixed(2)} ms, getBufferSubData ${median(timed.map((s) => s.readMs)).toFixed(2)} ms`
        : `the read call ${median(timed.map((s) => s.readMs)).toFixed(2)} ms`;
      return `${bytes} B, clear → values in JS; ${split}`;
    },
  };
}

export const benchmarks: Benchmark[] = READBACK_SIZES.flatMap(({ label, bytes }) =>
  ROUTES.flatMap((route) => (['page', 'worker'] as const).map((where) => row(label, bytes, route, where))));
