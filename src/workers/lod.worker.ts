/**
 * Worker entry for planet LOD selection (src/lod is pure TypeScript): selection near the
 * surface of a large planet takes 0.1–0.5 s (docs/lod.md), far too long for the main thread.
 * Keeps the previous selection (hysteresis), the ready set and the homogeneous record; answers
 * `select` with the chunk requests and the drawn set.
 */
import { compileToJs, recipeBounds, type FieldFn, type FieldRecipe } from '../field/index';
import {
  chunkBoundingSphere,
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
  /** Chunks proven empty/full by one centre sample, so never meshed (running total). */
  prefiltered: number;
  selectMs: number;
}

const scope = self as unknown as DedicatedWorkerGlobalScope;
let space: CubeSphereSpace | null = null;
let shell: PlanetShell | null = null;
let options: SelectOptions = {};
let previous: Selection | null = null;
let field: FieldFn | null = null;
let lipschitz = 1;
/** Requests answered by the centre test instead of a chunk job (stats). */
let prefiltered = 0;
const record = new HomogeneousRecord();
const ready = new Set<ChunkKey>();

const sphere = new Float64Array(4);

/**
 * One field sample at the chunk's centre settles most of the shell without a chunk job: the
 * field changes by at most `lipschitz` per metre, so |f(centre)| > lipschitz × radius means
 * no surface anywhere in the chunk (or its descendants). Near the surface of a large planet
 * this removes the bulk of the requests (whole layers of solid rock and empty sky).
 */
function provenHomogeneous(key: ChunkKey): boolean {
  if (!space || !field) return false;
  const a = parseChunkKey(key);
  chunkBoundingSphere(space, a, sphere);
  const f = field(sphere[0], sphere[1], sphere[2]);
  if (Math.abs(f) <= lipschitz * sphere[3]) return false;
  record.mark(key, f < 0 ? 'full' : 'empty', true);
  prefiltered++;
  return true;
}

function select(view: LodView): LodSelectResult {
  if (!space || !shell) throw new Error('lod worker: select before init');
  const t0 = performance.now();
  const selection = selectChunks(space, shell, view, options, previous, record);
  previous = selection;
  const rootLevel = space.levels;
  const isDone = (key: ChunkKey): boolean => ready.has(key) || record.get(parseChunkKey(key), rootLevel) !== undefined;
  const requests = requestsForSelection(selection, isDone).filter((r) => !provenHomogeneous(r.key));
  const drawn = drawnSet(space, shell, selection, (key) => isDone(key), ready);
  return {
    requests,
    drawn: drawn.drawn,
    holes: drawn.holes.length,
    leaves: selection.keys.length,
    prefiltered,
    selectMs: performance.now() - t0,
  };
}

scope.onmessage = (event: MessageEvent<LodWorkerRequest>) => {
  const msg = event.data;
  try {
    switch (msg.kind) {
      case 'init': {
        space = new CubeSphereSpace(msg.params.space);
        const bounds = recipeBounds(msg.params.recipe);
        shell = planetShell(bounds);
        field = compileToJs(msg.params.recipe);
        lipschitz = bounds.lipschitz;
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
