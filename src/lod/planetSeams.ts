/**
 * Seams for the cube-sphere planet (issue 10): which chunk owns which seam edges, which chunks a seam
 * stitches, and building a seam across face edges and cube corners. What to rebuild when the LOD
 * configuration changes is lodUpdate.ts; its 2:1 balance, lodBalance.ts. Pure TypeScript, no
 * three.js/DOM/WebGL. See docs/lod.md, "Seams".
 *
 * Ownership rule (each seam edge covered exactly once). Every chunk owns ONE seam: the minimal
 * sign-changing edges that are not inside one chunk and whose MIDPOINT lies in the chunk's owner box,
 * in its face's frame. The owner box is the chunk's half-open box [lo, hi), except on the face's
 * edges: a face-edge plane belongs to the LOWER face index of the two faces sharing it (closed box
 * side, `hi = S + ¼`, on that face; open side, `lo = ¼`, on the other), so a cube-corner line belongs
 * to the lowest of its three faces. Within a face the half-open boxes tile [0, S]² × [0, S); points on
 * a face edge are on exactly one face's closed side; so every edge midpoint has exactly one owner.
 *
 * Stitched chunks: the cells around an owned edge touch its midpoint, so they belong to chunks whose
 * CLOSED box meets the owner box: the owner and those of its touching chunks (any level) on its low
 * sides (and beyond a closed face edge). Their boundary leaves are brought into the owner's extended
 * frame (`transformBoundaryLeaves`), positions go through `extendedFaceMapping(owner face)`, and the
 * four radial lines through the owner face's corners are declared three-cell lines (`buildSeam`'s
 * `threeCellLines`): around a cube-corner line, the owner's cell and the two neighbour faces' cells,
 * with the quadrant beyond both edges absent.
 *
 * Vertex identity: a seam vertex's `vertexCells` come out in the owner's extended frame; they are
 * moved back into the frame of the face the leaf lives on and the face is returned per vertex
 * (`vertexFaces`), so (face, vertexCells) names the same leaf in chunk meshes and seams
 * (`weldMeshes(meshes, tags)`).
 */
import { buildSeam } from '../mesher/seam.ts';
import { VERTEX_COMPONENT_SHIFT } from '../mesher/tables.ts';
import type { BoundaryLeaves, ChunkMesh, CoarserNeighbour } from '../mesher/types.ts';
import type { ChunkAddress, ChunkKey } from './chunkKey.ts';
import { childAddress, chunkKey, compareChunks, keyOf } from './chunkKey.ts';
import type { CubeSphereSpace } from './cubeSphere.ts';
import {
  EDGE_NEIGHBOUR_FACE, edgeBeyond, edgeTransform, extendedFaceMapping, frameTransform, transformBoundaryLeaves,
  transformCell, transformPoint, touchingChunks,
} from './faceFrames.ts';

/** A box in one face's (extended) integer frame: [x0, y0, z0, x1, y1, z1). */
export type GridBox = [number, number, number, number, number, number];

/**
 * One consistent snapshot of a LOD configuration: the chunk leaves tiling the planet's shell (2:1
 * balanced across faces, edges and cube corners) and, per chunk, the chunks touching it and the
 * chunks its seam stitches. Everything a seam or a restricted chunk mesh depends on is read from one
 * snapshot, so a seam never mixes neighbour levels of two frames.
 */
export interface PlanetLod {
  space: CubeSphereSpace;
  /** Canonical order ({@link compareChunks}). */
  leaves: readonly ChunkAddress[];
  keys: readonly ChunkKey[];
  byKey: ReadonlyMap<ChunkKey, ChunkAddress>;
  /** Chunks of the configuration touching each chunk (face, edge or corner contact; any level), canonical order. */
  touching: ReadonlyMap<ChunkKey, readonly ChunkKey[]>;
  /** Chunks (other than the owner) whose leaves the owner's seam stitches, canonical order. */
  seamStitches: ReadonlyMap<ChunkKey, readonly ChunkKey[]>;
  /** Reverse of seamStitches plus the owner itself: the seams that read each chunk's boundary leaves. */
  seamsReading: ReadonlyMap<ChunkKey, readonly ChunkKey[]>;
}

const scratchP = new Float64Array(3);
const scratchQ = new Float64Array(3);

/**
 * Chunk `a`'s box expressed in `face`'s extended frame, written into out. False when `a` lies on the
 * face opposite `face` (no common frame; such chunks never touch a chunk of `face`).
 */
export function chunkBoxInFrame(space: CubeSphereSpace, a: ChunkAddress, face: number, out: GridBox | number[]): boolean {
  const U = space.chunkUnits(a.level);
  const m = frameTransform(space.faceUnits, a.face, face);
  if (!m) return false;
  transformPoint(m, a.ci * U, a.cj * U, a.ck * U, scratchP);
  transformPoint(m, (a.ci + 1) * U, (a.cj + 1) * U, (a.ck + 1) * U, scratchQ);
  out[0] = Math.min(scratchP[0], scratchQ[0]); out[1] = Math.min(scratchP[1], scratchQ[1]); out[2] = a.ck * U;
  out[3] = Math.max(scratchP[0], scratchQ[0]); out[4] = Math.max(scratchP[1], scratchQ[1]); out[5] = (a.ck + 1) * U;
  return true;
}

/**
 * Whether a record of chunk `part`'s boundary leaves (its cell: min corner and size, in `part`'s
 * face frame) is one the seam owned by `owner` can read: see {@link seamPartLeaves}. Unpacking or
 * synthesising a part's leaves through it gives seamPartLeaves' records, in the same order.
 */
export type SeamRecordFilter = (x: number, y: number, z: number, size: number) => boolean;

export function seamRecordFilter(space: CubeSphereSpace, owner: ChunkAddress, part: ChunkAddress): SeamRecordFilter {
  const box: GridBox = [0, 0, 0, 0, 0, 0];
  if (!chunkBoxInFrame(space, owner, part.face, box)) throw new Error(`seamPartLeaves: ${keyOf(part)} cannot touch ${keyOf(owner)}`);
  const x0 = box[0] - 1, y0 = box[1] - 1, z0 = box[2] - 1, x1 = box[3] + 1, y1 = box[4] + 1, z1 = box[5] + 1;
  // The owner's own records: a seam edge has cells of another chunk around it, so its midpoint is on
  // the owner's boundary, on a side the owner box holds (its lower sides, bar a face edge left to the
  // other face; its upper sides only at a face edge it takes).
  const own = keyOf(owner) === keyOf(part) ? seamOwnerBox(space, owner) : null;
  const lo = [0, 0, 0];
  return (x, y, z, size) => {
    if (!(x <= x1 && x + size >= x0 && y <= y1 && y + size >= y0 && z <= z1 && z + size >= z0)) return false;
    if (!own) return true;
    lo[0] = x; lo[1] = y; lo[2] = z;
    for (let axis = 0; axis < 3; axis++) {
      if ((lo[axis] === box[axis] && own[axis] <= box[axis]) || (lo[axis] + size === box[axis + 3] && own[axis + 3] > box[axis + 3])) return true;
    }
    return false;
  };
}

/**
 * Copies of the records of `leaves` (chunk `part`'s boundary leaves, in its own face frame) that the
 * seam owned by `owner` can read: those whose closed cell touches the owner's box (grown by one unit,
 * for the owner box's quarter-unit face-edge sides). buildSeam keeps an edge only when its midpoint
 * lies in the owner box and the cells around an edge all contain its midpoint, so no other record
 * takes part and the seam built from these copies is the same (test/jobs/planetSeamJob.test.ts);
 * of the owner's own records, only those on the sides its owner box holds.
 * A face neighbour keeps about a sixth of its records, an edge or corner neighbour a handful: what
 * the renderer copies and transfers per seam job, instead of every chunk's whole boundary.
 */
export function seamPartLeaves(space: CubeSphereSpace, owner: ChunkAddress, part: ChunkAddress, leaves: BoundaryLeaves): BoundaryLeaves {
  const readable = seamRecordFilter(space, owner, part);
  const c = leaves.cells;
  const keep = new Int32Array(leaves.count);
  let n = 0;
  for (let i = 0; i < leaves.count; i++) if (readable(c[4 * i], c[4 * i + 1], c[4 * i + 2], c[4 * i + 3])) keep[n++] = i;
  const cells = new Int32Array(4 * n), corners = new Uint8Array(n), component = new Uint8Array(n);
  const vertexGrid = new Float64Array(3 * n), normals = new Float32Array(3 * n);
  const vg = leaves.vertexGrid, nm = leaves.normals;
  for (let j = 0; j < n; j++) {
    const i = keep[j];
    cells[4 * j] = c[4 * i]; cells[4 * j + 1] = c[4 * i + 1]; cells[4 * j + 2] = c[4 * i + 2]; cells[4 * j + 3] = c[4 * i + 3];
    corners[j] = leaves.corners[i];
    component[j] = leaves.component[i];
    vertexGrid[3 * j] = vg[3 * i]; vertexGrid[3 * j + 1] = vg[3 * i + 1]; vertexGrid[3 * j + 2] = vg[3 * i + 2];
    normals[3 * j] = nm[3 * i]; normals[3 * j + 1] = nm[3 * i + 1]; normals[3 * j + 2] = nm[3 * i + 2];
  }
  return { chunkId: leaves.chunkId, boxGrid: [...leaves.boxGrid], count: n, cells, corners, component, vertexGrid, normals };
}

/**
 * The owner box of chunk `a` in its face's frame (module comment): its half-open box, with a face-edge
 * side closed (hi = S + ¼) when `a`'s face has the lower index of the two faces sharing that edge and
 * opened (lo = ¼) when it has the higher one. Midpoints of seam edges are multiples of ½, so the
 * quarter only decides the edge plane itself.
 */
export function seamOwnerBox(space: CubeSphereSpace, a: ChunkAddress): GridBox {
  const U = space.chunkUnits(a.level);
  const S = space.faceUnits;
  const box: GridBox = [a.ci * U, a.cj * U, a.ck * U, (a.ci + 1) * U, (a.cj + 1) * U, (a.ck + 1) * U];
  for (let axis = 0; axis < 2; axis++) {
    const lowNeighbour = EDGE_NEIGHBOUR_FACE[a.face * 4 + 2 * axis];
    const highNeighbour = EDGE_NEIGHBOUR_FACE[a.face * 4 + 2 * axis + 1];
    if (box[axis] === 0 && lowNeighbour < a.face) box[axis] = 0.25;
    if (box[axis + 3] === S && a.face < highNeighbour) box[axis + 3] = S + 0.25;
  }
  return box;
}

/**
 * The radial lines through the four corners of a face, as `buildSeam` three-cell lines: in the face's
 * extended frame the quadrant beyond both edges of a corner does not exist (docs/lod.md).
 */
export function faceCornerLines(space: CubeSphereSpace): [number, number, number, number][] {
  const S = space.faceUnits;
  return [[0, 0, -1, -1], [S, 0, 1, -1], [0, S, -1, 1], [S, S, 1, 1]];
}

/** Closed boxes [x0, y0, z0, x1, y1, z1] that meet (touching counts). */
export function boxesTouch(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  return a[0] <= b[3] && b[0] <= a[3] && a[1] <= b[4] && b[1] <= a[4] && a[2] <= b[5] && b[2] <= a[5];
}

/**
 * What {@link planetLod} reads of one chunk's surroundings, from its address alone: the keys of its
 * ancestors (none may be in the configuration with it), and every chunk that can touch it in a
 * balanced configuration — same level, one coarser (the parent of a same-level toucher contains a
 * touching point), one finer (a finer toucher touches one of its children) — in canonical order,
 * each flagged when the chunk's seam would stitch it (its closed box meets the owner box).
 */
export interface ChunkNeighbourhood {
  ancestors: readonly ChunkKey[];
  candidates: readonly ChunkKey[];
  /** 1 where `candidates[i]` is stitched by this chunk's seam when it is in the configuration. */
  stitch: Uint8Array;
  /** Its same-level touchers' keys, in `touchingChunks` order, and each one's parent key ('' at the root level). */
  touchers: readonly ChunkKey[];
  toucherParents: readonly ChunkKey[];
}

export function chunkNeighbourhood(space: CubeSphereSpace, a: ChunkAddress, intern: (key: ChunkKey) => ChunkKey = (k) => k): ChunkNeighbourhood {
  const self = keyOf(a);
  const ancestors: ChunkKey[] = [];
  let { ci, cj, ck } = a;
  for (let l = a.level + 1; l <= space.levels; l++) {
    ci >>= 1; cj >>= 1; ck >>= 1;
    ancestors.push(intern(chunkKey(a.face, l, ci, cj, ck)));
  }
  const found = new Map<ChunkKey, ChunkAddress>();
  const consider = (c: ChunkAddress): void => {
    const k = keyOf(c);
    if (k !== self) found.set(k, c);
  };
  const touchers: ChunkKey[] = [], toucherParents: ChunkKey[] = [];
  for (const t of touchingChunks(space, a)) {
    consider(t);
    touchers.push(intern(keyOf(t)));
    toucherParents.push(t.level < space.levels ? intern(chunkKey(t.face, t.level + 1, t.ci >> 1, t.cj >> 1, t.ck >> 1)) : '');
    if (t.level < space.levels) consider({ face: t.face, level: t.level + 1, ci: t.ci >> 1, cj: t.cj >> 1, ck: t.ck >> 1 });
  }
  if (a.level > 0) {
    for (let c = 0; c < 8; c++) for (const t of touchingChunks(space, childAddress(a, c))) consider(t);
  }
  const list = [...found.values()].sort(compareChunks);
  // Seam stitches: touchers whose closed box meets the owner box (module comment).
  const own = seamOwnerBox(space, a);
  const box: GridBox = [0, 0, 0, 0, 0, 0];
  const stitch = new Uint8Array(list.length);
  list.forEach((t, j) => {
    if (!chunkBoxInFrame(space, t, a.face, box)) return;
    if (box[0] < own[3] && box[3] >= own[0] && box[1] < own[4] && box[4] >= own[1] && box[2] < own[5] && box[5] >= own[2]) stitch[j] = 1;
  });
  return { ancestors, candidates: list.map((t) => intern(keyOf(t))), stitch, touchers, toucherParents };
}

/**
 * {@link chunkNeighbourhood}s kept between configurations: the LOD worker indexes a new drawn set
 * every time it changes (thousands of chunks near a big planet's ground, most of them drawn
 * before), and a chunk's neighbourhood — ~200 touching addresses and their keys — was 80 % of it.
 * Its keys are interned: neighbouring chunks list the same ones, and as separate strings a
 * neighbourhood took 18 kB (68 MB for planet 2's 3,765 chunks at 400 m), interned ~3 kB (12 MB).
 * Bounded: past `maxEntries` (10,000: ~30 MB; a drawn set larger than that refills it each answer,
 * as slow as no cache) it starts again empty.
 */
export class NeighbourhoodCache {
  private readonly entries = new Map<ChunkKey, ChunkNeighbourhood>();
  private readonly keys = new Map<ChunkKey, ChunkKey>();
  readonly intern = (key: ChunkKey): ChunkKey => {
    const k = this.keys.get(key);
    if (k !== undefined) return k;
    this.keys.set(key, key);
    return key;
  };

  constructor(readonly space: CubeSphereSpace, readonly maxEntries = 10_000) {}

  get(a: ChunkAddress, key: ChunkKey): ChunkNeighbourhood {
    let n = this.entries.get(key);
    if (!n) {
      if (this.entries.size >= this.maxEntries) this.clear();
      n = chunkNeighbourhood(this.space, a, this.intern);
      this.entries.set(key, n);
    }
    return n;
  }

  clear(): void {
    this.entries.clear();
    this.keys.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * Indexes a LOD configuration (see {@link PlanetLod}). Throws when two chunks overlap. Does not check
 * coverage or balance: {@link checkLodConfiguration} does. `cache` (for `space`) keeps what each
 * chunk's address alone decides between calls; the result is the same with or without it.
 */
export function planetLod(space: CubeSphereSpace, leaves: readonly ChunkAddress[], cache?: NeighbourhoodCache): PlanetLod {
  if (cache && cache.space !== space) throw new Error('planetLod: the neighbourhood cache is for another chunk space');
  const sorted = [...leaves].sort(compareChunks);
  const keys = sorted.map(keyOf);
  const byKey = new Map<ChunkKey, ChunkAddress>();
  sorted.forEach((a, i) => {
    if (byKey.has(keys[i])) throw new Error(`planetLod: chunk ${keys[i]} listed twice`);
    byKey.set(keys[i], a);
  });
  const hoods = sorted.map((a, i) => (cache ? cache.get(a, keys[i]) : chunkNeighbourhood(space, a)));
  hoods.forEach((n, i) => {
    for (const k of n.ancestors) if (byKey.has(k)) throw new Error(`planetLod: chunk ${keys[i]} overlaps its ancestor ${k}`);
  });
  const touching = new Map<ChunkKey, ChunkKey[]>();
  const seamStitches = new Map<ChunkKey, ChunkKey[]>();
  const seamsReading = new Map<ChunkKey, ChunkKey[]>();
  for (const k of keys) seamsReading.set(k, [k]);
  for (let i = 0; i < sorted.length; i++) {
    const { candidates, stitch } = hoods[i];
    const list: ChunkKey[] = [];
    const stitches: ChunkKey[] = [];
    for (let j = 0; j < candidates.length; j++) {
      const t = candidates[j];
      if (!byKey.has(t)) continue;
      list.push(t);
      if (stitch[j]) {
        stitches.push(t);
        seamsReading.get(t)!.push(keys[i]);
      }
    }
    touching.set(keys[i], list);
    seamStitches.set(keys[i], stitches);
  }
  for (const list of seamsReading.values()) list.sort((x, y) => compareChunks(byKey.get(x)!, byKey.get(y)!));
  return { space, leaves: sorted, keys, byKey, touching, seamStitches, seamsReading };
}

/**
 * The mesher's `coarserNeighbours` for chunk `key` in this snapshot: every touching chunk one level
 * coarser, its box in the chunk's own face frame (across a face edge through the frame transform).
 */
export function coarserNeighboursOf(lod: PlanetLod, key: ChunkKey): CoarserNeighbour[] {
  const a = lod.byKey.get(key);
  if (!a) throw new Error(`coarserNeighboursOf: ${key} is not in the configuration`);
  const coarser: ChunkAddress[] = [];
  for (const tk of lod.touching.get(key)!) {
    const t = lod.byKey.get(tk)!;
    if (t.level === a.level + 1) coarser.push(t);
  }
  return coarserNeighbourBoxes(lod.space, a, coarser);
}

/**
 * The mesher's `coarserNeighbours` for chunk `a` given the touching chunks one level coarser (any
 * faces): their boxes in `a`'s face frame. The streaming renderer's workers get the coarser chunks'
 * keys from the LOD snapshot and call this (no whole {@link PlanetLod} in a chunk job).
 */
export function coarserNeighbourBoxes(space: CubeSphereSpace, a: ChunkAddress, coarser: readonly ChunkAddress[]): CoarserNeighbour[] {
  const out: CoarserNeighbour[] = [];
  for (const t of coarser) {
    if (t.level !== a.level + 1) throw new Error(`coarserNeighbourBoxes: ${keyOf(t)} is not one level coarser than ${keyOf(a)}`);
    const box: GridBox = [0, 0, 0, 0, 0, 0];
    if (!chunkBoxInFrame(space, t, a.face, box)) continue;
    out.push({ boxGrid: box, level: t.level });
  }
  return out;
}

/**
 * The smallest snapshot {@link buildPlanetSeam} needs for one seam: the owner and the chunks it
 * stitches (as listed by the full snapshot's `seamStitches`). A seam job in a worker builds from this
 * instead of indexing the whole configuration again.
 */
export function seamSnapshot(space: CubeSphereSpace, owner: ChunkAddress, stitches: readonly ChunkAddress[]): PlanetLod {
  const leaves = [owner, ...stitches];
  const keys = leaves.map(keyOf);
  const byKey = new Map<ChunkKey, ChunkAddress>();
  leaves.forEach((a, i) => byKey.set(keys[i], a));
  const stitchKeys = keys.slice(1);
  return {
    space, leaves, keys, byKey,
    touching: new Map([[keys[0], stitchKeys]]),
    seamStitches: new Map([[keys[0], stitchKeys]]),
    seamsReading: new Map(),
  };
}

/** A seam mesh with its provenance. */
export interface PlanetSeam {
  /** The chunk owning the seam (its key is the seam's key). */
  owner: ChunkKey;
  /** The other chunks whose boundary leaves it stitches (from the snapshot it was built from). */
  stitches: readonly ChunkKey[];
  /** Positions relative to `mesh.originWorld` (the owner's origin); `vertexCells` in each vertex's own face frame. */
  mesh: ChunkMesh;
  /** Face of each vertex's leaf: with vertexCells, the vertex's identity (weld tag). */
  vertexFaces: Uint8Array;
}

/**
 * Boundary leaves moved into other faces' frames, by the source leaves' identity and target face: reuse
 * across the seams of one snapshot and across snapshots while a chunk's leaves stay the same.
 */
export type TransformedLeavesCache = WeakMap<BoundaryLeaves, (BoundaryLeaves | undefined)[]>;

const CELL_SIZE_MASK = (1 << VERTEX_COMPONENT_SHIFT) - 1;

/**
 * Builds the seam owned by chunk `ownerKey` from the current boundary leaves of the owner and the
 * chunks it stitches (`boundaryOf(key)`, each in its own face frame, as `meshChunk` returned them).
 * Throws when a stitched chunk's leaves are missing: a seam built from a partial set would leave a
 * crack, so the caller must wait until every stitched chunk is meshed.
 */
export function buildPlanetSeam(
  lod: PlanetLod, ownerKey: ChunkKey, boundaryOf: (key: ChunkKey) => BoundaryLeaves | undefined,
  cache?: TransformedLeavesCache,
): PlanetSeam {
  const space = lod.space;
  const S = space.faceUnits;
  const owner = lod.byKey.get(ownerKey);
  if (!owner) throw new Error(`buildPlanetSeam: ${ownerKey} is not in the configuration`);
  const stitches = lod.seamStitches.get(ownerKey)!;
  const sets: BoundaryLeaves[] = [];
  for (const k of [ownerKey, ...stitches]) {
    const leaves = boundaryOf(k);
    if (!leaves) throw new Error(`buildPlanetSeam: boundary leaves of ${k} (stitched by ${ownerKey}) are missing`);
    const a = lod.byKey.get(k)!;
    if (a.face === owner.face) {
      sets.push(leaves);
      continue;
    }
    let perFace = cache?.get(leaves);
    let moved = perFace?.[owner.face];
    if (!moved) {
      moved = transformBoundaryLeaves(leaves, frameTransform(S, a.face, owner.face)!);
      if (cache) {
        if (!perFace) { perFace = []; cache.set(leaves, perFace); }
        perFace[owner.face] = moved;
      }
    }
    sets.push(moved);
  }
  const U = space.chunkUnits(owner.level);
  const mesh = buildSeam(sets, {
    mapping: extendedFaceMapping(space, owner.face),
    originGrid: [owner.ci * U, owner.cj * U, owner.ck * U],
    ownerBoxGrid: seamOwnerBox(space, owner),
    threeCellLines: faceCornerLines(space),
  });
  const vertexFaces = seamVertexFaces(space, owner.face, mesh);
  return { owner: ownerKey, stitches, mesh, vertexFaces };
}

/**
 * Moves a seam's `vertexCells` (built in `face`'s extended frame) back into the frame of the face each
 * vertex's leaf lives on, in place, and returns those faces: (face, vertexCells) is then the vertex's
 * identity, as in the chunk meshes.
 */
export function seamVertexFaces(space: CubeSphereSpace, face: number, mesh: ChunkMesh): Uint8Array {
  const S = space.faceUnits;
  const V = mesh.positions.length / 3;
  const vertexFaces = new Uint8Array(V);
  const cells = mesh.vertexCells;
  for (let v = 0; v < V; v++) {
    const size = cells[4 * v + 3] & CELL_SIZE_MASK;
    const e = edgeBeyond(S, cells[4 * v] + size / 2, cells[4 * v + 1] + size / 2);
    if (e < 0) {
      vertexFaces[v] = face;
      continue;
    }
    if (e === 4) throw new Error(`seamVertexFaces: seam vertex beyond a cube corner in face ${face}'s frame`);
    const m = edgeTransform(S, face, e);
    transformCell(m, cells[4 * v], cells[4 * v + 1], cells[4 * v + 2], size, scratchP);
    cells[4 * v] = scratchP[0];
    cells[4 * v + 1] = scratchP[1];
    vertexFaces[v] = m.toFace;
  }
  return vertexFaces;
}
