/**
 * The sign-changing edges of a sampled grid, in the mesher's HermiteEdges id layout:
 * `axis * P^3 + i + P * (j + P * k)` (axis 0 = x, 1 = y, 2 = z; P = N + 1). These are the
 * edges the transform-feedback pass refines. Inside is `value < 0`, as in the mesher.
 */
export function signChangingEdges(values: ArrayLike<number>, points: number): Uint32Array {
  const p = points;
  const p3 = p * p * p;
  if (values.length !== p3) throw new RangeError(`expected ${p3} values for a ${p}³ grid, got ${values.length}`);
  let count = 0;
  let ids = new Uint32Array(1024);
  const push = (id: number): void => {
    if (count === ids.length) {
      const grown = new Uint32Array(ids.length * 2);
      grown.set(ids);
      ids = grown;
    }
    ids[count++] = id;
  };
  for (let k = 0; k < p; k++) {
    for (let j = 0; j < p; j++) {
      const row = p * (j + p * k);
      for (let i = 0; i < p; i++) {
        const idx = row + i;
        const inside = values[idx] < 0;
        if (i + 1 < p && inside !== values[idx + 1] < 0) push(idx);
        if (j + 1 < p && inside !== values[idx + p] < 0) push(p3 + idx);
        if (k + 1 < p && inside !== values[idx + p * p] < 0) push(2 * p3 + idx);
      }
    }
  }
  return ids.slice(0, count);
}

/** The grid values at each edge's two ends (2 per edge: lower end, upper end), for the edge pass. */
export function edgeEndValues(values: ArrayLike<number>, points: number, edgeIds: Uint32Array): Float32Array {
  const p = points, p3 = p * p * p;
  const step = [1, p, p * p];
  const ends = new Float32Array(2 * edgeIds.length);
  for (let e = 0; e < edgeIds.length; e++) {
    const id = edgeIds[e];
    const axis = Math.floor(id / p3);
    const idx = id - axis * p3;
    ends[2 * e] = values[idx];
    ends[2 * e + 1] = values[idx + step[axis]];
  }
  return ends;
}
