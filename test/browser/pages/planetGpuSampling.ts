/**
 * Page side of test/browser/planetGpuSampling.test.ts: planet chunks sampled by the real GPU
 * sampling worker (OffscreenCanvas WebGL2, the cube-sphere grid and edge passes with the band
 * limit as a uniform), compared with the JS back end, and meshed into chunks + seams.
 */
import { recipeBounds } from '../../../src/field/index';
import {
  canonicalSampleMapping, CubeSphereSpace, keyOf, planetLod, planetShell, randomLodConfiguration, type ChunkAddress, type ChunkKey,
} from '../../../src/lod/index';
import { sampleChunk, validateMesh, weldMeshes, type BoundaryLeaves, type ChunkMesh } from '../../../src/mesher/index';
import { planetRecipe } from '../../../src/scene/planets';
import { GpuSamplerClient } from '../../../src/workers/GpuSamplerClient';
import { clearSampleCache, meshPlanetChunk, planetContext } from '../../jobs/oneWorker';
import { registerBody } from '../../jobs/oneWorker';
import { gpuChunkToleranceM, gpuSamplesLevel } from '../../../src/jobs/planetGpuSamples';
import { chunkRelativeEligible } from '../../../src/field/index';
import { buildPlanetSeamJob, type PlanetSeamPart } from '../../jobs/oneWorker';

async function client(): Promise<GpuSamplerClient> {
  const c = await GpuSamplerClient.create({ poison: true });
  if (!c) throw new Error('no GPU sampling worker (OffscreenCanvas WebGL2) in this browser');
  return c;
}

export interface LevelParity {
  level: number;
  key: string;
  maxAbsDiffM: number;
  toleranceM: number;
  nanCount: number;
  /** Points of one sign in JS and the other on the GPU, and how near zero the farthest of them was. */
  signMismatches: number;
  edges: number;
  unresolvedEdges: number;
  latencyMs: number;
  /** The app samples this level on the GPU (gpuSamplesLevel), or keeps it in JS. */
  gpuLevel: boolean;
  /** The chunk meshed from the GPU's samples and hermite data against from JS's: vertices with the same leaf identity. */
  mesh: { cellM: number; matched: number; vertices: number; maxMoveM: number; rmsMoveM: number; meanNormalDeg: number; p95NormalDeg: number };
}

/**
 * For a chunk the surface crosses at each of `levels` (32³ cells, the production chunk), the GPU's
 * values against the level's JS field through the canonical mapping.
 */
export async function planetParity(seed: number, levels: number[]): Promise<{ renderer: string; rows: LevelParity[] }> {
  const recipe = planetRecipe(seed);
  const bounds = recipeBounds(recipe);
  const spaceOptions = { radiusM: bounds.sphereRadiusM, chunkCells: 32, finestCellM: 1 };
  const space = new CubeSphereSpace(spaceOptions);
  // One id for the planet in this page's registry (the JS reference) and the sampling worker's.
  const body = `parity:${seed}`;
  registerBody(body, { recipe, space: spaceOptions });
  const ctx = planetContext(body);
  const gpu = await client();
  gpu.registerBody(body, { recipe, space: spaceOptions });
  const rows: LevelParity[] = [];
  try {
    for (const level of levels) {
      const U = space.chunkUnits(level);
      // The chunk where the level's surface crosses the radial line through the middle of face 4
      // (+Z), found by bisection on gk.
      const field = ctx.level(level).field;
      const g = Math.floor(space.faceUnits / 2) + 0.5 * U;
      const w = new Float64Array(3);
      const at = (gk: number): number => {
        space.toWorld(4, g, g, gk, w);
        return field(w[0], w[1], w[2]);
      };
      let lo = space.gkAtRadius(space.innerRadiusM), hi = space.gkAtRadius(space.outerRadiusM);
      for (let s = 0; s < 60; s++) {
        const m = 0.5 * (lo + hi);
        if (at(m) < 0) lo = m; else hi = m;
      }
      const a: ChunkAddress = { face: 4, level, ci: Math.floor(g / U), cj: Math.floor(g / U), ck: Math.floor(lo / U) };
      const spec = { originGrid: [a.ci * U, a.cj * U, a.ck * U] as [number, number, number], level, cells: 32 };
      const js = sampleChunk(spec, field, canonicalSampleMapping(space, a.face));
      const r = await gpu.samplePlanetChunk(body, keyOf(a)).promise;
      let maxAbsDiffM = 0, nanCount = 0, signMismatches = 0;
      for (let p = 0; p < js.length; p++) {
        const v = r.values[p];
        if (!Number.isFinite(v)) { nanCount++; continue; }
        maxAbsDiffM = Math.max(maxAbsDiffM, Math.abs(v - js[p]));
        if ((v < 0) !== (js[p] < 0)) signMismatches++;
      }
      let unresolved = 0;
      for (let e = 0; e < r.hermite.count; e++) if (!(r.hermite.t[e] >= 0)) unresolved++;
      clearSampleCache();
      const fromJs = meshPlanetChunk({ body, ...a, coarser: [], simplify: 0.02 });
      clearSampleCache();
      const fromGpu = meshPlanetChunk({ body, ...a, coarser: [], simplify: 0.02, gpu: { values: r.values, hermite: r.hermite } });
      rows.push({
        level, key: keyOf(a), maxAbsDiffM, nanCount, signMismatches, latencyMs: r.latencyMs, gpuLevel: gpuSamplesLevel(space, level, ctx.maxRadiusM, chunkRelativeEligible(recipe)),
        toleranceM: gpuChunkToleranceM(space, a, recipe, ctx.maxRadiusM, ctx.lipschitz), edges: r.hermite.count, unresolvedEdges: unresolved,
        mesh: { cellM: space.cellSizeM(level), ...compareMeshes(fromJs, fromGpu) },
      });
    }
    return { renderer: gpu.capabilities.renderer, rows };
  } finally {
    gpu.dispose();
  }
}

/** Vertices of two meshes of one chunk matched by leaf identity (vertexCells): how far apart, and their normals' angles. */
function compareMeshes(
  a: { positions: Float32Array; normals: Float32Array; vertexCells: Int32Array; originM: readonly number[] },
  b: { positions: Float32Array; normals: Float32Array; vertexCells: Int32Array; originM: readonly number[] },
): { matched: number; vertices: number; maxMoveM: number; rmsMoveM: number; meanNormalDeg: number; p95NormalDeg: number } {
  const id = (vc: Int32Array, i: number): string => `${vc[4 * i]},${vc[4 * i + 1]},${vc[4 * i + 2]},${vc[4 * i + 3]}`;
  const inB = new Map<string, number>();
  for (let i = 0; i < b.positions.length / 3; i++) inB.set(id(b.vertexCells, i), i);
  let matched = 0, maxMoveM = 0, sq = 0;
  const angles: number[] = [];
  for (let i = 0; i < a.positions.length / 3; i++) {
    const j = inB.get(id(a.vertexCells, i));
    if (j === undefined) continue;
    matched++;
    let d2 = 0, dot = 0;
    for (let k = 0; k < 3; k++) {
      const d = (a.originM[k] + a.positions[3 * i + k]) - (b.originM[k] + b.positions[3 * j + k]);
      d2 += d * d;
      dot += a.normals[3 * i + k] * b.normals[3 * j + k];
    }
    maxMoveM = Math.max(maxMoveM, Math.sqrt(d2));
    sq += d2;
    angles.push((Math.acos(Math.min(1, Math.max(-1, dot))) * 180) / Math.PI);
  }
  angles.sort((x, y) => x - y);
  return {
    matched, vertices: a.positions.length / 3, maxMoveM, rmsMoveM: Math.sqrt(sq / Math.max(1, matched)),
    meanNormalDeg: angles.reduce((x, y) => x + y, 0) / Math.max(1, angles.length), p95NormalDeg: angles[Math.floor(0.95 * (angles.length - 1))] ?? 0,
  };
}

export interface GpuSeamsReport {
  chunks: number;
  gpuChunks: number;
  seams: number;
  boundaryEdges: number;
  nonManifoldEdges: number;
  misorientedEdges: number;
  degenerateTriangles: number;
  euler: number;
  /**
   * Largest |GPU − JS| / tolerance over every point of every chunk: the chunks were submitted at
   * once, so the sampler drew them in batches (src/gpu/batches.ts) — a block read back for the
   * wrong chunk would be far off.
   */
  worstErrorRatio: number;
}

/**
 * A random LOD configuration of planet `seed` at 8³ cells a chunk: every chunk sampled by the GPU
 * worker, meshed with those samples (shared faces settled), seams from their boundary leaves, all
 * welded by leaf identity and validated.
 */
export async function planetGpuSeams(seed: number, configuration: number): Promise<GpuSeamsReport> {
  const recipe = planetRecipe(seed);
  const bounds = recipeBounds(recipe);
  const spaceOptions = { radiusM: bounds.sphereRadiusM, chunkCells: 8, finestCellM: bounds.sphereRadiusM / 200 };
  const space = new CubeSphereSpace(spaceOptions);
  const body = `seams:${seed}`;
  registerBody(body, { recipe, space: spaceOptions });
  const ctx = planetContext(body);
  const lod = planetLod(space, randomLodConfiguration(space, planetShell(bounds), configuration));
  const coarserOf = (k: ChunkKey): ChunkKey[] => {
    const a = lod.byKey.get(k)!;
    return lod.touching.get(k)!.filter((t) => lod.byKey.get(t)!.level === a.level + 1);
  };
  clearSampleCache();
  const gpu = await client();
  gpu.registerBody(body, { recipe, space: spaceOptions });
  const meshes: ChunkMesh[] = [];
  const tags: (number | Uint8Array)[] = [];
  const leaves = new Map<ChunkKey, BoundaryLeaves>();
  const homogeneous = new Map<ChunkKey, 'empty' | 'full'>();
  let gpuChunks = 0;
  let worstErrorRatio = 0;
  try {
    const samples = await Promise.all(lod.leaves.map((a) => gpu.samplePlanetChunk(body, keyOf(a)).promise));
    lod.leaves.forEach((a, i) => {
      const key = keyOf(a);
      const s = samples[i];
      gpuChunks++;
      const U = space.chunkUnits(a.level);
      const spec = { originGrid: [a.ci * U, a.cj * U, a.ck * U] as [number, number, number], level: a.level, cells: spaceOptions.chunkCells };
      const js = sampleChunk(spec, ctx.level(a.level).field, canonicalSampleMapping(space, a.face));
      const tolerance = gpuChunkToleranceM(space, a, recipe, ctx.maxRadiusM, ctx.lipschitz);
      for (let p = 0; p < js.length; p++) worstErrorRatio = Math.max(worstErrorRatio, Math.abs(s.values[p] - js[p]) / tolerance);
      const r = meshPlanetChunk({ body, ...a, coarser: coarserOf(key), simplify: 0.02, gpu: { values: s.values, hermite: s.hermite } });
      if (r.homogeneous) {
        homogeneous.set(key, r.homogeneous.state);
        return;
      }
      leaves.set(key, r.boundary!);
      meshes.push({ positions: r.positions, normals: r.normals, indices: r.indices, originWorld: r.originM, vertexCells: r.vertexCells });
      tags.push(a.face);
    });
  } finally {
    gpu.dispose();
  }
  let seams = 0;
  for (const owner of lod.keys) {
    const stitches = [...lod.seamStitches.get(owner)!];
    const parts: PlanetSeamPart[] = [owner, ...stitches].map((key) =>
      leaves.has(key) ? { key, leaves: leaves.get(key) } : { key, homogeneous: homogeneous.get(key) });
    const s = buildPlanetSeamJob({ body, owner, stitches, parts });
    if (s.indices.length > 0) seams++;
    meshes.push({ positions: s.positions, normals: s.normals, indices: s.indices, originWorld: s.originM, vertexCells: s.vertexCells });
    tags.push(s.vertexFaces);
  }
  const report = validateMesh(weldMeshes(meshes, tags));
  return {
    chunks: lod.leaves.length, gpuChunks, seams, boundaryEdges: report.boundaryEdges, nonManifoldEdges: report.nonManifoldEdges,
    misorientedEdges: report.misorientedEdges, degenerateTriangles: report.degenerateTriangles, euler: report.euler,
    worstErrorRatio: Number.isNaN(worstErrorRatio) ? Infinity : worstErrorRatio,
  };
}
