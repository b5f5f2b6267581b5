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
    let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
    for (let i = 0; i < vertices.length; i += 3) {
      const x = vertices[i], y = vertices[i + 1], z = vertices[i + 2];
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      if (z < z0) z0 = z;
      if (z > z1) z1 = z;
    }
    if (vertices.length === 0) x0 = y0 = z0 = x1 = y1 = z1 = 0;
    const extent = Math.max(x1 - x0, y1 - y0, z1 - z0, 1e-6);
    // About two mean edges a cell (from a sample of triangles), so a small box meets a handful.
    let edgeSum = 0;
    const sampled = Math.min(triangles, 4096);
    const stride = Math.max(1, Math.floor(triangles / Math.max(1, sampled)));
    let edges = 0;
    for (let t = 0; t < triangles && edges < 3 * sampled; t += stride, edges += 3) {
      const a = 3 * indices[3 * t], b = 3 * indices[3 * t + 1], c = 3 * indices[3 * t + 2];
      edgeSum += Math.sqrt((vertices[a] - vertices[b]) ** 2 + (vertices[a + 1] - vertices[b + 1]) ** 2 + (vertices[a + 2] - vertices[b + 2]) ** 2);
      edgeSum += Math.sqrt((vertices[b] - vertices[c]) ** 2 + (vertices[b + 1] - vertices[c + 1]) ** 2 + (vertices[b + 2] - vertices[c + 2]) ** 2);
      edgeSum += Math.sqrt((vertices[c] - vertices[a]) ** 2 + (vertices[c + 1] - vertices[a + 1]) ** 2 + (vertices[c + 2] - vertices[a + 2]) ** 2);
    }
    const meanEdge = edges > 0 ? edgeSum / edges : extent;
    this.cellM = Math.max(2 * meanEdge, extent / maxCellsPerAxis);
    this.origin = [x0, y0, z0];
    const n = (lo: number, hi: number) => Math.max(1, Math.ceil((hi - lo) / this.cellM + 1e-9));
    this.dims = [n(x0, x1), n(y0, y1), n(z0, z1)];
    const cells = this.dims[0] * this.dims[1] * this.dims[2];
    // Each triangle's cell range, kept for the fill pass: [i0, j0, k0, i1, j1, k1].
    const ranges = new Int32Array(6 * triangles);
    const counts = new Uint32Array(cells + 1);
    const [nx, ny, nz] = this.dims;
    const inv = 1 / this.cellM;
    const clampCell = (v: number, dim: number) => (v < 0 ? 0 : v >= dim ? dim - 1 : v);
    for (let t = 0; t < triangles; t++) {
      const a = 3 * indices[3 * t], b = 3 * indices[3 * t + 1], c = 3 * indices[3 * t + 2];
      const r = 6 * t;
      ranges[r] = clampCell(Math.floor((Math.min(vertices[a], vertices[b], vertices[c]) - x0) * inv), nx);
      ranges[r + 1] = clampCell(Math.floor((Math.min(vertices[a + 1], vertices[b + 1], vertices[c + 1]) - y0) * inv), ny);
      ranges[r + 2] = clampCell(Math.floor((Math.min(vertices[a + 2], vertices[b + 2], vertices[c + 2]) - z0) * inv), nz);
      ranges[r + 3] = clampCell(Math.floor((Math.max(vertices[a], vertices[b], vertices[c]) - x0) * inv), nx);
      ranges[r + 4] = clampCell(Math.floor((Math.max(vertices[a + 1], vertices[b + 1], vertices[c + 1]) - y0) * inv), ny);
      ranges[r + 5] = clampCell(Math.floor((Math.max(vertices[a + 2], vertices[b + 2], vertices[c + 2]) - z0) * inv), nz);
      for (let k = ranges[r + 2]; k <= ranges[r + 5]; k++) {
        for (let j = ranges[r + 1]; j <= ranges[r + 4]; j++) {
          for (let i = ranges[r]; i <= ranges[r + 3]; i++) counts[i + nx * (j + ny * k) + 1]++;
        }
      }
    }
    for (let c = 0; c < cells; c++) counts[c + 1] += counts[c];
    this.starts = counts;
    this.items = new Uint32Array(counts[cells]);
    const fill = counts.slice(0, cells);
    for (let t = 0; t < triangles; t++) {
      const r = 6 * t;
      for (let k = ranges[r + 2]; k <= ranges[r + 5]; k++) {
        for (let j = ranges[r + 1]; j <= ranges[r + 4]; j++) {
          for (let i = ranges[r]; i <= ranges[r + 3]; i++) this.items[fill[i + nx * (j + ny * k)]++] = t;
        }
      }
    }
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
}
