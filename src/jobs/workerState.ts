/**
 * What one worker keeps between its jobs, as one object its entry file makes
 * (body.worker.ts, gpuSampler.worker.ts) and hands to every job: the bodies registered with it,
 * the boundary leaves its chunk jobs kept for seams, the current planet's compiled fields and the
 * last chunks' samples. No module holds any of it, so two states
 * in one thread (Node tests, the GPU worker's probe beside its sampler) never share by accident.
 */
import { BodyRegistry } from './bodyRegistry';
import { LeafStore } from './leafStore';
import { PlanetChunkCache } from './planetChunkJob';

export interface WorkerState {
  readonly registry: BodyRegistry;
  /** Boundary leaves kept for seam jobs on this worker (leafStore.ts). */
  readonly leaves: LeafStore;
  /** The current planet's context and the last chunks' samples (planetChunkJob.ts). */
  readonly planet: PlanetChunkCache;
}

/** A worker's empty state. */
export function createWorkerState(): WorkerState {
  return { registry: new BodyRegistry(), leaves: new LeafStore(), planet: new PlanetChunkCache() };
}
