/**
 * Probe physics (issue 19) on seed 6's asteroid (the app's single-asteroid scene, 152 m, meshed at
 * 64 cells by the real body job): building its collider (our Trimesh with a triangle grid, against
 * cannon-es's own constructor and octree as the peer), the collider's bytes a triangle (seed 003's
 * chunked collision tree: 24.5 B), and the world's step with 50 probes resting on it and with 50 in
 * flight toward it.
 */
import { Trimesh } from 'cannon-es';
import { colliderBytes, colliderTriangles, meshCollider } from '../../src/physics/meshCollider.ts';
import { PhysicsWorld, STEP_S, type Vec3Tuple } from '../../src/physics/PhysicsWorld.ts';
import { asteroidGrid, singleAsteroidSpec } from '../../src/scene/index.ts';
import { meshBody } from '../../src/workers/bodyJob.ts';
import { registerBody } from '../../src/workers/bodyRegistry.ts';
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
];
