/**
 * Planet chunks sampled on the GPU (issue 15): what the GPU sampling worker is asked for a chunk,
 * and how a body worker turns what comes back into samples that close seams. Pure (no WebGL): the
 * GPU side only uploads `planetChunkGrid`'s numbers; Node tests run the rest with simulated GPU
 * values.
 *
 * The seam contract is that two chunks sharing a face agree on the sign at every shared lattice
 * point. The JS back end keeps it by sampling face points through one canonical mapping
 * (`canonicalSampleMapping`) in float64: both sides compute the same number. The GPU evaluates the
 * field at float32 positions formed relative to each chunk's own origin (glsl/sr_map_cubesphere.glsl),
 * so the two sides of a face see slightly different numbers (|GPU − JS| ≤ {@link gpuFieldToleranceM}).
 * Where a face value is farther from zero than that bound its sign is the JS sign on both sides;
 * the face points nearer zero are sampled again in JS ({@link settleSharedFaces}), and so are the
 * points on a coarser neighbour's lattice (planetChunkJob's `sampleCoarseLattice`, as before). Every
 * shared sign is then the canonical one whichever back end sampled the chunk's inside.
 */
import type { BandSlot, FieldRecipe, RelativePlan } from '../field/index';
import { bandSlotValues, chunkRelativeEligible, relativeErrorM, relativeUniforms } from '../field/index';
import { canonicalSampleMapping, cubeSphereMapUniforms, levelMinWavelengthM, sampleSigns, type ChunkAddress, type CubeSphereMapUniforms, type CubeSphereSpace } from '../lod/index';
import { HermiteMemo, type FieldFn } from '../mesher/index';

/** A level's band limit (src/lod/levelErrors.ts), re-exported for the chunk jobs. */
export { levelMinWavelengthM };

/** Spacing of float32 numbers at |x| (the unit in the last place). */
export function float32Ulp(x: number): number {
  const a = Math.abs(x);
  if (!(a > 0)) return 2 ** -149;
  return 2 ** (Math.floor(Math.log2(a)) - 23);
}

/**
 * Cells at least this many float32 ulps of the planet's outer radius go to the GPU. Its body-local
 * float32 positions are off by up to half an ulp, and the field's float32 value by ~3 ulps; the
 * chunk meshed from the GPU's samples and hermite data then differs from the JS one by more than
 * that error suggests (crossings and normals both move): on planet 2 (2,181 km, 0.25 m ulps),
 * normals 16.8° apart on average at 3.3 m cells (13 ulps), 6.2° at 13 m (52 ulps), 4.0° at 26 m
 * (104 ulps), 2.1° at 52 m (209 ulps), against ~1° where float32 is exact enough (planet 4 at 6 m
 * cells): test/browser/planetGpuSampling.test.ts, docs/lod.md "Which levels the GPU samples".
 * Issue 42 tried 8 and drew visibly different ground at 400 m; 128 keeps the GPU's levels within
 * ~2° of JS. Planets under ~1,000 km sample every level there (≤ 0.06 m ulps).
 */
export const GPU_MIN_CELL_ULPS = 128;

/**
 * Whether a chunk of `level` may be sampled on the GPU: every level where the GPU evaluates the field
 * relative to the chunk (`relative`: the recipe is chunkRelativeEligible, as every planet class is),
 * else the levels whose cells float32 resolves at the planet's radius.
 */
export function gpuSamplesLevel(space: CubeSphereSpace, level: number, maxRadiusM: number, relative = false): boolean {
  return relative || space.cellSizeM(level) >= GPU_MIN_CELL_ULPS * float32Ulp(maxRadiusM);
}

/**
 * Bound on |GPU value − JS value| for chunk `a` of a planet of `recipe` (the GPU sampler compiles it
 * chunk-relative where it can: gpuSampler.worker.ts): {@link gpuRelativeToleranceM} then, else
 * {@link gpuFieldToleranceM}.
 */
export function gpuChunkToleranceM(space: CubeSphereSpace, a: ChunkAddress, recipe: FieldRecipe, maxRadiusM: number, lipschitz: number): number {
  return chunkRelativeEligible(recipe)
    ? gpuRelativeToleranceM(space, a, recipe, maxRadiusM, lipschitz)
    : gpuFieldToleranceM(space, a.level, maxRadiusM, lipschitz);
}

/**
 * {@link gpuFieldToleranceM} for a field evaluated relative to the chunk (src/field/chunkRelative.ts),
 * safety factor 4 as there: the offset's error (1e-6 of the chunk's size, twice) and the error of the
 * point the shapes see (warps, crater fields: relativeErrorM) times the field's Lipschitz bound, plus
 * the value's own error (the noise inputs' float32 and the sums').
 */
export function gpuRelativeToleranceM(space: CubeSphereSpace, a: ChunkAddress, recipe: FieldRecipe, maxRadiusM: number, lipschitz: number): number {
  const U = space.chunkUnits(a.level);
  const originM = new Float64Array(3);
  space.toWorld(a.face, a.ci * U, a.cj * U, a.ck * U, originM);
  const chunkM = space.cellSizeM(a.level) * space.chunkCells * (maxRadiusM / space.radiusM);
  const e = relativeErrorM(recipe, originM, Math.sqrt(3) * chunkM, levelMinWavelengthM(space, a.level));
  return 4 * (Math.max(1, lipschitz) * (2e-6 * chunkM + e.positionM) + e.valueM);
}

/**
 * Bound on |GPU value − JS value| for a chunk of `level`, metres, with a safety factor of 4:
 * position error (half an ulp of the radius from the final float32 sum, plus 1e-6 of the chunk's
 * size from the chunk-relative offset: glsl/sr_map_cubesphere.glsl) times the field's Lipschitz
 * bound, plus float32 rounding in the field itself (a sphere's |p| − r cancels two numbers of the
 * radius' size: a few ulps). Measured against it: test/browser/planetGpuSampling.test.ts.
 */
export function gpuFieldToleranceM(space: CubeSphereSpace, level: number, maxRadiusM: number, lipschitz: number): number {
  const ulp = float32Ulp(maxRadiusM);
  const chunkM = space.cellSizeM(level) * space.chunkCells * (maxRadiusM / space.radiusM);
  const positionM = ulp + 2e-6 * chunkM;
  return 4 * (Math.max(1, lipschitz) * positionM + 4 * ulp);
}

/** What the GPU sampler is given for a planet chunk: a grid and its per-chunk uniforms. */
export interface PlanetChunkGrid {
  originM: [number, number, number];
  stepM: number;
  points: number;
  /** The cube-sphere mapping's `sr_cs*` (CubeSphereMapUniforms) and the level's `sr_band`, by GLSL name. */
  uniforms: Readonly<Record<string, number | ArrayLike<number>>>;
}

/**
 * The grid of chunk `a` for the GPU's cube-sphere grid and edge passes: the mapping's uniforms
 * (float64 here, the offsets formed on the GPU relative to the chunk), the band-limited field's
 * `sr_band` for the chunk's level, and a chunk-relative field's `sr_rel*` (`relative`: its plan).
 */
export function planetChunkGrid(space: CubeSphereSpace, a: ChunkAddress, bandSlots: readonly BandSlot[], relative: RelativePlan | null = null): PlanetChunkGrid {
  const U = space.chunkUnits(a.level);
  const originM: [number, number, number] = [0, 0, 0];
  space.toWorld(a.face, a.ci * U, a.cj * U, a.ck * U, originM);
  const map: CubeSphereMapUniforms = cubeSphereMapUniforms(space, a.face, a.ci * U, a.cj * U, a.ck * U, a.level);
  return {
    originM,
    stepM: space.cellSizeM(a.level),
    points: space.chunkCells + 1,
    // A field without band slots (no noise, no shell) declares a placeholder sr_band it never reads.
    // A chunk-relative field (the compiled field's plan) reads the origin's part of its terms per chunk.
    uniforms: {
      ...map,
      ...(bandSlots.length > 0 ? { sr_band: bandSlotValues(bandSlots, levelMinWavelengthM(space, a.level)) } : {}),
      ...(relative ? relativeUniforms(relative, originM) : {}),
    },
  };
}

/** Hermite data of the GPU edge pass (GpuFieldSampler's EdgeSamples without timing). */
export interface GpuHermite {
  count: number;
  /** axis · P³ + i + P · (j + P · k). */
  edgeIds: Uint32Array;
  /** Crossing in [0, 1] from the lower end; −1 where the GPU found no sign change. */
  t: Float32Array;
  /** 3 per edge: gradient with respect to grid coordinates. */
  normals: Float32Array;
}

/** What {@link settleSharedFaces} did and found. */
export interface SettledSamples {
  /** Points sampled again in JS (face points near zero, and any non-finite value). */
  resampled: number;
  /** Points with a negative value (inside), and the smallest |value|, over the whole grid. */
  inside: number;
  minAbs: number;
}

const scratchP = new Float64Array(3);

/**
 * Makes GPU samples of chunk `a` safe to share faces with any neighbour: every face point whose
 * |value| is under `toleranceM` is sampled again with the level's JS field through the canonical
 * mapping (in place), as is any non-finite value. Returns the counts over the whole grid.
 */
export function settleSharedFaces(
  space: CubeSphereSpace, a: ChunkAddress, field: FieldFn, values: Float32Array, toleranceM: number,
): SettledSamples {
  const N = space.chunkCells, P = N + 1;
  const U = space.chunkUnits(a.level);
  const cs = 2 ** a.level;
  const ox = a.ci * U, oy = a.cj * U, oz = a.ck * U;
  const mapping = canonicalSampleMapping(space, a.face);
  let resampled = 0;
  const resample = (p: number, i: number, j: number, k: number): void => {
    mapping.toWorld(ox + i * cs, oy + j * cs, oz + k * cs, scratchP);
    values[p] = field(scratchP[0], scratchP[1], scratchP[2]);
    resampled++;
  };
  for (let k = 0, p = 0; k < P; k++) {
    for (let j = 0; j < P; j++) {
      const faceRow = k === 0 || k === N || j === 0 || j === N;
      for (let i = 0; i < P; i++, p++) {
        const v = values[p];
        const onFace = faceRow || i === 0 || i === N;
        if (!Number.isFinite(v) || (onFace && Math.abs(v) < toleranceM)) resample(p, i, j, k);
      }
    }
  }
  return { resampled, ...sampleSigns(values) };
}

/**
 * The GPU edge pass's crossings and normals as a HermiteMemo under the grid's final values: the
 * mesher recalls an edge only when both its end values are the ones given here, so edges whose
 * ends were sampled again in JS (or restricted to a coarser lattice) are refined with the JS field
 * as usual, and every other edge costs no field evaluation in the body worker.
 */
export function memoFromGpuHermite(values: Float32Array, points: number, hermite: GpuHermite, memo = new HermiteMemo()): HermiteMemo {
  const P = points, P3 = P * P * P;
  const step = [1, P, P * P];
  const t = new Float64Array(1);
  const n = new Float32Array(3);
  for (let e = 0; e < hermite.count; e++) {
    const te = hermite.t[e];
    if (!(te >= 0 && te <= 1)) continue;
    const id = hermite.edgeIds[e];
    const axis = Math.floor(id / P3);
    const p = id - axis * P3;
    const va = values[p], vb = values[p + step[axis]];
    if ((va < 0) === (vb < 0)) continue;
    const nx = hermite.normals[3 * e], ny = hermite.normals[3 * e + 1], nz = hermite.normals[3 * e + 2];
    const len = Math.hypot(nx, ny, nz);
    if (!(len > 0) || !Number.isFinite(len)) continue;
    t[0] = te;
    n[0] = nx / len; n[1] = ny / len; n[2] = nz / len;
    memo.keep(p * 3 + axis, va, vb, t, 0, n);
  }
  return memo;
}
