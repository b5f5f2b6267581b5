/**
 * Worker entry for body jobs (each names a body registered with this worker, bodyRegistry.ts): `meshBody` (bodyJob.ts), `meshPlanetChunk` (planetChunkJob.ts) and
 * `buildPlanetSeamJob` (planetSeamJob.ts) and the planet gallery's `meshPlanetThumb` (planetThumbJob.ts) behind the pool's envelope. Jobs the pool hands over
 * wait in a WorkerJobQueue (highest priority first; cancelled ones never start). Result buffers
 * are transferred: the main thread owns them afterwards.
 * Test hooks: params `debugCrash` kills this worker the way a real crash would (an uncaught error
 * outside any job; nothing starts after it), to exercise the pool's replace-and-retry path.
 */
import { attachBodyBvh } from '../render/bodyBvh';
import { bodyResultTransfer, meshBody, type BodyMeshParams } from '../jobs/bodyJob';
import { WorkerJobQueue } from '../jobs/jobQueue';
import { meshPlanetChunk, planetChunkReply, type PlanetChunkParams } from '../jobs/planetChunkJob';
import { buildPlanetSeamJob, planetSeamReply, type PlanetSeamParams } from '../jobs/planetSeamJob';
import { meshPlanetThumb, planetThumbTransfer, type PlanetThumbParams } from '../jobs/planetThumbJob';
import type { JobOutput, WorkerRequest } from './protocol';
import { createWorkerState } from '../jobs/workerState';

const scope = self as unknown as DedicatedWorkerGlobalScope;
/** This worker's bodies and caches, handed to every job (workerState.ts). */
const state = createWorkerState();

type BodyWorkerParams = (BodyMeshParams | PlanetChunkParams | PlanetSeamParams | PlanetThumbParams) & { debugCrash?: boolean };

function handle(kind: string, params: unknown): JobOutput {
  if ((params as BodyWorkerParams | null)?.debugCrash) {
    queue.stop();
    setTimeout(() => {
      throw new Error('debugCrash: this worker was asked to die');
    });
    return { result: null };
  }
  if (kind === 'meshBody') {
    const result = meshBody(state, params as BodyMeshParams);
    if ((params as BodyMeshParams).bvh ?? true) attachBodyBvh(result); // three-mesh-bvh, off the main thread
    return { result, transfer: bodyResultTransfer(result) };
  }
  if (kind === 'meshPlanetChunk') {
    // The piece goes back packed as the renderer keeps it (pieceData.ts): that work is off the main thread.
    const { reply, transfer } = planetChunkReply(state, meshPlanetChunk(state, params as PlanetChunkParams), params as PlanetChunkParams);
    return { result: reply, transfer };
  }
  if (kind === 'buildPlanetSeam') {
    const { reply, transfer } = planetSeamReply(state, buildPlanetSeamJob(state, params as PlanetSeamParams), params as PlanetSeamParams);
    return { result: reply, transfer };
  }
  if (kind === 'meshPlanetThumb') {
    const result = meshPlanetThumb(state.registry, params as PlanetThumbParams);
    return { result, transfer: planetThumbTransfer(result) };
  }
  throw new Error(`body worker: unknown job kind "${kind}"`);
}

// A message to ourselves runs the next job in a later task, after control messages already queued.
const tick = new MessageChannel();
let next: (() => void) | null = null;
tick.port1.onmessage = () => {
  const run = next;
  next = null;
  run?.();
};
const queue = new WorkerJobQueue(
  (msg, transfer) => scope.postMessage(msg, transfer ?? []),
  handle,
  (run) => {
    next = run;
    tick.port2.postMessage(0);
  },
);

scope.onmessage = (event: MessageEvent<WorkerRequest<string, BodyWorkerParams> & { priority?: number }>) => {
  // Registrations apply at once, in message order: every job posted after one may name its body.
  if (!state.registry.handle(event.data)) queue.onMessage(event.data);
};
