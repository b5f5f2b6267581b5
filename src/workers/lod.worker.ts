/**
 * Worker entry for planet LOD selection (src/lod is pure TypeScript): selection near the
 * surface of a large planet takes 0.1–0.5 s (docs/lod.md), far too long for the main thread.
 * Keeps the previous selection (hysteresis), the ready set and the homogeneous record; answers
 * `select` with the chunk requests and the drawn set.
 */
import { recipeBounds, type FieldRecipe } from '../field/index';
import {
  CubeSphereSpace,
  drawnSet,
  HomogeneousRecord,
  parseChunkKey,
  planetShell,
  requestsForSelection,
  selectChunks,
  type ChunkKey,
  type ChunkRequest,
  type CubeSphereOptions,
  type LodView,
  type PlanetShell,
  type SelectOptions,
  type Selection,
} from '../lod/index';
import { serializeError, type WorkerRequest, type WorkerResponse } from './protocol';

export type LodWorkerRequest =
  | WorkerRequest<'init', { recipe: FieldRecipe; space: CubeSphereOptions; select: SelectOptions }>
  | WorkerRequest<'select', { view: LodView }>
  | WorkerRequest<'ready', { keys: ChunkKey[] }>
  | WorkerRequest<'evicted', { keys: ChunkKey[] }>
  | WorkerRequest<'homogeneous', { key: ChunkKey; state: 'empty' | 'full'; proven: boolean }>;

export interface LodSelectResult {
  requests: ChunkRequest[];
  /** Chunks to draw now: the selection where ready, ancestors/descendants covering the rest. */
  drawn: ChunkKey[];
  /** Selected chunks with nothing ready to cover them (0 once the roots are in). */
  holes: number;
  leaves: number;
  selectMs: number;
}

const scope = self as unknown as DedicatedWorkerGlobalScope;
let space: CubeSphereSpace | null = null;
let shell: PlanetShell | null = null;
let options: SelectOptions = {};
let previous: Selection | null = null;
const record = new HomogeneousRecord();
const ready = new Set<ChunkKey>();

function select(view: LodView): LodSelectResult {
  if (!space || !shell) throw new Error('lod worker: select before init');
  const t0 = performance.now();
  const selection = selectChunks(space, shell, view, options, previous, record);
  previous = selection;
  const rootLevel = space.levels;
  const isDone = (key: ChunkKey): boolean => ready.has(key) || record.get(parseChunkKey(key), rootLevel) !== undefined;
  const requests = requestsForSelection(selection, isDone);
  const drawn = drawnSet(space, shell, selection, (key) => isDone(key), ready);
  return {
    requests,
    drawn: drawn.drawn,
    holes: drawn.holes.length,
    leaves: selection.keys.length,
    selectMs: performance.now() - t0,
  };
}

scope.onmessage = (event: MessageEvent<LodWorkerRequest>) => {
  const msg = event.data;
  try {
    switch (msg.kind) {
      case 'init': {
        space = new CubeSphereSpace(msg.params.space);
        shell = planetShell(recipeBounds(msg.params.recipe));
        options = msg.params.select;
        previous = null;
        ready.clear();
        scope.postMessage({ id: msg.id, result: { levels: space.levels } } satisfies WorkerResponse);
        return;
      }
      case 'select':
        scope.postMessage({ id: msg.id, result: select(msg.params.view) } satisfies WorkerResponse);
        return;
      case 'ready':
        for (const k of msg.params.keys) ready.add(k);
        return;
      case 'evicted':
        for (const k of msg.params.keys) ready.delete(k);
        return;
      case 'homogeneous':
        record.mark(msg.params.key, msg.params.state, msg.params.proven);
        return;
    }
  } catch (e) {
    scope.postMessage({ id: msg.id, error: serializeError(e) } satisfies WorkerResponse);
  }
};
