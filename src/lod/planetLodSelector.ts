/**
 * The planet's LOD decisions for one view (what `lod.worker.ts` runs, Node-testable): selection
 * with hysteresis, the requests, the drawn set made 2:1 balanced by coarsening, checked and
 * indexed as one snapshot for the renderer's seam transaction (docs/lod.md "Renderer").
 *
 * It keeps the previous selection, the set of chunks some mesh exists for (`ready`) and the
 * homogeneous record. `select(view, errorFactor)` takes the renderer's memory factor: the
 * screen-space error threshold is multiplied by it (planetStreaming.ts raises it while the pieces
 * it must keep do not fit the budget).
 */
import type { FieldFn } from '../field/index.ts';
import { compareChunks, keyOf, parseChunkKey, type ChunkAddress, type ChunkKey } from './chunkKey.ts';
import { touchingChunks } from './faceFrames.ts';
import { CubeSphereSpace, type CubeSphereOptions } from './cubeSphere.ts';
import { chunkBoundingSphere, HomogeneousRecord, type PlanetShell } from './culling.ts';
import { checkLodConfiguration, coarsenToBalance } from './lodBalance.ts';
import { NeighbourhoodCache, planetLod } from './planetSeams.ts';
import { frontierFirst, requestsForSelection, type ChunkRequest } from './requests.ts';
import { drawnSet, selectChunks, type LodView, type SelectOptions, type Selection } from './selection.ts';
import type { BrokenMarks } from './planetEdits.ts';

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
  /**
   * Every node of the selection (leaves and split nodes): the chunks the renderer must not evict
   * while they are wanted, even before they can be drawn (a parent is replaced only when all eight
   * children are in).
   */
  wanted: ChunkKey[];
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
  /** Chunks proven empty/full by one center sample, so never meshed (running total). */
  prefiltered: number;
  /** The error threshold this selection used (px): the user's setting × the memory factor. */
  thresholdPx: number;
  selectMs: number;
}

export interface PlanetLodSelectorOptions {
  space: CubeSphereOptions;
  shell: PlanetShell;
  /** The recipe's JS field (center samples settle most of the shell without a job). */
  field: FieldFn;
  /** `recipeBounds(recipe).lipschitz`. */
  lipschitz: number;
  select: SelectOptions;
}

export class PlanetLodSelector {
  readonly space: CubeSphereSpace;
  private shell: PlanetShell;
  private field: FieldFn;
  private lipschitz: number;
  private options: SelectOptions;
  private previous: Selection | null = null;
  private readonly record = new HomogeneousRecord();
  private readonly ready = new Set<ChunkKey>();
  private lastDrawn: ChunkKey[] = [];
  private balanceFallbacks = 0;
  /** Requests answered by the center test instead of a chunk job (stats). */
  private prefiltered = 0;
  private readonly sphere = new Float64Array(4);
  /** What each drawn chunk's address decides for the snapshot's index, kept between answers. */
  private readonly neighbourhoods: NeighbourhoodCache;
  /** Per requested chunk, the coarser chunks that can touch it ({@link coarserCandidates}), kept between answers. */
  private readonly coarserCandidates = new Map<ChunkKey, ChunkKey[]>();

  constructor(options: PlanetLodSelectorOptions) {
    this.space = new CubeSphereSpace(options.space);
    this.neighbourhoods = new NeighbourhoodCache(this.space);
    this.shell = options.shell;
    this.field = options.field;
    this.lipschitz = options.lipschitz;
    this.options = options.select;
  }

  /** Some mesh of these chunks exists (any restriction). */
  markReady(keys: Iterable<ChunkKey>): void {
    for (const k of keys) this.ready.add(k);
  }

  /** No mesh of these chunks exists any more. */
  markEvicted(keys: Iterable<ChunkKey>): void {
    for (const k of keys) this.ready.delete(k);
  }

  markHomogeneous(key: ChunkKey, state: 'empty' | 'full', proven: boolean): void {
    this.record.mark(key, state, proven);
  }

  /**
   * The planet was edited (issue 19): its field now has the user's brushes, its shell holds them, and
   * what was known about the chunks they reached (empty, full, proofs) is forgotten where the change
   * can break it (`broken`: planetEdits.ts `brokenMarks`; a proof's unreached descendants stay proven).
   */
  edit(
    field: FieldFn, lipschitz: number, shell: PlanetShell, reached: (a: ChunkAddress, key: ChunkKey) => boolean,
    edited?: (a: ChunkAddress) => boolean, broken: BrokenMarks = { empty: true, full: true },
  ): void {
    this.field = field;
    this.lipschitz = lipschitz;
    this.shell = shell;
    this.record.forget(reached, (state) => broken[state]);
    // Brushes are sharp and no band limit knows them: a whole cell of error where any reaches.
    if (edited) this.options = { ...this.options, cellErrorAt: edited };
  }

  /**
   * One field sample at the chunk's center settles most of the shell without a chunk job: the
   * field changes by at most `lipschitz` per metre, so |f(center)| > lipschitz × radius means
   * no surface anywhere in the chunk (or its descendants). Near the surface of a large planet
   * this removes the bulk of the requests (whole layers of solid rock and empty sky).
   */
  private provenHomogeneous(key: ChunkKey): boolean {
    const s = this.sphere;
    chunkBoundingSphere(this.space, parseChunkKey(key), s);
    const f = this.field(s[0], s[1], s[2]);
    if (Math.abs(f) <= this.lipschitz * s[3]) return false;
    this.record.mark(key, f < 0 ? 'full' : 'empty', true);
    this.prefiltered++;
    return true;
  }

  /** Known empty or full (by a job or a center sample). */
  homogeneousState(key: ChunkKey): 'empty' | 'full' | undefined {
    return this.record.get(parseChunkKey(key), this.space.levels);
  }

  select(view: LodView, errorFactor = 1): LodSelectResult {
    const { space, shell } = this;
    const t0 = performance.now();
    const thresholdPx = (this.options.maxScreenErrorPx ?? 4) * Math.max(1, errorFactor);
    const selection = selectChunks(space, shell, view, { ...this.options, maxScreenErrorPx: thresholdPx }, this.previous, this.record);
    this.previous = selection;
    const rootLevel = space.levels;
    const isDone = (key: ChunkKey): boolean => this.ready.has(key) || this.record.get(parseChunkKey(key), rootLevel, key) !== undefined;
    const requests = requestsForSelection(selection, isDone).filter((r) => !this.provenHomogeneous(r.key));
    const found = drawnSet(space, shell, selection, isDone, this.ready);
    let drawn = found.drawn;
    let snapshot: LodSnapshot | null = null;
    let problems: string[] = [];
    if (found.holes.length === 0) {
      const balanced = coarsenToBalance(space, drawn.map((k) => parseChunkKey(k)), (a) => isDone(keyOf(a)), this.neighbourhoods);
      if (!balanced) {
        this.balanceFallbacks++;
        drawn = this.lastDrawn;
      } else {
        drawn = balanced.map(keyOf);
        if (!sameKeys(drawn, this.lastDrawn)) {
          problems = checkLodConfiguration(space, shell, balanced);
          snapshot = this.snapshotOf(balanced);
          this.lastDrawn = drawn;
        }
      }
    }
    // Chunks that refine what is drawn first (their parent is drawn): visible progress every group.
    frontierFirst(requests, new Set(drawn), rootLevel);
    // Guess each request's restriction from the selection — the configuration the chunk will be
    // drawn in once streaming catches up (a wrong guess costs a re-mesh in the transaction).
    // Simulated teleports with 16 workers (test/lod/streamingSim.ts, 80 kB pieces): chunk jobs per
    // drawn chunk 1.17 (300 m) and 1.58 (20 m), against 1.54 and 2.10 guessing from the drawn set ∪
    // the selection, and 1.50 / 2.07 with the drawn set for the frontier only.
    const fromSelection = new Set(selection.keys);
    const requestCoarser = requests.map((r) => this.coarserIn(fromSelection, parseChunkKey(r.key), r.key));
    return {
      requests,
      requestCoarser,
      wanted: [...selection.keys, ...selection.internal],
      snapshot,
      problems,
      balanceFallbacks: this.balanceFallbacks,
      drawn,
      holes: found.holes.length,
      leaves: selection.keys.length,
      prefiltered: this.prefiltered,
      thresholdPx,
      selectMs: performance.now() - t0,
    };
  }

  private snapshotOf(leaves: ChunkAddress[]): LodSnapshot {
    const lod = planetLod(this.space, leaves, this.neighbourhoods);
    return {
      keys: lod.keys.slice(),
      coarser: lod.keys.map((k) => {
        const a = lod.byKey.get(k)!;
        return lod.touching.get(k)!.filter((t) => lod.byKey.get(t)!.level === a.level + 1);
      }),
      stitches: lod.keys.map((k) => lod.seamStitches.get(k)!.slice()),
      homogeneous: leaves.map((a) => this.record.get(a, this.space.levels) ?? null),
    };
  }

  /** Touching chunks one level coarser among `keys`: a guess at a request's restriction. */
  private coarserIn(keys: ReadonlySet<ChunkKey>, a: ChunkAddress, key: ChunkKey): ChunkKey[] {
    let candidates = this.coarserCandidates.get(key);
    if (!candidates) {
      if (this.coarserCandidates.size >= 20_000) this.coarserCandidates.clear();
      candidates = coarserCandidates(this.space, a).map(this.neighbourhoods.intern);
      this.coarserCandidates.set(key, candidates);
    }
    return candidates.filter((k) => keys.has(k));
  }
}

/**
 * The chunks one level coarser that can touch `a`: the parents of its same-level touchers, but not its
 * own (a same-face toucher can share it, and it is never drawn with `a`). Canonical order, as
 * planetLod lists them: the order is part of the chunk's cache id.
 */
function coarserCandidates(space: CubeSphereSpace, a: ChunkAddress): ChunkKey[] {
  if (a.level >= space.levels) return [];
  const out = new Map<ChunkKey, ChunkAddress>();
  for (const t of touchingChunks(space, a)) {
    if (t.face === a.face && t.ci >> 1 === a.ci >> 1 && t.cj >> 1 === a.cj >> 1 && t.ck >> 1 === a.ck >> 1) continue;
    const p = { face: t.face, level: t.level + 1, ci: t.ci >> 1, cj: t.cj >> 1, ck: t.ck >> 1 };
    out.set(keyOf(p), p);
  }
  return [...out.values()].sort(compareChunks).map(keyOf);
}

function sameKeys(a: readonly ChunkKey[], b: readonly ChunkKey[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
