/**
 * Worker entry for body jobs: a thin adapter around `meshBody` (bodyJob.ts) speaking the
 * pool's envelope. Result buffers are transferred: the main thread owns them afterwards.
 * Test hooks: params `debugCrash` kills this worker the way a real crash would (an
 * uncaught error outside any job), to exercise the pool's replace-and-retry path.
 */
import { bodyResultTransfer, meshBody, type BodyMeshParams } from './bodyJob';
import { serializeError, type WorkerRequest, type WorkerResponse } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (event: MessageEvent<WorkerRequest<string, BodyMeshParams & { debugCrash?: boolean }>>) => {
  const { id, kind, params } = event.data;
  if (kind === 'cancel') return; // jobs here are one synchronous step: nothing to stop midway
  if (params?.debugCrash) {
    setTimeout(() => {
      throw new Error('debugCrash: this worker was asked to die');
    });
    return;
  }
  try {
    if (kind !== 'meshBody') throw new Error(`body worker: unknown job kind "${kind}"`);
    const result = meshBody(params);
    const reply: WorkerResponse = { id, result };
    scope.postMessage(reply, bodyResultTransfer(result));
  } catch (e) {
    const reply: WorkerResponse = { id, error: serializeError(e) };
    scope.postMessage(reply);
  }
};
