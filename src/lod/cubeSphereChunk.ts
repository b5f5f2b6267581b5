/**
 * One chunk of the cube-sphere (the part of a planet a worker job handles): its samples through the
 * canonical face mapping, narrow-band where it can, face planes shared between neighbours, and its
 * Dual Contouring mesh with the coarser neighbours' restriction. Pure TypeScript; the planet chunk
 * job (src/jobs/planetChunkJob.ts) and the whole-planet mesher (planetMesh.ts) both use it.
 */
import type { FieldFn } from '../field/index.ts';
import { meshChunk, sampleChunk } from '../mesher/dualContour.ts';
import type { CoarserNeighbour, GridMapping, MeshChunkResult } from '../mesher/types.ts';
import type { HermiteMemo } from '../mesher/hermiteMemo.ts';
import { bandLattice, bandPoints, evaluateLatticePoints, fillFromCorners, firstPassPoints } from '../mesher/narrowBand.ts';
import type { ChunkAddress } from './chunkKey.ts';
import type { CubeSphereSpace } from './cubeSphere.ts';
import { edgeTransform, transformPoint } from './faceFrames.ts';

const scratchE = new Float64Array(3);

/**
 * The face mapping for SAMPLING: a lattice point on a face edge or cube corner is evaluated on the
 * lowest-index face holding it. Two faces compute the same edge point through different formulas
 * (tan(π/4) = 0.9999999999999999 on one side, components summed in another order), so the world
 * points — and the field values — can differ in the last bits, and a value within 1e-16 of zero would
 * get different signs in the two chunks sharing the point. Seams need one sign per shared corner.
 */
export function canonicalSampleMapping(space: CubeSphereSpace, face: number): GridMapping {
  const S = space.faceUnits;
  return {
    toWorld(gi, gj, gk, out) {
      if (gi > 0 && gi < S && gj > 0 && gj < S) {
        space.toWorld(face, gi, gj, gk, out);
        return;
      }
      let best = face, bi = gi, bj = gj;
      for (let e = 0; e < 4; e++) {
        const on = e === 0 ? gi === 0 : e === 1 ? gi === S : e === 2 ? gj === 0 : gj === S;
        if (!on) continue;
        const m = edgeTransform(S, face, e);
        if (m.toFace >= best) continue;
        transformPoint(m, gi, gj, gk, scratchE);
        best = m.toFace; bi = scratchE[0]; bj = scratchE[1];
      }
      space.toWorld(best, bi, bj, gk, out);
    },
  };
}

export interface CubeSphereChunkOptions {
  /** Refine crossings and normals with the field (default true). */
  refineCrossings?: boolean;
  /** QEF simplification threshold (default 0). */
  simplify?: number;
  /** Samples from an earlier call (sampleChunk layout); sampled through canonicalSampleMapping when absent. */
  values?: Float32Array;
  /** Largest collapsed leaf in cells (default {@link PLANET_MAX_LEAF_CELLS}). */
  maxLeafCells?: number;
  /** This chunk's crossings and normals from earlier meshes with the same field (see HermiteMemo). */
  hermiteMemo?: HermiteMemo;
}

/**
 * Simplification on a cube-sphere: a constant radius is a plane in grid space, so a smooth region
 * would collapse into one vertex per chunk (QEF error 0 in grid space) and draw as a faceted ball;
 * leaves of at most 4 cells keep the world-space sagitta under ~2 c / R cells (0.1 cell at the root
 * level). Found when band-limited coarse levels made the planet smooth: facets from orbit.
 */
export const PLANET_MAX_LEAF_CELLS = 4;

/**
 * Samples and meshes one cube-sphere chunk for the configuration it is drawn in: samples through
 * {@link canonicalSampleMapping} (faces agree on shared points), positions through the face mapping,
 * `coarserNeighbours` (the mesher's mixed-level contract) from {@link coarserNeighbourBoxes}. The one
 * per-chunk path shared by `meshPlanet` and the renderer's chunk jobs. Returns the samples too.
 */
export function meshCubeSphereChunk(
  space: CubeSphereSpace, a: ChunkAddress, coarser: readonly CoarserNeighbour[], field: FieldFn,
  options: CubeSphereChunkOptions = {},
): MeshChunkResult & { values: Float32Array } {
  const U = space.chunkUnits(a.level);
  const spec = { originGrid: [a.ci * U, a.cj * U, a.ck * U] as [number, number, number], level: a.level, cells: space.chunkCells };
  const values = options.values ?? sampleChunk(spec, field, canonicalSampleMapping(space, a.face));
  const result = meshChunk({
    ...spec, values, mapping: space.faceMapping(a.face), field: (options.refineCrossings ?? true) ? field : undefined,
    simplify: options.simplify ?? 0, maxLeafCells: options.maxLeafCells ?? PLANET_MAX_LEAF_CELLS, coarserNeighbours: coarser,
    hermiteMemo: options.hermiteMemo,
  });
  return { ...result, values };
}

/** What {@link sampleCubeSphereChunk} found. */
export interface ChunkSamples {
  /** (N+1)³ values, x fastest — for meshing only when `complete`. */
  values: Float32Array;
  /**
   * A sign change was found and every point has a value: `sampleChunk`'s, bit for bit, near the
   * surface; interpolated (same sign) in blocks far from it. Meshes like `sampleChunk`'s values.
   */
  complete: boolean;
  /** Field evaluations made. */
  evaluations: number;
  /** Homogeneous (not complete): 'empty' or 'full', and the smallest |value| seen. */
  state: 'empty' | 'full' | null;
  minAbs: number;
}


/**
 * The face planes of recently sampled chunks, by face frame, level and plane: a chunk's face is its
 * neighbour's face, sampled at the same points through the same canonical mapping, so the second
 * chunk copies it instead of evaluating the field again (a face is 33² of the ~10,000 points an
 * empty or full chunk evaluates). One cache per field (a level's band limit is part of the field).
 * Least recently stored out past `capacity` planes (4.4 kB each at N = 32).
 */
export class FacePlaneCache {
  private readonly planes = new Map<string, Float32Array>();
  hits = 0;
  constructor(private readonly capacity = 384) {}

  get(key: string): Float32Array | undefined {
    const plane = this.planes.get(key);
    if (plane) this.hits++;
    return plane;
  }

  clear(): void {
    this.planes.clear();
  }

  set(key: string, plane: Float32Array): void {
    this.planes.delete(key);
    this.planes.set(key, plane);
    if (this.planes.size > this.capacity) this.planes.delete(this.planes.keys().next().value!);
  }
}

/**
 * Samples a chunk through {@link canonicalSampleMapping}, spending field evaluations where the
 * surface is (src/mesher/narrowBand.ts): every point on its six faces (from the plane cache where a
 * neighbour sampled them) and every other point inside, about 30 % of the (N+1)³ at N = 32; when
 * all of those have one sign the chunk is taken as homogeneous and sampling stops there. Otherwise
 * the 2-cell blocks near the surface are sampled whole and the rest interpolated from their
 * corners, which keeps their sign: the mesh equals the one from every point sampled
 * (test/lod/sparseSampling.test.ts compares meshes of planet chunks at every level); values at
 * evaluated points are bit for bit `sampleChunk`'s.
 *
 * Why it is safe for seams: every point a neighbour shares (the faces) is sampled exactly, so
 * chunks agree on every shared sign. What it can miss: a pocket of the other sign wholly inside a
 * block and between its corners — under two cells across, which Dual Contouring at this level
 * would not resolve either, and which the level's band limit (no feature under two cells) leaves
 * out of the field. Near a planet's surface most chunks the selection asks for are empty or full
 * (the shell is thick); they cost a third of a full sample, and surface chunks about half.
 */
export function sampleCubeSphereChunk(space: CubeSphereSpace, a: ChunkAddress, field: FieldFn, planes?: FacePlaneCache): ChunkSamples {
  const N = space.chunkCells;
  const P = N + 1, PP = P * P;
  const U = space.chunkUnits(a.level);
  const cs = 2 ** a.level;
  const ox = a.ci * U, oy = a.cj * U, oz = a.ck * U;
  const mapping = canonicalSampleMapping(space, a.face);
  const lattice = bandLattice(N);
  const { values, done } = lattice;
  let evaluations = 0, seen = 0, inside = 0, minAbs = Infinity;
  const put = (p: number, v: number): void => {
    values[p] = v;
    done[p] = 1;
    seen++;
    if (v < 0) inside++;
    const abs = Math.abs(v);
    if (abs < minAbs) minAbs = abs;
  };
  // In lattice calls (narrowBand.ts evaluateLatticePoints), double values: the numbers point by point.
  const sampleAll = (points: Int32Array): void => {
    evaluateLatticePoints(points, P, [ox, oy, oz], cs, field, mapping, put);
    evaluations += points.length;
  };
  // Step 1: the faces a neighbour sampled come from the plane cache; the rest of the faces and the
  // even interior are evaluated, and the new faces cached.
  const chunk = [a.ci, a.cj, a.ck];
  const stride = [1, P, PP];
  const newPlanes: { key: string; base: number; u: number; w: number }[] = [];
  for (let axis = 0; axis < 3; axis++) {
    const u = axis === 0 ? 1 : 0, w = axis === 2 ? 1 : 2; // the plane's two other axes
    for (const side of [0, N]) {
      const key = planes ? `${a.face}/${a.level}/${axis}/${(chunk[axis] * U + side * cs)}/${chunk[u]}/${chunk[w]}` : '';
      const base = side * stride[axis];
      const kept = planes?.get(key);
      if (!kept) {
        if (planes) newPlanes.push({ key, base, u: stride[u], w: stride[w] });
        continue;
      }
      for (let q = 0, y = 0; y < P; y++) for (let x = 0; x < P; x++, q++) {
        const p = base + x * stride[u] + y * stride[w];
        if (!done[p]) put(p, kept[q]);
      }
    }
  }
  sampleAll(firstPassPoints(lattice));
  for (const { key, base, u, w } of newPlanes) {
    const plane = new Float32Array(PP);
    for (let q = 0, y = 0; y < P; y++) for (let x = 0; x < P; x++, q++) plane[q] = values[base + x * u + y * w];
    planes!.set(key, plane);
  }
  if (inside === 0 || inside === seen) return { values, complete: false, evaluations, state: inside === 0 ? 'empty' : 'full', minAbs };
  if (N % 2 !== 0) {
    // No 2-cell blocks: sample everything.
    const rest: number[] = [];
    for (let p = 0; p < done.length; p++) if (!done[p]) rest.push(p);
    sampleAll(Int32Array.from(rest));
    return { values, complete: true, evaluations, state: null, minAbs };
  }
  // Steps 2 and 3: the blocks near the surface whole, the rest from their corners.
  sampleAll(bandPoints(lattice));
  fillFromCorners(lattice);
  return { values, complete: true, evaluations, state: null, minAbs };
}
