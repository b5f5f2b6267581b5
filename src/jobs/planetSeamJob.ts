/**
 * The planet seam job (issue 10): the seam owned by one chunk, built by `buildPlanetSeam` from
 * the boundary leaves of the owner and the chunks it stitches, all from ONE snapshot of the drawn
 * configuration (the main thread sends the leaves its chunk jobs returned for that snapshot).
 * Homogeneous chunks have no chunk job result: their leaves (all boundary cells, one sign) are
 * synthesised here (constantBoundaryLeaves) — no sampling, no meshing.
 * Pure; runs in workers and Node tests.
 */
import { pieceData, pieceDataTransfer, type PieceData } from '../mesher/index';
import {
  buildPlanetSeam,
  parseChunkKey,
  seamPartLeaves,
  seamRecordFilter,
  type SeamRecordFilter,
  seamSnapshot,
  type ChunkKey,
  CubeSphereSpace,
} from '../lod/index';
import { constantBoundaryLeaves, unpackBoundaryLeaves, type BoundaryLeaves, type PackedBoundaryLeaves } from '../mesher/index';
import { derived } from './bodyRegistry';
import { pieceColours } from './pieceColours';
import type { WorkerState } from './workerState';

/** One chunk a seam reads: its leaves from a chunk job, or its homogeneous state. */
export interface PlanetSeamPart {
  key: ChunkKey;
  leaves?: BoundaryLeaves;
  /** The chunk mesh's id, whose leaves the worker may hold (leafStore.ts): sent instead of `leaves`. */
  leafId?: string;
  /**
   * The leaves packed (src/mesher/packing.ts, ~10 kB): used when the worker does not hold `leafId`.
   * With many workers a seam's chunks were meshed on several of them, so naming them alone made
   * every seam job come back 'missing' and go again (2,949 of 2,956 seams on a 16-core machine).
   */
  packed?: PackedBoundaryLeaves;
  homogeneous?: 'empty' | 'full';
}

export interface PlanetSeamParams {
  /** The planet's id, registered with the worker (bodyRegistry.ts): its chunk space. */
  body: string;
  owner: ChunkKey;
  /** The owner's stitched chunks in the snapshot (`PlanetLod.seamStitches`), canonical order. */
  stitches: ChunkKey[];
  /** The owner and every stitched chunk. */
  parts: PlanetSeamPart[];
}

export interface PlanetSeamResult {
  positions: Float32Array;
  normals: Float32Array;
  indices: Uint32Array;
  vertexCells: Int32Array;
  /** Face of each vertex's leaf (weld tag with vertexCells). */
  vertexFaces: Uint8Array;
  /** Body-local origin of the positions (the owner chunk's origin), float64 metres. */
  originM: [number, number, number];
  ms: number;
  /** Leaf ids this worker does not hold: nothing was built; send the job again with their leaves. */
  missing: string[];
}

/**
 * Boundary leaves of a chunk with no surface: every boundary cell empty, on the chunk's side
 * (constantBoundaryLeaves: what meshing a constant field gives, restriction or not, without meshing).
 */
function homogeneousLeaves(space: CubeSphereSpace, key: ChunkKey, state: 'empty' | 'full', keep: SeamRecordFilter): BoundaryLeaves {
  const a = parseChunkKey(key);
  const U = space.chunkUnits(a.level);
  return constantBoundaryLeaves({ originGrid: [a.ci * U, a.cj * U, a.ck * U], level: a.level, cells: space.chunkCells }, state === 'full', 0, keep);
}

/** The chunk space of the seam's planet (a seam reads leaves only: no field, no recipe). */
function seamSpace(worker: WorkerState, id: string): CubeSphereSpace {
  const body = worker.registry.planet(id);
  return derived(body, 'planetSeamJob.space', () => new CubeSphereSpace(body.space));
}

export function buildPlanetSeamJob(worker: WorkerState, params: PlanetSeamParams): PlanetSeamResult {
  const t0 = performance.now();
  const space = seamSpace(worker, params.body);
  const ownerAddress = parseChunkKey(params.owner);
  const lod = seamSnapshot(space, ownerAddress, params.stitches.map((k) => parseChunkKey(k)));
  const leaves = new Map<ChunkKey, BoundaryLeaves>();
  const missing: string[] = [];
  for (const p of params.parts) {
    if (p.leaves && p.leaves.cells.length < 4 * p.leaves.count) {
      // A retried job whose records were transferred to a worker that died: refuse rather than
      // stitch an empty boundary (a crack). The renderer starts the seam again with fresh copies.
      throw new Error(`seam ${params.owner}: the leaves of ${p.key} were transferred away (a retried job)`);
    }
    if (p.leaves) leaves.set(p.key, p.leaves);
    else if (p.homogeneous) leaves.set(p.key, homogeneousLeaves(space, p.key, p.homogeneous, seamRecordFilter(space, ownerAddress, parseChunkKey(p.key))));
    else if (p.leafId !== undefined) {
      const held = worker.leaves.get(p.leafId);
      if (held) leaves.set(p.key, held);
      // Only the records this seam can read (a face neighbour's sixth, an edge neighbour's strip),
      // unpacked without the rest: the seam indexes every record it is given, and a part unpacked
      // here is indexed afresh for each seam (leaves held by this worker keep their index across
      // seams: kept whole).
      else if (p.packed) leaves.set(p.key, unpackBoundaryLeaves(p.packed, seamRecordFilter(space, ownerAddress, parseChunkKey(p.key))));
      else missing.push(p.leafId);
    }
  }
  if (missing.length > 0) {
    const none = new Float32Array(0);
    return {
      positions: none, normals: none.slice(), indices: new Uint32Array(0), vertexCells: new Int32Array(0),
      vertexFaces: new Uint8Array(0), originM: [0, 0, 0], ms: performance.now() - t0, missing,
    };
  }
  const seam = buildPlanetSeam(lod, params.owner, (k) => leaves.get(k));
  return {
    positions: seam.mesh.positions,
    normals: seam.mesh.normals,
    indices: seam.mesh.indices,
    vertexCells: seam.mesh.vertexCells,
    vertexFaces: seam.vertexFaces,
    originM: seam.mesh.originWorld,
    ms: performance.now() - t0,
    missing,
  };
}

/**
 * A seam job's parts for a caller holding unpacked leaves (the tests; the renderer sends packed
 * leaves instead, `PlanetSeamPart.packed`): for each part, copies of just the leaves the seam can
 * read (`seamPartLeaves`), and the copies' buffers to transfer. The main thread keeps every chunk's
 * leaves for the next seams, so it sends copies; structured-cloning whole boundaries in postMessage
 * (~310 kB a chunk, 10-26 chunks a seam) took up to 65 ms of a frame in the planet flight bench, and
 * whole copies made GC pauses of 50-130 ms once several seams started per frame.
 */
export function seamPartsToSend(space: CubeSphereSpace, owner: ChunkKey, parts: readonly PlanetSeamPart[]): { parts: PlanetSeamPart[]; transfer: Transferable[] } {
  const transfer: Transferable[] = [];
  const ownerAddress = parseChunkKey(owner);
  const sent = parts.map((p) => {
    if (!p.leaves) return p;
    const leaves = seamPartLeaves(space, ownerAddress, parseChunkKey(p.key), p.leaves);
    transfer.push(leaves.cells.buffer, leaves.corners.buffer, leaves.component.buffer, leaves.vertexGrid.buffer, leaves.normals.buffer);
    return { ...p, leaves };
  });
  return { parts: sent, transfer };
}

/** What a body worker posts for a seam job: the piece in the form the renderer keeps it (pieceData.ts), made here. */
export interface PlanetSeamReply {
  /** Null when leaves were `missing`. */
  piece: PieceData | null;
  vertexFaces: Uint8Array;
  ms: number;
  missing: string[];
}

/** The reply to `params`' job, with the seam's ground colours where its planet has a palette (pieceColours.ts). */
export function planetSeamReply(worker: WorkerState, r: PlanetSeamResult, params: Pick<PlanetSeamParams, 'body' | 'owner'>): { reply: PlanetSeamReply; transfer: Transferable[] } {
  if (r.missing.length > 0) return { reply: { piece: null, vertexFaces: r.vertexFaces, ms: r.ms, missing: r.missing }, transfer: [] };
  const colours = r.indices.length > 0 ? pieceColours(worker.registry, params.body, seamSpace(worker, params.body).cellSizeM(parseChunkKey(params.owner).level), r) : null;
  const piece = pieceData(r, null, colours);
  return { reply: { piece, vertexFaces: r.vertexFaces, ms: r.ms, missing: r.missing }, transfer: [...pieceDataTransfer(piece), r.vertexFaces.buffer as ArrayBuffer] };
}
