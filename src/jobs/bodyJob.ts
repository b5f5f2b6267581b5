/**
 * The body job: (body, grid, resolution) → grid values → hermite data → Dual Contouring
 * with simplification → indexed mesh, off the main thread. A pure function of its params and the
 * worker's state (runs in workers and in Node tests); `body.worker.ts` adapts it and builds the
 * mesh's three-mesh-bvh BVH there (src/render/bodyBvh.ts: the three.js step stays out of the job).
 *
 * Grid values and hermite data come from the GPU path when the caller supplies them
 * (`values`, `hermite`), otherwise from the JS back end here.
 */
import { compileToJs, evaluatePoints, type FieldFn } from '../field/index';
import { cartesianMapping, meshChunk, type ChunkStats, type HermiteEdges } from '../mesher/index';
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
  const result = meshChunk({
    originGrid: [0, 0, 0],
    level: 0,
    cells: params.cells,
    values: params.values ?? sampleGrid(worker, field, params),
    mapping: cartesianMapping(params.stepM, params.originM),
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

/** The body's grid, a slab (one z) at a time through `evaluatePoints` (the generated evaluator's lattice call). */
function sampleGrid(worker: WorkerState, field: FieldFn, p: BodyMeshParams): Float32Array {
  const n = p.cells + 1;
  const nn = n * n;
  const out = new Float32Array(n * nn);
  if (worker.slabXyz.length < 3 * nn) worker.slabXyz = new Float64Array(3 * nn);
  const xyz = worker.slabXyz;
  const [ox, oy, oz] = p.originM;
  for (let z = 0; z < n; z++) {
    let q = 0;
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++, q += 3) {
        xyz[q] = ox + p.stepM * x; xyz[q + 1] = oy + p.stepM * y; xyz[q + 2] = oz + p.stepM * z;
      }
    }
    evaluatePoints(field, xyz, out.subarray(z * nn, (z + 1) * nn), nn);
  }
  return out;
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
