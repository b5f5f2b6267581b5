/**
 * Where a big planet's chunks go (issue 42): the production selector (`PlanetLodSelector`, τ 6 px,
 * 720 p, 45°, as PlanetView asks) run to convergence over a 400 m view of planet 2 (2,181 km),
 * each request (48 a round, in priority order) answered by a simulated chunk job: the level's
 * band-limited field on a 9³ lattice for the sign, and for the proof the production lattice's gap
 * (chunkSampleGapM) with the minimum over the coarser lattice standing in for the 33³ one.
 *
 * Rows: `planet/selection/400m/jobs` (the proofs of planetChunkJob.ts: band Lipschitz × gap +
 * dropped octaves, over the chunk and over each child's half of its lattice), `…/jobs-own-proofs-only`
 * (no child proven by its parent's samples), `…/jobs-full-lipschitz` (own proofs by the full field's
 * Lipschitz), same run; `…/leaves` and `…/surface-leaves` (leaves holding a surface: the picture,
 * the same under every rule). Notes: the leaves per level (leaves/visible/surface/empty/full). docs/lod.md
 * "Where the chunks go" has the table.
 */
import type { Benchmark, BenchRow } from './harness';
import { rowFrom } from './harness';
import { bandLimitSummary, bandLipschitz, compileToJs, recipeBounds, type FieldFn } from '../../src/field/index';
import {
  childProofs, chunkKey, chunkSampleGapM, CubeSphereSpace, homogeneityFromSamples, levelErrorsM, levelMinWavelengthM, parseChunkKey,
  PlanetLodSelector, planetShell, type ChunkKey, type LodView,
} from '../../src/lod/index';
import { planetRecipe } from '../../src/scene/index';
import { cross, dot, norm } from '../lod/helpers';

type V3 = [number, number, number];

const SEED = 2;
const ALTITUDE_M = 400;
const FOV_DEG = 45;
const HEIGHT_PX = 720;
const LATTICE = 8;
const PER_ROUND = 48;

interface Outcome { jobs: number; leaves: number; surface: number; perLevel: string }

function simulate(useBand: boolean, children: boolean): Outcome {
  const recipe = planetRecipe(SEED);
  const bounds = recipeBounds(recipe);
  const field = compileToJs(recipe);
  const spaceOptions = { radiusM: bounds.sphereRadiusM, chunkCells: 32, finestCellM: 1 };
  const space = new CubeSphereSpace(spaceOptions);
  const shell = planetShell(bounds);
  // The camera ALTITUDE_M over the ground along a fixed direction, looking 4° under the horizon.
  const d = norm([0.3, 0.55, 0.78]);
  let r = space.radiusM + ALTITUDE_M;
  for (let i = 0; i < 30; i++) r -= field(d[0] * r, d[1] * r, d[2] * r) - ALTITUDE_M;
  const cam: V3 = [d[0] * r, d[1] * r, d[2] * r];
  const ahead = norm([-d[1], d[0], 0]);
  const forward = norm([100 * ahead[0] - 7 * d[0], 100 * ahead[1] - 7 * d[1], 100 * ahead[2] - 7 * d[2]]);
  const right = norm(cross(forward, d));
  const up = cross(right, forward);
  const t = Math.tan((FOV_DEG * Math.PI) / 360);
  const planes: number[] = [];
  const side = (n: V3): void => {
    const u = norm(n);
    planes.push(u[0], u[1], u[2], -dot(u, cam));
  };
  for (const s of [1, -1]) side([forward[0] * t * 16 / 9 + s * right[0], forward[1] * t * 16 / 9 + s * right[1], forward[2] * t * 16 / 9 + s * right[2]]);
  for (const s of [1, -1]) side([forward[0] * t + s * up[0], forward[1] * t + s * up[1], forward[2] * t + s * up[2]]);
  side(forward);
  planes.push(-forward[0], -forward[1], -forward[2], dot(forward, cam) + 1e9);
  const view: LodView = { cameraM: cam, projectionFactor: HEIGHT_PX / (2 * t), frustumPlanes: planes };

  const bands = new Map<number, { f: FieldFn; lipschitz: number; noiseBoundM: number; shellsDropped: boolean }>();
  const band = (level: number) => {
    let b = bands.get(level);
    if (!b) {
      const w = levelMinWavelengthM(space, level);
      const summary = bandLimitSummary(recipe, w, bounds.lipschitz);
      b = {
        f: compileToJs(recipe, { minWavelengthM: w }), lipschitz: useBand ? Math.min(bounds.lipschitz, bandLipschitz(recipe, w)) : bounds.lipschitz,
        noiseBoundM: summary.noiseBoundM, shellsDropped: summary.shellsDropped,
      };
      bands.set(level, b);
    }
    return b;
  };
  const w = new Float64Array(3);
  const values = new Float64Array((LATTICE + 1) ** 3);
  const job = (key: ChunkKey) => {
    const a = parseChunkKey(key);
    const U = space.chunkUnits(a.level);
    const mapping = space.faceMapping(a.face);
    const b = band(a.level);
    let n = 0;
    for (let k = 0; k <= LATTICE; k++) for (let j = 0; j <= LATTICE; j++) for (let i = 0; i <= LATTICE; i++) {
      mapping.toWorld((a.ci + i / LATTICE) * U, (a.cj + j / LATTICE) * U, (a.ck + k / LATTICE) * U, w);
      values[n++] = b.f(w[0], w[1], w[2]);
    }
    const gapM = chunkSampleGapM(space, a.level, shell.outerM) + b.noiseBoundM / b.lipschitz;
    const h = homogeneityFromSamples(values, b.lipschitz, gapM);
    if (h && b.shellsDropped) h.proven = false;
    const proofs = children && a.level > 0 && !b.shellsDropped ? childProofs(values, LATTICE + 1, 1, b.lipschitz * gapM) : [];
    return { h, proofs, a };
  };

  const select = { maxScreenErrorPx: 6, levelErrorM: levelErrorsM(recipe, space, bounds.lipschitz) };
  const selector = new PlanetLodSelector({ space: spaceOptions, shell, field, lipschitz: bounds.lipschitz, select });
  let jobs = 0;
  let last = selector.select(view);
  for (let round = 0; round < 2000 && last.requests.length > 0; round++) {
    for (const req of last.requests.slice(0, PER_ROUND)) {
      jobs++;
      const { h, proofs, a } = job(req.key);
      if (h) selector.markHomogeneous(req.key, h.state, h.proven);
      else selector.markReady([req.key]);
      proofs.forEach((p, c) => {
        if (p !== 0) selector.markHomogeneous(chunkKey(a.face, a.level - 1, 2 * a.ci + (c & 1), 2 * a.cj + ((c >> 1) & 1), 2 * a.ck + (c >> 2)), p === 1 ? 'empty' : 'full', true);
      });
    }
    last = selector.select(view);
  }
  const rows = new Map<number, number[]>();
  let surface = 0;
  last.drawn.forEach((key) => {
    const a = parseChunkKey(key);
    const row = rows.get(a.level) ?? [0, 0, 0, 0];
    const state = selector.homogeneousState(key);
    row[0]++;
    if (!state) {
      row[1]++;
      surface++;
    } else row[state === 'empty' ? 2 : 3]++;
    rows.set(a.level, row);
  });
  const perLevel = [...rows].sort((x, y) => x[0] - y[0]).map(([l, v]) => `L${l} ${v.join('/')}`).join(', ');
  return { jobs, leaves: last.drawn.length, surface, perLevel };
}

let band: Outcome | null = null;
let own: Outcome | null = null;
let full: Outcome | null = null;

export const benchmarks: Benchmark[] = [{
  name: `planet/selection/${ALTITUDE_M}m/jobs`,
  unit: 'jobs',
  runs: 1,
  warmup: 0,
  run: () => {
    band = simulate(true, true);
    own = simulate(true, false);
    full = simulate(false, false);
  },
  toValue: () => band!.jobs,
  notes: () => `planet ${SEED} (2,181 km), ${ALTITUDE_M} m up, tau 6 px at 720p, 45 deg; simulated jobs (9^3 band-limited lattice, production gap, children proven from their parent's samples); drawn leaves per level (leaves/surface/empty/full): ${band!.perLevel}`,
  extraRows: (): BenchRow[] => [
    rowFrom(`planet/selection/${ALTITUDE_M}m/jobs-own-proofs-only`, 'jobs', [own!.jobs], `no child proven from its parent's samples (the rule before); ${(own!.jobs / band!.jobs).toFixed(2)}x the jobs`),
    rowFrom(`planet/selection/${ALTITUDE_M}m/jobs-full-lipschitz`, 'jobs', [full!.jobs], `own proofs with the full field's Lipschitz (the rule before that); ${(full!.jobs / band!.jobs).toFixed(2)}x the jobs`),
    rowFrom(`planet/selection/${ALTITUDE_M}m/leaves`, 'leaves', [band!.leaves], `own proofs only: ${own!.leaves}; full-Lipschitz: ${full!.leaves}`),
    rowFrom(`planet/selection/${ALTITUDE_M}m/surface-leaves`, 'leaves', [band!.surface], `own proofs only: ${own!.surface}; full-Lipschitz: ${full!.surface} (the picture)`),
  ],
}];
