/**
 * A uniform grid over a mesh's triangles: which triangles may touch a box. The collider's broad
 * query (meshCollider.ts) in place of cannon-es's trimesh octree, which keeps every triangle that
 * straddles a node's splitting planes in that node: on a DC sphere a probe's query returned hundreds
 * of triangles from the root alone, and sphere contacts took ~10 ms a step for 20 probes.
 *
 * Compressed rows: `starts[c] … starts[c + 1]` index the triangles of cell c in `items`. A triangle is
 * listed in every cell its bounding box overlaps. Queries return each triangle once.
 */
export class TriangleGrid {
  readonly origin: [number, number, number];
  readonly cellM: number;
  readonly dims: [number, number, number];
  readonly starts: Uint32Array;
  readonly items: Uint32Array;
  /** Per triangle, the query that last returned it (dedupes a query's cells). */
  private readonly seen: Uint32Array;
  private query = 0;

  /**
   * @param maxCellsPerAxis the grid's resolution cap (memory: (cap + 1)³ starts at most)
   */
  constructor(vertices: ArrayLike<number>, indices: ArrayLike<number>, maxCellsPerAxis = 64) {
    const triangles = indices.length / 3;
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    let edgeSum = 0;
    for (let t = 0; t < triangles; t++) {
      for (let k = 0; k < 3; k++) {
        const a = 3 * indices[3 * t + k];
        const b = 3 * indices[3 * t + ((k + 1) % 3)];
        for (let c = 0; c < 3; c++) {
          lo[c] = Math.min(lo[c], vertices[a + c]);
          hi[c] = Math.max(hi[c], vertices[a + c]);
        }
        edgeSum += Math.hypot(vertices[a] - vertices[b], vertices[a + 1] - vertices[b + 1], vertices[a + 2] - vertices[b + 2]);
      }
    }
    if (triangles === 0) lo.fill(0), hi.fill(0);
    const extent = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], 1e-6);
    // About two mean edges a cell, so a small box meets a handful of triangles.
    const meanEdge = triangles > 0 ? edgeSum / (3 * triangles) : extent;
    this.cellM = Math.max(2 * meanEdge, extent / maxCellsPerAxis);
    this.origin = [lo[0], lo[1], lo[2]];
    this.dims = [0, 1, 2].map((c) => Math.max(1, Math.ceil((hi[c] - lo[c]) / this.cellM + 1e-9))) as [number, number, number];
    const cells = this.dims[0] * this.dims[1] * this.dims[2];
    const counts = new Uint32Array(cells + 1);
    this.forEachCell(vertices, indices, (_, cell) => counts[cell + 1]++);
    for (let c = 0; c < cells; c++) counts[c + 1] += counts[c];
    this.starts = counts;
    this.items = new Uint32Array(counts[cells]);
    const fill = counts.slice(0, cells);
    this.forEachCell(vertices, indices, (t, cell) => (this.items[fill[cell]++] = t));
    this.seen = new Uint32Array(triangles);
  }

  /** Appends to `result` the triangles whose cells overlap the box [lo, hi]; returns `result`. */
  trianglesIn(lo: { x: number; y: number; z: number }, hi: { x: number; y: number; z: number }, result: number[]): number[] {
    const [i0, j0, k0] = this.cellOf(lo.x, lo.y, lo.z);
    const [i1, j1, k1] = this.cellOf(hi.x, hi.y, hi.z);
    const [nx, ny] = this.dims;
    if (++this.query === 0xffffffff) this.seen.fill(0), (this.query = 1);
    for (let k = k0; k <= k1; k++) {
      for (let j = j0; j <= j1; j++) {
        for (let i = i0; i <= i1; i++) {
          const cell = i + nx * (j + ny * k);
          for (let n = this.starts[cell]; n < this.starts[cell + 1]; n++) {
            const t = this.items[n];
            if (this.seen[t] === this.query) continue;
            this.seen[t] = this.query;
            result.push(t);
          }
        }
      }
    }
    return result;
  }

  /** Bytes of the index (its rows and the dedupe stamps). */
  get bytes(): number {
    return this.starts.byteLength + this.items.byteLength + this.seen.byteLength;
  }

  /** Cell coordinates of a point, clamped to the grid. */
  private cellOf(x: number, y: number, z: number): [number, number, number] {
    const c = (v: number, axis: number) => Math.min(this.dims[axis] - 1, Math.max(0, Math.floor((v - this.origin[axis]) / this.cellM)));
    return [c(x, 0), c(y, 1), c(z, 2)];
  }

  private forEachCell(vertices: ArrayLike<number>, indices: ArrayLike<number>, visit: (triangle: number, cell: number) => void): void {
    const [nx, ny] = this.dims;
    for (let t = 0; t < indices.length / 3; t++) {
      const a = 3 * indices[3 * t], b = 3 * indices[3 * t + 1], c = 3 * indices[3 * t + 2];
      const [i0, j0, k0] = this.cellOf(Math.min(vertices[a], vertices[b], vertices[c]), Math.min(vertices[a + 1], vertices[b + 1], vertices[c + 1]), Math.min(vertices[a + 2], vertices[b + 2], vertices[c + 2]));
      const [i1, j1, k1] = this.cellOf(Math.max(vertices[a], vertices[b], vertices[c]), Math.max(vertices[a + 1], vertices[b + 1], vertices[c + 1]), Math.max(vertices[a + 2], vertices[b + 2], vertices[c + 2]));
      for (let k = k0; k <= k1; k++) for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) visit(t, i + nx * (j + ny * k));
    }
  }
}
