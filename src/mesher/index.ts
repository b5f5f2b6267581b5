/** Dual Contouring mesher: pure TypeScript on typed arrays (no DOM, no WebGL, no three.js). */
export type {
  BoundaryLeaves, ChunkMesh, ChunkSpec, CoarserNeighbour, ChunkStats, FieldFn, GridMapping, HermiteEdges,
  MeshChunkInput, MeshChunkResult,
} from './types.ts';
export { BODY_SIMPLIFY } from './types.ts';
export { cartesianMapping, IDENTITY_MAPPING } from './mapping.ts';
export { meshChunk, sampleChunk, MesherInputError } from './dualContour.ts';
export { HermiteMemo } from './hermiteMemo.ts';
export { countDuplicateTriangles, meshProblems, nonManifoldEdgeTriangles, openEdgeTriangles, validateMesh, weldMeshes } from './validate.ts';
export type { MeshReport } from './validate.ts';
export { MANIFOLD_CONFIG, CELL_EDGES } from './tables.ts';
export { qefSolve, QEF_STRIDE, VERTEX_INSET_CELLS } from './qef.ts';
export { buildSeam } from './seam.ts';
export type { SeamOptions } from './seam.ts';
export { packBoundaryLeaves, unpackBoundaryLeaves, packedLeavesBytes, packVertexCells, unpackVertexCells, packedVertexCellsBytes } from './packing.ts';
export type { PackedBoundaryLeaves, PackedVertexCells } from './packing.ts';
export { pieceData, pieceDataBytes, pieceDataTransfer, quantisedNormals, type MeshedPiece, type PieceData } from './pieceData.ts';
export { constantBoundaryLeaves } from './boundary.ts';
export { sampleChunkNarrowBand, NARROW_BAND_SLOPE_FACTOR, type NarrowBandSamples } from './narrowBand.ts';
