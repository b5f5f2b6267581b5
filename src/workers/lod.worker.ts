/**
 * Worker entry for planet LOD selection (src/lod is pure TypeScript): selection near the
 * surface of a large planet takes 0.1–0.5 s (docs/lod.md), far too long for the main thread.
 * Keeps the previous selection (hysteresis), the ready set and the homogeneous record; answers
 * `select` with the chunk requests and the drawn set. The drawn set is made 2:1 balanced
 * (`coarsenToBalance`), checked (`checkLodConfiguration`) and indexed (`planetLod`) here, off the
 * main thread: the renderer plans its seam transaction from that snapshot (issue 10).
 */
import { compileToJs, recipeBounds, type FieldFn, type FieldRecipe } from '../field/index';
import {
  checkLodConfiguration,
  chunkBoundingSphere,
  chunkKey,
  coarsenToBalance,
  compareChunks,
  CubeSphereSpace,
  drawnSet,
  HomogeneousRecord,
  keyOf,
  parseChunkKey,
  planetLod,
  planetShell,
  touchingChunks,
  requestsForSelection,
  frontierFirst,
  selectChunks,
  type ChunkAddress,
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

/**
 * One consistent snapshot of the drawn configuration (a `PlanetLod` flattened for postMessage):
 * per chunk, its coarser touching chunks (restriction), the chunks its seam stitches and its
 * homogeneous state when known. Arrays parallel to `keys` (canonical order).
 */
export interface LodSnapshot {
  keys: ChunkKey[];
  coarser: ChunkKey[][];
  stitches: ChunkKey[][];
  homogeneous: ('empty' | 'full' | null)[];
}

export interface LodSelectResult {
  requests: ChunkRequest[];
  /** Per request: its coarser neighbours in the selection (the configuration it will most likely be drawn in). */
  requestCoarser: ChunkKey[][];
  /** The drawn configuration indexed for seams; null when unchanged since the last answer or not drawable yet. */
  snapshot: LodSnapshot | null;
  /** `checkLodConfiguration` of the drawn set (must be empty: the renderer reports these as errors). */
  problems: string[];
  /** Drawn sets that could not be balanced by coarsening (ancestor not ready): the previous one was kept. */
  balanceFallbacks: number;
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
let lastDrawn: ChunkKey[] = [];
let balanceFallbacks = 0;

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
  const found = drawnSet(space, shell, selection, (key) => isDone(key), ready);
  let drawn = found.drawn;
  let snapshot: LodSnapshot | null = null;
  let problems: string[] = [];
  if (found.holes.length === 0) {
    const balanced = coarsenToBalance(space, drawn.map((k) => parseChunkKey(k)), (a) => isDone(keyOf(a)));
    if (!balanced) {
      balanceFallbacks++;
      drawn = lastDrawn;
    } else {
      drawn = balanced.map(keyOf);
      if (!sameKeys(drawn, lastDrawn)) {
        const leaves = balanced;
        problems = checkLodConfiguration(space, shell, leaves);
        const lod = planetLod(space, leaves);
        snapshot = {
          keys: lod.keys.slice(),
          coarser: lod.keys.map((k) => {
            const a = lod.byKey.get(k)!;
            return lod.touching.get(k)!.filter((t) => lod.byKey.get(t)!.level === a.level + 1);
          }),
          stitches: lod.keys.map((k) => lod.seamStitches.get(k)!.slice()),
          homogeneous: leaves.map((a) => record.get(a, rootLevel) ?? null),
        };
        lastDrawn = drawn;
      }
    }
  }
  // Chunks that refine what is drawn first (their parent is drawn): visible progress every group.
  frontierFirst(requests, new Set(drawn), rootLevel);
  // Guess each request's restriction from the drawn set (the next snapshot grows out of it) and the
  // selection: a wrong guess costs a re-mesh in the transaction. Selection leaves alone guessed wrong
  // for most chunks while streaming coarse-to-fine (every chunk meshed twice).
  const guessFrom = new Set([...lastDrawn, ...selection.keys]);
  const requestCoarser = requests.map((r) => selectionCoarser(guessFrom, parseChunkKey(r.key)));
  return {
    requests,
    requestCoarser,
    snapshot,
    problems,
    balanceFallbacks,
    drawn,
    holes: found.holes.length,
    leaves: selection.keys.length,
    prefiltered,
    selectMs: performance.now() - t0,
  };
}

function sameKeys(a: readonly ChunkKey[], b: readonly ChunkKey[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Touching chunks one level coarser among the selection's leaves: a guess at a request's restriction. */
function selectionCoarser(leafKeys: ReadonlySet<ChunkKey> | readonly ChunkKey[], a: ChunkAddress): ChunkKey[] {
  if (!space || a.level >= space.levels) return [];
  const set = leafKeys instanceof Set ? leafKeys : selectionLeafSet(leafKeys as readonly ChunkKey[]);
  const out = new Set<ChunkKey>();
  for (const t of touchingChunks(space, a)) {
    // Not a's own parent (a same-face toucher can share it): that one is never drawn with a.
    if (t.face === a.face && t.ci >> 1 === a.ci >> 1 && t.cj >> 1 === a.cj >> 1 && t.ck >> 1 === a.ck >> 1) continue;
    const p = chunkKey(t.face, t.level + 1, t.ci >> 1, t.cj >> 1, t.ck >> 1);
    if (set.has(p)) out.add(p);
  }
  // Canonical order, as planetLod lists them: the order is part of the chunk's cache id.
  return [...out].map((k) => parseChunkKey(k)).sort(compareChunks).map(keyOf);
}

let leafSetFor: readonly ChunkKey[] | null = null;
let leafSet = new Set<ChunkKey>();
function selectionLeafSet(keys: readonly ChunkKey[]): Set<ChunkKey> {
  if (leafSetFor !== keys) {
    leafSetFor = keys;
    leafSet = new Set(keys);
  }
  return leafSet;
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
        lastDrawn = [];
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
