/**
 * Probe physics (issue 19) on seed 6's asteroid (the app's single-asteroid scene, 152 m, meshed at
 * 64 cells by the real body job): building its collider (our Trimesh with a triangle grid, against
 * cannon-es's own constructor and octree as the peer), the collider's bytes a triangle (Roblox's
 * chunked collision tree: 24.5 B; docs/design.md#sources), and the world's step with 50 probes resting on it and with 50 in
 * flight toward it. Then 50 probes at rest on a planet's surface: seed 4's planet in the app's chunk
 * space (32 cells, 1 m at the finest level), the 3 × 3 × 3 finest chunks around a surface point
 * meshed by the real chunk job, one collider each at its chunk's origin, as Probes.ts builds them.
 */
import { Trimesh } from 'cannon-es';
import { colliderBytes, colliderTriangles, meshCollider } from '../../src/physics/meshCollider.ts';
import { PhysicsWorld, STEP_S, type Vec3Tuple } from '../../src/physics/PhysicsWorld.ts';
import { compileToJs, recipeBounds } from '../../src/field/index.ts';
import { CubeSphereSpace } from '../../src/lod/index.ts';
import { asteroidGrid, singleAsteroidSpec } from '../../src/scene/index.ts';
import { planetRecipe } from '../../src/scene/planets.ts';
import { meshPlanetChunk } from '../jobs/oneWorker';
import { meshBody } from '../jobs/oneWorker';
import { registerBody } from '../jobs/oneWorker';
import type { Benchmark } from './harness.ts';

const spec = singleAsteroidSpec(6).asteroids[0];
const grid = asteroidGrid(spec);
registerBody(spec.id, { recipe: spec.recipe });
const mesh = meshBody({ body: spec.id, cells: 64, originM: grid.originM, stepM: grid.extentM / 64, simplify: 0.02, bvh: false });
const offset: Vec3Tuple = [mesh.originM[0] - spec.bodyCenterM[0], mesh.originM[1] - spec.bodyCenterM[1], mesh.originM[2] - spec.bodyCenterM[2]];
const triangles = mesh.indices.length / 3;
const still = { positionM: [0, 0, 0] as Vec3Tuple, quaternion: [0, 0, 0, 1] as [number, number, number, number] };
const toCentre = (p: Vec3Tuple): Vec3Tuple => {
  const r = Math.hypot(...p) || 1;
  const g = (spec.radiusM / Math.max(r, spec.radiusM / 2)) ** 2;
  return [(-p[0] / r) * g, (-p[1] / r) * g, (-p[2] / r) * g];
};

/** A world with 50 probes of 2 m thrown at the asteroid from every side, 100 m out, at 40 m/s. */
function throwFifty(): PhysicsWorld {
  const world = new PhysicsWorld({ gravityAt: toCentre, maxProbes: 50 });
  world.setCollider('rock', meshCollider(mesh, offset), still);
  for (let i = 0; i < 50; i++) {
    const z = 1 - (2 * (i + 0.5)) / 50;
    const a = i * 2.39996;
    const d: Vec3Tuple = [Math.sqrt(1 - z * z) * Math.cos(a), Math.sqrt(1 - z * z) * Math.sin(a), z];
    const r = spec.radiusM + 100;
    world.throwProbe([d[0] * r, d[1] * r, d[2] * r], [-d[0] * 40, -d[1] * 40, -d[2] * 40], 2);
  }
  return world;
}

/** Seed 4's planet: the finest chunks around a surface point, and that point's up direction and radius. */
function planetPatch() {
  const recipe = planetRecipe(4);
  const bounds = recipeBounds(recipe);
  const space = { radiusM: bounds.sphereRadiusM, chunkCells: 32, finestCellM: 1 };
  registerBody('bench:planet', { recipe, space });
  const cs = new CubeSphereSpace(space);
  const field = compileToJs(recipe);
  const surfaceAlong = (up: number[]): number => {
    let lo = bounds.sphereRadiusM * 0.9, hi = bounds.sphereRadiusM * 1.1;
    for (let i = 0; i < 60; i++) {
      const mid = (lo + hi) / 2;
      if (field(up[0] * mid, up[1] * mid, up[2] * mid) < 0) lo = mid;
      else hi = mid;
    }
    return lo;
  };
  const d = [0.3, 0.55, 0.78].map((v) => v / Math.hypot(0.3, 0.55, 0.78));
  const r0 = surfaceAlong(d);
  const g = [0, 0, 0, 0];
  cs.fromWorld(d[0] * r0, d[1] * r0, d[2] * r0, g);
  const U = cs.chunkUnits(0);
  // The middle of the chunk column there: probes land away from the chunk borders, where the app's
  // seams (not built here) close the one-cell gaps between chunks.
  const up = [0, 0, 0];
  cs.direction(g[0], (Math.floor(g[1] / U) + 0.5) * U, (Math.floor(g[2] / U) + 0.5) * U, up);
  const lo = surfaceAlong(up);
  cs.fromWorld(up[0] * lo, up[1] * lo, up[2] * lo, g);
  const chunks = [];
  for (let di = -1; di <= 1; di++) {
    for (let dj = -1; dj <= 1; dj++) {
      for (let dk = -1; dk <= 1; dk++) {
        const r = meshPlanetChunk({
          body: 'bench:planet', face: g[0], level: 0, ci: Math.floor(g[1] / U) + di, cj: Math.floor(g[2] / U) + dj, ck: Math.floor(g[3] / U) + dk,
          coarser: [], simplify: 0.02,
        });
        if (!r.homogeneous) chunks.push(r);
      }
    }
  }
  return { up, surfaceM: lo, chunks, pull: (p: Vec3Tuple): Vec3Tuple => {
    const d = Math.hypot(...p);
    const a = 1.62 * (bounds.sphereRadiusM / d) ** 2;
    return [(-a * p[0]) / d, (-a * p[1]) / d, (-a * p[2]) / d];
  } };
}

let patch: ReturnType<typeof planetPatch> | null = null;
let onPlanet: PhysicsWorld | null = null;
let planetSettleS = 0;

/**
 * 50 probes of 1 m dropped from 30 m over the middle chunk (2.5 m apart, a 15 × 17.5 m patch), at rest.
 * The seams between chunks are not built here: a probe that lands on the one-cell gap between two
 * chunks falls through (the notes give how many rest), where in the app a seam's collider holds it.
 */
function dropFiftyOnPlanet(): PhysicsWorld {
  patch ??= planetPatch();
  const { up, surfaceM, chunks, pull } = patch;
  const world = new PhysicsWorld({ gravityAt: pull, maxProbes: 50 });
  chunks.forEach((c, i) => world.setCollider(`chunk:${i}`, meshCollider({ positions: c.positions, indices: c.indices }), { positionM: c.originM, quaternion: [0, 0, 0, 1] }, [-c.originM[0], -c.originM[1], -c.originM[2]]));
  const e1 = [-up[1], up[0], 0].map((v) => v / Math.hypot(up[0], up[1]));
  const e2 = [up[1] * e1[2] - up[2] * e1[1], up[2] * e1[0] - up[0] * e1[2], up[0] * e1[1] - up[1] * e1[0]];
  for (let i = 0; i < 50; i++) {
    const a = ((i % 7) - 3) * 2.5, b = (Math.floor(i / 7) - 3.5) * 2.5;
    const p = [0, 1, 2].map((k) => up[k] * (surfaceM + 30) + e1[k] * a + e2[k] * b) as Vec3Tuple;
    world.throwProbe(p, [-up[0] * 5, -up[1] * 5, -up[2] * 5], 1);
  }
  let t = 0;
  world.update(t);
  while (world.stats().resting < 50 && t < 180) world.update((t += 1 / 60));
  planetSettleS = t;
  return world;
}

let resting: PhysicsWorld | null = null;
let flying: PhysicsWorld | null = null;
let settleS = 0;

export const benchmarks: Benchmark[] = [
  {
    name: 'physics/collider/asteroid-64/build',
    unit: 'ms',
    runs: 7,
    run: () => meshCollider(mesh, offset),
    notes: () => {
      const shape = meshCollider(mesh, offset);
      const t0 = performance.now();
      const theirs = new Trimesh(Array.from(mesh.positions), Array.from(mesh.indices));
      const peerMs = performance.now() - t0;
      return `${triangles} triangles; peer: cannon-es's own Trimesh (16-bit indices, octree) ${peerMs.toFixed(0)} ms once, ${theirs.indices.length / 3} triangles`
        + `; ${(colliderBytes(shape) / colliderTriangles(shape)).toFixed(1)} B a triangle`;
    },
  },
  {
    name: 'physics/collider/asteroid-64/bytes-per-triangle',
    unit: 'B',
    runs: 1,
    warmup: 0,
    run: () => undefined,
    toValue: () => {
      const shape = meshCollider(mesh, offset);
      return colliderBytes(shape) / colliderTriangles(shape);
    },
    notes: 'vertices, 32-bit indices, face normals and the triangle grid; seed 003: 24.5 B a triangle',
  },
  {
    name: 'physics/step/50-probes-resting',
    unit: 'ms',
    runs: 9,
    setup: () => {
      resting = throwFifty();
      let t = 0;
      resting.update(t);
      while (resting.stats().resting < 50 && t < 120) resting.update((t += 1 / 60));
      settleS = t;
    },
    run: () => resting!.step(),
    notes: () => `per fixed step (${(STEP_S * 1000).toFixed(2)} ms of scene time): ${resting!.stats().resting}/50 resting after ${settleS.toFixed(1)} s, on ${triangles} triangles`,
  },
  {
    name: 'physics/step/50-probes-flying',
    unit: 'ms',
    runs: 9,
    setup: () => {
      flying = throwFifty();
    },
    // A fresh throw each run: 20 steps of 50 probes in flight (each takes the swept test).
    run: () => {
      flying = throwFifty();
      for (let i = 0; i < 20; i++) flying.step();
    },
    toValue: (ms) => ms / 20,
    notes: 'per fixed step, 50 probes at 40 m/s before they land (a swept ray test each)',
  },
  {
    name: 'physics/step/50-probes-planet-surface',
    unit: 'ms',
    runs: 9,
    setup: () => {
      onPlanet = dropFiftyOnPlanet();
    },
    run: () => onPlanet!.step(),
    notes: () => {
      const s = onPlanet!.stats();
      const tris = patch!.chunks.reduce((n, c) => n + c.indices.length / 3, 0);
      return `per fixed step: ${s.resting}/50 resting (the rest fell through the gaps between chunks: no seams here) after ${planetSettleS.toFixed(1)} s on seed 4's planet, ${patch!.chunks.length} finest chunk colliders (${tris} triangles), resting penetration ${s.restingPenetrationM.toExponential(1)} m`;
    },
  },
];
