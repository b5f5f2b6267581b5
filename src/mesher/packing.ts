/**
 * Compact, lossless storage for what a streamed planet keeps of each chunk besides its geometry
 * (issue 15, "fewer bytes per chunk"): the boundary leaves seams read, and the vertex cells that
 * weld chunks to seams (the crack check). Measured on planetRecipe(4) surface chunks at 32³:
 * boundary leaves 300 kB → ~45-60 kB (4,600-5,800 records, of which 60-580 hold a vertex), vertex
 * cells 16 → 4 B a vertex.
 *
 * - Cells: every record's (x, y, z) lies on its chunk's lattice, so (x − box min) / unit and the
 *   size / unit fit a byte (unit: the smallest size present); else 16 bits; else as given.
 * - Vertices and normals: only records that hold a vertex have one (the rest are NaN); those are kept
 *   sparse, in full float64 / float32, so a seam built from unpacked leaves is bit-identical.
 * `unpack*(pack*(x))` equals `x` exactly (NaN where NaN): test/mesher/packing.test.ts.
 */
import { VERTEX_COMPONENT_SHIFT } from './tables.ts';
import type { BoundaryLeaves } from './types.ts';

export interface PackedBoundaryLeaves {
  chunkId: number;
  boxGrid: BoundaryLeaves['boxGrid'];
  count: number;
  /** Grid unit of `cells` (0: `cells` are stored as given). */
  unit: number;
  cells: Uint8Array | Uint16Array | Int32Array;
  corners: Uint8Array;
  component: Uint8Array;
  /** Records that hold a vertex, ascending. */
  withVertex: Uint16Array | Uint32Array;
  vertexGrid: Float64Array;
  normals: Float32Array;
  /** The value of vertexGrid / normals for records without a vertex (NaN, or what the mesher wrote). */
  fillVertex: number;
  fillNormal: number;
}

export function packedLeavesBytes(p: PackedBoundaryLeaves): number {
  return p.cells.byteLength + p.corners.byteLength + p.component.byteLength + p.withVertex.byteLength + p.vertexGrid.byteLength + p.normals.byteLength;
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** Cells relative to `base` in `unit`s, in the smallest integer type that holds them (null: none does). */
function packCells(cells: Int32Array, base: readonly number[], unit: number): Uint8Array | Uint16Array | null {
  let max = 0;
  for (let i = 0; i < cells.length; i += 4) {
    for (let a = 0; a < 3; a++) {
      const d = cells[i + a] - base[a];
      if (d < 0 || d % unit !== 0) return null;
      max = Math.max(max, d / unit);
    }
    if (cells[i + 3] % unit !== 0) return null;
    max = Math.max(max, cells[i + 3] / unit);
  }
  const out = max <= 0xff ? new Uint8Array(cells.length) : max <= 0xffff ? new Uint16Array(cells.length) : null;
  if (!out) return null;
  for (let i = 0; i < cells.length; i += 4) {
    for (let a = 0; a < 3; a++) out[i + a] = (cells[i + a] - base[a]) / unit;
    out[i + 3] = cells[i + 3] / unit;
  }
  return out;
}

function sameValue(a: number, b: number): boolean {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}

export function packBoundaryLeaves(b: BoundaryLeaves): PackedBoundaryLeaves {
  const n = b.count;
  let unit = 0;
  for (let i = 0; i < n; i++) unit = gcd(unit, b.cells[4 * i + 3]);
  const base = [b.boxGrid[0], b.boxGrid[1], b.boxGrid[2]];
  const cells = (unit > 0 ? packCells(b.cells.subarray(0, 4 * n), base, unit) : null) ?? b.cells.slice(0, 4 * n);
  const packedUnit = cells instanceof Int32Array ? 0 : unit;
  const has: number[] = [];
  // Records without a vertex hold NaN there; their normal is whatever the first of them holds.
  const fillVertex = Number.NaN;
  let fillNormal = Number.NaN;
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(b.vertexGrid[3 * i])) {
      fillNormal = b.normals[3 * i];
      break;
    }
  }
  // Any record that differs from the filler anywhere is kept, so the packing stays lossless.
  for (let i = 0; i < n; i++) {
    let differs = false;
    for (let a = 0; a < 3 && !differs; a++) differs = !sameValue(b.vertexGrid[3 * i + a], fillVertex) || !sameValue(b.normals[3 * i + a], fillNormal);
    if (differs) has.push(i);
  }
  const withVertex = n <= 0xffff ? Uint16Array.from(has) : Uint32Array.from(has);
  const vertexGrid = new Float64Array(3 * has.length);
  const normals = new Float32Array(3 * has.length);
  has.forEach((r, j) => {
    for (let a = 0; a < 3; a++) {
      vertexGrid[3 * j + a] = b.vertexGrid[3 * r + a];
      normals[3 * j + a] = b.normals[3 * r + a];
    }
  });
  return {
    chunkId: b.chunkId, boxGrid: [...b.boxGrid], count: n, unit: packedUnit, cells,
    corners: b.corners.slice(0, n), component: b.component.slice(0, n), withVertex, vertexGrid, normals, fillVertex, fillNormal,
  };
}

export function unpackBoundaryLeaves(p: PackedBoundaryLeaves): BoundaryLeaves {
  const n = p.count;
  let cells: Int32Array;
  if (p.unit === 0) cells = Int32Array.from(p.cells);
  else {
    cells = new Int32Array(4 * n);
    const [x0, y0, z0] = p.boxGrid;
    for (let i = 0; i < 4 * n; i += 4) {
      cells[i] = x0 + p.cells[i] * p.unit;
      cells[i + 1] = y0 + p.cells[i + 1] * p.unit;
      cells[i + 2] = z0 + p.cells[i + 2] * p.unit;
      cells[i + 3] = p.cells[i + 3] * p.unit;
    }
  }
  const vertexGrid = new Float64Array(3 * n).fill(p.fillVertex);
  const normals = new Float32Array(3 * n).fill(p.fillNormal);
  p.withVertex.forEach((r, j) => {
    for (let a = 0; a < 3; a++) {
      vertexGrid[3 * r + a] = p.vertexGrid[3 * j + a];
      normals[3 * r + a] = p.normals[3 * j + a];
    }
  });
  return {
    chunkId: p.chunkId, boxGrid: [...p.boxGrid], count: n, cells,
    corners: p.corners.slice(), component: p.component.slice(), vertexGrid, normals,
  };
}

/** A mesh's vertexCells (4 per vertex) packed: 4 bytes a vertex when they fit, else as given. */
export interface PackedVertexCells {
  base: [number, number, number];
  /** 0: `data` is the Int32 original. */
  unit: number;
  data: Uint8Array | Int32Array;
}

const SIZE_MASK = (1 << VERTEX_COMPONENT_SHIFT) - 1;

/**
 * Byte per coordinate ((x − min) / unit ≤ 255), the fourth byte log2(size / unit) in its low 4 bits
 * and the component (≤ 15) in its high 4 — the chunk meshes' vertices; seams' (cells of several
 * chunks, several faces' frames) usually stay as given.
 */
export function packVertexCells(vc: Int32Array): PackedVertexCells {
  const n = vc.length / 4;
  const base: [number, number, number] = [Infinity, Infinity, Infinity];
  let unit = 0;
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) base[a] = Math.min(base[a], vc[4 * i + a]);
    unit = gcd(unit, vc[4 * i + 3] & SIZE_MASK);
  }
  const raw = (): PackedVertexCells => ({ base: [0, 0, 0], unit: 0, data: vc.slice() });
  if (n === 0 || unit === 0) return raw();
  const data = new Uint8Array(4 * n);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      const d = vc[4 * i + a] - base[a];
      if (d % unit !== 0 || d / unit > 0xff) return raw();
      data[4 * i + a] = d / unit;
    }
    const size = (vc[4 * i + 3] & SIZE_MASK) / unit;
    const comp = vc[4 * i + 3] >>> VERTEX_COMPONENT_SHIFT;
    const log = Math.log2(size);
    if (!Number.isInteger(log) || log > 15 || comp > 15) return raw();
    data[4 * i + 3] = log | (comp << 4);
  }
  return { base, unit, data };
}

export function unpackVertexCells(p: PackedVertexCells): Int32Array {
  if (p.unit === 0) return p.data as Int32Array;
  const d = p.data;
  const out = new Int32Array(d.length);
  for (let i = 0; i < d.length; i += 4) {
    for (let a = 0; a < 3; a++) out[i + a] = p.base[a] + d[i + a] * p.unit;
    out[i + 3] = ((1 << (d[i + 3] & 15)) * p.unit) | ((d[i + 3] >> 4) << VERTEX_COMPONENT_SHIFT);
  }
  return out;
}

export function packedVertexCellsBytes(p: PackedVertexCells): number {
  return p.data.byteLength;
}
