/**
 * Seams between chunks (Sockalingam 2017 §5.2, Gildea 2015's seam nodes), in GLOBAL integer grid coordinates
 * so no per-chunk transform is needed (Sockalingam 2017's lesson; docs/design.md#sources).
 *
 * Ownership rule: a chunk's own mesh covers the minimal edges whose four cells all lie in that
 * chunk; a seam covers every minimal sign-changing edge whose four cells are all present among the
 * given boundary leaves and come from at least two different chunks. With `ownerBoxGrid`, a seam
 * keeps only edges whose midpoint lies in that half-open box, so giving each chunk its own box
 * partitions all seam edges between chunks with no overlap and no gap. With `threeCellLines`, z edges
 * on the listed lines (cube-sphere corners) have three cells instead of four (a triangle).
 *
 * Minimal edges are found as in Ju et al. 2002 without a pointer octree: a leaf's edge is minimal
 * when none of the four cells around its midpoint is smaller than the leaf; the edge is handled once,
 * by the first smallest cell in the quadrant order.
 *
 * buildSeam runs in stages: index the sets (indexSeamLeaves), list the seam's polygons
 * (seamPolygons, probeEdge), place their vertices (seamVertices, synthesizing those of empty cells)
 * and write the mesh (emitSeam).
 */
import { IDENTITY_MAPPING } from './mapping.ts';
import { VERTEX_INSET_CELLS } from './qef.ts';
import { CELL_EDGES, COMPONENT_COUNT, EDGE_COMPONENT, QUAD_EDGE, VERTEX_COMPONENT_SHIFT } from './tables.ts';
import type { BoundaryLeaves, ChunkMesh, GridMapping } from './types.ts';

export interface SeamOptions {
  /** Grid → world; must be the mapping the chunks were meshed with. */
  mapping?: GridMapping;
  /** Global grid point the seam's positions are relative to. Default: min corner of the first set's box. */
  originGrid?: readonly [number, number, number];
  /**
   * Keep only edges whose midpoint lies in [x0, x1) × [y0, y1) × [z0, z1) (global grid). Bounds need
   * not be integers: midpoints are multiples of ½, so x1 = S + ¼ closes the box at S and x0 = ¼ opens
   * it at 0 (the planet seams use this to give face-edge lines to one face only).
   */
  ownerBoxGrid?: readonly [number, number, number, number, number, number];
  /**
   * Lines parallel to the z axis (grid axis 2) around which only three quadrants of cells exist, as
   * [x, y, sx, sy]: the line's x and y and the side (±1 along x and y) of the missing quadrant. A
   * sign-changing z edge on such a line is closed with a triangle of the three cells present instead
   * of being skipped as incomplete. This is the cube-sphere corner (docs/lod.md, "Seams"): in one
   * face's extended frame the radial line through a cube corner has the face's own cell and the two
   * neighbour faces' cells around it, and the quadrant beyond both edges does not exist.
   */
  threeCellLines?: readonly (readonly [number, number, number, number])[];
}

const QUAD_DU = [-1, 0, 0, -1];
const QUAD_DV = [-1, -1, 0, 0];
/** Leaf order round an edge, counter-clockwise seen from +axis, for a lower end inside / outside. */
const ORDER_IN = [0, 1, 2, 3];
const ORDER_OUT = [0, 3, 2, 1];
const w = new Float64Array(3);
// Per-edge scratch of seamPolygons (buildSeam is synchronous).
const start = [0, 0, 0];
const q = [0, 0, 0];
const probe = [0, 0, 0, 0];
const poly: number[] = [];

/** Cell-local edge index of the edge along `axis` starting at corner `c`. */
function edgeAt(c: number, axis: number): number {
  for (let e = axis * 4; e < axis * 4 + 4; e++) if (CELL_EDGES[2 * e] === c) return e;
  return -1;
}

/**
 * Surface component of a multi-component cell of size S that a finer edge (size `size`, along
 * `axis`, lower end at offset (ra, ru, rv) from the cell's min corner, u = axis + 1, v = axis + 2)
 * on its boundary belongs to. Multi-component cells are never collapsed, so this is a 2:1 step
 * whose face the finer chunk restricted to the coarse lattice (restrict.ts, restrictToCoarser):
 * a fine edge that halves a coarse edge belongs to that edge's component; a fine edge from the face
 * center to the midpoint of a coarse edge belongs to that coarse edge's component when it crosses
 * (on a checkerboard face the center is outside, so the piece is the one around the inside corner
 * that the midpoint copies), otherwise to the face's only component.
 */
function coarseComponent(mask: number, S: number, axis: number, ra: number, ru: number, rv: number, size: number): number {
  const u = (axis + 1) % 3, v = (axis + 2) % 3;
  const onU = ru === 0 || ru === S, onV = rv === 0 || rv === S;
  if (onU && onV) {
    const e = edgeAt((ru === S ? 1 << u : 0) | (rv === S ? 1 << v : 0), axis);
    return EDGE_COMPONENT[mask * 12 + e];
  }
  // Inside the face across (faceAxis) at side; the in-face axis `mid` passes through the center.
  const faceAxis = onU ? u : v, mid = onU ? v : u;
  const side = (onU ? ru : rv) === S ? 1 << faceAxis : 0;
  const end = ra === 0 ? 0 : ra + size === S ? 1 << axis : -1;
  if (end >= 0) {
    const comp = EDGE_COMPONENT[mask * 12 + edgeAt(side | end, mid)];
    if (comp >= 0) return comp;
  }
  for (let e = 0; e < 12; e++) {
    const c0 = CELL_EDGES[2 * e], c1 = CELL_EDGES[2 * e + 1];
    if ((c0 & (1 << faceAxis)) !== side || (c1 & (1 << faceAxis)) !== side) continue;
    const comp = EDGE_COMPONENT[mask * 12 + e];
    if (comp >= 0) return comp;
  }
  return 0;
}

interface LeafIndex {
  /**
   * Key (cell offset from the box origin in units of the smallest leaf size present, log2 size) →
   * local index of the cell's first record.
   */
  map: Map<number, number>;
  /** log2 of the leaf sizes present, ascending. */
  logs: number[];
  /** Box span in units of the smallest leaf size present (the key's radix). */
  span: number;
  /** log2 of the smallest leaf size present (the key's unit). */
  unitLog: number;
}

/**
 * Lookup tables per boundary-leaf set, cached by identity: the planet builds one seam per chunk, and
 * each chunk's leaves are read by up to 8 seams (measured: building these maps was most of the seam
 * time). BoundaryLeaves are treated as immutable once meshed, like everything the mesher returns.
 */
const leafIndexCache = new WeakMap<BoundaryLeaves, LeafIndex>();

/** Radix of `leafIndex`'s key: the box span in units of 2^unitLog, plus one. */
function leafKeySpan(s: BoundaryLeaves, unitLog: number): number {
  const b = s.boxGrid;
  return Math.ceil((Math.max(b[3] - b[0], b[4] - b[1], b[5] - b[2]) + 1) / 2 ** unitLog) + 1;
}

/** `leafIndex`'s key map in units of 2^unitLog, or null when a leaf's offset is not a multiple of the unit. */
function leafKeys(s: BoundaryLeaves, unitLog: number): Map<number, number> | null {
  const [x0, y0, z0] = s.boxGrid;
  const unit = 2 ** unitLog;
  const span = leafKeySpan(s, unitLog);
  if (span ** 3 * 64 > Number.MAX_SAFE_INTEGER) {
    throw new Error(`seam: chunk ${s.chunkId} spans too many leaf cells per axis (${span}) for a numeric leaf key`);
  }
  const map = new Map<number, number>();
  const c = s.cells;
  for (let i = 0; i < s.count; i++) {
    const rx = c[4 * i] - x0, ry = c[4 * i + 1] - y0, rz = c[4 * i + 2] - z0;
    if (rx % unit !== 0 || ry % unit !== 0 || rz % unit !== 0) return null;
    // Sizes are powers of two: log2 exactly, by leading zeros (Math.log2 was a tenth of a seam).
    const key = (((rx / unit) * span + ry / unit) * span + rz / unit) * 64 + (31 - Math.clz32(c[4 * i + 3]));
    if (map.get(key) === undefined) map.set(key, i); // first component record of the cell
  }
  return map;
}

function leafIndex(s: BoundaryLeaves): LeafIndex {
  const cached = leafIndexCache.get(s);
  if (cached) return cached;
  const logs = new Set<number>();
  let unitLog = Infinity;
  for (let i = 0; i < s.count; i++) {
    const lg = 31 - Math.clz32(s.cells[4 * i + 3]);
    logs.add(lg);
    if (lg < unitLog) unitLog = lg;
  }
  if (!Number.isFinite(unitLog)) unitLog = 0;
  // Keys count in units of the smallest leaf size present, relative to the chunk's box, so they
  // depend on the chunk's cells per axis, not on its span in finest units (root chunks of a 1 m,
  // 63 km planet span 2^17+ finest cells; a leaf's offset from its chunk's box is a multiple of its
  // size, and every size present is a power-of-two multiple of the unit).
  let map = leafKeys(s, unitLog);
  if (!map) { unitLog = 0; map = leafKeys(s, 0)!; } // a leaf off the unit lattice: key in grid units
  const span = leafKeySpan(s, unitLog);
  const index = { map, logs: [...logs].sort((a, b) => a - b), span, unitLog };
  leafIndexCache.set(s, index);
  return index;
}

/**
 * The boundary-leaf sets of one seam, indexed: global leaf g is record g − firstOf[s] of set
 * s = setOf[g], and a unit cell's leaf is found through the set's key map (findLeaf).
 */
interface SeamLeaves {
  sets: readonly BoundaryLeaves[];
  /** Records over all sets. */
  total: number;
  setOf: Int32Array;
  firstOf: number[];
  /** Per set: leafIndex's key map, sizes present (log2), key radix and key unit. */
  maps: Map<number, number>[];
  sizeLogs: number[][];
  spans: number[];
  units: number[];
}

/** A seam vertex in grid coordinates and its normal: x, y, z, nx, ny, nz. */
type SeamVertex = [number, number, number, number, number, number];

/** Builds the seam mesh joining the given chunks' boundary leaves. See the module comment. */
export function buildSeam(sets: readonly BoundaryLeaves[], options: SeamOptions = {}): ChunkMesh {
  const mapping = options.mapping ?? IDENTITY_MAPPING;
  const origin = options.originGrid ?? (sets.length > 0 ? [sets[0].boxGrid[0], sets[0].boxGrid[1], sets[0].boxGrid[2]] : [0, 0, 0]);
  mapping.toWorld(origin[0], origin[1], origin[2], w);
  const originWorld: [number, number, number] = [w[0], w[1], w[2]];
  const leaves = indexSeamLeaves(sets);
  const polys = seamPolygons(leaves, options);
  const vGrid = seamVertices(leaves, polys);
  return emitSeam(leaves, polys, vGrid, mapping, originWorld);
}

/** One lookup per chunk (key: cell offset from the chunk origin, log2 size → leaf); throws if boxes overlap. */
function indexSeamLeaves(sets: readonly BoundaryLeaves[]): SeamLeaves {
  let total = 0;
  for (const s of sets) total += s.count;
  const L: SeamLeaves = { sets, total, setOf: new Int32Array(total), firstOf: [], maps: [], sizeLogs: [], spans: [], units: [] };
  for (let si = 0, g = 0; si < sets.length; si++) {
    const s = sets[si];
    const index = leafIndex(s);
    L.spans.push(index.span);
    L.units.push(2 ** index.unitLog);
    L.maps.push(index.map);
    L.sizeLogs.push(index.logs);
    L.firstOf.push(g);
    L.setOf.fill(si, g, g + s.count);
    g += s.count;
  }
  for (let a = 0; a < sets.length; a++) {
    for (let b = a + 1; b < sets.length; b++) {
      const A = sets[a].boxGrid, B = sets[b].boxGrid;
      if (A[0] < B[3] && B[0] < A[3] && A[1] < B[4] && B[1] < A[4] && A[2] < B[5] && B[2] < A[5]) {
        throw new Error(`seam: chunks ${sets[a].chunkId} and ${sets[b].chunkId} overlap`);
      }
    }
  }
  return L;
}

/** Leaf containing the unit cell at (qx, qy, qz), as a global leaf, or -1. */
function findLeaf(L: SeamLeaves, qx: number, qy: number, qz: number): number {
  for (let si = 0; si < L.sets.length; si++) {
    const b = L.sets[si].boxGrid;
    if (qx < b[0] || qy < b[1] || qz < b[2] || qx >= b[3] || qy >= b[4] || qz >= b[5]) continue;
    const span = L.spans[si], unit = L.units[si];
    const rx = qx - b[0], ry = qy - b[1], rz = qz - b[2];
    for (const lg of L.sizeLogs[si]) {
      const s = 2 ** lg;
      const key = ((((rx - (rx % s)) / unit) * span + (ry - (ry % s)) / unit) * span + (rz - (rz % s)) / unit) * 64 + lg;
      const li = L.maps[si].get(key);
      if (li !== undefined) return L.firstOf[si] + li;
    }
    return -1;
  }
  return -1;
}

/** Record index of global leaf g within its set. */
function localOf(L: SeamLeaves, g: number): number {
  return g - L.firstOf[L.setOf[g]];
}

/** Component `a` of global leaf g's cell: 0..2 min corner, 3 size. */
function cellOf(L: SeamLeaves, g: number, a: number): number {
  return L.sets[L.setOf[g]].cells[4 * localOf(L, g) + a];
}

/**
 * The seam's polygons, 5 numbers each: the leaf count (3 or 4), then the global leaves in winding
 * order (-1 for a triangle's fourth). One per minimal sign-changing edge whose cells are all
 * present, from at least two chunks, inside the owner box when one is given.
 */
function seamPolygons(L: SeamLeaves, options: SeamOptions): number[] {
  const own = options.ownerBoxGrid;
  const lines = options.threeCellLines && options.threeCellLines.length > 0 ? options.threeCellLines : null;
  const polys: number[] = [];
  for (let g = 0; g < L.total; g++) {
    const s = L.sets[L.setOf[g]];
    const li = localOf(L, g);
    const mask = s.corners[li];
    if (mask === 0 || mask === 255) continue;
    const x = s.cells[4 * li], y = s.cells[4 * li + 1], z = s.cells[4 * li + 2], size = s.cells[4 * li + 3];
    for (let e = 0; e < 12; e++) {
      const c0 = CELL_EDGES[2 * e], c1 = CELL_EDGES[2 * e + 1];
      const in0 = (mask >> c0) & 1;
      if (in0 === ((mask >> c1) & 1)) continue;
      const axis = e >> 2;
      const sx = x + (c0 & 1) * size, sy = y + ((c0 >> 1) & 1) * size, sz = z + ((c0 >> 2) & 1) * size;
      if (own) {
        // Midpoint in doubled coordinates against the doubled half-open box (tested before the
        // lookups: most candidate edges of a planet seam belong to another owner).
        const m2x = 2 * sx + (axis === 0 ? size : 0), m2y = 2 * sy + (axis === 1 ? size : 0), m2z = 2 * sz + (axis === 2 ? size : 0);
        if (m2x < 2 * own[0] || m2x >= 2 * own[3] || m2y < 2 * own[1] || m2y >= 2 * own[4] ||
            m2z < 2 * own[2] || m2z >= 2 * own[5]) continue;
      }
      start[0] = sx; start[1] = sy; start[2] = sz;
      const missing = lines && axis === 2 ? missingQuadrant(lines, sx, sy) : -1;
      if (!probeEdge(L, g, axis, size, missing)) continue;
      appendPolygon(polys, in0 ? ORDER_IN : ORDER_OUT);
    }
  }
  return polys;
}

/** Quadrant that does not exist around a three-cell line (cube corner) through (sx, sy), or -1. */
function missingQuadrant(lines: readonly (readonly [number, number, number, number])[], sx: number, sy: number): number {
  let missing = -1;
  for (let l = 0; l < lines.length; l++) {
    const line = lines[l];
    if (line[0] !== sx || line[1] !== sy) continue;
    for (let qd = 0; qd < 4; qd++) {
      if ((QUAD_DU[qd] === 0) === (line[2] > 0) && (QUAD_DV[qd] === 0) === (line[3] > 0)) missing = qd;
    }
  }
  return missing;
}

/**
 * Looks up the leaves of the four quadrants around the edge of leaf g along `axis` from `start`
 * (the component record where a cell has several surface pieces) into `probe` (-1 for the missing
 * quadrant). True when the edge is the seam's: every cell present and no smaller than the edge,
 * not all from g's chunk, and g the first smallest of them (so the edge is handled once).
 */
function probeEdge(L: SeamLeaves, g: number, axis: number, size: number, missing: number): boolean {
  const u = (axis + 1) % 3, v = (axis + 2) % 3;
  let first = -1;
  let sameChunk = true;
  for (let qd = 0; qd < 4; qd++) {
    if (qd === missing) { probe[qd] = -1; continue; }
    q[axis] = start[axis] + (size >> 1);
    q[u] = start[u] + QUAD_DU[qd];
    q[v] = start[v] + QUAD_DV[qd];
    let f = findLeaf(L, q[0], q[1], q[2]);
    if (f < 0 || cellOf(L, f, 3) < size) return false;
    const fm = L.sets[L.setOf[f]].corners[localOf(L, f)];
    if (COMPONENT_COUNT[fm] > 1) {
      // Pick the component record owning this edge (component records are consecutive).
      const fs = cellOf(L, f, 3);
      const comp = fs === size
        ? EDGE_COMPONENT[fm * 12 + QUAD_EDGE[axis * 4 + qd]]
        : coarseComponent(fm, fs, axis, start[axis] - cellOf(L, f, axis), start[u] - cellOf(L, f, u), start[v] - cellOf(L, f, v), size);
      if (comp > 0) f += comp;
    }
    if (first < 0 && cellOf(L, f, 3) === size) first = qd;
    if (L.setOf[f] !== L.setOf[g]) sameChunk = false;
    probe[qd] = f;
  }
  return !sameChunk && probe[first] === g;
}

/**
 * Appends the polygon of the leaves in `probe` taken in `order`, without the missing quadrant and
 * consecutive repeats, when at least 3 remain. Counter-clockwise seen from +axis when the lower end is
 * inside (normal along +axis). Around a three-cell line the missing quadrant is skipped: the three
 * cells still go round the edge in the same order (the folded 270° of the frame is the full turn in
 * the world).
 */
function appendPolygon(polys: number[], order: readonly number[]): void {
  poly.length = 0;
  for (const o of order) {
    const f = probe[o];
    if (f < 0) continue;
    if (poly.length > 0 && poly[poly.length - 1] === f) continue;
    poly.push(f);
  }
  if (poly.length > 1 && poly[poly.length - 1] === poly[0]) poly.pop();
  if (poly.length < 3) return;
  polys.push(poly.length, poly[0], poly[1], poly[2], poly.length === 4 ? poly[3] : -1);
}

/**
 * Vertices of the polygons' leaves in grid coordinates with their normals. Empty cells that a finer
 * neighbour needs get a synthesized vertex: the mean of their polygon neighbours' vertices, clamped
 * into the cell (mixed levels).
 */
function seamVertices(L: SeamLeaves, polys: number[]): Map<number, SeamVertex> {
  const vGrid = new Map<number, SeamVertex>();
  const synth = new Map<number, number[]>();
  for (let p = 0; p < polys.length; p += 5) {
    const n = polys[p];
    for (let i = 0; i < n; i++) {
      const g = polys[p + 1 + i];
      if (vGrid.has(g)) continue;
      const s = L.sets[L.setOf[g]];
      const l = localOf(L, g);
      if (!Number.isNaN(s.vertexGrid[3 * l])) {
        const vg = s.vertexGrid;
        vGrid.set(g, [vg[3 * l], vg[3 * l + 1], vg[3 * l + 2], s.normals[3 * l], s.normals[3 * l + 1], s.normals[3 * l + 2]]);
        continue;
      }
      let acc = synth.get(g);
      if (!acc) { acc = [0, 0, 0, 0, 0, 0, 0]; synth.set(g, acc); }
      for (let j = 0; j < n; j++) {
        const h = polys[p + 1 + j];
        const hs = L.sets[L.setOf[h]];
        const hl = localOf(L, h);
        if (Number.isNaN(hs.vertexGrid[3 * hl])) continue;
        acc[0] += hs.vertexGrid[3 * hl]; acc[1] += hs.vertexGrid[3 * hl + 1]; acc[2] += hs.vertexGrid[3 * hl + 2];
        acc[3] += hs.normals[3 * hl]; acc[4] += hs.normals[3 * hl + 1]; acc[5] += hs.normals[3 * hl + 2];
        acc[6] += 1;
      }
    }
  }
  for (const [g, acc] of synth) vGrid.set(g, synthesizedVertex(L, g, acc));
  return vGrid;
}

/** The mean of `acc` (sums of x, y, z, normal x, y, z, count) clamped into leaf g's cell; its center when empty. */
function synthesizedVertex(L: SeamLeaves, g: number, acc: number[]): SeamVertex {
  const c = Math.max(acc[6], 1);
  const x0 = cellOf(L, g, 0), y0 = cellOf(L, g, 1), z0 = cellOf(L, g, 2), sz = cellOf(L, g, 3);
  // Kept VERTEX_INSET_CELLS inside the cell, as QEF vertices are: no two cells share a vertex.
  const e = VERTEX_INSET_CELLS * sz;
  const cl = (v: number, lo: number): number => (v < lo + e ? lo + e : v > lo + sz - e ? lo + sz - e : v);
  const len = Math.hypot(acc[3], acc[4], acc[5]) || 1;
  return acc[6] > 0
    ? [cl(acc[0] / c, x0), cl(acc[1] / c, y0), cl(acc[2] / c, z0), acc[3] / len, acc[4] / len, acc[5] / len]
    : [x0 + sz / 2, y0 + sz / 2, z0 + sz / 2, 0, 0, 1];
}

/** The seam mesh under construction: vertices numbered in order of first use. */
interface SeamWriter {
  L: SeamLeaves;
  vGrid: Map<number, SeamVertex>;
  mapping: GridMapping;
  originWorld: [number, number, number];
  vertexIndex: Map<number, number>;
  positions: number[];
  normals: number[];
  vertexCells: number[];
}

/** Triangulates the polygons (quads along the shorter diagonal) into the seam mesh. */
function emitSeam(
  L: SeamLeaves, polys: number[], vGrid: Map<number, SeamVertex>, mapping: GridMapping, originWorld: [number, number, number],
): ChunkMesh {
  const out: SeamWriter = { L, vGrid, mapping, originWorld, vertexIndex: new Map(), positions: [], normals: [], vertexCells: [] };
  const indices: number[] = [];
  for (let p = 0; p < polys.length; p += 5) {
    const a = polys[p + 1], b = polys[p + 2], c = polys[p + 3], d = polys[p + 4];
    if (polys[p] === 3) { indices.push(vertexOf(out, a), vertexOf(out, b), vertexOf(out, c)); continue; }
    if (gridDistance2(vGrid, a, c) <= gridDistance2(vGrid, b, d)) {
      indices.push(vertexOf(out, a), vertexOf(out, b), vertexOf(out, c), vertexOf(out, a), vertexOf(out, c), vertexOf(out, d));
    } else {
      indices.push(vertexOf(out, a), vertexOf(out, b), vertexOf(out, d), vertexOf(out, b), vertexOf(out, c), vertexOf(out, d));
    }
  }
  return {
    positions: Float32Array.from(out.positions),
    normals: Float32Array.from(out.normals),
    indices: Uint32Array.from(indices),
    originWorld,
    vertexCells: Int32Array.from(out.vertexCells),
  };
}

/** Squared grid distance between the vertices of leaves a and b. */
function gridDistance2(vGrid: Map<number, SeamVertex>, a: number, b: number): number {
  const va = vGrid.get(a)!, vb = vGrid.get(b)!;
  return (va[0] - vb[0]) ** 2 + (va[1] - vb[1]) ** 2 + (va[2] - vb[2]) ** 2;
}

/** Leaf g's vertex index in the seam mesh, adding the vertex on first use. */
function vertexOf(out: SeamWriter, g: number): number {
  let vi = out.vertexIndex.get(g);
  if (vi !== undefined) return vi;
  vi = out.vertexIndex.size;
  out.vertexIndex.set(g, vi);
  const v = out.vGrid.get(g)!;
  out.mapping.toWorld(v[0], v[1], v[2], w);
  out.positions.push(w[0] - out.originWorld[0], w[1] - out.originWorld[1], w[2] - out.originWorld[2]);
  out.normals.push(v[3], v[4], v[5]);
  const L = out.L;
  const s = L.sets[L.setOf[g]];
  const l = localOf(L, g);
  out.vertexCells.push(s.cells[4 * l], s.cells[4 * l + 1], s.cells[4 * l + 2], s.cells[4 * l + 3] | (s.component[l] << VERTEX_COMPONENT_SHIFT));
  return vi;
}
