/**
 * The whole planet as one mesh, for one LOD configuration (issue 10): every chunk meshed through the
 * cube-sphere mapping with its coarser neighbours from the same snapshot, every seam built by its
 * owner, the union returned with per-piece provenance. Plus LOD configurations to feed it: seeded
 * random ones (2:1 balanced, with level steps across face edges and around cube corners) and one from
 * a camera through `selectChunks`. Pure TypeScript; the renderer's streaming path uses the same
 * pieces (planetSeams.ts) chunk by chunk. See docs/lod.md, "Seams".
 */
import { compileToJs, Prng } from '../field/index.ts';
import type { FieldFn, FieldRecipe } from '../field/index.ts';
import { meshChunk, sampleChunk } from '../mesher/dualContour.ts';
import { countDuplicateTriangles, validateMesh, weldMeshes } from '../mesher/validate.ts';
import type { MeshReport } from '../mesher/validate.ts';
import type { BoundaryLeaves, ChunkMesh, CoarserNeighbour, GridMapping, MeshChunkResult } from '../mesher/types.ts';
import type { HermiteMemo } from '../mesher/hermiteMemo.ts';
import type { ChunkAddress, ChunkKey } from './chunkKey.ts';
import { childAddress } from './chunkKey.ts';
import type { CubeSphereSpace } from './cubeSphere.ts';
import { FACE_COUNT } from './cubeSphere.ts';
import type { PlanetShell } from './culling.ts';
import { chunkBoundingSphere, chunkInShell } from './culling.ts';
import { edgeTransform, transformPoint } from './faceFrames.ts';
import type { LodUpdatePlan, PlanetLod, TransformedLeavesCache } from './planetSeams.ts';
import { balanceLod, buildPlanetSeam, coarserNeighboursOf, planetLod, planLodUpdate } from './planetSeams.ts';
import type { SelectOptions } from './selection.ts';
import { selectChunks } from './selection.ts';

const scratchE = new Float64Array(3);

/**
 * The face mapping for SAMPLING: a lattice point on a face edge or cube corner is evaluated on the
 * lowest-index face holding it. Two faces compute the same edge point through different formulas
 * (tan(π/4) = 0.9999999999999999 on one side, components summed in another order), so the world
 * points — and the field values — can differ in the last bits, and a value within 1e-16 of zero would
 * get different signs in the two chunks sharing the point. Seams need one sign per shared corner.
 */
export function canonicalSampleMapping(space: CubeSphereSpace, face: number): GridMapping {
  const S = space.faceUnits;
  return {
    toWorld(gi, gj, gk, out) {
      if (gi > 0 && gi < S && gj > 0 && gj < S) {
        space.toWorld(face, gi, gj, gk, out);
        return;
      }
      let best = face, bi = gi, bj = gj;
      for (let e = 0; e < 4; e++) {
        const on = e === 0 ? gi === 0 : e === 1 ? gi === S : e === 2 ? gj === 0 : gj === S;
        if (!on) continue;
        const m = edgeTransform(S, face, e);
        if (m.toFace >= best) continue;
        transformPoint(m, gi, gj, gk, scratchE);
        best = m.toFace; bi = scratchE[0]; bj = scratchE[1];
      }
      space.toWorld(best, bi, bj, gk, out);
    },
  };
}

/**
 * Samples and chunk meshes reused across configurations of ONE recipe and space (tests and the CLI
 * mesh many configurations of the same planet). Samples depend on the address only; a chunk mesh on
 * the address and its coarser neighbours.
 */
export class PlanetMeshCache {
  readonly samples = new Map<ChunkKey, Float32Array>();
  readonly chunks = new Map<string, MeshChunkResult>();
  /** Boundary leaves moved into neighbour faces' frames (see buildPlanetSeam). */
  readonly moved: TransformedLeavesCache = new WeakMap();
  private recipe: FieldRecipe | null = null;
  private space: CubeSphereSpace | null = null;

  /** Throws when the cache is used with another recipe or space than the first one. */
  check(recipe: FieldRecipe, space: CubeSphereSpace): void {
    if (this.recipe === null) {
      this.recipe = recipe;
      this.space = space;
    } else if (this.recipe !== recipe || this.space !== space) {
      throw new Error('PlanetMeshCache: one cache per recipe and space');
    }
  }
}

export interface PlanetMeshOptions {
  /** The recipe compiled with `compileToJs` (compiled here when absent). */
  field?: FieldFn;
  /** Refine crossings and normals with the field (meshChunk's `field`; default true). */
  refineCrossings?: boolean;
  /** QEF simplification threshold per chunk (default 0: off). */
  simplify?: number;
  cache?: PlanetMeshCache;
}

/** One piece of the planet mesh and where it came from. */
export interface PlanetPiece {
  kind: 'chunk' | 'seam';
  /** The chunk's key, or for a seam its owner's key. */
  key: ChunkKey;
  mesh: ChunkMesh;
  /** Weld tag: the chunk's face, or the face of each seam vertex (see planetSeams.ts). */
  vertexFaces: number | Uint8Array;
  /** Chunk: its coarser neighbours' keys (restriction); seam: the chunks it stitches besides the owner. */
  dependsOn: readonly ChunkKey[];
}

export interface PlanetMeshResult {
  lod: PlanetLod;
  /** Chunk pieces first (canonical order), then seams (by owner, canonical order). Empty meshes included. */
  pieces: PlanetPiece[];
  boundaries: Map<ChunkKey, BoundaryLeaves>;
  stats: {
    chunks: number; seams: number; chunkTriangles: number; seamTriangles: number;
    /** Chunks with an empty mesh (no surface crosses them inside). */
    emptyChunks: number;
    meshMs: number; seamMs: number;
  };
}

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

function coarserKeysOf(lod: PlanetLod, key: ChunkKey): ChunkKey[] {
  const a = lod.byKey.get(key)!;
  return lod.touching.get(key)!.filter((k) => lod.byKey.get(k)!.level === a.level + 1);
}

export interface CubeSphereChunkOptions {
  /** Refine crossings and normals with the field (default true). */
  refineCrossings?: boolean;
  /** QEF simplification threshold (default 0). */
  simplify?: number;
  /** Samples from an earlier call (sampleChunk layout); sampled through canonicalSampleMapping when absent. */
  values?: Float32Array;
  /** Largest collapsed leaf in cells (default {@link PLANET_MAX_LEAF_CELLS}). */
  maxLeafCells?: number;
  /** This chunk's crossings and normals from earlier meshes with the same field (see HermiteMemo). */
  hermiteMemo?: HermiteMemo;
}

/**
 * Simplification on a cube-sphere: a constant radius is a plane in grid space, so a smooth region
 * would collapse into one vertex per chunk (QEF error 0 in grid space) and draw as a faceted ball;
 * leaves of at most 4 cells keep the world-space sagitta under ~2 c / R cells (0.1 cell at the root
 * level). Found when band-limited coarse levels made the planet smooth: facets from orbit.
 */
export const PLANET_MAX_LEAF_CELLS = 4;

/**
 * Samples and meshes one cube-sphere chunk for the configuration it is drawn in: samples through
 * {@link canonicalSampleMapping} (faces agree on shared points), positions through the face mapping,
 * `coarserNeighbours` (the mesher's mixed-level contract) from {@link coarserNeighbourBoxes}. The one
 * per-chunk path shared by `meshPlanet` and the renderer's chunk jobs. Returns the samples too.
 */
export function meshCubeSphereChunk(
  space: CubeSphereSpace, a: ChunkAddress, coarser: readonly CoarserNeighbour[], field: FieldFn,
  options: CubeSphereChunkOptions = {},
): MeshChunkResult & { values: Float32Array } {
  const U = space.chunkUnits(a.level);
  const spec = { originGrid: [a.ci * U, a.cj * U, a.ck * U] as [number, number, number], level: a.level, cells: space.chunkCells };
  const values = options.values ?? sampleChunk(spec, field, canonicalSampleMapping(space, a.face));
  const result = meshChunk({
    ...spec, values, mapping: space.faceMapping(a.face), field: (options.refineCrossings ?? true) ? field : undefined,
    simplify: options.simplify ?? 0, maxLeafCells: options.maxLeafCells ?? PLANET_MAX_LEAF_CELLS, coarserNeighbours: coarser,
    hermiteMemo: options.hermiteMemo,
  });
  return { ...result, values };
}

/** What {@link sampleCubeSphereChunk} found. */
export interface ChunkSamples {
  /** (N+1)³ values, x fastest — for meshing only when `complete`. */
  values: Float32Array;
  /**
   * A sign change was found and every point has a value: `sampleChunk`'s, bit for bit, near the
   * surface; interpolated (same sign) in blocks far from it. Meshes like `sampleChunk`'s values.
   */
  complete: boolean;
  /** Field evaluations made. */
  evaluations: number;
  /** Homogeneous (not complete): 'empty' or 'full', and the smallest |value| seen. */
  state: 'empty' | 'full' | null;
  minAbs: number;
}

const scratchS = new Float64Array(3);

/**
 * The face planes of recently sampled chunks, by face frame, level and plane: a chunk's face is its
 * neighbour's face, sampled at the same points through the same canonical mapping, so the second
 * chunk copies it instead of evaluating the field again (a face is 33² of the ~10,000 points an
 * empty or full chunk evaluates). One cache per field (a level's band limit is part of the field).
 * Least recently stored out past `capacity` planes (4.4 kB each at N = 32).
 */
export class FacePlaneCache {
  private readonly planes = new Map<string, Float32Array>();
  hits = 0;
  constructor(private readonly capacity = 384) {}

  get(key: string): Float32Array | undefined {
    const plane = this.planes.get(key);
    if (plane) this.hits++;
    return plane;
  }

  clear(): void {
    this.planes.clear();
  }

  set(key: string, plane: Float32Array): void {
    this.planes.delete(key);
    this.planes.set(key, plane);
    if (this.planes.size > this.capacity) this.planes.delete(this.planes.keys().next().value!);
  }
}

/**
 * How far a 2-cell block's corners must be from zero, as a multiple of the largest change along one
 * of its 2-cell edges, for its inside to be left unsampled: √3 (the block's half diagonal, in 2-cell
 * steps, is √3 / 2) with a safety factor of 2 on that local slope.
 */
export const NARROW_BAND_SLOPE_FACTOR = Math.sqrt(3);

/**
 * Samples a chunk through {@link canonicalSampleMapping}, spending field evaluations where the
 * surface is. First every point on its six faces and every other point inside (i, j, k all even):
 * about 30 % of the (N+1)³ at N = 32. When all of those have one sign the chunk is taken as
 * homogeneous and sampling stops there.
 *
 * Otherwise the chunk is a grid of 2-cell blocks whose corners are all sampled. A block is sampled
 * whole when it holds a sign change among its sampled points, touches such a block, or has a
 * corner closer to zero than {@link NARROW_BAND_SLOPE_FACTOR} times the largest change along its
 * edges (the surface may be within reach of the local slope). The points of the other blocks —
 * one sign, far from the surface — are filled by interpolating their block's corners, which keeps
 * that sign. Every sign-changing edge then lies in a fully sampled block, so the mesh, which reads
 * only signs there, equals the one from every point sampled (test/lod/sparseSampling.test.ts
 * compares meshes of planet chunks at every level); values at evaluated points are bit for bit
 * `sampleChunk`'s.
 *
 * Why it is safe for seams: every point a neighbour shares (the faces) is sampled exactly, so
 * chunks agree on every shared sign. What it can miss: a pocket of the other sign lying wholly
 * inside a block and between its corners — under two cells across, which Dual Contouring at this
 * level would not resolve either, and which the level's band limit (no feature under two cells)
 * leaves out of the field. Near a planet's surface most chunks the selection asks for are empty or
 * full (the shell is thick); they cost a third of a full sample, and surface chunks about half.
 */
export function sampleCubeSphereChunk(space: CubeSphereSpace, a: ChunkAddress, field: FieldFn, planes?: FacePlaneCache): ChunkSamples {
  const N = space.chunkCells;
  const P = N + 1, PP = P * P;
  const U = space.chunkUnits(a.level);
  const cs = 2 ** a.level;
  const ox = a.ci * U, oy = a.cj * U, oz = a.ck * U;
  const mapping = canonicalSampleMapping(space, a.face);
  const values = new Float32Array(P * P * P);
  const done = new Uint8Array(P * P * P);
  let evaluations = 0, seen = 0, inside = 0, minAbs = Infinity;
  const put = (p: number, v: number): void => {
    values[p] = v;
    done[p] = 1;
    seen++;
    if (v < 0) inside++;
    const abs = Math.abs(v);
    if (abs < minAbs) minAbs = abs;
  };
  const sample = (p: number, i: number, j: number, k: number): void => {
    if (done[p]) return;
    mapping.toWorld(ox + i * cs, oy + j * cs, oz + k * cs, scratchS);
    put(p, field(scratchS[0], scratchS[1], scratchS[2]));
    evaluations++;
  };
  // Pass 1: the six faces (from the plane cache where a neighbour sampled them), then the even interior.
  const chunk = [a.ci, a.cj, a.ck];
  const stride = [1, P, PP];
  for (let axis = 0; axis < 3; axis++) {
    const u = axis === 0 ? 1 : 0, w = axis === 2 ? 1 : 2; // the plane's two other axes
    for (const side of [0, N]) {
      const key = planes ? `${a.face}/${a.level}/${axis}/${(chunk[axis] * U + side * cs)}/${chunk[u]}/${chunk[w]}` : '';
      const base = side * stride[axis];
      const kept = planes?.get(key);
      if (kept) {
        for (let q = 0, y = 0; y < P; y++) for (let x = 0; x < P; x++, q++) {
          const p = base + x * stride[u] + y * stride[w];
          if (!done[p]) put(p, kept[q]);
        }
        continue;
      }
      const plane = planes ? new Float32Array(PP) : null;
      for (let q = 0, y = 0; y < P; y++) for (let x = 0; x < P; x++, q++) {
        const p = base + x * stride[u] + y * stride[w];
        sample(p, axis === 0 ? side : x, axis === 1 ? side : axis === 0 ? x : y, axis === 2 ? side : y);
        if (plane) plane[q] = values[p];
      }
      if (plane) planes!.set(key, plane);
    }
  }
  for (let k = 2; k < N; k += 2) for (let j = 2; j < N; j += 2) for (let i = 2; i < N; i += 2) sample(i + P * (j + P * k), i, j, k);
  if (inside === 0 || inside === seen) return { values, complete: false, evaluations, state: inside === 0 ? 'empty' : 'full', minAbs };
  if (N % 2 !== 0) {
    // No 2-cell blocks: sample everything.
    for (let k = 0; k < P; k++) for (let j = 0; j < P; j++) for (let i = 0; i < P; i++) sample(i + P * (j + P * k), i, j, k);
    return { values, complete: true, evaluations, state: null, minAbs };
  }
  // Pass 2: classify the 2-cell blocks from their sampled points.
  const B = N / 2;
  const mixed = new Uint8Array(B * B * B);
  const active = new Uint8Array(B * B * B);
  for (let bk = 0; bk < B; bk++) for (let bj = 0; bj < B; bj++) for (let bi = 0; bi < B; bi++) {
    const b = bi + B * (bj + B * bk);
    const p0 = 2 * bi + P * (2 * bj + P * 2 * bk);
    let neg = 0, seen = 0;
    for (let dk = 0; dk <= 2; dk++) for (let dj = 0; dj <= 2; dj++) for (let di = 0; di <= 2; di++) {
      const p = p0 + di + P * dj + PP * dk;
      if (!done[p]) continue;
      seen++;
      if (values[p] < 0) neg++;
    }
    if (neg !== 0 && neg !== seen) {
      mixed[b] = 1;
      continue;
    }
    let near = Infinity, slope = 0;
    for (let c = 0; c < 8; c++) {
      const p = p0 + 2 * (c & 1) + 2 * P * ((c >> 1) & 1) + 2 * PP * (c >> 2);
      const v = values[p];
      near = Math.min(near, Math.abs(v));
      if (!(c & 1)) slope = Math.max(slope, Math.abs(values[p + 2] - v));
      if (!(c & 2)) slope = Math.max(slope, Math.abs(values[p + 2 * P] - v));
      if (!(c & 4)) slope = Math.max(slope, Math.abs(values[p + 2 * PP] - v));
    }
    if (!(near > NARROW_BAND_SLOPE_FACTOR * slope)) active[b] = 1;
  }
  for (let bk = 0; bk < B; bk++) for (let bj = 0; bj < B; bj++) for (let bi = 0; bi < B; bi++) {
    if (!mixed[bi + B * (bj + B * bk)]) continue;
    for (let nk = Math.max(0, bk - 1); nk <= Math.min(B - 1, bk + 1); nk++) {
      for (let nj = Math.max(0, bj - 1); nj <= Math.min(B - 1, bj + 1); nj++) {
        for (let ni = Math.max(0, bi - 1); ni <= Math.min(B - 1, bi + 1); ni++) active[ni + B * (nj + B * nk)] = 1;
      }
    }
  }
  // Pass 3: every point of an active block, then the rest from their block's corners.
  for (let bk = 0; bk < B; bk++) for (let bj = 0; bj < B; bj++) for (let bi = 0; bi < B; bi++) {
    if (!active[bi + B * (bj + B * bk)]) continue;
    for (let k = 2 * bk; k <= 2 * bk + 2; k++) for (let j = 2 * bj; j <= 2 * bj + 2; j++) {
      for (let i = 2 * bi; i <= 2 * bi + 2; i++) sample(i + P * (j + P * k), i, j, k);
    }
  }
  for (let k = 0; k < P; k++) for (let j = 0; j < P; j++) for (let i = 0; i < P; i++) {
    const p = i + P * (j + P * k);
    if (done[p]) continue;
    // Mean of the even points around it along its odd axes (a midpoint of an edge, face or block).
    const di = i & 1, dj = (j & 1) * P, dk = (k & 1) * PP;
    let sum = 0, n = 0;
    for (let c = 0; c < 8; c++) {
      if ((c & 1 && !di) || (c & 2 && !dj) || (c & 4 && !dk)) continue;
      sum += values[p + (c & 1 ? di : -di) + (c & 2 ? dj : -dj) + (c & 4 ? dk : -dk)];
      n++;
    }
    values[p] = sum / n;
  }
  return { values, complete: true, evaluations, state: null, minAbs };
}

/** Samples and meshes one chunk of a snapshot (coarser neighbours from that snapshot). */
function meshPlanetChunk(
  lod: PlanetLod, key: ChunkKey, field: FieldFn, refine: boolean, simplify: number, cache: PlanetMeshCache | undefined,
): { piece: PlanetPiece; mesh: ChunkMesh; boundary: BoundaryLeaves } {
  const a = lod.byKey.get(key)!;
  const coarserKeys = coarserKeysOf(lod, key);
  const meshKey = `${key}|${coarserKeys.join(',')}|${simplify}|${refine}`;
  let result: MeshChunkResult | undefined = cache?.chunks.get(meshKey);
  if (!result) {
    const r = meshCubeSphereChunk(lod.space, a, coarserNeighboursOf(lod, key), field, {
      refineCrossings: refine, simplify, values: cache?.samples.get(key),
    });
    cache?.samples.set(key, r.values);
    result = { mesh: r.mesh, boundary: r.boundary, stats: r.stats };
    cache?.chunks.set(meshKey, result);
  }
  return {
    piece: { kind: 'chunk', key, mesh: result.mesh, vertexFaces: a.face, dependsOn: coarserKeys },
    mesh: result.mesh,
    boundary: result.boundary,
  };
}

/**
 * Meshes every chunk of a LOD configuration and every seam. Chunks are sampled through
 * {@link canonicalSampleMapping} and meshed with `coarserNeighbours` from the snapshot; seams are built
 * by their owners ({@link buildPlanetSeam}). Every chunk is meshed, also homogeneous ones: their
 * (empty) boundary cells are what a finer neighbour's seam needs.
 */
export function meshPlanet(
  recipe: FieldRecipe, space: CubeSphereSpace, config: readonly ChunkAddress[] | PlanetLod, options: PlanetMeshOptions = {},
): PlanetMeshResult {
  const lod = 'byKey' in config ? config : planetLod(space, config);
  const field = options.field ?? compileToJs(recipe);
  const refine = options.refineCrossings ?? true;
  const simplify = options.simplify ?? 0;
  const cache = options.cache;
  cache?.check(recipe, space);
  const pieces: PlanetPiece[] = [];
  const boundaries = new Map<ChunkKey, BoundaryLeaves>();
  let chunkTriangles = 0, seamTriangles = 0, emptyChunks = 0;
  const t0 = now();
  for (let i = 0; i < lod.leaves.length; i++) {
    const key = lod.keys[i];
    const piece = meshPlanetChunk(lod, key, field, refine, simplify, cache);
    boundaries.set(key, piece.boundary);
    const tris = piece.mesh.indices.length / 3;
    chunkTriangles += tris;
    if (tris === 0) emptyChunks++;
    pieces.push(piece.piece);
  }
  const t1 = now();
  const moved: TransformedLeavesCache = cache?.moved ?? new WeakMap();
  for (const key of lod.keys) {
    const seam = buildPlanetSeam(lod, key, (k) => boundaries.get(k), moved);
    seamTriangles += seam.mesh.indices.length / 3;
    pieces.push({ kind: 'seam', key, mesh: seam.mesh, vertexFaces: seam.vertexFaces, dependsOn: seam.stitches });
  }
  const t2 = now();
  return {
    lod, pieces, boundaries,
    stats: {
      chunks: lod.leaves.length, seams: lod.keys.length, chunkTriangles, seamTriangles, emptyChunks,
      meshMs: t1 - t0, seamMs: t2 - t1,
    },
  };
}

/**
 * The streaming path in one call, for tests and tools: goes from `previous` (the pieces of one
 * snapshot) to snapshot `after`, re-meshing only `plan.meshChunks` and rebuilding only
 * `plan.buildSeams` ({@link planLodUpdate}); every other piece is reused as is. `recipe` is the recipe
 * after the edit (edited chunks are resampled; `options.cache` is used for the others only). The result
 * equals `meshPlanet(recipe, space, after)` piece for piece (tested): the contract is complete.
 */
export function updatePlanetMesh(
  recipe: FieldRecipe, previous: PlanetMeshResult, after: PlanetLod, edited: Iterable<ChunkKey> = [],
  options: PlanetMeshOptions = {},
): PlanetMeshResult & { plan: LodUpdatePlan } {
  const field = options.field ?? compileToJs(recipe);
  const refine = options.refineCrossings ?? true;
  const simplify = options.simplify ?? 0;
  const editedSet = new Set(edited);
  const plan = planLodUpdate(previous.lod, after, editedSet);
  const remesh = new Set(plan.meshChunks);
  const rebuild = new Set(plan.buildSeams);
  const old = new Map(previous.pieces.map((p) => [`${p.kind}:${p.key}`, p]));
  const pieces: PlanetPiece[] = [];
  const boundaries = new Map<ChunkKey, BoundaryLeaves>();
  let chunkTriangles = 0, seamTriangles = 0, emptyChunks = 0;
  const t0 = now();
  for (const key of after.keys) {
    let piece: PlanetPiece;
    if (remesh.has(key)) {
      const r = meshPlanetChunk(after, key, field, refine, simplify, editedSet.has(key) ? undefined : options.cache);
      piece = r.piece;
      boundaries.set(key, r.boundary);
    } else {
      piece = old.get(`chunk:${key}`)!;
      boundaries.set(key, previous.boundaries.get(key)!);
    }
    const tris = piece.mesh.indices.length / 3;
    chunkTriangles += tris;
    if (tris === 0) emptyChunks++;
    pieces.push(piece);
  }
  const t1 = now();
  const moved: TransformedLeavesCache = options.cache?.moved ?? new WeakMap();
  for (const key of after.keys) {
    let piece: PlanetPiece;
    if (rebuild.has(key)) {
      const seam = buildPlanetSeam(after, key, (k) => boundaries.get(k), moved);
      piece = { kind: 'seam', key, mesh: seam.mesh, vertexFaces: seam.vertexFaces, dependsOn: seam.stitches };
    } else {
      piece = old.get(`seam:${key}`)!;
    }
    seamTriangles += piece.mesh.indices.length / 3;
    pieces.push(piece);
  }
  const t2 = now();
  return {
    lod: after, pieces, boundaries, plan,
    stats: {
      chunks: after.keys.length, seams: after.keys.length, chunkTriangles, seamTriangles, emptyChunks,
      meshMs: t1 - t0, seamMs: t2 - t1,
    },
  };
}

/** The union of all pieces, welded by (face, leaf) identity. Positions relative to the first piece's origin. */
export function weldPlanet(pieces: readonly PlanetPiece[]): ChunkMesh {
  return weldMeshes(pieces.map((p) => p.mesh), pieces.map((p) => p.vertexFaces));
}

/** Watertightness report of a planet mesh: the welded union's `validateMesh` plus duplicate triangles. */
export function planetMeshReport(pieces: readonly PlanetPiece[]): MeshReport & { duplicateTriangles: number } {
  const welded = weldPlanet(pieces);
  return { ...validateMesh(welded), duplicateTriangles: countDuplicateTriangles(welded) };
}

export interface RandomLodOptions {
  /** Finest level a chunk may reach (default 0). */
  finestLevel?: number;
}

const CUBE_CORNERS = [-1, 1].flatMap((x) => [-1, 1].flatMap((y) => [-1, 1].map((z) => [x, y, z])));

/**
 * A seeded random valid LOD configuration: leaves tiling the shell, 2:1 balanced across faces, edges
 * and cube corners (canonical order). Each seed draws a split probability per level and a focus — a
 * cube corner, a point on a cube edge, or a random direction — around which the chunks of a random
 * SUBSET of the faces are refined to a focus level while the others are not, so the balance pass puts
 * level steps across face edges and around cube corners.
 */
export function randomLodConfiguration(
  space: CubeSphereSpace, shell: PlanetShell, seed: number, options: RandomLodOptions = {},
): ChunkAddress[] {
  const r = new Prng(seed);
  const root = space.levels;
  const finest = Math.min(options.finestLevel ?? 0, root);
  const pSplit: number[] = [];
  for (let l = 0; l <= root; l++) pSplit.push(r.next() * r.next() * 1.4);
  const kind = r.int(3);
  let focus: number[];
  if (kind === 0) {
    focus = CUBE_CORNERS[r.int(8)].slice();
  } else if (kind === 1) {
    // A point on a cube edge: two coordinates ±1, the third in (−1, 1).
    const free = r.int(3);
    focus = [r.next() < 0.5 ? -1 : 1, r.next() < 0.5 ? -1 : 1, r.next() < 0.5 ? -1 : 1];
    focus[free] = r.range(-0.9, 0.9);
  } else {
    focus = r.unitVector();
  }
  const len = Math.hypot(focus[0], focus[1], focus[2]);
  const radius = 0.5 * (shell.innerM + shell.outerM);
  const fx = (focus[0] / len) * radius, fy = (focus[1] / len) * radius, fz = (focus[2] / len) * radius;
  const focusFaces = new Set<number>();
  for (let f = 0; f < FACE_COUNT; f++) if (r.next() < 0.5) focusFaces.add(f);
  const focusLevel = finest + r.int(Math.max(root - finest, 1));
  const reachM = r.range(0.05, 0.6) * radius;
  const sphere = new Float64Array(4);
  const leaves: ChunkAddress[] = [];
  const stack: ChunkAddress[] = [];
  for (let f = FACE_COUNT - 1; f >= 0; f--) if (chunkInShell(space, shell, root, 0)) stack.push({ face: f, level: root, ci: 0, cj: 0, ck: 0 });
  while (stack.length > 0) {
    const a = stack.pop()!;
    let split = a.level > finest && r.next() < pSplit[a.level];
    if (!split && a.level > focusLevel && focusFaces.has(a.face)) {
      chunkBoundingSphere(space, a, sphere);
      split = Math.hypot(sphere[0] - fx, sphere[1] - fy, sphere[2] - fz) - sphere[3] < reachM;
    }
    if (!split) {
      leaves.push(a);
      continue;
    }
    for (let c = 7; c >= 0; c--) {
      const kid = childAddress(a, c);
      if (chunkInShell(space, shell, kid.level, kid.ck)) stack.push(kid);
    }
  }
  return balanceLod(space, shell, leaves);
}

/** Viewport factor of 1080 px at 60° vertical field of view (see `LodView.projectionFactor`). */
export const PROJECTION_1080P_60DEG = 1080 / (2 * Math.tan(Math.PI / 6));

/**
 * The LOD configuration `selectChunks` picks for a camera at `cameraM` (body-local metres), with no
 * frustum (all directions): its leaves, canonical order. `selectChunks` balances across faces and
 * corners already.
 */
export function cameraLodConfiguration(
  space: CubeSphereSpace, shell: PlanetShell, cameraM: readonly [number, number, number],
  options: SelectOptions & { projectionFactor?: number } = {},
): ChunkAddress[] {
  const sel = selectChunks(space, shell, { cameraM, projectionFactor: options.projectionFactor ?? PROJECTION_1080P_60DEG }, options);
  return sel.leaves;
}

/** Keys of a configuration's chunks per level, for reports: `{ level: count }`. */
export function levelHistogram(leaves: readonly ChunkAddress[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const a of leaves) out[a.level] = (out[a.level] ?? 0) + 1;
  return out;
}

