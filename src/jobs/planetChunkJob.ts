/**
 * The planet chunk job: one cube-sphere chunk (face, level, ci, cj, ck) of a planet recipe →
 * JS field samples (through `canonicalSampleMapping`, so faces agree on shared points) →
 * Dual Contouring with the chunk's `coarserNeighbours` in the LOD configuration it will be
 * drawn in (the mesher's mixed-level contract) → mesh relative to the chunk's body-local
 * origin (float64), its boundary leaves (for seam jobs) and whether it was empty or full (so
 * the LOD never asks for it again). Pure; runs in workers and Node tests, with the worker's caches
 * handed in ({@link PlanetChunkCache}, workerState.ts). The per-chunk
 * meshing is `meshCubeSphereChunk` (src/lod/cubeSphereChunk.ts), the same path `meshPlanet` uses.
 */
import { bandLimitSummary, bandLipschitz, brushesHash, compileToJs, recipeBounds, type BandLimitSummary, type Brush, type FieldFn } from '../field/index';
import {
  childProofs,
  chunkSampleGapM,
  coarserNeighbourBoxes,
  CubeSphereSpace,
  FacePlaneCache,
  homogeneityFromSamples,
  meshCubeSphereChunk,
  parseChunkKey,
  sampleCubeSphereChunk,
  canonicalSampleMapping,
  type ChildProof,
  type ChunkAddress,
  type ChunkKey,
  type ChunkSamples,
} from '../lod/index';
import { HermiteMemo, sampleChunk, type BoundaryLeaves, type ChunkStats, type CoarserNeighbour } from '../mesher/index';
import { fnv1a } from './bodyJob';
import type { RegisteredBody } from './bodyRegistry';
import { pieceColours } from './pieceColours';
import { recallRecent } from './recentlyUsed';
import type { WorkerState } from './workerState';
import { pieceData, pieceDataTransfer, type PieceData } from '../mesher/index';
import { gpuChunkToleranceM, levelMinWavelengthM, memoFromGpuHermite, settleSharedFaces, type GpuHermite } from './planetGpuSamples';

export interface PlanetChunkParams {
  /** The planet's id, registered with the worker with its recipe and chunk space (bodyRegistry.ts). */
  body: string;
  face: number;
  level: number;
  ci: number;
  cj: number;
  ck: number;
  /** Touching chunks one level coarser in the configuration the mesh is for (restriction). */
  coarser: ChunkKey[];
  /** QEF simplification threshold, squared cells. */
  simplify: number;
  /**
   * The user's brushes that reach this chunk, in order (issue 19: src/lod/planetEdits.ts), applied
   * after the registered recipe's own. Sampled in JS; kept samples are per brush set.
   */
  brushes?: Brush[];
  /** The renderer's id for this mesh: when given, the worker keeps its boundary leaves under it (leafStore.ts). */
  leafId?: string;
  /**
   * This worker's share of the pool (1 / workers, default 1): the per-worker caches (kept samples,
   * leaves) are sized by it, so N workers together hold what one would.
   */
  workerShare?: number;
  /**
   * Grid values and edge-pass hermite data from the GPU sampler (planetGpuSamples.ts), used unless
   * this worker kept the chunk's samples; transferred, owned by the job afterwards.
   */
  /**
   * A re-mesh that must not sample: when this worker did not keep the chunk's samples it answers
   * at once with `needsSamples` (the main thread then has the GPU sample the chunk).
   */
  keptOnly?: boolean;
  gpu?: {
    values: Float32Array;
    hermite: GpuHermite;
    /** Bound on |GPU − JS| the sampler vouches for (default {@link gpuChunkToleranceM} for the chunk). */
    toleranceM?: number;
  };
}

export interface PlanetChunkResult {
  positions: Float32Array;
  normals: Float32Array;
  indices: Uint32Array;
  /** 4 per vertex: the leaf identity (ChunkMesh.vertexCells), for welding with seams. */
  vertexCells: Int32Array;
  /** Body-local position the positions are relative to (float64 metres). */
  originM: [number, number, number];
  /** Null when homogeneous: seam jobs synthesise those leaves (planetSeamJob.ts). */
  boundary: BoundaryLeaves | null;
  /** `empty`/`full`: no surface here; `proven`: none in any descendant either (Lipschitz bound). */
  homogeneous: { state: 'empty' | 'full'; proven: boolean } | null;
  /**
   * The eight children proven empty/full from this chunk's samples (culling.ts `childProofs`: their
   * jobs need not run); absent when none is, or the chunk itself is proven.
   */
  childProofs?: ChildProof[];
  hash: string;
  stats: ChunkStats | null;
  /** The `leafId` the boundary leaves were kept under in this worker (echoed from the params). */
  leafId?: string;
  /** Where this mesh's samples came from: kept by this worker, the GPU, or JS sampling here. */
  sampledBy?: 'kept' | 'gpu' | 'js';
  /** Set when a `keptOnly` job found no kept samples: nothing was meshed. */
  needsSamples?: boolean;
  /** Worker time: the whole job, and its sampling (0 when the samples were kept), ms. */
  ms: number;
  sampleMs: number;
}

export interface PlanetContext {
  /** The registration this context was derived from. */
  body: RegisteredBody;
  /** The full field (no band-limit). */
  field: FieldFn;
  space: CubeSphereSpace;
  lipschitz: number;
  maxRadiusM: number;
  /**
   * The field band-limited for a level's lattice, what that drops (compiled once per level and brush
   * set), and its face planes.
   */
  level(level: number, brushes?: readonly Brush[]): LevelField;
}

export { levelMinWavelengthM } from './planetGpuSamples';

/**
 * A level's band-limited field, what the band limit drops, the band-limited field's Lipschitz
 * estimate (bounds.ts `bandLipschitz`: the fine octaves that set the full field's slope are not in
 * it) and the level's face planes.
 */
interface LevelField {
  field: FieldFn;
  summary: BandLimitSummary;
  lipschitz: number;
  planes: FacePlaneCache;
}
/** Level fields of edited chunks kept (a few edits × levels; the unedited ones are always kept). */
const EDITED_LEVEL_FIELDS = 48;

/**
 * The compiled field and chunk space of planet `id` (registered with this worker), kept for its next
 * job. One planet at a time: the kept samples and leaves of another are dropped on a switch.
 */
export function planetContext(worker: WorkerState, id: string): PlanetContext {
  const body = worker.registry.planet(id);
  const { levels } = worker.planet;
  if (worker.planet.context?.body !== body) {
    const { recipe, space: spaceOptions } = body;
    const bounds = recipeBounds(recipe);
    worker.planet.samples.clear();
    levels.clear();
    worker.leaves.clear();
    const space = new CubeSphereSpace(spaceOptions);
    worker.planet.context = {
      body,
      field: compileToJs(recipe),
      space,
      lipschitz: bounds.lipschitz,
      maxRadiusM: Math.hypot(...bounds.sphereCenter) + bounds.sphereRadiusM,
      level(level, brushes = []) {
        const key = brushes.length === 0 ? `${level}` : `${level}#${brushesHash(brushes)}`;
        let l = levels.get(key);
        if (!l) {
          const minWavelengthM = levelMinWavelengthM(space, level);
          const edited = brushes.length === 0 ? recipe : { ...recipe, brushes: [...recipe.brushes, ...brushes] };
          if (brushes.length > 0 && levels.size > EDITED_LEVEL_FIELDS) {
            for (const k of [...levels.keys()]) if (k.includes('#')) levels.delete(k);
          }
          l = {
            field: compileToJs(edited, { minWavelengthM }), summary: bandLimitSummary(recipe, minWavelengthM, bounds.lipschitz),
            lipschitz: Math.min(bounds.lipschitz, bandLipschitz(edited, minWavelengthM)), planes: new FacePlaneCache(),
          };
          levels.set(key, l);
        }
        return l;
      },
    };
  }
  return worker.planet.context;
}

const EMPTY_F32 = new Float32Array(0);

/**
 * Samples and hermite data (crossings, normals) of the last chunks with a surface, per worker, for
 * re-meshes: a chunk is meshed again whenever its restriction (coarser neighbours) changes — a
 * third of the chunk jobs in the planet flight bench — and neither depends on the restriction
 * (the memo checks each edge's end values). Up to 128 × ~0.35 MB at N = 32: the flight bench's
 * re-meshes cost 68 ms each with 32 entries (most had been evicted), 11 ms with 128. That is for a
 * worker meshing all of a planet's chunks; N workers keep 1/N each (PlanetChunkParams.workerShare).
 */
const SAMPLE_CACHE_ENTRIES = 128;
interface KeptChunk {
  samples: ChunkSamples;
  memo: HermiteMemo;
}

/**
 * One worker's planet chunk caches (its entry file makes them: workerState.ts): the current
 * planet's context and level fields, and the samples of the last chunks with a surface.
 */
export class PlanetChunkCache {
  /** The current planet's compiled field and chunk space ({@link planetContext}). */
  context: PlanetContext | null = null;
  /** The current planet's level fields (PlanetContext.level) by level and brush set, compiled on first use. */
  readonly levels = new Map<string, LevelField>();
  /** Kept samples by chunk key (and brush set), most recent last. */
  readonly samples = new Map<string, KeptChunk>();
  /** How many samples are kept: this worker's share of {@link SAMPLE_CACHE_ENTRIES}. */
  sampleEntries = SAMPLE_CACHE_ENTRIES;
  /** Chunks whose samples were kept / not; edges whose crossing and normal were recalled. */
  readonly stats = { hits: 0, misses: 0, recalledEdges: 0 };

  /** Forgets the kept samples and face planes (benchmarks measure chunks meshed from scratch). */
  clear(): void {
    this.samples.clear();
    for (const l of this.levels.values()) l.planes.clear();
  }

  /** The kept samples of chunk `key` (marked recently used), or undefined. */
  get(key: string): KeptChunk | undefined {
    return recallRecent(this.samples, key, this.stats);
  }

  keep(key: string, s: KeptChunk): void {
    this.samples.delete(key);
    this.samples.set(key, s);
    while (this.samples.size > this.sampleEntries) this.samples.delete(this.samples.keys().next().value!);
  }
}

export function meshPlanetChunk(worker: WorkerState, params: PlanetChunkParams): PlanetChunkResult {
  const t0 = performance.now();
  const share = Math.min(1, Math.max(1 / 64, params.workerShare ?? 1));
  // At least 32 a worker: with 15 workers and pool affinity each worker re-meshes its own chunks,
  // and 16 kept (the 1/15 share of 128, raised) missed most re-meshes in the 20 m teleport on the
  // H100 machine (170 s of 700 s worker time). 32 × ~0.35 MB a worker.
  worker.planet.sampleEntries = Math.max(32, Math.round(SAMPLE_CACHE_ENTRIES * share));
  worker.leaves.setShare(share);
  const r = meshPlanetChunkUntimed(worker, params);
  // Attribution only (PlanetView's crack report names how each chunk next to an open edge was sampled).
  r.sampledBy ??= params.gpu ? 'gpu' : 'js';
  if (params.leafId !== undefined && r.boundary) {
    worker.leaves.keep(params.leafId, r.boundary);
    r.leafId = params.leafId;
  }
  r.ms = performance.now() - t0;
  return r;
}

function meshPlanetChunkUntimed(worker: WorkerState, params: PlanetChunkParams): PlanetChunkResult {
  const ctx = planetContext(worker, params.body);
  const { space, lipschitz, maxRadiusM } = ctx;
  const a = { face: params.face, level: params.level, ci: params.ci, cj: params.cj, ck: params.ck };
  const brushes = params.brushes ?? [];
  const { field, summary, planes, lipschitz: bandL } = ctx.level(a.level, brushes);
  const coarser = coarserNeighbourBoxes(space, a, params.coarser.map((k) => parseChunkKey(k)));
  // Faces + every other interior point first: most chunks near the surface are empty or full and
  // stop there (a third of the samples); the others sample the blocks near their surface.
  const key = `${a.face}/${a.level}/${a.ci}/${a.cj}/${a.ck}${brushes.length > 0 ? `#${brushesHash(brushes)}` : ''}`;
  const kept = worker.planet.get(key);
  if (!kept && params.keptOnly) return { ...homogeneousResult(space, a, { state: 'empty', proven: false }, 0), homogeneous: null, needsSamples: true };
  const t0 = performance.now();
  // Homogeneous GPU samples prove emptiness up to the GPU's error as well as the lattice gap.
  let gpuToleranceM = 0;
  let sampledBy: PlanetChunkResult['sampledBy'] = undefined;
  let samples: ChunkSamples;
  let memo: HermiteMemo;
  if (kept) {
    samples = kept.samples;
    memo = kept.memo;
    sampledBy = 'kept';
  } else if (params.gpu) {
    gpuToleranceM = params.gpu.toleranceM ?? gpuChunkToleranceM(space, a, ctx.body.recipe, maxRadiusM, lipschitz);
    const { values: gpuValues, hermite } = params.gpu;
    const P = space.chunkCells + 1;
    const settled = settleSharedFaces(space, a, field, gpuValues, gpuToleranceM);
    const homogeneous = settled.inside === 0 || settled.inside === gpuValues.length;
    samples = {
      values: gpuValues, complete: !homogeneous, evaluations: settled.resampled,
      state: homogeneous ? (settled.inside === 0 ? 'empty' : 'full') : null, minAbs: settled.minAbs,
    };
    memo = homogeneous ? new HermiteMemo() : memoFromGpuHermite(gpuValues, P, hermite);
  } else {
    samples = sampleCubeSphereChunk(space, a, field, planes);
    memo = new HermiteMemo();
  }
  const sampleMs = kept ? 0 : performance.now() - t0;
  if (samples.complete) worker.planet.keep(key, { samples, memo });
  let values = samples.values;
  // The points this chunk shares with a coarser neighbour's lattice take that neighbour's
  // band-limited field: both chunks then agree on every shared sign (the seam contract), although
  // their levels see different bands.
  const coarse = coarser.length > 0 && a.level < space.levels ? ctx.level(a.level + 1, brushes) : null;
  if (coarse && coarse.summary.signature !== summary.signature) {
    values = values.slice();
    const flipped = sampleCoarseLattice(space, a, coarser, coarse.field, values, samples.complete ? null : samples.state);
    if (flipped) {
      // The coarse field puts a sign change on a shared face of a chunk found empty/full: all of it.
      const U = space.chunkUnits(a.level);
      values = sampleChunk({ originGrid: [a.ci * U, a.cj * U, a.ck * U], level: a.level, cells: space.chunkCells }, field, canonicalSampleMapping(space, a.face));
      sampleCoarseLattice(space, a, coarser, coarse.field, values, null);
      samples = { ...samples, complete: true, state: null };
    }
  }
  // The samples are of the band-limited field, within bandL × the gap of it everywhere in the chunk,
  // and the full field is within the dropped octaves' bound of that: no surface in the chunk or
  // below it where every sample is farther from zero than bandL × gap + noiseBound. A dropped shell
  // is unbounded either way (a cave it carves, an arch band it adds to the air): no proof then.
  // The full field's Lipschitz in place of bandL (19 on planet 2, against 6.9 for its band at level
  // 5) left the air a few hundred metres over the ground unproven at coarse levels, to be split by
  // its distance to the camera and asked for chunk by chunk (docs/lod.md "Where the chunks go").
  const gapM = chunkSampleGapM(space, params.level, maxRadiusM) + summary.noiseBoundM / Math.max(bandL, 1e-9);
  const provable = (_state: 'empty' | 'full'): boolean => !summary.shellsDropped;
  // The children's proofs by the same bound over each child's half of this chunk's own samples (the
  // band of this level, before a coarser neighbour's field replaced any): every GPU sample within
  // its tolerance, or JS's even points (always sampled; the odd ones may be interpolated). Kept
  // samples may be an earlier GPU job's: the even points then, with the GPU's default tolerance.
  const childProofsFor = (own: ArrayLike<number>): ChildProof[] | undefined => {
    if (a.level === 0 || summary.shellsDropped) return undefined;
    const gpu = params.gpu !== undefined && !kept;
    const keptTolM = kept ? gpuChunkToleranceM(space, a, ctx.body.recipe, maxRadiusM, lipschitz) : 0;
    const proofs = childProofs(own, space.chunkCells + 1, gpu ? 1 : 2, gpu ? bandL * gapM + gpuToleranceM : bandL * (2 * gapM) + keptTolM);
    return proofs.some((p) => p !== 0) ? proofs : undefined;
  };
  if (!samples.complete) {
    // The sparse lattice's points are up to a 2-cell block's half diagonal from any point; the
    // GPU's samples are every point, each within gpuToleranceM of the field.
    const state = samples.state!;
    const proven = provable(state) && (params.gpu && !kept
      ? samples.minAbs - gpuToleranceM > bandL * gapM
      : samples.minAbs > bandL * (2 * gapM));
    return withChildProofs(homogeneousResult(space, a, { state, proven }, sampleMs), () => childProofsFor(samples.values));
  }
  const recalled = memo.recalled;
  const result = meshCubeSphereChunk(space, a, coarser, field, { simplify: params.simplify, values, hermiteMemo: memo });
  worker.planet.stats.recalledEdges += memo.recalled - recalled;
  const homogeneous = homogeneityFromSamples(result.values, bandL, gapM + gpuToleranceM / Math.max(bandL, 1e-9));
  if (homogeneous) {
    const state = { state: homogeneous.state, proven: homogeneous.proven && provable(homogeneous.state) } as NonNullable<PlanetChunkResult['homogeneous']>;
    return withChildProofs(homogeneousResult(space, a, state, sampleMs), () => childProofsFor(samples.values));
  }
  return {
    positions: result.mesh.positions,
    normals: result.mesh.normals,
    indices: result.mesh.indices,
    vertexCells: result.mesh.vertexCells,
    originM: result.mesh.originWorld,
    boundary: result.boundary,
    homogeneous: null,
    hash: fnv1a([result.mesh.positions, result.mesh.indices]),
    stats: result.stats,
    ms: 0,
    sampleMs,
    sampledBy,
    childProofs: childProofsFor(samples.values),
  };
}

/** `r` with the children's proofs, unless it proves its whole subtree already (then they are not looked for). */
function withChildProofs(r: PlanetChunkResult, proofs: () => ChildProof[] | undefined): PlanetChunkResult {
  if (!r.homogeneous?.proven) r.childProofs = proofs();
  return r;
}

const scratchP = new Float64Array(3);

/**
 * Re-samples with `coarseField` every point of the chunk's boundary that lies on a coarser
 * neighbour's lattice inside its (closed) box: the points that neighbour samples itself. Returns
 * whether one of them now has the other sign than `state` (a chunk found empty or full).
 */
function sampleCoarseLattice(
  space: CubeSphereSpace, a: ChunkAddress, coarser: readonly CoarserNeighbour[], coarseField: FieldFn,
  values: Float32Array, state: 'empty' | 'full' | null,
): boolean {
  const N = space.chunkCells, P = N + 1;
  const U = space.chunkUnits(a.level);
  const cs = 2 ** a.level, coarseCs = 2 * cs;
  const ox = a.ci * U, oy = a.cj * U, oz = a.ck * U;
  const mapping = canonicalSampleMapping(space, a.face);
  let flipped = false;
  for (let k = 0; k < P; k++) {
    const gk = oz + k * cs;
    if (gk % coarseCs !== 0) continue;
    for (let j = 0; j < P; j++) {
      const gj = oy + j * cs;
      if (gj % coarseCs !== 0) continue;
      const face = k === 0 || k === N || j === 0 || j === N;
      for (let i = 0; i < P; i += face ? 1 : N) {
        const gi = ox + i * cs;
        if (gi % coarseCs !== 0) continue;
        let inside = false;
        for (const c of coarser) {
          const b = c.boxGrid;
          if (gi >= b[0] && gi <= b[3] && gj >= b[1] && gj <= b[4] && gk >= b[2] && gk <= b[5]) { inside = true; break; }
        }
        if (!inside) continue;
        mapping.toWorld(gi, gj, gk, scratchP);
        const v = coarseField(scratchP[0], scratchP[1], scratchP[2]);
        values[i + P * (j + P * k)] = v;
        if (state !== null && (v < 0) !== (state === 'full')) flipped = true;
      }
    }
  }
  return flipped;
}

/** The result of a chunk without surface: no mesh, no boundary leaves (seam jobs synthesise them). */
function homogeneousResult(
  space: CubeSphereSpace, a: ChunkAddress, homogeneous: NonNullable<PlanetChunkResult['homogeneous']>, sampleMs: number,
): PlanetChunkResult {
  const U = space.chunkUnits(a.level);
  const originM: [number, number, number] = [0, 0, 0];
  space.toWorld(a.face, a.ci * U, a.cj * U, a.ck * U, originM);
  return {
    positions: EMPTY_F32.slice(),
    normals: EMPTY_F32.slice(),
    indices: new Uint32Array(0),
    vertexCells: new Int32Array(0),
    originM,
    boundary: null,
    homogeneous,
    hash: '00000000',
    stats: null,
    ms: 0,
    sampleMs,
  };
}

/** What a body worker posts for a chunk job: the piece in the form the renderer keeps it (pieceData.ts), made here. */
export type PlanetChunkReply = Omit<PlanetChunkResult, 'positions' | 'normals' | 'indices' | 'vertexCells' | 'originM' | 'boundary'> & {
  /** Null when the chunk is homogeneous or the job found no kept samples (`needsSamples`). */
  piece: PieceData | null;
};

/** The reply to `params`' job, with the piece's ground colours where its planet has a palette (pieceColours.ts). */
export function planetChunkReply(worker: WorkerState, r: PlanetChunkResult, params: Pick<PlanetChunkParams, 'body' | 'level'>): { reply: PlanetChunkReply; transfer: Transferable[] } {
  const { positions, normals, indices, vertexCells, originM, boundary, ...rest } = r;
  if (r.homogeneous || r.needsSamples) return { reply: { ...rest, piece: null }, transfer: [] };
  const colours = indices.length > 0 ? pieceColours(worker.registry, params.body, planetContext(worker, params.body).space.cellSizeM(params.level), { positions, normals, originM }) : null;
  const piece = pieceData({ positions, normals, indices, vertexCells, originM }, boundary, colours);
  return { reply: { ...rest, piece }, transfer: pieceDataTransfer(piece) };
}
