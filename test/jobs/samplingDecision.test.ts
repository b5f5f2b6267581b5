import { describe, expect, it } from 'vitest';
import {
  decideSamplingPath, pathRates, readCachedMeasurement, writeCachedMeasurement, SAMPLING_MEASURE_MAX_AGE_MS, SAMPLING_MEASURE_STORAGE_KEY,
  SAMPLING_MEASURE_VERSION, type CachedSamplingMeasurement, type SamplingMeasurement,
} from '../../src/jobs/samplingDecision';
import { measureChunk, measureRecipe, timeJsChunk } from '../../src/jobs/samplingMeasure';

const m = (gpuMs: number, jsSampleMs: number, jsMeshMs: number): SamplingMeasurement => ({
  points: 33, batch: 4, gpuMs, gpuFirstMs: gpuMs * 20, jsSampleMs, jsMeshMs,
});

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
  it('compares the two pipelines: workers sampling and meshing, or the GPU sampling while they mesh', () => {
    // 15 workers at 26 + 15 ms a chunk: 366/s. A GPU at 2 ms a chunk lets them mesh at 1000/s: 500/s.
    expect(pathRates(m(2, 26, 15), 15)).toEqual({ gpu: 500, js: 15000 / 41 });
    const fast = decideSamplingPath(m(2, 26, 15), 15);
    expect(fast.path).toBe('gpu-worker');
    expect(fast.why).toBe('measured 33³ chunks: GPU path 500/s (GPU 2.0 ms a chunk in batches of 4, meshing 15 ms ÷ 15 workers) > JS path 366/s (26 + 15 ms ÷ 15 workers)');
    // The same GPU against twice the workers: the JS pipeline (732/s) wins.
    expect(decideSamplingPath(m(2, 26, 15), 30).path).toBe('js-worker');
    // When meshing is most of a job, the GPU only takes the sampling off: the workers bound both.
    expect(pathRates(m(0.5, 5, 40), 15).gpu).toBe(15000 / 40);
    // This machine's shape: a software GPU far slower than one JS worker.
    const soft = decideSamplingPath(m(350, 46, 20), 1);
    expect(soft.path).toBe('js-worker');
    expect(soft.why).toMatch(/^measured 33³ chunks: JS path 15\/s \(46 \+ 20 ms ÷ 1 worker\) ≥ GPU path 3\/s/);
  });

  it('the GPU path\'s lead must cover its compile over ten seconds of work', () => {
    // SwiftShader's shape here: JS 420 + 17 ms a 65³ chunk (2.3/s), a 4 s compile.
    const soft = { ...m(380, 420, 17), gpuFirstMs: 4000 };
    const rates = pathRates(soft, 1);
    expect(rates.gpu / rates.js).toBeGreaterThan(1.1); // a GPU at 380 ms a chunk is faster…
    const d = decideSamplingPath(soft, 1);
    expect(d.path).toBe('js-worker'); // …but not by the 40 % its compile costs over 10 s
    expect(d.why).toMatch(/its compile 4\.0 s\); the GPU's lead is under the 1\.40× its compile asks over 10 s of work$/);
    expect(decideSamplingPath({ ...soft, gpuMs: 300 }, 1).path).toBe('gpu-worker');
  });

  it('a compile already paid for the programs the GPU path runs next (the planet probe\'s) is not weighed', () => {
    // The H100 machine's explore load: planet chunks, GPU 467/s against JS 321/s, a 7.1 s compile.
    const planet: SamplingMeasurement = { body: 'planet', points: 33, batch: 32, gpuMs: 2.1, gpuFirstMs: 7100, jsSampleMs: 42, jsMeshMs: 4.6 };
    expect(decideSamplingPath(planet, 15).path).toBe('js-worker'); // 1.45× < the 1.71× a 7.1 s compile asks
    const d = decideSamplingPath({ ...planet, compileSunk: true }, 15);
    expect(d.path).toBe('gpu-worker');
    expect(d.why).toMatch(/^measured 33³ planet chunks: GPU path \d+\/s/);
  });

  it('a tie or a bad worker count keeps JS, which is always there', () => {
    expect(decideSamplingPath(m(10, 5, 5), 1).path).toBe('js-worker');
    expect(decideSamplingPath(m(1, 30, 2), 0).path).toBe('gpu-worker'); // 0 workers counts as one
  });
});

describe('the cached probe', () => {
  const key = { renderer: 'ANGLE (NVIDIA H100)', cores: 16, workers: 15 };
  const probe: CachedSamplingMeasurement = { version: SAMPLING_MEASURE_VERSION, ...key, atMs: 1_000_000, measurement: m(1.5, 40, 20) };

  it('round-trips for the same renderer, cores and workers', () => {
    const storage = new MemoryStorage();
    writeCachedMeasurement(storage, probe);
    expect(readCachedMeasurement(storage, key, 2_000_000)).toEqual(probe);
  });

  it('is measured again for another GPU, core count, worker count, version, or when stale', () => {
    const storage = new MemoryStorage();
    writeCachedMeasurement(storage, probe);
    expect(readCachedMeasurement(storage, { ...key, renderer: 'ANGLE (SwiftShader)' }, 2_000_000)).toBeNull();
    expect(readCachedMeasurement(storage, { ...key, cores: 8 }, 2_000_000)).toBeNull();
    expect(readCachedMeasurement(storage, { ...key, workers: 7 }, 2_000_000)).toBeNull();
    expect(readCachedMeasurement(storage, key, probe.atMs + SAMPLING_MEASURE_MAX_AGE_MS + 1)).toBeNull();
    writeCachedMeasurement(storage, { ...probe, version: SAMPLING_MEASURE_VERSION - 1 });
    expect(readCachedMeasurement(storage, key, 2_000_000)).toBeNull();
  });

  it('never trusts a damaged entry, and a throwing storage costs only the shortcut', () => {
    const storage = new MemoryStorage();
    for (const raw of ['{', 'null', '42', JSON.stringify({ ...probe, measurement: { ...probe.measurement, gpuMs: -1 } }),
      JSON.stringify({ ...probe, measurement: { ...probe.measurement, jsMeshMs: 'fast' } }), JSON.stringify({ ...probe, atMs: 'x' })]) {
      storage.items.set(SAMPLING_MEASURE_STORAGE_KEY, raw);
      expect(readCachedMeasurement(storage, key, 2_000_000), raw).toBeNull();
    }
    const throwing = { getItem: () => { throw new Error('blocked'); }, setItem: () => { throw new Error('quota'); } };
    expect(readCachedMeasurement(throwing, key, 2_000_000)).toBeNull();
    expect(() => writeCachedMeasurement(throwing, probe)).not.toThrow();
    expect(readCachedMeasurement(null, key, 2_000_000)).toBeNull();
  });
});

describe('the probe chunk', () => {
  it('is a 33³ grid over a noisy sphere that crosses its surface, and JS times it', () => {
    const recipe = measureRecipe();
    const grid = measureChunk(recipe);
    expect(grid.points).toBe(33);
    expect(recipe.name).toBe('sampling probe');
    const t = timeJsChunk(recipe, grid);
    expect(t.sampleMs).toBeGreaterThan(0);
    expect(t.meshMs).toBeGreaterThan(0);
  });
});
