/**
 * Integer frames across cube-face edges: neighbour lookup and the frame transforms seams need.
 *
 * Each face's integer frame (gi, gj, gk) is EXTENDED past its four edges: a point with gi > S (and
 * 0 ≤ gj ≤ S) belongs to the neighbour face across the +gi edge and is found there by an integer
 * affine map p_B = R p_A + t acting on (gi, gj) (R a 2×2 signed permutation, t ∈ {0, S}²; gk, the
 * radius, is shared by all faces). The map is fixed by two facts:
 *  - lattice points ON the shared edge are the same world points in both frames (the edge's two
 *    end points map to the neighbour's corresponding corners);
 *  - stepping d units out of A across the edge is stepping d units into B, perpendicular to it.
 * With the tangent warp the perpendicular coordinate is even affine in angle across the edge
 * (s_A = 2 − s_B), but the along-edge coordinate of A's own formula bends away from B's off the edge,
 * so positions past an edge always go through B's mapping ({@link extendedToWorld}).
 *
 * Cube corners: the quadrant where gi and gj are both outside [0, S] does not exist. A radial line
 * through a cube corner has three cells around it (A's, and its two neighbours seen at
 * (S, S−1) and (S−1, S) in A's frame, for the +gi/+gj corner), not four; those two neighbours share
 * a face in the world but only the corner line in A's frame.
 */
import { checkFace, CubeSphereSpace, FACE_BASES, FACE_BASIS_STRIDE, FACE_COUNT } from './cubeSphere.ts';
import { CELL_EDGES, COMPONENT_COUNT, EDGE_COMPONENT } from '../mesher/tables.ts';
import type { BoundaryLeaves, GridMapping } from '../mesher/types.ts';
import type { ChunkAddress } from './chunkKey.ts';

/** Edges of a face: 0 = gi = 0 (−i), 1 = gi = S (+i), 2 = gj = 0 (−j), 3 = gj = S (+j). */
export const EDGE_COUNT = 4;

/**
 * An integer affine map of (gi, gj) from one face's frame into another's; gk is unchanged.
 * p_to = [r00 r01; r10 r11] p_from + [t0, t1].
 */
export interface FaceFrameTransform {
  fromFace: number;
  toFace: number;
  r00: number;
  r01: number;
  r10: number;
  r11: number;
  t0: number;
  t1: number;
}

/** Neighbour across each edge: EDGE_NEIGHBOUR_FACE[face * 4 + edge]. */
export const EDGE_NEIGHBOUR_FACE: Int8Array = new Int8Array(FACE_COUNT * EDGE_COUNT);

const transformCache = new Map<number, FaceFrameTransform[]>();

function faceWithNormal(x: number, y: number, z: number): number {
  for (let f = 0; f < FACE_COUNT; f++) {
    const b = f * FACE_BASIS_STRIDE;
    if (FACE_BASES[b] === x && FACE_BASES[b + 1] === y && FACE_BASES[b + 2] === z) return f;
  }
  throw new Error('no face with that normal');
}

for (let f = 0; f < FACE_COUNT; f++) {
  const b = f * FACE_BASIS_STRIDE;
  const u = [FACE_BASES[b + 3], FACE_BASES[b + 4], FACE_BASES[b + 5]];
  const v = [FACE_BASES[b + 6], FACE_BASES[b + 7], FACE_BASES[b + 8]];
  EDGE_NEIGHBOUR_FACE[f * 4 + 0] = faceWithNormal(-u[0], -u[1], -u[2]);
  EDGE_NEIGHBOUR_FACE[f * 4 + 1] = faceWithNormal(u[0], u[1], u[2]);
  EDGE_NEIGHBOUR_FACE[f * 4 + 2] = faceWithNormal(-v[0], -v[1], -v[2]);
  EDGE_NEIGHBOUR_FACE[f * 4 + 3] = faceWithNormal(v[0], v[1], v[2]);
}

/** Face-local unit-cube coordinates (a, b ∈ {0, 1} → gi = a S, gj = b S) of a cube vertex seen from `face`. */
function cubeVertexOnFace(face: number, x: number, y: number, z: number): [number, number] {
  const b = face * FACE_BASIS_STRIDE;
  const B = FACE_BASES;
  // A cube vertex (±1, ±1, ±1) has F·p = 1 on the faces it touches; X = U·p, Y = V·p ∈ {−1, 1}.
  const X = x * B[b + 3] + y * B[b + 4] + z * B[b + 5];
  const Y = x * B[b + 6] + y * B[b + 7] + z * B[b + 8];
  return [(X + 1) / 2, (Y + 1) / 2];
}

function cubeVertexOfFacePoint(face: number, a: number, c: number): [number, number, number] {
  const b = face * FACE_BASIS_STRIDE;
  const B = FACE_BASES;
  const X = 2 * a - 1, Y = 2 * c - 1;
  return [B[b] + X * B[b + 3] + Y * B[b + 6], B[b + 1] + X * B[b + 4] + Y * B[b + 7], B[b + 2] + X * B[b + 5] + Y * B[b + 8]];
}

/** The transform from `face`'s extended frame across `edge` into the neighbour face's frame. */
export function edgeTransform(faceUnits: number, face: number, edge: number): FaceFrameTransform {
  let list = transformCache.get(faceUnits);
  if (!list) {
    list = buildEdgeTransforms(faceUnits);
    transformCache.set(faceUnits, list);
  }
  return list[face * 4 + edge];
}

function buildEdgeTransforms(S: number): FaceFrameTransform[] {
  const out: FaceFrameTransform[] = [];
  for (let f = 0; f < FACE_COUNT; f++) {
    for (let e = 0; e < EDGE_COUNT; e++) {
      const g = EDGE_NEIGHBOUR_FACE[f * 4 + e];
      // Edge end points in A (unit coordinates) and A's outward direction.
      const axis = e >> 1; // 0: the edge is at fixed gi, 1: at fixed gj
      const side = e & 1;
      const p1: [number, number] = axis === 0 ? [side, 0] : [0, side];
      const p2: [number, number] = axis === 0 ? [side, 1] : [1, side];
      const outA: [number, number] = axis === 0 ? [side ? 1 : -1, 0] : [0, side ? 1 : -1];
      const tanA: [number, number] = [p2[0] - p1[0], p2[1] - p1[1]];
      const q1 = cubeVertexOnFace(g, ...cubeVertexOfFacePoint(f, p1[0], p1[1]));
      const q2 = cubeVertexOnFace(g, ...cubeVertexOfFacePoint(f, p2[0], p2[1]));
      const tanB: [number, number] = [q2[0] - q1[0], q2[1] - q1[1]];
      // B's inward normal at the shared edge: the coordinate that is constant along it.
      const inB: [number, number] = tanB[0] === 0 ? [q1[0] === 0 ? 1 : -1, 0] : [0, q1[1] === 0 ? 1 : -1];
      // R [outA tanA] = [inB tanB]; [outA tanA] is orthonormal so its inverse is its transpose.
      const r00 = inB[0] * outA[0] + tanB[0] * tanA[0];
      const r01 = inB[0] * outA[1] + tanB[0] * tanA[1];
      const r10 = inB[1] * outA[0] + tanB[1] * tanA[0];
      const r11 = inB[1] * outA[1] + tanB[1] * tanA[1];
      const t0 = S * (q1[0] - (r00 * p1[0] + r01 * p1[1]));
      const t1 = S * (q1[1] - (r10 * p1[0] + r11 * p1[1]));
      out.push({ fromFace: f, toFace: g, r00, r01, r10, r11, t0, t1 });
    }
  }
  return out;
}

/** The inverse of a frame transform. */
export function invertTransform(m: FaceFrameTransform): FaceFrameTransform {
  // R is a signed permutation: R^-1 = Rᵀ; t' = −Rᵀ t.
  return {
    fromFace: m.toFace,
    toFace: m.fromFace,
    r00: m.r00,
    r01: m.r10,
    r10: m.r01,
    r11: m.r11,
    t0: -(m.r00 * m.t0 + m.r10 * m.t1),
    t1: -(m.r01 * m.t0 + m.r11 * m.t1),
  };
}

/**
 * The transform that expresses face `fromFace`'s points in face `toFace`'s extended frame, when the two
 * faces share an edge; identity when they are the same face; null for opposite faces (they share
 * nothing). This is what seams use to bring a neighbour-face chunk's boundary leaves into the owner's
 * frame (issue 10).
 */
export function frameTransform(faceUnits: number, fromFace: number, toFace: number): FaceFrameTransform | null {
  checkFace(fromFace);
  checkFace(toFace);
  if (fromFace === toFace) return { fromFace, toFace, r00: 1, r01: 0, r10: 0, r11: 1, t0: 0, t1: 0 };
  for (let e = 0; e < EDGE_COUNT; e++) {
    if (EDGE_NEIGHBOUR_FACE[toFace * 4 + e] === fromFace) return invertTransform(edgeTransform(faceUnits, toFace, e));
  }
  return null;
}

/** Applies a transform to point (gi, gj, gk) (any numbers, fractional allowed) into out[0..2]. */
export function transformPoint(m: FaceFrameTransform, gi: number, gj: number, gk: number, out: Float64Array | number[] | Int32Array): void {
  const x = m.r00 * gi + m.r01 * gj + m.t0;
  const y = m.r10 * gi + m.r11 * gj + m.t1;
  out[0] = x;
  out[1] = y;
  out[2] = gk;
}

/** Applies a transform to a direction or grid-space gradient (no translation) in place. */
export function transformVector(m: FaceFrameTransform, v: Float64Array | number[]): void {
  const x = m.r00 * v[0] + m.r01 * v[1];
  const y = m.r10 * v[0] + m.r11 * v[1];
  v[0] = x;
  v[1] = y;
}

/**
 * Transforms a cube cell/leaf given by its minimum corner and size (finest units) into another frame:
 * writes the new minimum corner into out[0..2]. The size is unchanged (R is a signed permutation).
 */
export function transformCell(m: FaceFrameTransform, gi: number, gj: number, gk: number, size: number, out: Float64Array | number[] | Int32Array): void {
  const x0 = m.r00 * gi + m.r01 * gj + m.t0, y0 = m.r10 * gi + m.r11 * gj + m.t1;
  const x1 = m.r00 * (gi + size) + m.r01 * (gj + size) + m.t0, y1 = m.r10 * (gi + size) + m.r11 * (gj + size) + m.t1;
  out[0] = Math.min(x0, x1);
  out[1] = Math.min(y0, y1);
  out[2] = gk;
}

/**
 * Which edge of the face a point of the extended frame lies beyond: −1 inside [0, S]² (edges
 * included), 0..3 beyond exactly one edge, 4 in a missing corner quadrant (beyond two edges).
 */
export function edgeBeyond(faceUnits: number, gi: number, gj: number): number {
  const oi = gi < 0 ? 0 : gi > faceUnits ? 1 : -1;
  const oj = gj < 0 ? 2 : gj > faceUnits ? 3 : -1;
  if (oi >= 0 && oj >= 0) return 4;
  return oi >= 0 ? oi : oj;
}

const scratchP = new Float64Array(3);

/**
 * The transform from `face`'s extended frame into the frame of the face beyond the edge that
 * (gi, gj) lies past, or null when the point is on `face`. Throws in a missing corner quadrant.
 */
function beyondEdgeTransform(space: CubeSphereSpace, face: number, gi: number, gj: number): FaceFrameTransform | null {
  const e = edgeBeyond(space.faceUnits, gi, gj);
  if (e < 0) return null;
  if (e === 4) throw new RangeError(`point (${gi}, ${gj}) of face ${face} lies beyond a cube corner`);
  return edgeTransform(space.faceUnits, face, e);
}

/**
 * World position of a point in `face`'s EXTENDED frame: on the face itself through its own mapping,
 * beyond one edge through the neighbour face's mapping. Throws in a missing corner quadrant. Continuous
 * across the edges (both sides agree on the edge lines exactly, up to rounding).
 */
export function extendedToWorld(space: CubeSphereSpace, face: number, gi: number, gj: number, gk: number, out: Float64Array | number[]): void {
  const m = beyondEdgeTransform(space, face, gi, gj);
  if (m === null) {
    space.toWorld(face, gi, gj, gk, out);
    return;
  }
  transformPoint(m, gi, gj, gk, scratchP);
  space.toWorld(m.toFace, scratchP[0], scratchP[1], scratchP[2], out);
}

/**
 * A {@link GridMapping} in `face`'s extended frame (seams across face edges use it: their leaves from
 * the neighbour face are transformed into this frame, and their vertices map back through the
 * neighbour's own mapping, so seam and chunk vertices agree exactly).
 */
export function extendedFaceMapping(space: CubeSphereSpace, face: number): GridMapping {
  checkFace(face);
  const p = new Float64Array(3);
  return {
    toWorld: (gi, gj, gk, out) => extendedToWorld(space, face, gi, gj, gk, out),
    normalToWorld: (gi, gj, gk, n) => {
      const m = beyondEdgeTransform(space, face, gi, gj);
      if (m === null) {
        space.normalToWorld(face, gi, gj, gk, n);
        return;
      }
      transformPoint(m, gi, gj, gk, p);
      // ∂f/∂p_A = Rᵀ ∂f/∂p_B, so n_B = R n_A (R orthogonal).
      transformVector(m, n);
      space.normalToWorld(m.toFace, p[0], p[1], p[2], n);
    },
  };
}

/**
 * The box of size `size` whose minimum corner is (gi, gj, gk) + (di, dj, dk) · size in `face`'s frame,
 * expressed in the frame of the face that holds it. Writes [face, gi, gj, gk] into out and returns
 * true, or returns false when there is no such box: outside the radial range [0, S), or in a missing
 * quadrant beyond a cube corner. Boxes aligned to their size stay aligned (S is a multiple of size).
 */
export function neighbourBox(
  space: CubeSphereSpace, face: number, gi: number, gj: number, gk: number, size: number,
  di: number, dj: number, dk: number, out: Float64Array | number[] | Int32Array,
): boolean {
  const S = space.faceUnits;
  const x = gi + di * size, y = gj + dj * size, z = gk + dk * size;
  if (z < 0 || z + size > S) return false;
  const oi = x < 0 ? 0 : x + size > S ? 1 : -1;
  const oj = y < 0 ? 2 : y + size > S ? 3 : -1;
  if (oi >= 0 && oj >= 0) return false;
  const e = oi >= 0 ? oi : oj;
  if (e < 0) {
    out[0] = face; out[1] = x; out[2] = y; out[3] = z;
    return true;
  }
  const m = edgeTransform(S, face, e);
  transformCell(m, x, y, z, size, scratchP);
  out[0] = m.toFace; out[1] = scratchP[0]; out[2] = scratchP[1]; out[3] = scratchP[2];
  return true;
}

/**
 * Every chunk of the same level that touches chunk `a` (shares a face, an edge or a corner in the
 * world), across face edges and cube corners, each once, in canonical order of offsets. Chunks beyond
 * the radial range are left out.
 */
export function touchingChunks(space: CubeSphereSpace, a: ChunkAddress): ChunkAddress[] {
  const U = space.chunkUnits(a.level);
  const out: ChunkAddress[] = [];
  const n = space.faceUnits / U;
  // Only chunks on a face's rim can reach the same neighbour twice (through two faces).
  const rim = a.ci === 0 || a.cj === 0 || a.ci === n - 1 || a.cj === n - 1;
  const seen = rim ? new Set<string>() : null;
  const box = scratchBox;
  for (let dk = -1; dk <= 1; dk++)
    for (let dj = -1; dj <= 1; dj++)
      for (let di = -1; di <= 1; di++) {
        if (di === 0 && dj === 0 && dk === 0) continue;
        if (!neighbourBox(space, a.face, a.ci * U, a.cj * U, a.ck * U, U, di, dj, dk, box)) continue;
        const c: ChunkAddress = { face: box[0], level: a.level, ci: box[1] / U, cj: box[2] / U, ck: box[3] / U };
        if (seen) {
          const k = `${c.face}/${c.ci}/${c.cj}/${c.ck}`;
          if (seen.has(k) || (c.face === a.face && c.ci === a.ci && c.cj === a.cj && c.ck === a.ck)) continue;
          seen.add(k);
        }
        out.push(c);
      }
  return out;
}

const scratchBox = new Float64Array(4);

/** The chunk across one of the 6 faces of chunk `a` (dir: 0 −i, 1 +i, 2 −j, 3 +j, 4 −k, 5 +k), or null. */
export function faceNeighbourChunk(space: CubeSphereSpace, a: ChunkAddress, dir: number): ChunkAddress | null {
  const U = space.chunkUnits(a.level);
  const box = new Float64Array(4);
  const s = dir & 1 ? 1 : -1;
  const axis = dir >> 1;
  if (!neighbourBox(space, a.face, a.ci * U, a.cj * U, a.ck * U, U, axis === 0 ? s : 0, axis === 1 ? s : 0, axis === 2 ? s : 0, box)) return null;
  return { face: box[0], level: a.level, ci: box[1] / U, cj: box[2] / U, ck: box[3] / U };
}

/**
 * A chunk's boundary leaves expressed in another face's frame (issue 10: seams across a face edge are
 * built in the owner's frame with {@link extendedFaceMapping}). Cells get their new minimum corners,
 * the corner sign masks are permuted to the new axes, vertices are transformed (NaN stays NaN);
 * normals are world vectors and are copied unchanged. `boxGrid` is the transformed box. Returns new
 * arrays; the input is not modified.
 */
export function transformBoundaryLeaves(leaves: BoundaryLeaves, m: FaceFrameTransform): BoundaryLeaves {
  const n = leaves.count;
  const cells = new Int32Array(4 * n);
  const corners = new Uint8Array(n);
  const vertexGrid = new Float64Array(3 * n);
  const p = scratchT;
  // Corner permutation: source corner c sits at offset (c&1, c>>1&1) in (gi, gj); in the target frame
  // the same point sits at R·offset relative to the transformed unit cell's minimum corner.
  const perm = new Uint8Array(8);
  const minX = Math.min(0, m.r00, m.r01, m.r00 + m.r01), minY = Math.min(0, m.r10, m.r11, m.r10 + m.r11);
  for (let c = 0; c < 8; c++) {
    const a = c & 1, b = (c >> 1) & 1;
    const x = m.r00 * a + m.r01 * b - minX, y = m.r10 * a + m.r11 * b - minY;
    perm[c] = x | (y << 1) | (c & 4);
  }
  // Destination of each record. A cell with several surface pieces has one record per piece, stored
  // in the order of its component numbers, and EDGE_COMPONENT numbers pieces by their first cell-local
  // edge — which depends on the frame. buildSeam picks a piece's record by its number in the seam's
  // frame, so the records are reordered to the target numbering; `component` keeps the SOURCE number,
  // the vertex's identity in the chunk's own mesh. (Saw boundary and non-manifold edges in threes at
  // face edges on rough terrain before this: seams joined the wrong piece of a two-piece cell.)
  const dest = new Int32Array(n);
  const masks = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    let mask = 0;
    for (let c = 0; c < 8; c++) if (leaves.corners[i] & (1 << c)) mask |= 1 << perm[c];
    masks[i] = mask;
    dest[i] = i;
  }
  for (let i = 0; i < n;) {
    const src = leaves.corners[i];
    const pieces = COMPONENT_COUNT[src];
    if (pieces <= 1) { i++; continue; }
    for (let r = i; r < i + pieces && r < n; r++) {
      const c = leaves.component[r];
      let e = 0;
      while (e < 12 && EDGE_COMPONENT[src * 12 + e] !== c) e++;
      const e2 = edgeBetween(perm[CELL_EDGES[2 * e]], perm[CELL_EDGES[2 * e + 1]]);
      dest[r] = i + EDGE_COMPONENT[masks[i] * 12 + e2];
    }
    i += pieces;
  }
  const normals = new Float32Array(3 * n);
  const component = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const d = dest[i];
    const size = leaves.cells[4 * i + 3] & CELL_SIZE_MASK;
    transformCell(m, leaves.cells[4 * i], leaves.cells[4 * i + 1], leaves.cells[4 * i + 2], size, p);
    cells[4 * d] = p[0];
    cells[4 * d + 1] = p[1];
    cells[4 * d + 2] = p[2];
    cells[4 * d + 3] = leaves.cells[4 * i + 3];
    corners[d] = masks[i];
    component[d] = leaves.component[i];
    transformPoint(m, leaves.vertexGrid[3 * i], leaves.vertexGrid[3 * i + 1], leaves.vertexGrid[3 * i + 2], p);
    vertexGrid[3 * d] = p[0];
    vertexGrid[3 * d + 1] = p[1];
    vertexGrid[3 * d + 2] = p[2];
    normals[3 * d] = leaves.normals[3 * i];
    normals[3 * d + 1] = leaves.normals[3 * i + 1];
    normals[3 * d + 2] = leaves.normals[3 * i + 2];
  }
  const [x0, y0, z0, x1, y1, z1] = leaves.boxGrid;
  const q = [0, 0, 0];
  transformPoint(m, x0, y0, z0, p);
  transformPoint(m, x1, y1, z1, q);
  return {
    chunkId: leaves.chunkId,
    boxGrid: [Math.min(p[0], q[0]), Math.min(p[1], q[1]), z0, Math.max(p[0], q[0]), Math.max(p[1], q[1]), z1],
    count: n,
    cells,
    corners,
    component,
    vertexGrid,
    normals,
  };
}

/**
 * Low bits of a boundary-leaf size word that hold the size; the mesher keeps the surface component in
 * the high bits of vertexCells' size word (VERTEX_COMPONENT_SHIFT = 26); masking here is harmless for
 * BoundaryLeaves.cells, whose size word is the plain size.
 */
const CELL_SIZE_MASK = (1 << 26) - 1;

/** Cell-local index of the edge between corners a and b. */
function edgeBetween(a: number, b: number): number {
  for (let e = 0; e < 12; e++) {
    const c0 = CELL_EDGES[2 * e], c1 = CELL_EDGES[2 * e + 1];
    if ((c0 === a && c1 === b) || (c0 === b && c1 === a)) return e;
  }
  return -1;
}
const scratchT = new Float64Array(3);
