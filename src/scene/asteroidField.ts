/**
 * Seed → the asteroid field of the explore scene: which asteroids (each its own seed and
 * recipe), where, how they spin, and where the sun is. Pure and deterministic: every number
 * comes from the project PRNG in a fixed order.
 */
import { recipeBounds } from '../field/bounds';
import { Prng } from '../field/prng';
import type { FieldRecipe, Vec3 } from '../field/recipe';
import { bodyId } from './bodyId';
import { asteroidFamily, asteroidRecipe, type AsteroidFamily } from './asteroids';

export interface AsteroidSpec {
  /** Body id (bodyId.ts): what jobs name this asteroid's recipe by. */
  id: string;
  /** Index in the field (0 is the hero asteroid at the origin). */
  index: number;
  /** The asteroid's own seed (what the gallery shows for it). */
  seed: number;
  family: AsteroidFamily;
  recipe: FieldRecipe;
  /** Bounding-sphere radius of the recipe, metres. */
  radiusM: number;
  /** Where the asteroid's bounding-sphere center sits, world metres (it spins about this point). */
  positionM: Vec3;
  /** The bounding-sphere center in the recipe's own (body-local) frame, metres. */
  bodyCenterM: Vec3;
  /** Spin axis (unit) and rate. */
  spinAxis: Vec3;
  spinRadPerS: number;
  /** Orientation at t = 0 around the spin axis. */
  phaseRad: number;
}

export interface AsteroidFieldSpec {
  seed: number;
  /** Unit vector from the field towards the sun. */
  sunDirection: Vec3;
  asteroids: AsteroidSpec[];
  /** Radius of the sphere holding every asteroid, metres. */
  extentM: number;
}

export const DEFAULT_ASTEROID_COUNT = 36;

/** Gaps between asteroids, as a multiple of the sum of their radii. */
const SPACING = 1.6;

export function asteroidFieldSpec(seed: number, count = DEFAULT_ASTEROID_COUNT): AsteroidFieldSpec {
  if (!Number.isInteger(count) || count < 1 || count > 500) throw new RangeError(`asteroid count must be 1…500, got ${count}`);
  const prng = new Prng(seed);
  const sunDirection = normalize([prng.range(-1, 1), prng.range(0.2, 0.8), prng.range(-1, 1)]);
  const asteroids: AsteroidSpec[] = [];
  let extentM = 0;
  for (let index = 0; index < count; index++) {
    const astSeed = prng.nextUint32();
    const recipe = asteroidRecipe(astSeed);
    const bounds = recipeBounds(recipe);
    const radiusM = bounds.sphereRadiusM;
    let positionM: Vec3 = [0, 0, 0];
    if (index > 0) {
      // A thick disc around the hero: rejection-sample until nothing overlaps.
      for (let attempt = 0; attempt < 64; attempt++) {
        const r = prng.range(3000, 24000);
        const a = prng.range(0, 2 * Math.PI);
        const candidate: Vec3 = [r * Math.cos(a), prng.range(-2500, 2500), r * Math.sin(a)];
        const clear = asteroids.every(
          (o) => dist(candidate, o.positionM) > SPACING * (radiusM + o.radiusM),
        );
        positionM = candidate;
        if (clear) break;
      }
    }
    asteroids.push({
      id: bodyId('asteroid', astSeed),
      index,
      seed: astSeed,
      family: asteroidFamily(astSeed),
      recipe,
      radiusM,
      positionM,
      bodyCenterM: [...bounds.sphereCenter] as Vec3,
      spinAxis: normalize(prng.unitVector() as Vec3),
      // Real small bodies spin in hours; a little faster here so it is visible.
      spinRadPerS: prng.range(0.002, 0.02) * (prng.next() < 0.5 ? -1 : 1),
      phaseRad: prng.range(0, 2 * Math.PI),
    });
    extentM = Math.max(extentM, Math.hypot(...positionM) + radiusM);
  }
  return { seed, sunDirection, asteroids, extentM };
}

function normalize(v: Vec3): Vec3 {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
}

function dist(a: Vec3, b: Vec3): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/**
 * One asteroid on its own: `asteroidRecipe(seed)` at the origin, not spinning, lit from a
 * seeded direction. What the gallery shows and `mode=asteroid` explores.
 */
export function singleAsteroidSpec(seed: number): AsteroidFieldSpec {
  const prng = new Prng(seed ^ 0x5a5a5a5a);
  const recipe = asteroidRecipe(seed);
  const bounds = recipeBounds(recipe);
  const sunDirection = normalize([prng.range(-1, 1), prng.range(0.3, 0.9), prng.range(0.2, 1)]);
  return {
    seed,
    sunDirection,
    extentM: bounds.sphereRadiusM,
    asteroids: [
      {
        id: bodyId('asteroid', seed),
        index: 0,
        seed,
        family: asteroidFamily(seed),
        recipe,
        radiusM: bounds.sphereRadiusM,
        positionM: [0, 0, 0],
        bodyCenterM: [...bounds.sphereCenter] as Vec3,
        spinAxis: [0, 1, 0],
        spinRadPerS: 0,
        phaseRad: 0,
      },
    ],
  };
}

/**
 * The cartesian grid a body job meshes an asteroid on: a cube around the recipe's bounding
 * box with a 2% margin, origin at its minimum corner (body-local metres).
 */
export function asteroidGrid(spec: Pick<AsteroidSpec, 'recipe'>): { originM: [number, number, number]; extentM: number } {
  const b = recipeBounds(spec.recipe);
  const extentM = Math.max(b.boxMax[0] - b.boxMin[0], b.boxMax[1] - b.boxMin[1], b.boxMax[2] - b.boxMin[2]) * 1.04;
  const c = [0, 1, 2].map((a) => 0.5 * (b.boxMin[a] + b.boxMax[a]));
  return { originM: [c[0] - extentM / 2, c[1] - extentM / 2, c[2] - extentM / 2], extentM };
}

/**
 * How far (m) spin has moved the surface of any asteroid that can reach a sphere around `center`
 * of radius `reachM` in `dtS` seconds: the fastest such rim's arc, |ω| · radius · dt (a bound:
 * every surface point of an asteroid lies within its bounding sphere around the spin centre). What
 * a shadow map rendered `dtS` ago is off by for the casters in it (SceneBodies re-renders it past
 * half a texel).
 */
export function spinSweepM(asteroids: readonly Pick<AsteroidSpec, 'positionM' | 'radiusM' | 'spinRadPerS'>[], center: Vec3, reachM: number, dtS: number): number {
  let sweep = 0;
  for (const a of asteroids) {
    const d = Math.hypot(a.positionM[0] - center[0], a.positionM[1] - center[1], a.positionM[2] - center[2]);
    if (d - a.radiusM > reachM) continue;
    sweep = Math.max(sweep, Math.abs(a.spinRadPerS) * a.radiusM * Math.abs(dtS));
  }
  return sweep;
}
