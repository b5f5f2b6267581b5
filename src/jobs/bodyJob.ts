/**
 * The body job: (body, grid, resolution) → grid values → hermite data → Dual Contouring
 * with simplification → indexed mesh, off the main thread. A pure function of its params and the
 * worker's state (runs in workers and in Node tests); `body.worker.ts` adapts it and builds the
 * mesh's three-mesh-bvh BVH there (src/render/bodyBvh.ts: the three.js step stays out of the job).
 *
 * Grid values and hermite data come from the GPU path when the caller supplies them
 * (`values`, `hermite`), otherwise from the JS back end here.
 */
import { compileToJs, type FieldFn } from '../field/index';
import { cartesianMapping, meshChunk, sampleChunkNarrowBand, type ChunkStats, type GridMapping, type HermiteEdges } from '../mesher/index';
import { derived } from './bodyRegistry';
import type { WorkerState } from './workerState';

export interface BodyMeshParams {
  /** The body's id, registered with the worker (bodyRegistry.ts). */
  body: string;
  /** N: N³ cells over the grid. */
  cells: number;
  /** Body-local position of grid point (0, 0, 0), metres. */
  originM: [number, number, number];
  /** Cell size, metres. */
  stepM: number;
  /** QEF error threshold for octree simplification, squared cells (0: off). */
  simplify: number;
  /** (N+1)³ grid values from the GPU grid pass (transferred). */
  values?: Float32Array;
  /** Hermite data from the GPU edge pass (transferred). */
  hermite?: HermiteEdges;
  /** Build a BVH for raycasts (default true; the worker entry builds it: src/render/bodyBvh.ts). */
  bvh?: boolean;
  /** Test hook: throw inside the job, as a real failure would. */
  debugThrow?: boolean;
}

export interface BodyMeshResult {
  /** Vertex positions relative to `originM` of the mesh (float32 xyz). */
  positions: Float32Array;
  normals: Float32Array;
  /** Triangle indices, in the BVH's order when a BVH was built. */
  indices: Uint32Array;
  /** Body-local position the positions are relative to, metres (float64). */
  originM: [number, number, number];
  /** Serialised BVH (roots; its index buffer is `indices`), or null. */
  bvhRoots: ArrayBuffer[] | null;
  /** FNV-1a over the mesher's positions and indices (before BVH reordering): determinism checks. */
  hash: string;
  stats: ChunkStats;
  /** Where the grid values came from. */
  sampledBy: 'gpu' | 'js';
}

/** The body's compiled JS field, kept with its registration: a worker meshes one body at several resolutions. */
function fieldFor(worker: WorkerState, id: string): FieldFn {
  const body = worker.registry.body(id);
  return derived(body, 'bodyJob.field', () => compileToJs(body.recipe));
}

/** The body's mesh, without its BVH (`bvhRoots` null: {@link BodyMeshParams.bvh}). */
export function meshBody(worker: WorkerState, params: BodyMeshParams): BodyMeshResult {
  if (params.debugThrow) throw new Error('debugThrow: this body job was asked to fail');
  const field = fieldFor(worker, params.body);
  const mapping = cartesianMapping(params.stepM, params.originM);
  const result = meshChunk({
    originGrid: [0, 0, 0],
    level: 0,
    cells: params.cells,
    values: params.values ?? sampleGrid(field, params, mapping),
    mapping,
    field,
    hermite: params.hermite,
    simplify: params.simplify,
  });
  const { mesh } = result;
  const hash = fnv1a([mesh.positions, mesh.indices]);
  return {
    positions: mesh.positions,
    normals: mesh.normals,
    indices: mesh.indices,
    originM: mesh.originWorld,
    bvhRoots: null,
    hash,
    stats: result.stats,
    sampledBy: params.values ? 'gpu' : 'js',
  };
}

/**
 * The body's grid, narrow-band (src/mesher/narrowBand.ts): the field where the surface may be, in
 * lattice calls of the generated evaluator, interpolated (same sign) elsewhere. The mesh is the
 * dense grid's, bit for bit, on every asteroid family at every level (test/mesher/narrowBand.test.ts),
 * from 30–55 % of the evaluations at 64³ and 47–84 % at 32³.
 */
function sampleGrid(field: FieldFn, p: BodyMeshParams, mapping: GridMapping): Float32Array {
  return sampleChunkNarrowBand({ originGrid: [0, 0, 0], level: 0, cells: p.cells }, field, mapping).values;
}

/** Buffers of a result, for transferring it out of the worker. */
export function bodyResultTransfer(r: BodyMeshResult): Transferable[] {
  return [r.positions.buffer, r.normals.buffer, r.indices.buffer, ...(r.bvhRoots ?? [])] as Transferable[];
}

/** FNV-1a (32-bit) over the bytes of typed arrays, as 8 hex digits. */
export function fnv1a(arrays: readonly ArrayBufferView[]): string {
  let h = 0x811c9dc5;
  for (const a of arrays) {
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
