/**
 * One worker's state (src/jobs/workerState.ts), made as a worker's entry file makes it, and the
 * jobs bound to it with the signatures a test wants: `registerBody(id, definition)` then
 * `meshPlanetChunk(params)`, as the messages a worker receives. For tests and benches that call
 * job bodies directly; each test file gets its own state (Vitest isolates modules per file).
 * `meshBody` builds the BVH as body.worker.ts does, unless `bvh: false`.
 */
import { attachBodyBvh } from '../../src/render/bodyBvh';
import * as bodyJob from '../../src/jobs/bodyJob';
import type { BodyDefinition } from '../../src/jobs/bodyRegistry';
import type { BoundaryLeaves } from '../../src/mesher/index';
import * as chunkJob from '../../src/jobs/planetChunkJob';
import * as measureJob from '../../src/jobs/planetSamplingMeasure';
import * as seamJob from '../../src/jobs/planetSeamJob';
import * as thumbJob from '../../src/jobs/planetThumbJob';
import { createWorkerState } from '../../src/jobs/workerState';

export * from '../../src/jobs/bodyJob';
export * from '../../src/jobs/bodyRegistry';
export * from '../../src/jobs/leafStore';
export * from '../../src/jobs/planetChunkJob';
export * from '../../src/jobs/planetSamplingMeasure';
export * from '../../src/jobs/planetSeamJob';
export * from '../../src/jobs/planetThumbJob';

/** The state every function below works on. */
export const worker = createWorkerState();

export const registerBody = (id: string, definition: BodyDefinition): void => worker.registry.register(id, definition);
export const unregisterBody = (id: string): void => worker.registry.unregister(id);
export const registeredBody = (id: string) => worker.registry.body(id);
export const registeredPlanet = (id: string) => worker.registry.planet(id);
export const registeredBodyCount = (): number => worker.registry.size;
export const handleRegistration = (msg: { kind: string; params: unknown }): boolean => worker.registry.handle(msg);

export function meshBody(params: bodyJob.BodyMeshParams): bodyJob.BodyMeshResult {
  const result = bodyJob.meshBody(worker, params);
  if (params.bvh ?? true) attachBodyBvh(result);
  return result;
}

export const leafStoreStats = worker.leaves.stats;
export const keepLeaves = (id: string, leaves: BoundaryLeaves): void => worker.leaves.keep(id, leaves);
export const keptLeaves = (id: string): BoundaryLeaves | undefined => worker.leaves.get(id);
export const forgetLeaves = (id: string): void => worker.leaves.forget(id);
export const clearLeafStore = (): void => worker.leaves.clear();
export const setLeafStoreShare = (share: number): void => worker.leaves.setShare(share);

export const sampleCacheStats = worker.planet.stats;
export const clearSampleCache = (): void => worker.planet.clear();
export const planetContext = (id: string): chunkJob.PlanetContext => chunkJob.planetContext(worker, id);
export const meshPlanetChunk = (params: chunkJob.PlanetChunkParams): chunkJob.PlanetChunkResult => chunkJob.meshPlanetChunk(worker, params);
export const planetChunkReply = (r: chunkJob.PlanetChunkResult, params: Pick<chunkJob.PlanetChunkParams, 'body' | 'level'>) =>
  chunkJob.planetChunkReply(worker, r, params);

export const buildPlanetSeamJob = (params: seamJob.PlanetSeamParams): seamJob.PlanetSeamResult => seamJob.buildPlanetSeamJob(worker, params);
export const planetSeamReply = (r: seamJob.PlanetSeamResult, params: Pick<seamJob.PlanetSeamParams, 'body' | 'owner'>) =>
  seamJob.planetSeamReply(worker, r, params);

export const meshPlanetThumb = (params: thumbJob.PlanetThumbParams): thumbJob.PlanetThumbResult => thumbJob.meshPlanetThumb(worker.registry, params);

export const preparePlanetMeasurement = (probe: measureJob.PlanetMeasureBody, sample: Parameters<typeof measureJob.preparePlanetMeasurement>[2]) =>
  measureJob.preparePlanetMeasurement(worker, probe, sample);
export const measurePlanetGpu = (
  probe: measureJob.PlanetMeasureBody,
  sample: Parameters<typeof measureJob.measurePlanetGpu>[2],
  prepared: Parameters<typeof measureJob.measurePlanetGpu>[3],
  workers: number,
) => measureJob.measurePlanetGpu(worker, probe, sample, prepared, workers);
