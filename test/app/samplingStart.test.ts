/**
 * When the GPU path takes over (src/app/samplingStart.ts, issue 42): after the scene settles, or
 * for a planet's surface (`gpuFirst`) at once — where the cached answer says the GPU wins, and on
 * a first visit with a hardware GPU provisionally, until the measurement after settling says
 * otherwise. The sampling path, the GPU client and the mesher are stand-ins (no workers in Node).
 */
import { describe, expect, it, vi } from 'vitest';

const upgrades: string[] = [];
/** What the measurement after settling answers: the GPU (default) or JS. */
const answer = { gpu: true };
vi.mock('../../src/workers/samplingPath', () => ({
  isSoftwareRenderer: (renderer: string) => /swiftshader/i.test(renderer),
  chooseSamplingPath: async (_caps: unknown, _prefer: unknown, _gpu: unknown, env: { measureBody: () => unknown }) => ({
    path: 'js-worker', detail: 'JS until the GPU takes over', gpuWorker: null, measurement: null,
    cached: (globalThis as { cachedMeasurement?: boolean }).cachedMeasurement ?? false,
    upgrade: async () => {
      upgrades.push(`upgrade with probe ${JSON.stringify(env.measureBody()).slice(0, 20)}`);
      return answer.gpu
        ? { path: 'gpu-worker', detail: 'GPU', gpuWorker: { name: 'measured', dispose() {} }, measurement: null, cached: false, upgrade: null }
        : { path: 'js-worker', detail: 'JS won', gpuWorker: null, measurement: null, cached: false, upgrade: null };
    },
  }),
}));
vi.mock('../../src/workers/GpuSamplerClient', () => ({
  GpuSamplerClient: { create: async () => ({ name: 'provisional', dispose() {} }) },
}));
vi.mock('../../src/workers/BodyMesher', () => ({
  BodyMesher: class {
    gpu: { name: string } | null = null;
    get gpuWorker(): { name: string } | null {
      return this.gpu;
    }
    useGpu(client: { name: string }): void {
      this.gpu ??= client; // as BodyMesher: a client in use stays
    }
    useJs(): void {
      this.gpu = null;
    }
  },
}));

const gpuOf = (mesher: unknown): string | null => (mesher as { gpu: { name?: string } | null }).gpu?.name ?? ((mesher as { gpu: unknown }).gpu ? 'some' : null);

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

  it('a planet surface, first visit on a hardware GPU: the GPU at once (provisional), measured after the scene settles, kept when it wins', async () => {
    upgrades.length = 0;
    answer.gpu = true;
    (globalThis as { cachedMeasurement?: boolean }).cachedMeasurement = false;
    let settled = false;
    const lines: string[] = [];
    const h = { ...hooks({ gpuFirst: true, keys: () => 3 }), settled: () => settled, onSampling: (c: { path: string }) => void lines.push(c.path) };
    const mesher = await startMesher(caps, 'auto', h);
    await tick(50);
    expect(gpuOf(mesher)).toBe('provisional');
    expect(upgrades).toEqual([]); // not measured beside the page's start
    settled = true;
    await tick(600);
    expect(upgrades.length).toBe(1);
    expect(upgrades[0]).toContain('planet:4');
    expect(gpuOf(mesher)).toBe('provisional');
    expect(lines).toEqual(['js-worker', 'gpu-worker', 'gpu-worker']);
  });

  it('…and handed back to JS when the measurement says JS wins', async () => {
    upgrades.length = 0;
    answer.gpu = false;
    (globalThis as { cachedMeasurement?: boolean }).cachedMeasurement = false;
    let settled = false;
    const mesher = await startMesher(caps, 'auto', { ...hooks({ gpuFirst: true, keys: () => 3 }), settled: () => settled });
    await tick(50);
    expect(gpuOf(mesher)).toBe('provisional');
    settled = true;
    await tick(600);
    expect(upgrades.length).toBe(1);
    expect(gpuOf(mesher)).toBeNull();
    answer.gpu = true;
  });

  it('a software GPU (?sampling=measure) or explore: no provisional GPU, measured after settling', async () => {
    for (const [renderer, gpuFirst] of [['Google SwiftShader', true], ['test GPU', false]] as const) {
      upgrades.length = 0;
      (globalThis as { cachedMeasurement?: boolean }).cachedMeasurement = false;
      let settled = false;
      const mesher = await startMesher({ ...caps, renderer }, 'auto', { ...hooks({ gpuFirst, keys: () => 3 }), settled: () => settled });
      await tick(100);
      expect(gpuOf(mesher), renderer).toBeNull();
      settled = true;
      await tick(600);
      expect(upgrades.length).toBe(1);
      expect(gpuOf(mesher)).toBe('measured');
    }
  });
});
