/**
 * The planet chunk job: one cube-sphere chunk (face, level, ci, cj, ck) of a planet recipe →
 * JS field samples through the face mapping → Dual Contouring → mesh relative to the chunk's
 * body-local origin (float64), its boundary leaves (for seams) and whether it was empty or
 * full (so the LOD never asks for it again). Pure; runs in workers and Node tests.
 */
import { compileToJs, recipeBounds, type FieldFn, type FieldRecipe } from '../field/index';
import { chunkSampleGapM, CubeSphereSpace, homogeneityFromSamples, type CubeSphereOptions } from '../lod/index';
import { meshChunk, sampleChunk, type BoundaryLeaves, type ChunkStats } from '../mesher/index';
import { fnv1a } from './bodyJob';

export interface PlanetChunkParams {
  recipe: FieldRecipe;
  space: CubeSphereOptions;
  face: number;
  level: number;
  ci: number;
  cj: number;
  ck: number;
  /** QEF simplification threshold, squared cells. */
  simplify: number;
}

export interface PlanetChunkResult {
  positions: Float32Array;
  normals: Float32Array;
  indices: Uint32Array;
  /** Body-local position the positions are relative to (float64 metres). */
  originM: [number, number, number];
  boundary: BoundaryLeaves | null;
  /** `empty`/`full`: no surface here; `proven`: none in any descendant either (Lipschitz bound). */
  homogeneous: { state: 'empty' | 'full'; proven: boolean } | null;
  hash: string;
  stats: ChunkStats | null;
}

interface Cached {
  key: string;
  field: FieldFn;
  space: CubeSphereSpace;
  lipschitz: number;
  maxRadiusM: number;
}
let cached: Cached | null = null;

function planetFor(params: PlanetChunkParams): Cached {
  const key = JSON.stringify([params.recipe, params.space]);
  if (cached?.key !== key) {
    const bounds = recipeBounds(params.recipe);
    cached = {
      key,
      field: compileToJs(params.recipe),
      space: new CubeSphereSpace(params.space),
      lipschitz: bounds.lipschitz,
      maxRadiusM: Math.hypot(...bounds.sphereCenter) + bounds.sphereRadiusM,
    };
  }
  return cached;
}

export function meshPlanetChunk(params: PlanetChunkParams): PlanetChunkResult {
  const { field, space, lipschitz, maxRadiusM } = planetFor(params);
  const units = space.chunkUnits(params.level);
  const spec = {
    originGrid: [params.ci * units, params.cj * units, params.ck * units] as [number, number, number],
    level: params.level,
    cells: space.chunkCells,
  };
  const mapping = space.faceMapping(params.face);
  const values = sampleChunk(spec, field, mapping);
  const homogeneous = homogeneityFromSamples(values, lipschitz, chunkSampleGapM(space, params.level, maxRadiusM));
  const origin = new Float64Array(3);
  mapping.toWorld(spec.originGrid[0], spec.originGrid[1], spec.originGrid[2], origin);
  if (homogeneous) {
    return {
      positions: new Float32Array(0),
      normals: new Float32Array(0),
      indices: new Uint32Array(0),
      originM: [origin[0], origin[1], origin[2]],
      boundary: null,
      homogeneous: homogeneous as PlanetChunkResult['homogeneous'],
      hash: '00000000',
      stats: null,
    };
  }
  const result = meshChunk({ ...spec, values, mapping, field, simplify: params.simplify });
  return {
    positions: result.mesh.positions,
    normals: result.mesh.normals,
    indices: result.mesh.indices,
    originM: result.mesh.originWorld,
    boundary: result.boundary,
    homogeneous: null,
    hash: fnv1a([result.mesh.positions, result.mesh.indices]),
    stats: result.stats,
  };
}

export function planetResultTransfer(r: PlanetChunkResult): Transferable[] {
  return [r.positions.buffer, r.normals.buffer, r.indices.buffer] as Transferable[];
}
