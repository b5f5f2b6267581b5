/**
 * The sampling probe on a planet (planetSamplingMeasure.ts) in Node: its JS figures from real planet chunk
 * jobs, its GPU phase against a simulated GPU sampler (simulatedGpu.ts): what it asks of the sampler,
 * when it stops early, and the measurement it hands the decision.
 */
import { describe, expect, it } from 'vitest';
import { parseRecipe } from '../../src/field/index';
import { CubeSphereSpace, keyOf, parseChunkKey, type ChunkAddress } from '../../src/lod/index';
import type { GpuJob } from '../../src/gpu/GpuFieldSampler';
import type { GpuChunkSamples } from '../../src/gpu/samplerTypes';
import { meshPlanetChunk } from './oneWorker';
import { measurePlanetGpu, planetMeasurePoints, preparePlanetMeasurement, PLANET_MEASURE_CHUNKS, type PlanetMeasureBody } from './oneWorker';
import { decideSamplingPath } from '../../src/jobs/samplingDecision';
import { registeredPlanet } from './oneWorker';
import { simulatedEdgePass, simulatedGpuValues } from './simulatedGpu';

const R = 60_000;
const recipe = parseRecipe({
  version: 1, name: 'probe moon',
  root: { type: 'sphere', radius: R, noise: { kind: 'fbm', seed: 3, frequency: 1 / 8000, octaves: 4, amplitude: 1500 } },
});
const spaceOptions = { radiusM: R, chunkCells: 8, finestCellM: 400 };
const space = new CubeSphereSpace(spaceOptions);
const BODY = 'test:probe-planet';

/** Root-level chunks at the surface radius, one a face (what a page's drawn surface chunks are). */
function surfaceKeys(): string[] {
  const root = space.levels;
  const ck = Math.floor(space.gkAtRadius(R) / space.chunkUnits(root));
  return [0, 1, 2, 3, 4, 5].map((face) => keyOf({ face, level: root, ci: 0, cj: 0, ck }));
}

/** Simulated GPU samples by key, computed once (the probe's sampler answers in about no time). */
const simulated = new Map<string, { values: Float32Array; hermite: ReturnType<typeof simulatedEdgePass> }>();

/** A sampler that answers from the JS field after `delayMs`, counting what it was asked. */
function simulatedSampler(delayMs: number): { sample: (key: string) => GpuJob<GpuChunkSamples>; asked: string[] } {
  const asked: string[] = [];
  const sample = (key: string): GpuJob<GpuChunkSamples> => {
    asked.push(key);
    if (!simulated.has(key)) {
      const a: ChunkAddress = parseChunkKey(key);
      const v = simulatedGpuValues(BODY, space, a, 0);
      simulated.set(key, { values: v, hermite: simulatedEdgePass(BODY, space, a, v) });
    }
    const s = simulated.get(key)!;
    // Copies: a chunk job owns the samples it is given.
    const values = s.values.slice();
    const hermite = { ...s.hermite, edgeIds: s.hermite.edgeIds.slice(), t: s.hermite.t.slice(), normals: s.hermite.normals.slice(), latencyMs: delayMs };
    const promise = new Promise<GpuChunkSamples>((resolve) => setTimeout(() => resolve({ values, points: space.chunkCells + 1, hermite, latencyMs: delayMs }), delayMs));
    return { promise, cancel: () => {} };
  };
  return { sample, asked };
}

describe('the sampling probe on a planet', () => {
  const probe: PlanetMeasureBody = { body: BODY, definition: { recipe, space: spaceOptions }, keys: surfaceKeys() };

  it('the keys are surface chunks (the probe times meshing, not empty chunks)', async () => {
    const { sample } = simulatedSampler(0);
    await preparePlanetMeasurement(probe, sample); // registers the planet in this thread
    for (const key of probe.keys) {
      expect(meshPlanetChunk({ body: BODY, ...parseChunkKey(key), coarser: [], simplify: 0 }).homogeneous).toBeNull();
    }
  });

  it('registers the planet, times its chunks in JS, and compiles with one chunk before the quiet phase', async () => {
    const { sample, asked } = simulatedSampler(0);
    const prepared = await preparePlanetMeasurement(probe, sample);
    expect(registeredPlanet(BODY).space).toEqual(spaceOptions);
    expect(asked).toEqual([probe.keys[0]]);
    expect(prepared.js.coarse.points).toBe(planetMeasurePoints(probe));
    expect(prepared.js.coarse.sampleMs).toBeGreaterThan(0);
    expect(prepared.js.coarse.meshMs).toBeGreaterThan(0);
    expect(prepared.gpuFirstMs).toBeGreaterThanOrEqual(0);
  });

  it('a fast GPU is timed on full batches of 32 (its keys repeated), best of three; the compile is not weighed', async () => {
    const { sample } = simulatedSampler(0);
    const prepared = await preparePlanetMeasurement(probe, sample);
    const { sample: timed, asked } = simulatedSampler(0);
    const m = await measurePlanetGpu(probe, timed, prepared, 1); // one worker: the JS bar is a whole chunk, far above a simulated answer
    const keys = Math.min(PLANET_MEASURE_CHUNKS, probe.keys.length);
    expect(asked.length).toBe(keys + 3 * 32);
    expect(new Set(asked)).toEqual(new Set(probe.keys));
    expect(m).toMatchObject({ body: 'planet', compileSunk: true, points: 9, batch: 32 });
    // The GPU path's meshing (settle + mesh from the samples) and what the JS path costs beyond it.
    expect(m.jsMeshMs).toBeGreaterThan(0);
    // What JS costs beyond the GPU path's meshing: the JS chunk's total less that meshing, never below
    // zero. (Both are timings: on a busy machine the GPU path's meshing of these tiny chunks can take
    // longer than the JS chunk did, and CI once saw 1.45 against 0.91 ms.)
    const jsTotal = prepared.js.coarse.sampleMs + prepared.js.coarse.meshMs;
    expect(m.jsSampleMs).toBeCloseTo(Math.max(0, jsTotal - m.jsMeshMs), 6);
    expect(decideSamplingPath({ ...m, gpuFirstMs: 60_000 }, 1).path).toBe(decideSamplingPath({ ...m, gpuFirstMs: 0 }, 1).path);
  });

  it('a GPU whose full batch would take over a second (a software one) stops after the keys', async () => {
    const { sample } = simulatedSampler(0);
    const prepared = await preparePlanetMeasurement(probe, sample);
    // Six chunks answered together after 300 ms: 50 ms a chunk, 1.6 s for a full batch of 32.
    const { sample: slow, asked } = simulatedSampler(300);
    const m = await measurePlanetGpu(probe, slow, prepared, 1);
    expect(asked.length).toBe(probe.keys.length);
    expect(m.batch).toBe(probe.keys.length);
    expect(m.gpuMs * 32).toBeGreaterThan(1000);
  });

  it('a page with no drawn surface chunk gives a named error, not a measurement', async () => {
    const { sample } = simulatedSampler(0);
    await expect(preparePlanetMeasurement({ ...probe, keys: [] }, sample)).rejects.toThrow(/no drawn surface chunk/);
  });
});
