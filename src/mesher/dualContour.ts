/**
 * Dual Contouring of one chunk (Ju, Losasso, Schaefer, Warren 2002; Sockalingam 2017 §4.2–4.4; Gildea 2015; docs/design.md#sources):
 * `meshChunk` checks its input and runs the stages, each a flat loop over typed arrays in its own
 * file, passing typed records (docs/mesher.md, "Algorithm and data layout"):
 *   hermite  — hermite.ts (restrict.ts, hermiteInput.ts): sign per corner, the sign-changing edges
 *              with crossing t and normal (ChunkGrid, SignEdges)
 *   qef      — leaves.ts: one leaf per surface piece of each active cell, QEF + vertex (ActiveCells)
 *   octree   — octree.ts: bottom-up levels of nodes over active cells, dense maps per level, and
 *   simplify   collapses of 8 children when the QEF error is small and the merge safe (Octree)
 *   contour  — contour.ts: one polygon per minimal sign-changing edge, via the fine edges (ChunkMesh)
 *   boundary — boundary.ts: the leaves touching the chunk's boundary, global coordinates, for seams
 * Module scratch buffers (scratch.ts) are reused across calls.
 *
 * Ownership: a chunk's own mesh covers exactly the edges whose four cells all lie in the chunk.
 * Edges on the chunk's boundary belong to seams (src/mesher/seam.ts).
 */
import { boundaryLeaves } from './boundary.ts';
import { contourMesh, leafVertices } from './contour.ts';
import { MesherInputError } from './errors.ts';
import { computedEdges, signGrid } from './hermite.ts';
import { suppliedEdges } from './hermiteInput.ts';
import { evaluatePoints } from '../field/compileField.ts';
import { qefLeaves } from './leaves.ts';
import { IDENTITY_MAPPING } from './mapping.ts';
import { buildOctree, countLeaves } from './octree.ts';
import { now } from './scratch.ts';
import type { ChunkStats, FieldFn, GridMapping, MeshChunkInput, MeshChunkResult } from './types.ts';

export { MesherInputError };

const scratchW = new Float64Array(3);
/** One slab of a chunk's sample positions (xyz interleaved), grown as needed. */
let slabXyz = new Float64Array(0);

/**
 * Samples a world-space field at the chunk's (N+1)^3 corners (x fastest): positions a slab (one k)
 * at a time, each slab in one `evaluatePoints` call (the generated evaluator's lattice call).
 */
export function sampleChunk(
  spec: { originGrid: readonly [number, number, number]; level: number; cells: number },
  field: FieldFn,
  mapping: GridMapping = IDENTITY_MAPPING,
  target?: Float32Array,
): Float32Array {
  const P = spec.cells + 1;
  const cs = 2 ** spec.level;
  const out = target ?? new Float32Array(P * P * P);
  const [ox, oy, oz] = spec.originGrid;
  const PP = P * P;
  if (slabXyz.length < 3 * PP) slabXyz = new Float64Array(3 * PP);
  const xyz = slabXyz;
  for (let k = 0; k < P; k++) {
    let q = 0;
    for (let j = 0; j < P; j++) {
      for (let i = 0; i < P; i++, q += 3) {
        mapping.toWorld(ox + i * cs, oy + j * cs, oz + k * cs, scratchW);
        xyz[q] = scratchW[0]; xyz[q + 1] = scratchW[1]; xyz[q + 2] = scratchW[2];
      }
    }
    evaluatePoints(field, xyz, out.subarray(k * PP, (k + 1) * PP), PP);
  }
  return out;
}

/** Meshes one chunk. See {@link MeshChunkInput} for the input layout and docs/mesher.md. */
export function meshChunk(input: MeshChunkInput): MeshChunkResult {
  const t0 = now();
  checkInput(input);
  const mapping = input.mapping ?? IDENTITY_MAPPING;
  const grid = signGrid(input);
  const edges = input.hermite ? suppliedEdges(input, grid) : computedEdges(input, grid);
  const t1 = now();
  const active = qefLeaves(grid.N, grid.signs, edges);
  const t2 = now();
  const tree = buildOctree(grid, active, input.simplify ?? 0, input.maxLeafCells ?? grid.N);
  const t3 = now();
  const leafVert = leafVertices(tree);
  const mesh = contourMesh(grid, edges, active, tree, leafVert, mapping);
  const t4 = now();
  const boundary = boundaryLeaves(grid, active, tree, leafVert, mapping, input.chunkId ?? 0);
  const t5 = now();
  const stats: ChunkStats = {
    hermiteMs: t1 - t0, qefMs: t2 - t1, octreeMs: tree.octreeMs, simplifyMs: tree.simplifyMs,
    contourMs: t4 - t3, boundaryMs: t5 - t4, totalMs: t5 - t0,
    edges: edges.count, activeCells: active.count, leaves: countLeaves(tree, active.count),
    collapsedNodes: tree.collapsedNodes, nonManifoldCells: active.nonManifold,
    vertices: mesh.positions.length / 3, triangles: mesh.indices.length / 3,
  };
  return { mesh, boundary, stats };
}

/** Throws MesherInputError for a chunk spec or value count meshChunk cannot use. */
function checkInput(input: MeshChunkInput): void {
  const N = input.cells;
  const level = input.level;
  if (!Number.isInteger(N) || N < 1) throw new MesherInputError(`mesher: cells must be a positive integer, got ${N}`);
  if (!Number.isInteger(level) || level < 0 || level > 30) throw new MesherInputError(`mesher: level must be an integer in [0, 30], got ${level}`);
  for (const c of input.originGrid) {
    if (!Number.isSafeInteger(c)) throw new MesherInputError(`mesher: originGrid must hold integers, got ${input.originGrid.join(',')}`);
  }
  const P3 = (N + 1) ** 3;
  const values = input.values;
  if (values.length !== P3) throw new MesherInputError(`mesher: values has ${values.length} entries, expected (N+1)^3 = ${P3}`);
}
