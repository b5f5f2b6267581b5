/**
 * Cube tables. Corner c of a cell is at offset (c & 1, c >> 1 & 1, c >> 2 & 1).
 * Edges are listed by axis: CELL_EDGES[2e], CELL_EDGES[2e + 1] are the corners of edge e, lower
 * corner first; edge e runs along axis e >> 2.
 */
export const CELL_EDGES: Uint8Array = (() => {
  const out: number[] = [];
  for (let axis = 0; axis < 3; axis++) {
    const bit = 1 << axis;
    for (let c = 0; c < 8; c++) if ((c & bit) === 0) out.push(c, c | bit);
  }
  return Uint8Array.from(out);
})();

/**
 * MANIFOLD_CONFIG[mask] = 1 when the inside corners of the cube are connected through cube edges
 * and so are the outside corners: then the contour in the cell is one disc and a single DC vertex is
 * manifold (Ju et al. 2002, §3.2 condition 1/2). Empty sets count as connected.
 */
export const MANIFOLD_CONFIG: Uint8Array = (() => {
  const table = new Uint8Array(256);
  const connected = (set: number): boolean => {
    if (set === 0) return true;
    let seen = set & -set;
    for (;;) {
      let grow = seen;
      for (let c = 0; c < 8; c++) {
        if ((seen & (1 << c)) === 0) continue;
        for (let a = 0; a < 3; a++) {
          const d = c ^ (1 << a);
          if (set & (1 << d)) grow |= 1 << d;
        }
      }
      if (grow === seen) break;
      seen = grow;
    }
    return seen === set;
  };
  for (let m = 0; m < 256; m++) table[m] = connected(m) && connected(~m & 255) ? 1 : 0;
  return table;
})();

/**
 * Faces of the cube as 4 corners in cyclic order; the edge between consecutive corners is a face edge.
 */
const FACE_CORNERS = [
  [0, 2, 6, 4], [1, 3, 7, 5], // x = 0, x = 1
  [0, 4, 5, 1], [2, 6, 7, 3], // y = 0, y = 1
  [0, 1, 3, 2], [4, 5, 7, 6], // z = 0, z = 1
];

function edgeIndexOf(a: number, b: number): number {
  for (let e = 0; e < 12; e++) {
    const c0 = CELL_EDGES[2 * e], c1 = CELL_EDGES[2 * e + 1];
    if ((c0 === a && c1 === b) || (c0 === b && c1 === a)) return e;
  }
  throw new Error('not a cube edge');
}

/**
 * EDGE_COMPONENT[mask * 12 + edge] = which surface component of a cell with sign mask `mask` the
 * sign-changing edge belongs to (-1 when the edge has no sign change); COMPONENT_COUNT[mask] = how
 * many. Components are the cycles formed by pairing sign-changing edges on each face, the ambiguous
 * (checkerboard) face pairing the edges around each INSIDE corner (inside corners kept apart). The
 * rule depends on the face's signs only, so both cells sharing a face agree (Schaefer, Ju & Warren
 * 2007, "Manifold dual contouring", use the same idea with a manifold MC table). A cell with more
 * than one component gets one vertex per component, which removes most non-manifold edges at sharp
 * features and in noisy fields (see docs/mesher.md for the one configuration pair it cannot fix).
 */
export const EDGE_COMPONENT = new Int8Array(256 * 12).fill(-1);
export const COMPONENT_COUNT = new Uint8Array(256);
(() => {
  const parent = new Int8Array(12);
  const find = (x: number): number => { while (parent[x] !== x) x = parent[x]; return x; };
  for (let m = 0; m < 256; m++) {
    for (let e = 0; e < 12; e++) parent[e] = e;
    const inside = (c: number): boolean => ((m >> c) & 1) === 1;
    for (const f of FACE_CORNERS) {
      const crossing: number[] = [];
      for (let i = 0; i < 4; i++) if (inside(f[i]) !== inside(f[(i + 1) % 4])) crossing.push(i);
      if (crossing.length === 2) {
        const a = edgeIndexOf(f[crossing[0]], f[(crossing[0] + 1) % 4]);
        const b = edgeIndexOf(f[crossing[1]], f[(crossing[1] + 1) % 4]);
        parent[find(a)] = find(b);
      } else if (crossing.length === 4) {
        for (let i = 0; i < 4; i++) {
          if (!inside(f[i])) continue;
          // Inside corner i: its two face edges are (i-1, i) and (i, i+1).
          const a = edgeIndexOf(f[(i + 3) % 4], f[i]);
          const b = edgeIndexOf(f[i], f[(i + 1) % 4]);
          parent[find(a)] = find(b);
        }
      }
    }
    const label = new Int8Array(12).fill(-1);
    let n = 0;
    for (let e = 0; e < 12; e++) {
      if (inside(CELL_EDGES[2 * e]) === inside(CELL_EDGES[2 * e + 1])) continue;
      const r = find(e);
      if (label[r] < 0) label[r] = n++;
      EDGE_COMPONENT[m * 12 + e] = label[r];
    }
    COMPONENT_COUNT[m] = n;
  }
})();

/**
 * QUAD_EDGE[axis * 4 + q] = the cell-local edge index of an edge along `axis` as seen from the cell
 * in quadrant q around it (quadrant offsets du, dv in {-1, 0} along u = axis+1, v = axis+2, in the
 * order (-1,-1), (0,-1), (0,0), (-1,0)).
 */
export const QUAD_EDGE: Uint8Array = (() => {
  const du = [-1, 0, 0, -1], dv = [-1, -1, 0, 0];
  const out = new Uint8Array(12);
  for (let a = 0; a < 3; a++) {
    const u = (a + 1) % 3, v = (a + 2) % 3;
    for (let q = 0; q < 4; q++) {
      const start = (du[q] === -1 ? 1 << u : 0) | (dv[q] === -1 ? 1 << v : 0);
      out[a * 4 + q] = edgeIndexOf(start, start | (1 << a));
    }
  }
  return out;
})();

/** vertexCells[4i + 3] packs the leaf size and, for multi-vertex cells, the component index. */
export const VERTEX_COMPONENT_SHIFT = 26;
