/**
 * Worker entry for body jobs: a thin adapter around `meshBody` (bodyJob.ts) and
 * `meshPlanetChunk` (planetChunkJob.ts) and `buildPlanetSeamJob` (planetSeamJob.ts) speaking the
 * pool's envelope. Result buffers are transferred: the main thread owns them afterwards.
 * Test hooks: params `debugCrash` kills this worker the way a real crash would (an
 * uncaught error outside any job), to exercise the pool's replace-and-retry path.
 */
import { bodyResultTransfer, meshBody, type BodyMeshParams } from './bodyJob';
import { meshPlanetChunk, planetResultTransfer, type PlanetChunkParams } from './planetChunkJob';
import { buildPlanetSeamJob, planetSeamTransfer, type PlanetSeamParams } from './planetSeamJob';
import { serializeError, type WorkerRequest, type WorkerResponse } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;

type BodyWorkerParams = (BodyMeshParams | PlanetChunkParams | PlanetSeamParams) & { debugCrash?: boolean };

scope.onmessage = (event: MessageEvent<WorkerRequest<string, BodyWorkerParams>>) => {
  const { id, kind, params } = event.data;
  if (kind === 'cancel') return; // jobs here are one synchronous step: nothing to stop midway
  if (params?.debugCrash) {
    setTimeout(() => {
      throw new Error('debugCrash: this worker was asked to die');
    });
    return;
  }
  try {
    if (kind === 'meshBody') {
      const result = meshBody(params as BodyMeshParams);
      scope.postMessage({ id, result } satisfies WorkerResponse, bodyResultTransfer(result));
    } else if (kind === 'meshPlanetChunk') {
      const result = meshPlanetChunk(params as PlanetChunkParams);
      scope.postMessage({ id, result } satisfies WorkerResponse, planetResultTransfer(result));
    } else if (kind === 'buildPlanetSeam') {
      const result = buildPlanetSeamJob(params as PlanetSeamParams);
      scope.postMessage({ id, result } satisfies WorkerResponse, planetSeamTransfer(result));
    } else {
      throw new Error(`body worker: unknown job kind "${kind}"`);
    }
  } catch (e) {
    const reply: WorkerResponse = { id, error: serializeError(e) };
    scope.postMessage(reply);
  }
};
