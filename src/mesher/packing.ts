/**
 * Compact, lossless storage for what a streamed planet keeps of each chunk besides its geometry
 * (issue 15, "fewer bytes per chunk"): the boundary leaves seams read, and the vertex cells that
 * weld chunks to seams (the crack check). Measured on surface chunks of planets 2, 4 and 9 at 32³:
 * boundary leaves ~300 kB → 7-10 kB (~5,700 records, of which 60-580 hold a vertex), vertex cells
 * 16 → 4 B a vertex.
 *
 * - Plain records: an empty finest cell (no surface: all corners on one side, no vertex) is ~95 %
 *   of a surface chunk's records. Its place says everything else, so each is 2 bits in the order the
 *   mesher visits the block's boundary cells (boundary.ts `forEachBoundaryCell`): none, outside,
 *   inside. The other records are explicit, each with the count of plain ones before it.
 * - Cells of explicit records: every (x, y, z) lies on its chunk's lattice, so (x − box min) / unit
 *   and the size / unit fit a byte (unit: the smallest size present); else 16 bits; else as given.
 * - Vertices and normals: only records that hold a vertex have one (the rest are NaN); those are kept
 *   sparse, in full float64 / float32, so a seam built from unpacked leaves is bit-identical.
 * `unpack*(pack*(x))` equals `x` exactly (NaN where NaN): test/mesher/packing.test.ts.
 */
import { boundarySlot, boundarySlots, forEachBoundaryCell } from './boundary.ts';
import { VERTEX_COMPONENT_SHIFT } from './tables.ts';
import type { BoundaryLeaves } from './types.ts';

export interface PackedBoundaryLeaves {
  chunkId: number;
  boxGrid: BoundaryLeaves['boxGrid'];
  /** Records in all, plain and explicit. */
  count: number;
  /** The chunk block's cells a side and their size (grid units) that `plain` enumerates; 0: no plain records. */
  slotCells: number;
  slotSize: number;
  /**
   * 2 bits a boundary cell of the block, in the mesher's order (forEachBoundaryCell): 0 no plain
   * record there, 1 a plain record outside (corners 0), 2 one inside (corners 0xff).
   */
  plain: Uint8Array;
  /** Per explicit record, how many plain records come before it. */
  explicitAt: Uint16Array | Uint32Array;
  /** Grid unit of `cells` (0: `cells` are stored as given). */
  unit: number;
  /** The explicit records from here on. */
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
  return p.plain.byteLength + p.explicitAt.byteLength + p.cells.byteLength + p.corners.byteLength + p.component.byteLength +
    p.withVertex.byteLength + p.vertexGrid.byteLength + p.normals.byteLength;
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

/**
 * Marks in `code` the records of `b` that are plain (an empty finest cell of the block: `size`
 * big, all corners on one side, no component, no vertex, a +0 normal) at ascending slots; returns
 * the flag per record (1 plain). Records out of that pattern stay explicit, so packing stays lossless.
 */
function findPlain(b: BoundaryLeaves, N: number, size: number, code: Uint8Array): Uint8Array {
  const plain = new Uint8Array(b.count);
  const [x0, y0, z0] = b.boxGrid;
  let last = -1;
  for (let r = 0; r < b.count; r++) {
    const c = b.corners[r];
    if (b.cells[4 * r + 3] !== size || (c !== 0 && c !== 0xff) || b.component[r] !== 0) continue;
    let bare = true;
    for (let a = 0; a < 3 && bare; a++) bare = Number.isNaN(b.vertexGrid[3 * r + a]) && Object.is(b.normals[3 * r + a], 0);
    if (!bare) continue;
    const i = (b.cells[4 * r] - x0) / size, j = (b.cells[4 * r + 1] - y0) / size, k = (b.cells[4 * r + 2] - z0) / size;
    if (!Number.isInteger(i) || !Number.isInteger(j) || !Number.isInteger(k) || i < 0 || j < 0 || k < 0 || i >= N || j >= N || k >= N) continue;
    const s = boundarySlot(N, i, j, k);
    if (s <= last) continue;
    last = s;
    code[s >> 2] |= (c === 0 ? 1 : 2) << (2 * (s & 3));
    plain[r] = 1;
  }
  return plain;
}

/** The records of `b` flagged 0 in `plain` (all when null), as one BoundaryLeaves. */
function explicitRecords(b: BoundaryLeaves, plain: Uint8Array | null): { leaves: BoundaryLeaves; at: number[] } {
  const keep: number[] = [], at: number[] = [];
  let before = 0;
  for (let r = 0; r < b.count; r++) {
    if (plain?.[r]) before++;
    else { keep.push(r); at.push(before); }
  }
  const n = keep.length;
  const out: BoundaryLeaves = {
    chunkId: b.chunkId, boxGrid: b.boxGrid, count: n, cells: new Int32Array(4 * n), corners: new Uint8Array(n),
    component: new Uint8Array(n), vertexGrid: new Float64Array(3 * n), normals: new Float32Array(3 * n),
  };
  keep.forEach((r, e) => {
    out.cells.set(b.cells.subarray(4 * r, 4 * r + 4), 4 * e);
    out.corners[e] = b.corners[r];
    out.component[e] = b.component[r];
    out.vertexGrid.set(b.vertexGrid.subarray(3 * r, 3 * r + 3), 3 * e);
    out.normals.set(b.normals.subarray(3 * r, 3 * r + 3), 3 * e);
  });
  return { leaves: out, at };
}

/**
 * Lossless: the empty finest cells (most of a surface chunk's records: ~5,000 of ~5,300 on a
 * 32³ planet chunk) become 2 bits each in the block's boundary order; the rest are packed as below.
 */
export function packBoundaryLeaves(b: BoundaryLeaves): PackedBoundaryLeaves {
  let unit = 0;
  for (let i = 0; i < b.count; i++) unit = gcd(unit, b.cells[4 * i + 3]);
  const side = b.boxGrid[3] - b.boxGrid[0];
  const N = unit > 0 ? side / unit : 0;
  const cube = b.boxGrid[4] - b.boxGrid[1] === side && b.boxGrid[5] - b.boxGrid[2] === side;
  const usable = cube && Number.isInteger(N) && N >= 1 && N <= 256;
  const code = new Uint8Array(usable ? Math.ceil(boundarySlots(N) / 4) : 0);
  const plain = usable ? findPlain(b, N, unit, code) : null;
  const { leaves: e, at } = explicitRecords(b, plain);
  const n = e.count;
  const base = [b.boxGrid[0], b.boxGrid[1], b.boxGrid[2]];
  const cells = (unit > 0 ? packCells(e.cells, base, unit) : null) ?? e.cells;
  const packedUnit = cells instanceof Int32Array ? 0 : unit;
  const has: number[] = [];
  // Records without a vertex hold NaN there; their normal is whatever the first of them holds.
  const fillVertex = Number.NaN;
  let fillNormal = Number.NaN;
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(e.vertexGrid[3 * i])) {
      fillNormal = e.normals[3 * i];
      break;
    }
  }
  // Any record that differs from the filler anywhere is kept, so the packing stays lossless.
  for (let i = 0; i < n; i++) {
    let differs = false;
    for (let a = 0; a < 3 && !differs; a++) differs = !sameValue(e.vertexGrid[3 * i + a], fillVertex) || !sameValue(e.normals[3 * i + a], fillNormal);
    if (differs) has.push(i);
  }
  const withVertex = n <= 0xffff ? Uint16Array.from(has) : Uint32Array.from(has);
  const vertexGrid = new Float64Array(3 * has.length);
  const normals = new Float32Array(3 * has.length);
  has.forEach((r, j) => {
    for (let a = 0; a < 3; a++) {
      vertexGrid[3 * j + a] = e.vertexGrid[3 * r + a];
      normals[3 * j + a] = e.normals[3 * r + a];
    }
  });
  return {
    chunkId: b.chunkId, boxGrid: [...b.boxGrid], count: b.count, slotCells: usable ? N : 0, slotSize: usable ? unit : 0, plain: code,
    explicitAt: b.count <= 0xffff ? Uint16Array.from(at) : Uint32Array.from(at),
    unit: packedUnit, cells, corners: e.corners, component: e.component, withVertex, vertexGrid, normals, fillVertex, fillNormal,
  };
}

/** A record's cell (min corner and size, grid units): whether to keep it (`unpackBoundaryLeaves`). */
export type LeafRecordFilter = (x: number, y: number, z: number, size: number) => boolean;

/**
 * Walks the records of `p` in order: `plain(x, y, z, size, inside)` for an empty finest cell,
 * `explicit(e, x, y, z, size)` for explicit record `e`.
 */
function walkRecords(
  p: PackedBoundaryLeaves,
  plain: (x: number, y: number, z: number, size: number, inside: boolean) => void,
  explicit: (e: number, x: number, y: number, z: number, size: number) => void,
): void {
  const [x0, y0, z0] = p.boxGrid;
  let e = 0, before = 0;
  const next = (): void => {
    const u = p.unit, c = p.cells;
    if (u === 0) explicit(e, c[4 * e], c[4 * e + 1], c[4 * e + 2], c[4 * e + 3]);
    else explicit(e, x0 + c[4 * e] * u, y0 + c[4 * e + 1] * u, z0 + c[4 * e + 2] * u, c[4 * e + 3] * u);
    e++;
  };
  if (p.slotCells > 0) {
    const size = p.slotSize;
    let s = 0;
    forEachBoundaryCell(p.slotCells, (i, j, k) => {
      const code = (p.plain[s >> 2] >> (2 * (s & 3))) & 3;
      s++;
      if (code === 0) return;
      while (e < p.explicitAt.length && p.explicitAt[e] === before) next();
      plain(x0 + i * size, y0 + j * size, z0 + k * size, size, code === 2);
      before++;
    });
  }
  while (e < p.explicitAt.length) next();
}

/**
 * The leaves `p` packs, record for record; with `keep`, only the records it keeps, in the same order
 * (a seam job's part: src/lod/planetSeams.ts seamRecordFilter), without unpacking the rest.
 */
export function unpackBoundaryLeaves(p: PackedBoundaryLeaves, keep?: LeafRecordFilter): BoundaryLeaves {
  let n = p.count;
  if (keep) {
    n = 0;
    walkRecords(p, (x, y, z, size) => { if (keep(x, y, z, size)) n++; }, (_e, x, y, z, size) => { if (keep(x, y, z, size)) n++; });
  }
  const cells = new Int32Array(4 * n);
  const corners = new Uint8Array(n);
  const component = new Uint8Array(n);
  const vertexGrid = new Float64Array(3 * n);
  const normals = new Float32Array(3 * n);
  // Explicit records with a vertex, in order: the next one's index in withVertex.
  let v = 0, r = 0;
  walkRecords(p, (x, y, z, size, inside) => {
    if (keep && !keep(x, y, z, size)) return;
    cells[4 * r] = x; cells[4 * r + 1] = y; cells[4 * r + 2] = z; cells[4 * r + 3] = size;
    corners[r] = inside ? 0xff : 0;
    vertexGrid[3 * r] = NaN; vertexGrid[3 * r + 1] = NaN; vertexGrid[3 * r + 2] = NaN;
    r++;
  }, (e, x, y, z, size) => {
    while (v < p.withVertex.length && p.withVertex[v] < e) v++;
    if (keep && !keep(x, y, z, size)) return;
    cells[4 * r] = x; cells[4 * r + 1] = y; cells[4 * r + 2] = z; cells[4 * r + 3] = size;
    corners[r] = p.corners[e];
    component[r] = p.component[e];
    const has = v < p.withVertex.length && p.withVertex[v] === e;
    for (let a = 0; a < 3; a++) {
      vertexGrid[3 * r + a] = has ? p.vertexGrid[3 * v + a] : p.fillVertex;
      normals[3 * r + a] = has ? p.normals[3 * v + a] : p.fillNormal;
    }
    r++;
  });
  return { chunkId: p.chunkId, boxGrid: [...p.boxGrid], count: n, cells, corners, component, vertexGrid, normals };
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
