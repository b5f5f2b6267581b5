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
