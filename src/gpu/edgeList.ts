/**
 * The sign-changing edges of a sampled grid, in the mesher's HermiteEdges id layout:
 * `axis * P^3 + i + P * (j + P * k)` (axis 0 = x, 1 = y, 2 = z; P = N + 1): the edges the
 * transform-feedback pass refines. Inside is `value < 0`, as in the mesher.
 */

let scratchIds = new Uint32Array(4096);
let scratchEnds = new Float32Array(8192);
let scratchRows = new Uint8Array(0);

/**
 * The sign-changing edges of a sampled grid (x, y, z edges of each point, points x fastest) and
 * each edge's two end values (2 per edge: lower end, upper end), in one pass. Rows of constant sign are classified first, and a row whose +y and +z
 * neighbour rows share its constant sign is skipped whole: most rows of a surface chunk are far from
 * the surface. Runs for every GPU-sampled chunk on the sampling worker's thread (issue 15).
 */
export function signChangingEdges(values: ArrayLike<number>, points: number): { ids: Uint32Array; ends: Float32Array } {
  const p = points, p2 = p * p, p3 = p2 * p;
  if (values.length !== p3) throw new RangeError(`expected ${p3} values for a ${p}³ grid, got ${values.length}`);
  // Row (j, k) of x values: 0 all outside, 1 all inside, 2 mixed.
  if (scratchRows.length < p2) scratchRows = new Uint8Array(p2);
  const rows = scratchRows;
  for (let r = 0; r < p2; r++) {
    const base = r * p;
    const first = values[base] < 0;
    let kind = first ? 1 : 0;
    for (let i = 1; i < p; i++) {
      if ((values[base + i] < 0) !== first) {
        kind = 2;
        break;
      }
    }
    rows[r] = kind;
  }
  let count = 0;
  let ids = scratchIds, ends = scratchEnds;
  const push = (id: number, a: number, b: number): void => {
    if (count === ids.length) {
      const grownIds = new Uint32Array(ids.length * 2);
      grownIds.set(ids);
      const grownEnds = new Float32Array(ends.length * 2);
      grownEnds.set(ends);
      scratchIds = ids = grownIds;
      scratchEnds = ends = grownEnds;
    }
    ids[count] = id;
    ends[2 * count] = a;
    ends[2 * count + 1] = b;
    count++;
  };
  for (let k = 0; k < p; k++) {
    for (let j = 0; j < p; j++) {
      const r = j + p * k;
      const kind = rows[r];
      const yKind = j + 1 < p ? rows[r + 1] : kind;
      const zKind = k + 1 < p ? rows[r + p] : kind;
      if (kind !== 2 && yKind === kind && zKind === kind) continue;
      const row = r * p;
      for (let i = 0; i < p; i++) {
        const idx = row + i;
        const v = values[idx];
        const inside = v < 0;
        if (kind === 2 && i + 1 < p) {
          const w = values[idx + 1];
          if (inside !== w < 0) push(idx, v, w);
        }
        if (j + 1 < p && yKind !== kind || (j + 1 < p && kind === 2)) {
          const w = values[idx + p];
          if (inside !== w < 0) push(p3 + idx, v, w);
        }
        if (k + 1 < p && zKind !== kind || (k + 1 < p && kind === 2)) {
          const w = values[idx + p2];
          if (inside !== w < 0) push(2 * p3 + idx, v, w);
        }
      }
    }
  }
  return { ids: ids.slice(0, count), ends: ends.slice(0, 2 * count) };
}

