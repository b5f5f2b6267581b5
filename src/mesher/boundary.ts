/**
 * Boundary stage of the chunk mesher: every leaf touching the chunk's boundary, in global grid
 * coordinates, for the seams (seam.ts) — a collapsed leaf once, a cell with several surface pieces
 * once per piece, and empty cells too (no vertex: a finer neighbour may need them). A leaf's vertex
 * and normal are its mesh vertex's, bit for bit.
 */
import { scratchN, writeNormal } from './contour.ts';
import { cornerMaskAt } from './hermite.ts';
import type { ChunkGrid } from './hermite.ts';
import type { ActiveCells } from './leaves.ts';
import { collapsedLeafOf, nodeLevel } from './octree.ts';
import type { Octree } from './octree.ts';
import { QEF_NORMAL, QEF_STRIDE } from './qef.ts';
import { grow, scratchF32, scratchF64, scratchI32, scratchU8 } from './scratch.ts';
import { COMPONENT_COUNT } from './tables.ts';
import type { BoundaryLeaves, GridMapping } from './types.ts';

/** What the export reads, and the records written so far (module scratch, grown as needed). */
interface BoundaryWriter {
  grid: ChunkGrid;
  active: ActiveCells;
  tree: Octree;
  leafVert: Float64Array;
  mapping: GridMapping;
  /** Per node id: 1 once exported. */
  exported: Uint8Array;
  count: number;
  cells: Int32Array<ArrayBuffer>;
  corners: Uint8Array<ArrayBuffer>;
  component: Uint8Array<ArrayBuffer>;
  vert: Float64Array<ArrayBuffer>;
  normals: Float32Array<ArrayBuffer>;
}

/** The boundary stage: the leaves touching the chunk's boundary (exact-size copies, transferable). */
export function boundaryLeaves(
  grid: ChunkGrid, active: ActiveCells, tree: Octree, leafVert: Float64Array, mapping: GridMapping, chunkId: number,
): BoundaryLeaves {
  const { N, cs, ox, oy, oz } = grid;
  const exported = scratchU8('exported', tree.totalNodes);
  exported.fill(0, 0, tree.totalNodes);
  // Module scratch (every field of a record is written); the result holds exact-size copies.
  const cap = Math.max(8, 6 * N * N);
  const w: BoundaryWriter = {
    grid, active, tree, leafVert, mapping, exported, count: 0,
    cells: scratchI32('bCells', cap * 4) as Int32Array<ArrayBuffer>,
    corners: scratchU8('bCorners', cap) as Uint8Array<ArrayBuffer>,
    component: scratchU8('bComponent', cap) as Uint8Array<ArrayBuffer>,
    vert: scratchF64('bVert', cap * 3) as Float64Array<ArrayBuffer>,
    normals: scratchF32('bNormals', cap * 3) as Float32Array<ArrayBuffer>,
  };
  forEachBoundaryCell(N, (i, j, k) => exportCell(w, i, j, k));
  const S = N * cs, n = w.count;
  return {
    chunkId, boxGrid: [ox, oy, oz, ox + S, oy + S, oz + S], count: n,
    cells: w.cells.slice(0, n * 4), corners: w.corners.slice(0, n), component: w.component.slice(0, n),
    vertexGrid: w.vert.slice(0, n * 3), normals: w.normals.slice(0, n * 3),
  };
}

/**
 * The boundary cells of an N³ block in the order their records are written (the seams' leaf
 * indexes keep the first record per cell): k, then j, then i; whole k layers and j rows at the
 * ends, the two i ends elsewhere.
 */
export function forEachBoundaryCell(N: number, visit: (i: number, j: number, k: number) => void): void {
  for (let k = 0; k < N; k++) {
    for (let j = 0; j < N; j++) {
      if (k === 0 || k === N - 1 || j === 0 || j === N - 1) {
        for (let i = 0; i < N; i++) visit(i, j, k);
      } else {
        visit(0, j, k);
        if (N > 1) visit(N - 1, j, k);
      }
    }
  }
}

/** Cell (i, j, k)'s slot among an N³ block's boundary cells in the mesher's order (forEachBoundaryCell), or −1 inside. */
export function boundarySlot(N: number, i: number, j: number, k: number): number {
  const edgeI = i === 0 || i === N - 1;
  if (k === 0) return j * N + i;
  const layer = N * N + (k - 1) * (4 * N - 4);
  if (k === N - 1) return layer + j * N + i;
  if (j === 0) return layer + i;
  if (j === N - 1) return layer + N + 2 * (N - 2) + i;
  return edgeI ? layer + N + 2 * (j - 1) + (i === 0 ? 0 : 1) : -1;
}

/** Boundary cells of an N³ block. */
export function boundarySlots(N: number): number {
  return N === 1 ? 1 : 2 * N * N + (N - 2) * 4 * (N - 1);
}

/**
 * The boundary leaves of a chunk with no surface (a constant field): every boundary cell, empty
 * (no vertex), all eight corners on one side. Record for record what `meshChunk` returns for a
 * constant field, without meshing it: restriction to coarser neighbours cannot change a constant
 * (an interpolant of equal values is that value). Seam jobs synthesise these for the empty and full
 * chunks they stitch, most of a seam's parts near a surface; meshing a constant 32³ chunk for each
 * cost ~1.3 ms, about 20 ms a seam in the 20 m teleport on 15 workers.
 */
export function constantBoundaryLeaves(
  spec: { originGrid: readonly [number, number, number]; level: number; cells: number }, inside: boolean, chunkId = 0,
  keep?: (x: number, y: number, z: number, size: number) => boolean,
): BoundaryLeaves {
  const N = spec.cells;
  const cs = 2 ** spec.level;
  const [ox, oy, oz] = spec.originGrid;
  // With `keep`, only the records it keeps (a seam job's part), in the same order.
  let count = boundarySlots(N);
  if (keep) {
    count = 0;
    forEachBoundaryCell(N, (i, j, k) => { if (keep(ox + i * cs, oy + j * cs, oz + k * cs, cs)) count++; });
  }
  const cells = new Int32Array(4 * count);
  let n = 0;
  forEachBoundaryCell(N, (i, j, k) => {
    const x = ox + i * cs, y = oy + j * cs, z = oz + k * cs;
    if (keep && !keep(x, y, z, cs)) return;
    cells[4 * n] = x; cells[4 * n + 1] = y; cells[4 * n + 2] = z; cells[4 * n + 3] = cs;
    n++;
  });
  const S = N * cs;
  return {
    chunkId, boxGrid: [ox, oy, oz, ox + S, oy + S, oz + S], count,
    cells, corners: new Uint8Array(count).fill(inside ? 0xff : 0), component: new Uint8Array(count),
    vertexGrid: new Float64Array(3 * count).fill(NaN), normals: new Float32Array(3 * count),
  };
}

/** Exports chunk cell (i, j, k)'s leaf (each surface piece of an uncollapsed cell), or the empty cell. */
function exportCell(w: BoundaryWriter, i: number, j: number, k: number): void {
  const { N } = w.grid;
  const a = w.active.cellToActive[i + N * (j + N * k)];
  const id = a >= 0 ? w.tree.activeLeaf[a] : w.tree.levels > 1 ? collapsedLeafOf(w.tree, N, i, j, k) : -1;
  if (id < 0) {
    exportEmpty(w, i, j, k);
  } else if (id < w.active.count) {
    // An uncollapsed cell: one record per surface component, consecutive.
    for (let t = 0; t < COMPONENT_COUNT[w.active.mask[id]]; t++) exportLeaf(w, id + t);
  } else {
    exportLeaf(w, id);
  }
}

/** Room for one more record. */
function reserve(w: BoundaryWriter): number {
  const b = w.count;
  if (b >= w.cells.length / 4) {
    w.cells = grow(w.cells, (b + 1) * 4); w.corners = grow(w.corners, b + 1);
    w.component = grow(w.component, b + 1); w.vert = grow(w.vert, (b + 1) * 3);
    w.normals = grow(w.normals, (b + 1) * 3);
  }
  return b;
}

/** A record for empty cell (i, j, k): no vertex (NaN), no normal. */
function exportEmpty(w: BoundaryWriter, i: number, j: number, k: number): void {
  const { P, cs, ox, oy, oz, signs } = w.grid;
  const b = reserve(w);
  w.count++;
  const cells = w.cells;
  cells[4 * b] = ox + i * cs; cells[4 * b + 1] = oy + j * cs; cells[4 * b + 2] = oz + k * cs;
  cells[4 * b + 3] = cs;
  w.corners[b] = cornerMaskAt(signs, i + P * (j + P * k), 1, P);
  w.component[b] = 0;
  w.vert[3 * b] = NaN; w.vert[3 * b + 1] = NaN; w.vert[3 * b + 2] = NaN;
  w.normals[3 * b] = 0; w.normals[3 * b + 1] = 0; w.normals[3 * b + 2] = 0;
}

/** A record for leaf `id` (node id) unless it was exported already: its cell, corners, vertex and normal. */
function exportLeaf(w: BoundaryWriter, id: number): void {
  const b = reserve(w);
  if (w.exported[id]) return;
  w.exported[id] = 1;
  w.count++;
  const { P, cs, ox, oy, oz, signs } = w.grid;
  const tree = w.tree;
  const l = nodeLevel(tree, id);
  const idx = id - tree.base[l];
  const c = tree.coords[l];
  const sizeCells = 1 << l;
  const cells = w.cells;
  cells[4 * b] = ox + c[3 * idx] * sizeCells * cs;
  cells[4 * b + 1] = oy + c[3 * idx + 1] * sizeCells * cs;
  cells[4 * b + 2] = oz + c[3 * idx + 2] * sizeCells * cs;
  cells[4 * b + 3] = sizeCells * cs;
  const x = c[3 * idx] * sizeCells, y = c[3 * idx + 1] * sizeCells, z = c[3 * idx + 2] * sizeCells;
  w.corners[b] = cornerMaskAt(signs, x + P * (y + P * z), sizeCells, P);
  w.component[b] = l === 0 ? w.active.comp[idx] : 0;
  const lv = w.leafVert;
  const gx = ox + lv[3 * id] * cs, gy = oy + lv[3 * id + 1] * cs, gz = oz + lv[3 * id + 2] * cs;
  w.vert[3 * b] = gx; w.vert[3 * b + 1] = gy; w.vert[3 * b + 2] = gz;
  const q = tree.qef[l];
  const qo = idx * QEF_STRIDE + QEF_NORMAL;
  writeNormal(w.mapping, gx, gy, gz, q[qo], q[qo + 1], q[qo + 2]);
  w.normals[3 * b] = scratchN[0]; w.normals[3 * b + 1] = scratchN[1]; w.normals[3 * b + 2] = scratchN[2];
}
