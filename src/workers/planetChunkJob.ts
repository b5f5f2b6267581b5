/**
 * The planet chunk job: one cube-sphere chunk (face, level, ci, cj, ck) of a planet recipe →
 * JS field samples (through `canonicalSampleMapping`, so faces agree on shared points) →
 * Dual Contouring with the chunk's `coarserNeighbours` in the LOD configuration it will be
 * drawn in (the mesher's mixed-level contract) → mesh relative to the chunk's body-local
 * origin (float64), its boundary leaves (for seam jobs) and whether it was empty or full (so
 * the LOD never asks for it again). Pure; runs in workers and Node tests. The per-chunk
 * meshing is `meshCubeSphereChunk` (src/lod/planetMesh.ts), the same path `meshPlanet` uses.
 */
import { compileToJs, recipeBounds, type FieldFn, type FieldRecipe } from '../field/index';
import {
  chunkSampleGapM,
  coarserNeighbourBoxes,
  CubeSphereSpace,
  homogeneityFromSamples,
  meshCubeSphereChunk,
  parseChunkKey,
  sampleCubeSphereChunk,
  type ChunkAddress,
  type ChunkKey,
  type ChunkSamples,
  type CubeSphereOptions,
} from '../lod/index';
import type { BoundaryLeaves, ChunkStats } from '../mesher/index';
import { fnv1a } from './bodyJob';

export interface PlanetChunkParams {
  recipe: FieldRecipe;
  space: CubeSphereOptions;
  face: number;
  level: number;
  ci: number;
  cj: number;
  ck: number;
  /** Touching chunks one level coarser in the configuration the mesh is for (restriction). */
  coarser: ChunkKey[];
  /** QEF simplification threshold, squared cells. */
  simplify: number;
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
  hash: string;
  stats: ChunkStats | null;
}

export interface PlanetContext {
  key: string;
  field: FieldFn;
  space: CubeSphereSpace;
  lipschitz: number;
  maxRadiusM: number;
}
let cached: PlanetContext | null = null;

/** The compiled field and chunk space of a recipe, kept for the next job of the same planet. */
export function planetContext(recipe: FieldRecipe, spaceOptions: CubeSphereOptions): PlanetContext {
  const key = JSON.stringify([recipe, spaceOptions]);
  if (cached?.key !== key) {
    const bounds = recipeBounds(recipe);
    recentSamples.clear();
    cached = {
      key,
      field: compileToJs(recipe),
      space: new CubeSphereSpace(spaceOptions),
      lipschitz: bounds.lipschitz,
      maxRadiusM: Math.hypot(...bounds.sphereCenter) + bounds.sphereRadiusM,
    };
  }
  return cached;
}

const EMPTY_F32 = new Float32Array(0);

/**
 * Samples of the last chunks with a surface, per worker, for re-meshes: a chunk is meshed again
 * whenever its restriction (coarser neighbours) changes — a third of the chunk jobs in the planet
 * flight bench — and its samples do not depend on the restriction. 32 × 144 kB at N = 32.
 */
const SAMPLE_CACHE_ENTRIES = 32;
const recentSamples = new Map<string, ChunkSamples>();
export const sampleCacheStats = { hits: 0, misses: 0 };

function cachedSamples(key: string): ChunkSamples | undefined {
  const s = recentSamples.get(key);
  if (!s) {
    sampleCacheStats.misses++;
    return undefined;
  }
  sampleCacheStats.hits++;
  recentSamples.delete(key); // most recent last
  recentSamples.set(key, s);
  return s;
}

function keepSamples(key: string, s: ChunkSamples): void {
  recentSamples.delete(key);
  recentSamples.set(key, s);
  while (recentSamples.size > SAMPLE_CACHE_ENTRIES) recentSamples.delete(recentSamples.keys().next().value!);
}

export function meshPlanetChunk(params: PlanetChunkParams): PlanetChunkResult {
  const { field, space, lipschitz, maxRadiusM } = planetContext(params.recipe, params.space);
  const a = { face: params.face, level: params.level, ci: params.ci, cj: params.cj, ck: params.ck };
  const coarser = coarserNeighbourBoxes(space, a, params.coarser.map((k) => parseChunkKey(k)));
  // Faces + every other interior point first: most chunks near the surface are empty or full and
  // stop there (a third of the samples); the others get every point, exactly as before.
  const key = `${a.face}/${a.level}/${a.ci}/${a.cj}/${a.ck}`;
  const samples = cachedSamples(key) ?? sampleCubeSphereChunk(space, a, field);
  if (samples.complete) keepSamples(key, samples);
  if (!samples.complete) {
    // The sparse lattice's points are up to a 2-cell block's half diagonal from any point.
    const proven = samples.minAbs > lipschitz * 2 * chunkSampleGapM(space, params.level, maxRadiusM);
    return homogeneousResult(space, a, { state: samples.state!, proven });
  }
  const result = meshCubeSphereChunk(space, a, coarser, field, { simplify: params.simplify, values: samples.values });
  const homogeneous = homogeneityFromSamples(result.values, lipschitz, chunkSampleGapM(space, params.level, maxRadiusM));
  if (homogeneous) return homogeneousResult(space, a, homogeneous as NonNullable<PlanetChunkResult['homogeneous']>);
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
  };
}

/** The result of a chunk without surface: no mesh, no boundary leaves (seam jobs synthesise them). */
function homogeneousResult(
  space: CubeSphereSpace, a: ChunkAddress, homogeneous: NonNullable<PlanetChunkResult['homogeneous']>,
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
  };
}

export function planetResultTransfer(r: PlanetChunkResult): Transferable[] {
  const out: Transferable[] = [r.positions.buffer, r.normals.buffer, r.indices.buffer, r.vertexCells.buffer];
  if (r.boundary) {
    const b = r.boundary;
    out.push(b.cells.buffer, b.corners.buffer, b.component.buffer, b.vertexGrid.buffer, b.normals.buffer);
  }
  return out;
}
