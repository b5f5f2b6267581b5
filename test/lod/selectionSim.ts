/**
 * Where a big planet's chunks go (issue 42), shared by the bench (test/bench/planetSelection.bench.ts)
 * and the leaf-count test (selectionLeaves.test.ts): the production selector (`PlanetLodSelector`,
 * τ 6 px, 720 p, 45°, as PlanetView asks) run to convergence over a 400 m view of planet 2
 * (2,181 km), each request (`perRound` a round, in priority order) answered by a simulated chunk
 * job: the level's band-limited field on a lattice of `lattice`³ cells for the sign, and for the
 * proof the production lattice's gap (chunkSampleGapM) with the minimum over the coarser lattice
 * standing in for the 33³ one — a coarser simulated lattice proves less, never more.
 */
import { bandLimitSummary, bandLipschitz, compileToJs, recipeBounds, type FieldFn } from '../../src/field/index';
import {
  childProofs, chunkKey, chunkSampleGapM, CubeSphereSpace, homogeneityFromSamples, levelErrorsM, levelMinWavelengthM, parseChunkKey,
  PlanetLodSelector, planetShell, type ChunkKey, type LodView, type PlanetShell,
} from '../../src/lod/index';
import { planetRecipe } from '../../src/scene/index';
import { cross, dot, norm } from './helpers';

type V3 = [number, number, number];

export const SIM_SEED = 2;
export const SIM_ALTITUDE_M = 400;
export const SIM_TAU_PX = 6;
const FOV_DEG = 45;
const HEIGHT_PX = 720;

export interface SimOptions {
  /** Proofs by the level's band Lipschitz (true) or the full field's. */
  useBand: boolean;
  /** Children proven from their parent's samples. */
  children: boolean;
  /** Cells per chunk edge of the simulated lattice (default 8). */
  lattice?: number;
  /** Requests answered per round (default 48). */
  perRound?: number;
}

export interface SimOutcome {
  jobs: number;
  leaves: number;
  /** Leaves holding a surface (neither empty nor full): the picture. */
  surface: number;
  /** Per level: leaves/surface/empty/full. */
  perLevel: string;
  /** Wall time of each `select` (one LOD answer), ms. */
  selectMs: number[];
  /** Everything a test needs to check the drawn set again. */
  space: CubeSphereSpace;
  shell: PlanetShell;
  view: LodView;
  levelErrorM: readonly number[];
  drawn: ChunkKey[];
  homogeneous: (key: ChunkKey) => 'empty' | 'full' | undefined;
}

/** The camera 400 m over the ground along a fixed direction, looking 4° under the horizon. */
function surfaceView(space: CubeSphereSpace, field: FieldFn): LodView {
  const d = norm([0.3, 0.55, 0.78]);
  let r = space.radiusM + SIM_ALTITUDE_M;
  for (let i = 0; i < 30; i++) r -= field(d[0] * r, d[1] * r, d[2] * r) - SIM_ALTITUDE_M;
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
  return { cameraM: cam, projectionFactor: HEIGHT_PX / (2 * t), frustumPlanes: planes };
}

export function simulateSelection(options: SimOptions): SimOutcome {
  const { useBand, children } = options;
  const lattice = options.lattice ?? 8;
  const perRound = options.perRound ?? 48;
  const recipe = planetRecipe(SIM_SEED);
  const bounds = recipeBounds(recipe);
  const field = compileToJs(recipe);
  const spaceOptions = { radiusM: bounds.sphereRadiusM, chunkCells: 32, finestCellM: 1 };
  const space = new CubeSphereSpace(spaceOptions);
  const shell = planetShell(bounds);
  const view = surfaceView(space, field);

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
  const values = new Float64Array((lattice + 1) ** 3);
  const job = (key: ChunkKey) => {
    const a = parseChunkKey(key);
    const U = space.chunkUnits(a.level);
    const mapping = space.faceMapping(a.face);
    const b = band(a.level);
    let n = 0;
    for (let k = 0; k <= lattice; k++) for (let j = 0; j <= lattice; j++) for (let i = 0; i <= lattice; i++) {
      mapping.toWorld((a.ci + i / lattice) * U, (a.cj + j / lattice) * U, (a.ck + k / lattice) * U, w);
      values[n++] = b.f(w[0], w[1], w[2]);
    }
    const gapM = chunkSampleGapM(space, a.level, shell.outerM) + b.noiseBoundM / b.lipschitz;
    const h = homogeneityFromSamples(values, b.lipschitz, gapM);
    if (h && b.shellsDropped) h.proven = false;
    const proofs = children && a.level > 0 && !b.shellsDropped ? childProofs(values, lattice + 1, 1, b.lipschitz * gapM) : [];
    return { h, proofs, a };
  };

  const levelErrorM = levelErrorsM(recipe, space, bounds.lipschitz);
  const select = { maxScreenErrorPx: SIM_TAU_PX, levelErrorM };
  const selector = new PlanetLodSelector({ space: spaceOptions, shell, field, lipschitz: bounds.lipschitz, select });
  let jobs = 0;
  const selectMs: number[] = [];
  const timedSelect = () => {
    const t0 = performance.now();
    const r = selector.select(view);
    selectMs.push(performance.now() - t0);
    return r;
  };
  let last = timedSelect();
  for (let round = 0; round < 2000 && last.requests.length > 0; round++) {
    for (const req of last.requests.slice(0, perRound)) {
      jobs++;
      const { h, proofs, a } = job(req.key);
      if (h) selector.markHomogeneous(req.key, h.state, h.proven);
      else selector.markReady([req.key]);
      proofs.forEach((p, c) => {
        if (p !== 0) selector.markHomogeneous(chunkKey(a.face, a.level - 1, 2 * a.ci + (c & 1), 2 * a.cj + ((c >> 1) & 1), 2 * a.ck + (c >> 2)), p === 1 ? 'empty' : 'full', true);
      });
    }
    last = timedSelect();
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
  return {
    jobs, leaves: last.drawn.length, surface, perLevel, selectMs, space, shell, view, levelErrorM, drawn: last.drawn,
    homogeneous: (key) => selector.homogeneousState(key),
  };
}
