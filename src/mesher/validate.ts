/**
 * Mesh validity checks shared by tests and debug overlays: is it a closed, consistently wound
 * 2-manifold, what is its Euler characteristic, genus and signed volume.
 */
import type { ChunkMesh } from './types.ts';

export interface MeshReport {
  vertices: number;
  /** Vertices referenced by at least one triangle. */
  usedVertices: number;
  triangles: number;
  edges: number;
  /** Edges in exactly one triangle. */
  boundaryEdges: number;
  /** Edges in three or more triangles. */
  nonManifoldEdges: number;
  /** Two-triangle edges traversed in the same direction by both (inconsistent winding). */
  misorientedEdges: number;
  /** Triangles with a repeated index or (near) zero area. */
  degenerateTriangles: number;
  /** Connected components (through shared vertices). */
  components: number;
  /** V - E + F over used vertices. */
  euler: number;
  /** (2 * components - euler) / 2 when closed and orientable, else NaN. */
  genus: number;
  /** Signed volume (positive when wound outward), world units cubed. */
  volume: number;
  closed: boolean;
  manifold: boolean;
  oriented: boolean;
}

/** Inspects an indexed triangle mesh. Positions are used only for areas and the volume. */
export function validateMesh(mesh: Pick<ChunkMesh, 'positions' | 'indices'>): MeshReport {
  const { positions, indices } = mesh;
  const V = positions.length / 3;
  const T = indices.length / 3;
  // Scale for the degenerate-area test: bounding-box diagonal squared.
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  for (let i = 0; i < V; i++) {
    const x = positions[3 * i], y = positions[3 * i + 1], z = positions[3 * i + 2];
    if (x < minX) minX = x; if (x > maxX) maxX = x;
    if (y < minY) minY = y; if (y > maxY) maxY = y;
    if (z < minZ) minZ = z; if (z > maxZ) maxZ = z;
  }
  const diag2 = V > 0 ? (maxX - minX) ** 2 + (maxY - minY) ** 2 + (maxZ - minZ) ** 2 : 0;
  const areaEps = 1e-12 * diag2;
  // Edge map: key = min * V + max; value packs forward (min -> max) count + 65536 * backward.
  const edges = new Map<number, number>();
  const used = new Uint8Array(V);
  const parent = new Int32Array(V);
  for (let i = 0; i < V; i++) parent[i] = i;
  const find = (x: number): number => {
    while (parent[x] !== x) { parent[x] = parent[parent[x]]; x = parent[x]; }
    return x;
  };
  let degenerate = 0;
  let volume = 0;
  for (let t = 0; t < T; t++) {
    const a = indices[3 * t], b = indices[3 * t + 1], c = indices[3 * t + 2];
    used[a] = 1; used[b] = 1; used[c] = 1;
    const ax = positions[3 * a], ay = positions[3 * a + 1], az = positions[3 * a + 2];
    const bx = positions[3 * b] - ax, by = positions[3 * b + 1] - ay, bz = positions[3 * b + 2] - az;
    const cx = positions[3 * c] - ax, cy = positions[3 * c + 1] - ay, cz = positions[3 * c + 2] - az;
    const nx = by * cz - bz * cy, ny = bz * cx - bx * cz, nz = bx * cy - by * cx;
    const area2 = nx * nx + ny * ny + nz * nz; // (2 * area)^2
    if (a === b || b === c || a === c || area2 <= 4 * areaEps * areaEps) degenerate++;
    // Volume relative to vertex a's frame is translation invariant for closed meshes; use the
    // absolute form so open meshes still give a number.
    volume += (ax * (positions[3 * b + 1] * positions[3 * c + 2] - positions[3 * b + 2] * positions[3 * c + 1]) +
      ay * (positions[3 * b + 2] * positions[3 * c] - positions[3 * b] * positions[3 * c + 2]) +
      az * (positions[3 * b] * positions[3 * c + 1] - positions[3 * b + 1] * positions[3 * c])) / 6;
    for (let e = 0; e < 3; e++) {
      const p = indices[3 * t + e], q = indices[3 * t + (e + 1) % 3];
      if (p === q) continue;
      const key = p < q ? p * V + q : q * V + p;
      edges.set(key, (edges.get(key) ?? 0) + (p < q ? 1 : 65536));
      const rp = find(p), rq = find(q);
      if (rp !== rq) parent[rp] = rq;
    }
  }
  let boundaryEdges = 0, nonManifoldEdges = 0, misorientedEdges = 0;
  for (const packed of edges.values()) {
    const fwd = packed & 0xffff, back = packed >>> 16;
    const n = fwd + back;
    if (n === 1) boundaryEdges++;
    else if (n > 2) nonManifoldEdges++;
    else if (fwd !== 1) misorientedEdges++;
  }
  let usedVertices = 0, components = 0;
  for (let i = 0; i < V; i++) {
    if (!used[i]) continue;
    usedVertices++;
    if (find(i) === i) components++;
  }
  const euler = usedVertices - edges.size + T;
  const closed = boundaryEdges === 0;
  const manifold = nonManifoldEdges === 0;
  const oriented = misorientedEdges === 0;
  return {
    vertices: V, usedVertices, triangles: T, edges: edges.size, boundaryEdges, nonManifoldEdges,
    misorientedEdges, degenerateTriangles: degenerate, components, euler,
    genus: closed && manifold && oriented ? (2 * components - euler) / 2 : NaN,
    volume, closed, manifold, oriented,
  };
}

/**
 * What makes a mesh invalid, one phrase each; empty when it is a closed, consistently wound
 * 2-manifold with no degenerate triangle (docs/design.md, "Sampling and meshing": no degenerate triangle). Degenerate
 * triangles count as a failure like open or non-manifold edges: they have no normal, break
 * raycasts and colliders, and meant coincident vertices upstream. `open: 'allowed'` accepts
 * boundary edges (a mesh cut by a grid that does not contain the body).
 */
export function meshProblems(r: MeshReport, opts: { open?: 'allowed' } = {}): string[] {
  const out: string[] = [];
  if (r.triangles === 0) out.push('no triangles');
  if (r.boundaryEdges > 0 && opts.open !== 'allowed') out.push(`${r.boundaryEdges} boundary edges (not closed)`);
  if (r.nonManifoldEdges > 0) out.push(`${r.nonManifoldEdges} non-manifold edges`);
  if (r.misorientedEdges > 0) out.push(`${r.misorientedEdges} misoriented edges`);
  if (r.degenerateTriangles > 0) out.push(`${r.degenerateTriangles} degenerate triangles`);
  if (r.usedVertices !== r.vertices) out.push(`${r.vertices - r.usedVertices} unreferenced vertices`);
  return out;
}

/**
 * Triangles that repeat another triangle's vertex set (either winding): a seam edge covered twice, or
 * a chunk and a seam both emitting the same polygon. 0 for a valid union.
 */
export function countDuplicateTriangles(mesh: Pick<ChunkMesh, 'indices'>): number {
  const seen = new Set<number | string>();
  let dup = 0;
  const I = mesh.indices;
  let V = 1;
  for (let i = 0; i < I.length; i++) if (I[i] >= V) V = I[i] + 1;
  const numeric = V ** 3 <= Number.MAX_SAFE_INTEGER; // numeric keys hash ~3x faster than strings
  for (let t = 0; t < I.length; t += 3) {
    const a = I[t], b = I[t + 1], c = I[t + 2];
    const lo = Math.min(a, b, c), hi = Math.max(a, b, c), mid = a + b + c - lo - hi;
    const key = numeric ? (lo * V + mid) * V + hi : `${lo},${mid},${hi}`;
    if (seen.has(key)) dup++;
    else seen.add(key);
  }
  return dup;
}

/**
 * Joins chunk meshes and seams into one mesh, welding vertices that belong to the same leaf
 * (same vertexCells record). Positions are re-expressed relative to the first mesh's originWorld.
 *
 * `vertexTags` (optional, one entry per mesh: a number for all its vertices or one number per
 * vertex) is part of the identity: vertices weld only when tag and vertexCells both match. Grids made
 * of several integer frames use it — the cube-sphere planet tags each vertex with the face whose frame
 * its vertexCells are in (src/lod/planetSeams.ts), since two faces reuse the same coordinates.
 */
export function weldMeshes(meshes: readonly ChunkMesh[], vertexTags?: readonly (number | ArrayLike<number>)[]): ChunkMesh {
  const ids = new Map<string, number>();
  const pos: number[] = [];
  const nrm: number[] = [];
  const cells: number[] = [];
  const idx: number[] = [];
  const base = meshes.length > 0 ? meshes[0].originWorld : ([0, 0, 0] as [number, number, number]);
  for (let mi = 0; mi < meshes.length; mi++) {
    const m = meshes[mi];
    const V = m.positions.length / 3;
    const remap = new Uint32Array(V);
    const dx = m.originWorld[0] - base[0], dy = m.originWorld[1] - base[1], dz = m.originWorld[2] - base[2];
    const tags = vertexTags ? vertexTags[mi] : undefined;
    for (let v = 0; v < V; v++) {
      const c = m.vertexCells;
      const cellKey = `${c[4 * v]},${c[4 * v + 1]},${c[4 * v + 2]},${c[4 * v + 3]}`;
      const key = tags === undefined ? cellKey : `${typeof tags === 'number' ? tags : tags[v]}:${cellKey}`;
      let id = ids.get(key);
      if (id === undefined) {
        id = ids.size;
        ids.set(key, id);
        pos.push(m.positions[3 * v] + dx, m.positions[3 * v + 1] + dy, m.positions[3 * v + 2] + dz);
        nrm.push(m.normals[3 * v], m.normals[3 * v + 1], m.normals[3 * v + 2]);
        cells.push(c[4 * v], c[4 * v + 1], c[4 * v + 2], c[4 * v + 3]);
      }
      remap[v] = id;
    }
    for (let i = 0; i < m.indices.length; i++) idx.push(remap[m.indices[i]]);
  }
  return {
    positions: Float32Array.from(pos),
    normals: Float32Array.from(nrm),
    indices: Uint32Array.from(idx),
    originWorld: [base[0], base[1], base[2]],
    vertexCells: Int32Array.from(cells),
  };
}

/**
 * Triangles (by index, ascending) with an edge that no other triangle shares: where a mesh that
 * should be closed is open. Debug attribution for crack reports (validateMesh only counts them).
 */
export function openEdgeTriangles(indices: ArrayLike<number>): number[] {
  return trianglesAtEdgesUsed(indices, (n) => n === 1);
}

/** Triangles with an edge shared by more than two triangles (non-manifold: overlapping or repeated surface). */
export function nonManifoldEdgeTriangles(indices: ArrayLike<number>): number[] {
  return trianglesAtEdgesUsed(indices, (n) => n > 2);
}

/** Triangles (by index) with an edge whose triangle count `pick` accepts. */
function trianglesAtEdgesUsed(indices: ArrayLike<number>, pick: (uses: number) => boolean): number[] {
  const uses = new Map<string, number>();
  const edge = (a: number, b: number): string => (a < b ? `${a},${b}` : `${b},${a}`);
  for (let t = 0; t + 2 < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const k = edge(indices[t + e], indices[t + ((e + 1) % 3)]);
      uses.set(k, (uses.get(k) ?? 0) + 1);
    }
  }
  const out: number[] = [];
  for (let t = 0; t + 2 < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      if (pick(uses.get(edge(indices[t + e], indices[t + ((e + 1) % 3)]))!)) {
        out.push(t / 3);
        break;
      }
    }
  }
  return out;
}
