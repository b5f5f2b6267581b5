/**
 * QEF stage of the chunk mesher: one leaf per surface piece of every active cell (a cell touching a
 * sign-changing edge), the QEF of the crossing planes around it, and its vertex — the QEF minimiser
 * clamped into the cell (qef.ts). Cells whose sign configuration holds several surface pieces get
 * one leaf per piece (EDGE_COMPONENT in tables.ts).
 */
import { cornerMaskAt } from './hermite.ts';
import type { SignEdges } from './hermite.ts';
import { qefAddPlane, qefSolve, QEF_STRIDE } from './qef.ts';
import { scratchF64, scratchI32, scratchU8 } from './scratch.ts';
import { COMPONENT_COUNT, EDGE_COMPONENT, MANIFOLD_CONFIG, QUAD_EDGE } from './tables.ts';

/** Quadrant order around an edge along axis a, counter-clockwise seen from +a in (u, v) = (a+1, a+2). */
const QUAD_DU = [-1, 0, 0, -1];
const QUAD_DV = [-1, -1, 0, 0];

const solveOut = new Float64Array(4);

/**
 * The leaves of the finest level: entry a (one per surface piece of an active cell, the pieces of a
 * cell consecutive). Arrays are module scratch, at least `count` entries long.
 */
export interface ActiveCells {
  count: number;
  /** Per chunk cell (N^3, i + N * (j + N * k)): its first entry, or -1. */
  cellToActive: Int32Array;
  /** Per entry: the cell's sign mask (bit c = corner c inside). */
  mask: Uint8Array;
  /** Per entry: its surface piece within the cell (0 for most). */
  comp: Uint8Array;
  /** Per entry: the cell's chunk-local i, j, k. */
  coords: Int32Array;
  /** Per entry: QEF_STRIDE float64s (chunk-local cell units). */
  qefs: Float64Array;
  /** Per entry: the vertex (chunk-local cell units), 3 float64s. */
  vert: Float64Array;
  /** Per entry: 1 when the cell's configuration is manifold, so it may be merged by simplification. */
  ok: Uint8Array;
  /** Cells whose sign configuration is not manifold (counted once per cell). */
  nonManifold: number;
}

/** The QEF stage: the active cells' leaves, their QEFs and vertices. */
export function qefLeaves(N: number, signs: Uint8Array, edges: SignEdges): ActiveCells {
  const NN = N * N;
  const cellToActive = scratchI32('cellToActive', N * NN);
  cellToActive.fill(-1, 0, N * NN);
  const count = accumulateQefs(N, signs, edges.count, edges.codes, edges.coords, edges.t, edges.normals, cellToActive);
  const active: ActiveCells = {
    count, cellToActive,
    mask: scratchU8('activeMask', count), comp: scratchU8('activeComp', count),
    coords: scratchI32('activeCoords', 3 * count), qefs: scratchF64('qefs', count * QEF_STRIDE),
    vert: scratchF64('cellVert', count * 3), ok: scratchU8('cellOk', count), nonManifold: 0,
  };
  solveLeaves(active);
  return active;
}

/**
 * Solves every entry's QEF into its vertex, clamped into the cell, and marks the entries that may
 * take part in a merge (manifold configuration); counts the non-manifold cells.
 */
function solveLeaves(active: ActiveCells): void {
  const { count, qefs, coords, vert, ok, mask, comp } = active;
  let nonManifold = 0;
  for (let a = 0; a < count; a++) {
    qefSolve(qefs, a * QEF_STRIDE, coords[3 * a], coords[3 * a + 1], coords[3 * a + 2], 1, solveOut);
    vert[3 * a] = solveOut[0]; vert[3 * a + 1] = solveOut[1]; vert[3 * a + 2] = solveOut[2];
    const m = MANIFOLD_CONFIG[mask[a]];
    ok[a] = m;
    if (!m && comp[a] === 0) nonManifold++;
  }
  active.nonManifold = nonManifold;
}

/**
 * Adds each edge's plane to the QEFs of the (up to 4) cells around it, creating active entries
 * (one per surface component, consecutive) on first touch in the 'activeCell', 'activeMask',
 * 'activeComp', 'activeCoords' and 'qefs' scratch arrays. Returns the number of entries.
 */
function accumulateQefs(
  N: number, signs: Uint8Array, edgeCount: number,
  edgeP: Int32Array, edgeC: Int32Array, edgeT: Float64Array, edgeN: Float32Array, cellToActive: Int32Array,
): number {
  const P = N + 1, PP = P * P, NN = N * N;
  let cap = Math.max(64, edgeCount);
  let activeCell = scratchI32('activeCell', cap);
  let activeMask = scratchU8('activeMask', cap);
  let activeComp = scratchU8('activeComp', cap);
  let coords = scratchI32('activeCoords', 3 * cap);
  let qefs = scratchF64('qefs', cap * QEF_STRIDE);
  cap = Math.min(activeCell.length, activeMask.length, activeComp.length, coords.length / 3, qefs.length / QEF_STRIDE);
  let count = 0;
  for (let e = 0; e < edgeCount; e++) {
    const code = edgeP[e];
    const axis = code % 3;
    const p = (code - axis) / 3;
    const pc0 = edgeC[3 * e], pc1 = edgeC[3 * e + 1], pc2 = edgeC[3 * e + 2];
    const t = edgeT[e];
    const px = pc0 + (axis === 0 ? t : 0), py = pc1 + (axis === 1 ? t : 0), pz = pc2 + (axis === 2 ? t : 0);
    const nx = edgeN[3 * e], ny = edgeN[3 * e + 1], nz = edgeN[3 * e + 2];
    // u = axis + 1, v = axis + 2 (mod 3): cell strides, point strides and coordinates along them.
    const su = axis === 0 ? N : axis === 1 ? NN : 1, sv = axis === 0 ? NN : axis === 1 ? 1 : N;
    const pu = axis === 0 ? P : axis === 1 ? PP : 1, pv = axis === 0 ? PP : axis === 1 ? 1 : P;
    const cu0 = axis === 0 ? pc1 : axis === 1 ? pc2 : pc0, cv0 = axis === 0 ? pc2 : axis === 1 ? pc0 : pc1;
    const base = pc0 + N * (pc1 + N * pc2);
    for (let qd = 0; qd < 4; qd++) {
      const du = QUAD_DU[qd], dv = QUAD_DV[qd];
      const cu = cu0 + du, cv = cv0 + dv;
      if (cu < 0 || cv < 0 || cu >= N || cv >= N) continue;
      const cell = base + du * su + dv * sv;
      let a = cellToActive[cell];
      if (a < 0) {
        const m = cornerMaskAt(signs, p + du * pu + dv * pv, 1, P);
        const nc = COMPONENT_COUNT[m];
        if (count + nc > cap) {
          cap *= 2;
          activeCell = scratchI32('activeCell', cap, true);
          activeMask = scratchU8('activeMask', cap, true);
          activeComp = scratchU8('activeComp', cap, true);
          coords = scratchI32('activeCoords', 3 * cap, true);
          qefs = scratchF64('qefs', cap * QEF_STRIDE, true);
        }
        a = count;
        count += nc;
        cellToActive[cell] = a;
        const ci = cell % N, cj = ((cell - ci) / N) % N, ck = (cell - ci - N * cj) / NN;
        for (let c = 0; c < nc; c++) {
          const b = a + c;
          activeCell[b] = cell; activeMask[b] = m; activeComp[b] = c;
          coords[3 * b] = ci; coords[3 * b + 1] = cj; coords[3 * b + 2] = ck;
          for (let w = b * QEF_STRIDE, end = w + QEF_STRIDE; w < end; w++) qefs[w] = 0;
        }
      }
      const o = (a + EDGE_COMPONENT[activeMask[a] * 12 + QUAD_EDGE[axis * 4 + qd]]) * QEF_STRIDE;
      qefAddPlane(qefs, o, px, py, pz, nx, ny, nz);
    }
  }
  return count;
}
