/**
 * A planet piece's data in the form the renderer keeps it (render/planetPieces.ts: ~24–28 B a chunk
 * triangle, docs/ARCHITECTURE.md), made in the body worker that meshed it: 16-bit normals, 16-bit indices where the vertices
 * allow, triangles in vertex-cache order (vertexCache.ts), vertex cells and boundary leaves packed
 * (mesher/packing.ts). The main thread used to do
 * this for every chunk and seam it applied — ~0.75 ms a surface chunk on this project's machines,
 * the largest share of an apply budget that bounded the accelerator machine's teleports (results
 * waited to be applied, so no new jobs started while the body pool sat idle).
 */
import type { PackedBoundaryLeaves, PackedVertexCells } from './packing.ts';
import type { BoundaryLeaves } from './types.ts';
import { packBoundaryLeaves, packedLeavesBytes, packedVertexCellsBytes, packVertexCells } from './packing.ts';
import { optimizeVertexCache } from './vertexCache.ts';

export interface PieceData {
  /** Relative to `originM`, float32 metres. */
  positions: Float32Array;
  /** Unit normals × 0x7fff. */
  normals: Int16Array;
  indices: Uint16Array | Uint32Array;
  /** Body-local origin of the positions (float64 metres). */
  originM: [number, number, number];
  /** Each vertex's leaf identity (welding with seams), packed. */
  vertexCells: PackedVertexCells;
  /** A chunk's boundary leaves, packed (seam jobs on other workers read them); null for seams and empty chunks. */
  leaves: PackedBoundaryLeaves | null;
  /** 4 bytes per vertex that the renderer draws with (a planet's ground colour, src/field/groundColours.ts), or null. */
  colours: Uint8Array | null;
}

/** What a chunk or seam job meshes. */
export interface MeshedPiece {
  positions: Float32Array;
  normals: Float32Array;
  indices: Uint32Array;
  vertexCells: Int32Array;
  originM: [number, number, number];
}

export function quantisedNormals(n: Float32Array): Int16Array {
  const out = new Int16Array(n.length);
  for (let i = 0; i < n.length; i++) out[i] = Math.round(Math.max(-1, Math.min(1, n[i])) * 0x7fff);
  return out;
}

/** `colours`: per vertex of `r`, 4 bytes (see PieceData), made by the caller from the piece. */
export function pieceData(r: MeshedPiece, boundary: BoundaryLeaves | null, colours: Uint8Array | null = null): PieceData {
  if (colours && colours.length !== (4 * r.positions.length) / 3) throw new Error(`pieceData: ${colours.length} colour bytes for ${r.positions.length / 3} vertices`);
  return {
    positions: r.positions,
    normals: quantisedNormals(r.normals),
    indices: drawOrder(r.indices, r.positions.length / 3),
    originM: r.originM,
    vertexCells: packVertexCells(r.vertexCells),
    leaves: boundary ? packBoundaryLeaves(boundary) : null,
    colours,
  };
}

/** The triangles in vertex-cache order (vertexCache.ts), 16-bit where the vertices allow. */
function drawOrder(indices: Uint32Array, vertices: number): Uint16Array | Uint32Array {
  const ordered = optimizeVertexCache(indices, vertices);
  return vertices <= 0x10000 ? Uint16Array.from(ordered) : ordered;
}

/** Bytes the piece holds (what the planet's memory budget counts), besides its weld tags. */
export function pieceDataBytes(p: PieceData): number {
  return p.positions.byteLength + p.normals.byteLength + p.indices.byteLength + packedVertexCellsBytes(p.vertexCells) +
    (p.leaves ? packedLeavesBytes(p.leaves) : 0) + (p.colours?.byteLength ?? 0);
}

/** The buffers to transfer with a piece (each once). */
export function pieceDataTransfer(p: PieceData): Transferable[] {
  const buffers = new Set<ArrayBufferLike>([p.positions.buffer, p.normals.buffer, p.indices.buffer, p.vertexCells.data.buffer]);
  const l = p.leaves;
  if (l) for (const a of [l.plain, l.explicitAt, l.cells, l.corners, l.component, l.withVertex, l.vertexGrid, l.normals]) buffers.add(a.buffer);
  if (p.colours) buffers.add(p.colours.buffer);
  return [...buffers] as Transferable[];
}
