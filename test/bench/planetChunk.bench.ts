/**
 * The planet chunk job (`meshPlanetChunk`, what body workers run for every planet chunk): JS field
 * samples of a 32³ chunk of `planetRecipe(4)` (radius ~62 km, 1 m finest cells, 12 levels) through
 * the cube-sphere mapping, then Dual Contouring with field-refined crossings and normals. One chunk
 * per level 0, 3, 6 and 9 on face 0, each holding the surface (found by bisection along the radius
 * at a fixed face point), each meshed from scratch (the worker's kept samples cleared). Rows: chunks
 * per second over the four, ms per chunk per level (same runs), and peers from the same run: the
 * same chunks meshed again from what the worker kept (a re-mesh after a restriction change),
 * `sampleChunk` alone on the same chunks (the sampling floor), and
 * with the field compiled without shared modifiers (`reference: true`, the sampling cost
 * before the terrain and cave shell shared their warp, noise and craters).
 *
 * Seam jobs (`buildPlanetSeamJob`): a 2:1 configuration around the level-2 surface chunk (its 3×3×3
 * block, the center one split into 8), every seam with a surface built from packed parts as the
 * renderer sends them (no leaves held by the worker); peer: the same seams from whole unpacked
 * boundaries (what the worker indexed before it kept only the records a seam can read).
 */
import { compileToJs, type FieldFn } from '../../src/field/index.ts';
import { canonicalSampleMapping, CubeSphereSpace, keyOf, meshCubeSphereChunk, planetLod, type ChunkAddress, type ChunkKey, type PlanetLod } from '../../src/lod/index.ts';
import { packBoundaryLeaves, sampleChunk, unpackBoundaryLeaves, type PackedBoundaryLeaves } from '../../src/mesher/index.ts';
import { buildPlanetSeamJob, type PlanetSeamPart } from '../jobs/oneWorker';
import { planetGround, planetRecipe } from '../../src/scene/index.ts';
import { clearSampleCache, meshPlanetChunk, planetContext } from '../jobs/oneWorker';
import { median, rowFrom } from './harness.ts';
import type { Benchmark, BenchRow } from './harness.ts';
import { registerBody } from '../jobs/oneWorker';

/** The planet the jobs below name (registered with this thread's body registry, as a worker's would be). */
const PLANET = 'test:planet';

export const PLANET_SEED = 4;
export const BENCH_LEVELS = [0, 3, 6, 9] as const;

const recipe = planetRecipe(PLANET_SEED);
const radiusM = planetGround(recipe).meanRadiusM;
const spaceOptions = { radiusM, chunkCells: 32, finestCellM: 1 };
registerBody(PLANET, { recipe, space: spaceOptions });

/** Face-0 chunks at `levels` that hold the surface at a fixed off-center face point. */
export function surfaceChunks(space: CubeSphereSpace, field: FieldFn, levels: readonly number[]): ChunkAddress[] {
  const S = space.faceUnits;
  const gi = Math.floor(S * 0.4137), gj = Math.floor(S * 0.5821);
  const mapping = space.faceMapping(0);
  const w = new Float64Array(3);
  const at = (gk: number): number => {
    mapping.toWorld(gi, gj, gk, w);
    return field(w[0], w[1], w[2]);
  };
  let lo = space.gkAtRadius(space.radiusM - 5000), hi = space.gkAtRadius(space.radiusM + 5000);
  if (!(at(lo) < 0 && at(hi) > 0)) throw new Error('planet chunk bench: no surface within ±5 km of the radius');
  for (let it = 0; it < 60; it++) {
    const m = 0.5 * (lo + hi);
    if (at(m) < 0) lo = m; else hi = m;
  }
  return levels.map((level) => {
    const U = space.chunkUnits(level);
    return { face: 0, level, ci: Math.floor(gi / U), cj: Math.floor(gj / U), ck: Math.floor(lo / U) };
  });
}

function planetBenches(): Benchmark[] {
  let chunks: ChunkAddress[] = [];
  let space: CubeSphereSpace | null = null;
  const perLevel: number[][] = BENCH_LEVELS.map(() => []);
  const rates: Record<string, number[]> = { job: [], remesh: [], sample: [], plain: [] };
  let triangles = 0;
  let evalsPerEdge = '';
  const setup = (): void => {
    if (space) return;
    const ctx = planetContext(PLANET);
    space = ctx.space;
    chunks = surfaceChunks(space, ctx.field, BENCH_LEVELS);
    // Field evaluations per sign-changing edge in the hermite stage (counted once, untimed).
    evalsPerEdge = chunks.map((a) => {
      const U = space!.chunkUnits(a.level);
      const values = sampleChunk({ originGrid: [a.ci * U, a.cj * U, a.ck * U], level: a.level, cells: space!.chunkCells }, ctx.field, canonicalSampleMapping(space!, a.face));
      let evals = 0;
      const counted: FieldFn = (x, y, z) => { evals++; return ctx.field(x, y, z); };
      const edges = meshCubeSphereChunk(space!, a, [], counted, { values }).stats.edges;
      return (evals / Math.max(edges, 1)).toFixed(1);
    }).join('/');
  };
  const chunksPerS = (ms: number): number => chunks.length / (ms / 1000);
  const sampleAll = (field: FieldFn): void => {
    for (const a of chunks) {
      const U = space!.chunkUnits(a.level);
      sampleChunk({ originGrid: [a.ci * U, a.cj * U, a.ck * U], level: a.level, cells: space!.chunkCells }, field, canonicalSampleMapping(space!, a.face));
    }
  };
  const ratio = (peer: string): string => (median(rates.job) / median(rates[peer])).toFixed(2);
  let plainField: FieldFn | null = null;
  return [
    {
      name: 'planet/chunk-job/32^3',
      unit: 'chunks/s',
      runs: 5,
      warmup: 1,
      setup,
      run: () => {
        triangles = 0;
        chunks.forEach((a, i) => {
          clearSampleCache(); // from scratch: what a chunk costs the first time it is asked for
          const t0 = performance.now();
          const r = meshPlanetChunk({ body: PLANET, ...a, coarser: [], simplify: 0 });
          perLevel[i].push(performance.now() - t0);
          triangles += r.indices.length / 3;
        });
      },
      toValue: (ms) => { const v = chunksPerS(ms); rates.job.push(v); return v; },
      notes: () => `meshPlanetChunk, planetRecipe(${PLANET_SEED}) r=${(radiusM / 1000).toFixed(1)} km, surface chunks at levels ${BENCH_LEVELS.join('/')} on face 0, ${triangles} triangles, hermite ${evalsPerEdge} field evaluations per edge; one thread`,
      extraRows: (): BenchRow[] => BENCH_LEVELS.map((level, i) =>
        rowFrom(`planet/chunk-job/32^3/L${level}`, 'ms', perLevel[i].slice(-5), `ms per chunk, level ${level} (same runs as planet/chunk-job/32^3)`)),
    },
    {
      name: 'planet/chunk-remesh/32^3',
      unit: 'chunks/s',
      runs: 5,
      warmup: 1,
      setup,
      run: () => {
        for (const a of chunks) meshPlanetChunk({ body: PLANET, ...a, coarser: [], simplify: 0 });
      },
      toValue: (ms) => { const v = chunksPerS(ms); rates.remesh.push(v); return v; },
      notes: () => `peer: the same chunks meshed again (a restriction change) from the samples and hermite data the worker kept; remesh/job ${(median(rates.remesh) / median(rates.job)).toFixed(1)}`,
    },
    {
      name: 'planet/chunk-sample/32^3',
      unit: 'chunks/s',
      runs: 5,
      warmup: 1,
      setup,
      run: () => sampleAll(planetContext(PLANET).field),
      toValue: (ms) => { const v = chunksPerS(ms); rates.sample.push(v); return v; },
      notes: () => `peer: sampleChunk only (33³ field samples) of the same chunks; job/sample ${ratio('sample')}`,
    },
    {
      name: 'planet/chunk-sample/32^3/plain-field',
      unit: 'chunks/s',
      runs: 3,
      warmup: 1,
      setup: () => { setup(); plainField = compileToJs(recipe, { reference: true }); },
      run: () => sampleAll(plainField!),
      toValue: (ms) => { const v = chunksPerS(ms); rates.plain.push(v); return v; },
      notes: () => `peer: sampleChunk with compileToJs(recipe, { reference: true }) (sampling before modifier sharing); sample/plain ${(median(rates.sample) / median(rates.plain)).toFixed(2)}`,
    },
  ];
}

/** The seam-job fixture: a 2:1 block around the level-2 surface chunk, its chunks meshed and packed. */
interface SeamFixture {
  lod: PlanetLod;
  owners: ChunkKey[];
  packed: Map<ChunkKey, PackedBoundaryLeaves>;
  homogeneous: Map<ChunkKey, 'empty' | 'full'>;
}

function seamFixture(): SeamFixture {
  const ctx = planetContext(PLANET);
  const [c] = surfaceChunks(ctx.space, ctx.field, [2]);
  const leaves: ChunkAddress[] = [];
  for (let dk = -1; dk <= 1; dk++) for (let dj = -1; dj <= 1; dj++) for (let di = -1; di <= 1; di++) {
    const a = { face: c.face, level: c.level, ci: c.ci + di, cj: c.cj + dj, ck: c.ck + dk };
    if (di === 0 && dj === 0 && dk === 0) {
      for (let ch = 0; ch < 8; ch++) leaves.push({ face: a.face, level: a.level - 1, ci: 2 * a.ci + (ch & 1), cj: 2 * a.cj + ((ch >> 1) & 1), ck: 2 * a.ck + (ch >> 2) });
    } else leaves.push(a);
  }
  const lod = planetLod(ctx.space, leaves);
  const packed = new Map<ChunkKey, PackedBoundaryLeaves>();
  const homogeneous = new Map<ChunkKey, 'empty' | 'full'>();
  for (const a of lod.leaves) {
    const key = keyOf(a);
    const r = meshPlanetChunk({ body: PLANET, ...a, coarser: coarserKeys(lod, key), simplify: 0.02 });
    if (r.homogeneous) homogeneous.set(key, r.homogeneous.state);
    else packed.set(key, packBoundaryLeaves(r.boundary!));
  }
  return { lod, owners: lod.keys.filter((k) => packed.has(k)), packed, homogeneous };
}

function coarserKeys(lod: PlanetLod, key: ChunkKey): ChunkKey[] {
  const a = lod.byKey.get(key)!;
  return lod.touching.get(key)!.filter((t) => lod.byKey.get(t)!.level === a.level + 1);
}

/** Builds every seam of the fixture; `whole`: parts as whole unpacked boundaries. Returns ms per seam. */
function buildSeams(f: SeamFixture, whole: boolean): number[] {
  return f.owners.map((owner) => {
    const stitches = [...f.lod.seamStitches.get(owner)!];
    const parts: PlanetSeamPart[] = [owner, ...stitches].map((key) => {
      const p = f.packed.get(key);
      if (!p) return { key, homogeneous: f.homogeneous.get(key) };
      return whole ? { key, leaves: unpackBoundaryLeaves(p) } : { key, leafId: `bench:${key}`, packed: p };
    });
    const t0 = performance.now();
    buildPlanetSeamJob({ body: PLANET, owner, stitches, parts });
    return performance.now() - t0;
  });
}

function seamBenches(): Benchmark[] {
  let fixture: SeamFixture | null = null;
  const perSeam: Record<'packed' | 'whole', number[]> = { packed: [], whole: [] };
  const setup = (): void => { fixture ??= seamFixture(); };
  const run = (kind: 'packed' | 'whole') => (): void => {
    const ms = buildSeams(fixture!, kind === 'whole');
    perSeam[kind].push(median(ms));
  };
  const seamsPerS = (ms: number): number => fixture!.owners.length / (ms / 1000);
  return [
    {
      name: 'planet/seam-job/32^3',
      unit: 'seams/s',
      runs: 5,
      warmup: 1,
      setup,
      run: run('packed'),
      toValue: seamsPerS,
      notes: () => `buildPlanetSeamJob from packed parts, ${fixture!.owners.length} seams of a 2:1 block at level 2 (planetRecipe(${PLANET_SEED})); median ${median(perSeam.packed).toFixed(2)} ms a seam; one thread`,
    },
    {
      name: 'planet/seam-job/32^3/whole-parts',
      unit: 'seams/s',
      runs: 5,
      warmup: 1,
      setup,
      run: run('whole'),
      toValue: seamsPerS,
      notes: () => `peer: the same seams from whole unpacked boundaries; median ${median(perSeam.whole).toFixed(2)} ms a seam, ${(median(perSeam.whole) / median(perSeam.packed)).toFixed(2)}× the packed parts'`,
    },
  ];
}

export const benchmarks: Benchmark[] = [...planetBenches(), ...seamBenches()];
