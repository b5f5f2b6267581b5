/**
 * The hermite stage's 2:1 restriction (docs/mesher.md, "Mixed levels"): a chunk next to a coarser
 * neighbour replaces its samples at the odd points of the boundary they share by the coarse lattice's
 * interpolant, so the shared face has the sign topology of a topologically safe octree collapse and
 * seams across the 2:1 step stay manifold.
 */
import { MesherInputError } from './errors.ts';
import type { MeshChunkInput } from './types.ts';

/**
 * 2:1 consistency (docs/mesher.md, "Mixed levels"). A coarse neighbour only sampled every other
 * point of the boundary it shares with this chunk, and its boundary cells get one vertex per
 * surface piece of their 8 corners. If this finer chunk kept its own samples at the odd points,
 * a feature smaller than a coarse cell could cross a coarse face between its samples and give one
 * seam edge four triangles (seen: noisy asteroid, 3x3x3 chunks, seed 2). So the odd points are
 * replaced by the coarse lattice's interpolant — what a topologically safe octree collapse would
 * guarantee (Ju et al. 2002 §3.2): an edge midpoint gets the mean of the edge's ends (its sign
 * agrees with one end, and the linear crossing is where the coarse edge has it); a face center
 * gets the mean of its 4 corners, except on a checkerboard face, where it must be outside to
 * keep the inside corners apart as EDGE_COMPONENT does (the mean of the outside corners).
 * Returns a copy of `values`; updates `signs` and marks the replaced points in `restricted`.
 */
export function restrictToCoarser(
  input: MeshChunkInput, values: Float32Array | Float64Array, signs: Uint8Array, restricted: Uint8Array,
): Float64Array {
  const N = input.cells;
  const P = N + 1;
  const cs = 2 ** input.level;
  const S = 2 * cs;
  const o = input.originGrid;
  const out = Float64Array.from(values);
  const step = [1, P, P * P];
  const mod = (a: number, m: number): number => ((a % m) + m) % m;
  for (const nb of input.coarserNeighbours!) {
    const b = nb.boxGrid;
    if (nb.level !== input.level + 1) {
      throw new MesherInputError(`mesher: coarser neighbour at level ${nb.level} next to a level-${input.level} chunk; only one level apart is supported`);
    }
    const lo = [0, 0, 0], hi = [0, 0, 0];
    let touching = true, flat = 0;
    for (let a = 0; a < 3; a++) {
      if (mod(o[a] - b[a], S) !== 0 || mod(b[a + 3] - b[a], S) !== 0 || N % 2 !== 0) {
        throw new MesherInputError(`mesher: chunk at ${o.join(',')} (level ${input.level}, ${N} cells) is not aligned to the lattice of its coarser neighbour ${b.join(',')}`);
      }
      const g0 = Math.max(o[a], b[a]), g1 = Math.min(o[a] + N * cs, b[a + 3]);
      if (g0 > g1) { touching = false; break; }
      if (g0 === g1) flat++;
      lo[a] = (g0 - o[a]) / cs; hi[a] = (g1 - o[a]) / cs;
    }
    if (!touching) continue;
    if (flat === 0) throw new MesherInputError(`mesher: coarser neighbour ${b.join(',')} overlaps the chunk at ${o.join(',')}`);
    // Chunk-local points of the shared boundary; odd along an axis = between two coarse samples.
    for (let k = lo[2]; k <= hi[2]; k++) for (let j = lo[1]; j <= hi[1]; j++) for (let i = lo[0]; i <= hi[0]; i++) {
      const c = [i, j, k];
      let a0 = -1, a1 = -1;
      for (let a = 0; a < 3; a++) {
        if (c[a] % 2 === 0) continue;
        if (a0 < 0) a0 = a; else a1 = a;
      }
      if (a0 < 0) continue;
      const p = i + P * (j + P * k);
      let v: number;
      if (a1 < 0) {
        v = 0.5 * (values[p - step[a0]] + values[p + step[a0]]);
      } else {
        const sa = step[a0], sb = step[a1];
        const v00 = values[p - sa - sb], v10 = values[p + sa - sb], v01 = values[p - sa + sb], v11 = values[p + sa + sb];
        const in00 = v00 < 0, in10 = v10 < 0, in01 = v01 < 0, in11 = v11 < 0;
        if (in00 === in11 && in10 === in01 && in00 !== in10) {
          v = in00 ? 0.5 * (v10 + v01) : 0.5 * (v00 + v11);
        } else {
          v = 0.25 * (v00 + v10 + v01 + v11);
        }
      }
      out[p] = v;
      signs[p] = v < 0 ? 1 : 0;
      restricted[p] = 1;
    }
  }
  return out;
}
