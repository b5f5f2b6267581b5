/**
 * When the GPU path takes over (src/app/samplingStart.ts, issue 42): after the scene settles, or
 * for a planet's surface (`gpuFirst`) at once where the cached answer says the GPU wins. The
 * sampling path and the mesher are stand-ins (no workers in Node).
 */
import { describe, expect, it, vi } from 'vitest';

const upgrades: string[] = [];
vi.mock('../../src/workers/samplingPath', () => ({
  chooseSamplingPath: async (_caps: unknown, _prefer: unknown, _gpu: unknown, env: { measureBody: () => unknown }) => ({
    path: 'js-worker', detail: 'JS until the GPU takes over', gpuWorker: null, measurement: null,
    cached: (globalThis as { cachedMeasurement?: boolean }).cachedMeasurement ?? false,
    upgrade: async () => {
      upgrades.push(`upgrade with probe ${JSON.stringify(env.measureBody()).slice(0, 20)}`);
      return { path: 'gpu-worker', detail: 'GPU', gpuWorker: { dispose() {} }, measurement: null, cached: false, upgrade: null };
    },
  }),
}));
vi.mock('../../src/workers/BodyMesher', () => ({
  BodyMesher: class {
    gpu: unknown = null;
    useGpu(client: unknown): void {
      this.gpu = client;
    }
  },
}));

const { startMesher } = await import('../../src/app/samplingStart');

const caps = { webgl2: true, floatRenderTargets: true, renderer: 'test GPU' };
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

function hooks(o: { gpuFirst: boolean; keys: () => number }) {
  return {
    alive: () => true,
    onSampling: () => {},
    onWorkerLost: () => {},
    settled: () => false, // never settles within the test
    pauseFrames: () => {},
    gpuDrained: async () => {},
    planetMeasureBody: () => ({ body: 'planet:4', definition: {}, keys: Array.from({ length: o.keys() }, (_, i) => `0/3/0/0/${i}`) }) as never,
    gpuFirst: () => o.gpuFirst,
  };
}

describe('startMesher: when the GPU takes over', () => {
  it('explore (not gpuFirst): not before the scene settles', async () => {
    upgrades.length = 0;
    (globalThis as { cachedMeasurement?: boolean }).cachedMeasurement = true;
    const mesher = await startMesher(caps, 'auto', hooks({ gpuFirst: false, keys: () => 5 }));
    await tick(600);
    expect(upgrades).toEqual([]);
    expect((mesher as unknown as { gpu: unknown }).gpu).toBeNull();
  });

  it('a planet surface with a cached GPU answer: at once, before any chunk key', async () => {
    upgrades.length = 0;
    (globalThis as { cachedMeasurement?: boolean }).cachedMeasurement = true;
    const mesher = await startMesher(caps, 'auto', hooks({ gpuFirst: true, keys: () => 0 }));
    await tick(50);
    expect(upgrades.length).toBe(1);
    expect((mesher as unknown as { gpu: unknown }).gpu).not.toBeNull();
  });

  it('a planet surface, first visit: measured after the scene settles, as everywhere (a measurement beside its compiles chose JS)', async () => {
    upgrades.length = 0;
    (globalThis as { cachedMeasurement?: boolean }).cachedMeasurement = false;
    let settled = false;
    const h = { ...hooks({ gpuFirst: true, keys: () => 3 }), settled: () => settled };
    const mesher = await startMesher(caps, 'auto', h);
    await tick(600);
    expect(upgrades).toEqual([]);
    settled = true;
    await tick(600);
    expect(upgrades.length).toBe(1);
    expect(upgrades[0]).toContain('planet:4');
    expect((mesher as unknown as { gpu: unknown }).gpu).not.toBeNull();
  });
});
