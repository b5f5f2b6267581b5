/**
 * Octree and simplification stages of the chunk mesher: bottom-up levels of nodes over the active
 * cells, a dense map per level (Sockalingam 2017 §4.3's hash-map layering, with arrays instead of hash
 * maps), QEFs of mergeable children summed, and a node collapsed into one leaf when its QEF error
 * is under the threshold and the merge is topologically safe (Ju et al. 2002 §3.2). Its output, an
 * {@link Octree}, names every leaf by a node id and maps each active entry to its leaf.
 */
import { cornerMaskAt } from './hermite.ts';
import type { ChunkGrid } from './hermite.ts';
import type { ActiveCells } from './leaves.ts';
import { qefAdd, qefSolve, QEF_STRIDE } from './qef.ts';
import { now, scratchF64, scratchI32, scratchU8 } from './scratch.ts';
import { MANIFOLD_CONFIG } from './tables.ts';

const solveOut = new Float64Array(4);

/**
 * The chunk's nodes by level. Level 0 is the active entries (ActiveCells), level l ≥ 1 the nodes of
 * 2^l cells that contain active cells. Node id = base[l] + index within level l; a node is a leaf
 * when it is level 0 and not inside a collapsed node, or a collapsed node not inside another.
 * Arrays are module scratch.
 */
export interface Octree {
  /** Number of levels built (1 without simplification). */
  levels: number;
  /** Per level: node key (x + n * (y + n * z), n = N >> l) → index, or -1 (level 0: cellToActive). */
  map: Int32Array[];
  /** Per level: 1 when the node is a collapsed leaf (level 0: may be merged). */
  ok: Uint8Array[];
  /** Per level: node coordinates in units of 2^l cells, 3 per node. */
  coords: Int32Array[];
  /** Per level: node vertex (chunk-local cells), 3 per node; set where ok. */
  vert: Float64Array[];
  /** Per level: summed QEFs, QEF_STRIDE per node. */
  qef: Float64Array[];
  /** Per level: node count. */
  count: number[];
  /** Per level: first node id of the level; base[levels] = total node count. */
  base: number[];
  totalNodes: number;
  /** Per active entry: its leaf's node id (itself, or the top-most collapsed node containing it). */
  activeLeaf: Int32Array;
  collapsedNodes: number;
  octreeMs: number;
  simplifyMs: number;
}

/**
 * Builds the levels above the active cells and collapses safe nodes whose QEF error is below
 * `simplify` (squared cells; 0: no levels above 0), leaves at most `maxLeafCells` cells across.
 */
export function buildOctree(grid: ChunkGrid, active: ActiveCells, simplify: number, maxLeafCells: number): Octree {
  const N = grid.N;
  const tree: Octree = {
    levels: 1, map: [active.cellToActive], ok: [active.ok], coords: [active.coords], vert: [active.vert],
    qef: [active.qefs], count: [active.count], base: [0], totalNodes: 0, activeLeaf: active.cellToActive,
    collapsedNodes: 0, octreeMs: 0, simplifyMs: 0,
  };
  if (simplify > 0) {
    for (let k = 1; (N >> k) >= 1 && (1 << k) <= maxLeafCells; k++) {
      const ta = now();
      const blocked = buildLevel(tree, k, N >> k);
      const tb = now();
      tree.octreeMs += tb - ta;
      const any = simplifyLevel(tree, grid, k, blocked, simplify);
      tree.simplifyMs += now() - tb;
      if (!any) break;
    }
  }
  const levels = tree.levels = tree.map.length;
  for (let k = 0; k < levels; k++) tree.base.push(tree.base[k] + tree.count[k]);
  tree.totalNodes = tree.base[levels];
  tree.activeLeaf = leafOfActive(tree, N, active);
  return tree;
}

/**
 * Level k's nodes (nk per axis fully inside the chunk) over level k − 1's: coordinates, summed QEFs
 * of the children that may merge. Pushes the level's map, coordinates, QEFs and count onto the
 * tree; returns per node 1 where a child may not merge (so neither may the node).
 */
function buildLevel(tree: Octree, k: number, nk: number): Uint8Array {
  const prevCount = tree.count[k - 1];
  const prevCoords = tree.coords[k - 1];
  const prevOk = tree.ok[k - 1];
  const prevQef = tree.qef[k - 1];
  // Per-level module scratch (large typed arrays per call triggered extra GCs mid-stage).
  const map = scratchI32(`octMap${k}`, nk * nk * nk);
  map.fill(-1, 0, nk * nk * nk);
  const coords = scratchI32(`octCoords${k}`, prevCount * 3);
  const blocked = scratchU8(`octBlocked${k}`, prevCount);
  const qef = scratchF64(`octQef${k}`, prevCount * QEF_STRIDE);
  let count = 0;
  for (let n = 0; n < prevCount; n++) {
    const x = prevCoords[3 * n] >> 1, y = prevCoords[3 * n + 1] >> 1, z = prevCoords[3 * n + 2] >> 1;
    // A parent whose child lies partly outside a non-power-of-two chunk cannot exist: its own
    // coordinates would be >= nk.
    if (x >= nk || y >= nk || z >= nk) continue;
    const key = x + nk * (y + nk * z);
    let idx = map[key];
    if (idx < 0) {
      idx = count++;
      map[key] = idx;
      coords[3 * idx] = x; coords[3 * idx + 1] = y; coords[3 * idx + 2] = z;
      blocked[idx] = 0;
      for (let w = idx * QEF_STRIDE, end = w + QEF_STRIDE; w < end; w++) qef[w] = 0;
    }
    if (!prevOk[n]) blocked[idx] = 1;
    else qefAdd(qef, idx * QEF_STRIDE, prevQef, n * QEF_STRIDE);
  }
  tree.map.push(map); tree.coords.push(coords); tree.qef.push(qef); tree.count.push(count);
  return blocked;
}

/**
 * Collapses level k's nodes that are not `blocked`, topologically safe and whose QEF error (vertex
 * clamped to the node box) is below `simplify`: marks them ok and stores their vertex. Pushes the
 * level's ok and vertex arrays onto the tree; returns whether any node collapsed.
 */
function simplifyLevel(tree: Octree, grid: ChunkGrid, k: number, blocked: Uint8Array, simplify: number): boolean {
  const coords = tree.coords[k], qef = tree.qef[k], count = tree.count[k];
  const ok = scratchU8(`octOk${k}`, count);
  ok.fill(0, 0, count);
  const vert = scratchF64(`octVert${k}`, count * 3);
  let any = false;
  const size = 1 << k;
  for (let n = 0; n < count; n++) {
    if (blocked[n]) continue;
    const x = coords[3 * n] * size, y = coords[3 * n + 1] * size, z = coords[3 * n + 2] * size;
    if (!topologySafe(grid.signs, grid.P, x, y, z, size)) continue;
    qefSolve(qef, n * QEF_STRIDE, x, y, z, size, solveOut);
    if (!(solveOut[3] < simplify)) continue;
    ok[n] = 1;
    any = true;
    tree.collapsedNodes++;
    vert[3 * n] = solveOut[0]; vert[3 * n + 1] = solveOut[1]; vert[3 * n + 2] = solveOut[2];
  }
  tree.ok.push(ok); tree.vert.push(vert);
  return any;
}

/**
 * Ju et al. 2002 §3.2: the node's corner configuration is manifold, and on its 27-point lattice
 * every edge midpoint, face center and the cube center agrees in sign with at least one corner of
 * that edge / face / cube. (x, y, z): the node's min corner in chunk-local cells; size in cells.
 */
export function topologySafe(signs: Uint8Array, P: number, x: number, y: number, z: number, size: number): boolean {
  const base = x + P * (y + P * z);
  if (!MANIFOLD_CONFIG[cornerMaskAt(signs, base, size, P)]) return false;
  const h = size >> 1;
  const sx = h, sy = h * P, sz = h * P * P;
  // Lattice point (a, b, c), a, b, c in {0, 1, 2}, is signs[base + a * sx + b * sy + c * sz].
  for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) for (let c = 0; c < 3; c++) {
    if ((a & 1) + (b & 1) + (c & 1) === 0) continue;
    // The corners of the smallest edge/face/cube this point is the center of.
    const v = signs[base + a * sx + b * sy + c * sz];
    let match = false;
    for (let ca = (a & 1 ? 0 : a); ca <= (a & 1 ? 2 : a) && !match; ca += 2) {
      for (let cb = (b & 1 ? 0 : b); cb <= (b & 1 ? 2 : b) && !match; cb += 2) {
        for (let cc = (c & 1 ? 0 : c); cc <= (c & 1 ? 2 : c) && !match; cc += 2) {
          if (signs[base + ca * sx + cb * sy + cc * sz] === v) match = true;
        }
      }
    }
    if (!match) return false;
  }
  return true;
}

/** Top-most collapsed node containing chunk cell (i, j, k), as a node id, or -1. */
export function collapsedLeafOf(tree: Octree, N: number, i: number, j: number, k: number): number {
  for (let l = tree.levels - 1; l >= 1; l--) {
    const nk = N >> l;
    const x = i >> l, y = j >> l, z = k >> l;
    if (x >= nk || y >= nk || z >= nk) continue;
    const idx = tree.map[l][x + nk * (y + nk * z)];
    if (idx >= 0 && tree.ok[l][idx]) return tree.base[l] + idx;
  }
  return -1;
}

/** Level of node `id`. */
export function nodeLevel(tree: Octree, id: number): number {
  let l = 0;
  while (id >= tree.base[l + 1]) l++;
  return l;
}

/** Each active entry's leaf: the top-most collapsed node containing its cell, or the entry itself. */
function leafOfActive(tree: Octree, N: number, active: ActiveCells): Int32Array {
  const activeLeaf = scratchI32('activeLeaf', active.count);
  const coords = active.coords;
  for (let a = 0; a < active.count; a++) {
    const c = tree.levels > 1 ? collapsedLeafOf(tree, N, coords[3 * a], coords[3 * a + 1], coords[3 * a + 2]) : -1;
    activeLeaf[a] = c >= 0 ? c : a;
  }
  return activeLeaf;
}

/** Number of distinct leaves holding the active entries. */
export function countLeaves(tree: Octree, activeCount: number): number {
  const seenLeaf = scratchU8('seenLeaf', tree.totalNodes);
  seenLeaf.fill(0, 0, tree.totalNodes);
  let leaves = 0;
  for (let a = 0; a < activeCount; a++) {
    if (!seenLeaf[tree.activeLeaf[a]]) { seenLeaf[tree.activeLeaf[a]] = 1; leaves++; }
  }
  return leaves;
}
