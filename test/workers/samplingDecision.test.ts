import { describe, expect, it } from 'vitest';
import {
  decideSamplingPath, readCachedProbe, writeCachedProbe, SAMPLING_PROBE_MAX_AGE_MS, SAMPLING_PROBE_STORAGE_KEY,
  SAMPLING_PROBE_VERSION, type CachedSamplingProbe, type SamplingMeasurement,
} from '../../src/workers/samplingDecision';
import { probeChunk, probeRecipe, timeJsChunk } from '../../src/workers/samplingMeasure';

const m = (gpuMs: number, jsMs: number): SamplingMeasurement => ({ points: 33, gpuMs, gpuFirstMs: gpuMs * 20, jsMs });

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(k: string): string | null {
    return this.items.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.items.set(k, v);
  }
}

describe('decideSamplingPath', () => {
  it('compares one GPU chunk with one JS chunk divided by the body workers', () => {
    // The H100's shape: GPU far faster than one worker, and still faster than fifteen.
    expect(decideSamplingPath(m(1.5, 60), 15).path).toBe('gpu-worker');
    // A GPU 26× faster than one worker loses to 30 of them.
    expect(decideSamplingPath(m(2, 52), 30).path).toBe('js-worker');
    // This machine's shape: a software GPU slower than one JS worker.
    const soft = decideSamplingPath(m(40, 25), 1);
    expect(soft.path).toBe('js-worker');
    expect(soft.why).toBe('measured a 33³ chunk: JS 25 ms ÷ 1 worker = 25 ms ≤ GPU 40 ms');
    expect(decideSamplingPath(m(1.5, 60), 15).why).toBe('measured a 33³ chunk: GPU 1.5 ms < JS 60 ms ÷ 15 workers = 4.0 ms');
  });

  it('a tie or a bad worker count keeps JS, which is always there', () => {
    expect(decideSamplingPath(m(10, 10), 1).path).toBe('js-worker');
    expect(decideSamplingPath(m(10, 30), 0).path).toBe('gpu-worker'); // 0 workers counts as one
  });
});

describe('the cached probe', () => {
  const key = { renderer: 'ANGLE (NVIDIA H100)', cores: 16, workers: 15 };
  const probe: CachedSamplingProbe = { version: SAMPLING_PROBE_VERSION, ...key, atMs: 1_000_000, measurement: m(1.5, 60) };

  it('round-trips for the same renderer, cores and workers', () => {
    const storage = new MemoryStorage();
    writeCachedProbe(storage, probe);
    expect(readCachedProbe(storage, key, 2_000_000)).toEqual(probe);
  });

  it('is measured again for another GPU, core count, worker count, version, or when stale', () => {
    const storage = new MemoryStorage();
    writeCachedProbe(storage, probe);
    expect(readCachedProbe(storage, { ...key, renderer: 'ANGLE (SwiftShader)' }, 2_000_000)).toBeNull();
    expect(readCachedProbe(storage, { ...key, cores: 8 }, 2_000_000)).toBeNull();
    expect(readCachedProbe(storage, { ...key, workers: 7 }, 2_000_000)).toBeNull();
    expect(readCachedProbe(storage, key, probe.atMs + SAMPLING_PROBE_MAX_AGE_MS + 1)).toBeNull();
    writeCachedProbe(storage, { ...probe, version: SAMPLING_PROBE_VERSION - 1 });
    expect(readCachedProbe(storage, key, 2_000_000)).toBeNull();
  });

  it('never trusts a damaged entry, and a throwing storage costs only the shortcut', () => {
    const storage = new MemoryStorage();
    for (const raw of ['{', 'null', '42', JSON.stringify({ ...probe, measurement: { ...probe.measurement, gpuMs: -1 } }),
      JSON.stringify({ ...probe, measurement: { ...probe.measurement, jsMs: 'fast' } }), JSON.stringify({ ...probe, atMs: 'x' })]) {
      storage.items.set(SAMPLING_PROBE_STORAGE_KEY, raw);
      expect(readCachedProbe(storage, key, 2_000_000), raw).toBeNull();
    }
    const throwing = { getItem: () => { throw new Error('blocked'); }, setItem: () => { throw new Error('quota'); } };
    expect(readCachedProbe(throwing, key, 2_000_000)).toBeNull();
    expect(() => writeCachedProbe(throwing, probe)).not.toThrow();
    expect(readCachedProbe(null, key, 2_000_000)).toBeNull();
  });
});

describe('the probe chunk', () => {
  it('is a 33³ grid over a noisy sphere that crosses its surface, and JS times it', () => {
    const recipe = probeRecipe();
    const grid = probeChunk(recipe);
    expect(grid.points).toBe(33);
    expect(recipe.name).toBe('sampling probe');
    expect(timeJsChunk(recipe, grid)).toBeGreaterThan(0);
  });
});
