/**
 * Public data layouts of the Dual Contouring mesher. Everything is typed arrays so results can be
 * transferred out of a worker without copying (the receiver owns the buffers afterwards).
 *
 * Coordinates: "grid" coordinates are GLOBAL integer lattice coordinates in finest units
 * (level 0 cell = 1 unit). A chunk at level `l` has cells of 2^l units. World positions come
 * only from a {@link GridMapping}, so a cube-sphere warp can replace the cartesian mapping later.
 */
import type { HermiteMemo } from './hermiteMemo.ts';

/** A scalar field in world space: negative inside, positive outside (the JS back end's type). */
import type { FieldFn } from '../field/compileJs.ts';
export type { FieldFn };

/** Maps global grid coordinates (finest units, may be fractional) to world positions. */
export interface GridMapping {
  /** Writes the world position of grid point (gx, gy, gz) into out[0..2]. Must be a pure function. */
  toWorld(gx: number, gy: number, gz: number, out: Float64Array): void;
  /**
   * Optional: turns a gradient taken with respect to grid coordinates at (gx, gy, gz) into a world
   * normal (J^-T n for the mapping's Jacobian J), written normalised into n. Identity when absent
   * (true for any uniform-scale cartesian mapping).
   */
  normalToWorld?(gx: number, gy: number, gz: number, n: Float64Array): void;
}

/** Where a chunk sits: its global origin (finest units), its level and its size in cells. */
export interface ChunkSpec {
  /** Global integer coordinates of the chunk's minimum corner, in finest units. */
  originGrid: readonly [number, number, number];
  /** Cell size is 2^level finest units. */
  level: number;
  /** N: the chunk has N^3 cells and (N+1)^3 corner samples. */
  cells: number;
}

/**
 * Hermite data supplied from outside (the GPU edge pass). One entry per sign-changing edge of the
 * chunk's grid. Edge id = axis * (N+1)^3 + pointIndex, where pointIndex = i + (N+1) * (j + (N+1) * k)
 * is the chunk-local index of the edge's lower end and axis is 0 (x), 1 (y) or 2 (z).
 */
export interface HermiteEdges {
  count: number;
  edgeIds: Uint32Array;
  /** Crossing parameter in [0, 1] from the lower end. */
  t: Float32Array;
  /** 3 per edge: the field gradient direction with respect to grid coordinates (need not be unit). */
  normals: Float32Array;
}

/**
 * A neighbouring chunk exactly one level coarser than the chunk being meshed, touching it through a
 * face, an edge or a corner (see docs/mesher.md, "Mixed levels").
 */
export interface CoarserNeighbour {
  /** The neighbour's box in global grid coordinates: [x0, y0, z0, x1, y1, z1). */
  boxGrid: readonly [number, number, number, number, number, number];
  /** Must be the meshed chunk's level + 1. */
  level: number;
}

export interface MeshChunkInput extends ChunkSpec {
  /** Field values at the (N+1)^3 corners, x fastest: index i + (N+1) * (j + (N+1) * k). */
  values: Float32Array | Float64Array;
  /** Grid → world. Default: cartesian, 1 world unit per finest unit, grid origin at world origin. */
  mapping?: GridMapping;
  /** World-space field used to refine crossings and take normals. Optional. */
  field?: FieldFn;
  /** Precomputed crossings + normals; when given, `field` is not used for hermite data. */
  hermite?: HermiteEdges;
  /**
   * Crossings and normals found with `field` by earlier meshes of this same chunk (same field,
   * same mapping): reused where an edge's grid values are unchanged, and filled with the new ones.
   */
  hermiteMemo?: HermiteMemo;
  /** QEF error threshold for octree simplification, in squared cells of this chunk; 0/absent = off. */
  simplify?: number;
  /**
   * Largest collapsed leaf, in cells (a power of two; default: the whole chunk). The QEF error is
   * measured in grid space: through a curved mapping (a cube-sphere, where a constant radius is a
   * plane) a flat-in-grid region is not flat in the world, so planets cap the leaves.
   */
  maxLeafCells?: number;
  /** Caller's id for the chunk, copied into the boundary leaves. */
  chunkId?: number;
  /**
   * Every loaded neighbour one level coarser that shares a face, an edge or a corner with this
   * chunk. The chunk's samples on the shared boundary between the coarse neighbour's samples are
   * replaced by values restricted from the coarse lattice, so the shared face has the coarse side's
   * sign topology and seams across the 2:1 step stay manifold. The chunk box must be aligned to the
   * coarse lattice. Re-mesh the chunk when this list changes. Default: none (all neighbours at the
   * same level or finer).
   */
  coarserNeighbours?: readonly CoarserNeighbour[];
}

/** An indexed triangle mesh. */
export interface ChunkMesh {
  /** xyz per vertex, world units, relative to originWorld. */
  positions: Float32Array;
  /** xyz per vertex, unit length, world space, pointing outward (toward positive field). */
  normals: Float32Array;
  /** Three per triangle, counter-clockwise seen from outside. */
  indices: Uint32Array;
  /** World position that positions are relative to (float64, camera-relative rendering adds it). */
  originWorld: [number, number, number];
  /**
   * 4 per vertex: global grid x, y, z of the owning leaf's minimum corner and its size (finest units).
   * The size word also carries the surface component (bits 26+, see VERTEX_COMPONENT_SHIFT) for cells
   * with several surface pieces. This is the vertex's identity across chunk meshes and seams.
   */
  vertexCells: Int32Array;
}

/** Bytes per boundary leaf record, for budgeting. */
export const BOUNDARY_LEAF_INTS = 4;

/**
 * The leaves touching a chunk's boundary, in global coordinates, for building seams.
 * Leaf i: cells[4i..4i+3] = min corner x, y, z and size (finest units); corners[i] = sign mask
 * (bit c set = corner c inside, corner c = (c & 1, c >> 1 & 1, c >> 2 & 1)); vertexGrid[3i..] = the
 * leaf's vertex in global grid coordinates (NaN when the cell has no surface); normals[3i..] = world
 * normal. Empty (homogeneous) boundary cells are included without a vertex: a finer neighbour may
 * need them (see docs/mesher.md, "mixed levels").
 */
export interface BoundaryLeaves {
  chunkId: number;
  /** The chunk's box in global grid coordinates: [x0, y0, z0, x1, y1, z1). */
  boxGrid: [number, number, number, number, number, number];
  count: number;
  cells: Int32Array;
  corners: Uint8Array;
  /**
   * Surface component of the record within its cell. A finest cell whose sign configuration holds
   * several separate surface pieces has one record (and vertex) per piece, stored consecutively,
   * component 0 first (see EDGE_COMPONENT in tables.ts).
   */
  component: Uint8Array;
  vertexGrid: Float64Array;
  normals: Float32Array;
}

/** Per-stage timings (ms) and counts of one meshChunk call. */
export interface ChunkStats {
  hermiteMs: number;
  qefMs: number;
  octreeMs: number;
  simplifyMs: number;
  contourMs: number;
  boundaryMs: number;
  totalMs: number;
  edges: number;
  activeCells: number;
  leaves: number;
  collapsedNodes: number;
  nonManifoldCells: number;
  vertices: number;
  triangles: number;
}

export interface MeshChunkResult {
  mesh: ChunkMesh;
  boundary: BoundaryLeaves;
  stats: ChunkStats;
}

/**
 * The QEF simplification threshold every body of the app is meshed with (squared cells): asteroids,
 * gallery thumbnails and planet chunks.
 */
export const BODY_SIMPLIFY = 0.02;
