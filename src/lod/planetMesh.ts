/**
 * The whole planet as one mesh, for one LOD configuration (issue 10): every chunk meshed through the
 * cube-sphere mapping with its coarser neighbours from the same snapshot, every seam built by its
 * owner, the union returned with per-piece provenance. One chunk's sampling and meshing is
 * cubeSphereChunk.ts; configurations to feed it (random, from a camera) are lodConfigurations.ts.
 * Pure TypeScript; the renderer's streaming path uses the same pieces (cubeSphereChunk.ts,
 * planetSeams.ts) chunk by chunk. See docs/lod.md, "Seams".
 */
import { compileToJs } from '../field/index.ts';
import type { FieldFn, FieldRecipe } from '../field/index.ts';
import { countDuplicateTriangles, validateMesh, weldMeshes } from '../mesher/validate.ts';
import type { MeshReport } from '../mesher/validate.ts';
import type { BoundaryLeaves, ChunkMesh, MeshChunkResult } from '../mesher/types.ts';
import type { ChunkAddress, ChunkKey } from './chunkKey.ts';
import type { CubeSphereSpace } from './cubeSphere.ts';
import { meshCubeSphereChunk } from './cubeSphereChunk.ts';
import { planLodUpdate, type LodUpdatePlan } from './lodUpdate.ts';
import type { PlanetLod, TransformedLeavesCache } from './planetSeams.ts';
import { buildPlanetSeam, coarserNeighboursOf, planetLod } from './planetSeams.ts';

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
