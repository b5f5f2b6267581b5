/**
 * Seed → the explore scene: the asteroid field of `asteroidFieldSpec(seed)` and, beside it, the
 * LOD planet of `planetRecipe(seed)` (the same planet `mode=planet` shows alone). Pure and
 * deterministic; App and PlanetView only place what this decides.
 *
 * Placement: the planet sits behind the hero asteroid as seen from the default camera, turned
 * aside towards the sun by {@link PLANET_ASIDE_RAD} so the hero does not hide it, at
 * {@link PLANET_DISTANCE_RADII} radii from the field's center: it spans about 29° of the default
 * 45° view, seen half lit (phase angle near 90°), so its terminator and relief show. The gap to the
 * field is at least the field's extent plus 50 km.
 */
import { recipeBounds } from '../field/bounds';
import type { FieldRecipe, Vec3 } from '../field/recipe';
import type { AsteroidFieldSpec } from './asteroidField';
import { planetWorld, type PlanetWorld } from './planets';

/** Distance of the planet's center from the field's center, in planet radii. */
export const PLANET_DISTANCE_RADII = 4;
/** Angle between the default view axis and the direction to the planet (rad). */
export const PLANET_ASIDE_RAD = 0.32;

export interface ExplorePlanetSpec {
  /** The planet of the seed (its class, sea, air). */
  world: PlanetWorld;
  recipe: FieldRecipe;
  /** Bounding radius of the recipe, metres. */
  radiusM: number;
  /** World position of the planet's center (the recipe is body-local around it), metres. */
  centerM: Vec3;
}

/**
 * The default camera: beside the sun direction (so the hero's terminator shows), 3.2 hero radii
 * from the hero's center, looking at it.
 */
export function heroCamera(field: AsteroidFieldSpec): { position: Vec3; target: Vec3 } {
  const hero = field.asteroids[0];
  const sun = field.sunDirection;
  // side = up × sun, normalised
  const side = normalize([sun[2], 0, -sun[0]]);
  const dir = normalize([sun[0] * 0.3 + side[0], sun[1] * 0.3 + side[1], sun[2] * 0.3 + side[2]]);
  const d = hero.radiusM * 3.2;
  const t = hero.positionM;
  return { position: [t[0] + dir[0] * d, t[1] + dir[1] * d, t[2] + dir[2] * d], target: [t[0], t[1], t[2]] };
}

/** The explore scene of a seed: its asteroid field and its planet, placed. */
export function explorePlanet(seed: number, field: AsteroidFieldSpec): ExplorePlanetSpec {
  const world = planetWorld(seed);
  const recipe = world.recipe;
  const bounds = recipeBounds(recipe);
  const radiusM = bounds.sphereRadiusM;
  const cam = heroCamera(field);
  // The view axis (eye → hero) points ~107° away from the sun; turned PLANET_ASIDE_RAD towards it,
  // the planet is seen at a phase angle near 90°: half lit, the terminator across its face.
  const view = normalize([cam.target[0] - cam.position[0], cam.target[1] - cam.position[1], cam.target[2] - cam.position[2]]);
  const sun = field.sunDirection;
  const dot = view[0] * sun[0] + view[1] * sun[1] + view[2] * sun[2];
  const towardsSun = normalize([sun[0] - dot * view[0], sun[1] - dot * view[1], sun[2] - dot * view[2]]);
  const c = Math.cos(PLANET_ASIDE_RAD), s = Math.sin(PLANET_ASIDE_RAD);
  const dir = normalize([c * view[0] + s * towardsSun[0], c * view[1] + s * towardsSun[1], c * view[2] + s * towardsSun[2]]);
  const distanceM = Math.max(PLANET_DISTANCE_RADII * radiusM, radiusM + field.extentM + 50e3);
  // The recipe's sphere center is the origin for planetRecipe; keep any offset it may carry.
  const bc = bounds.sphereCenter;
  return {
    world,
    recipe,
    radiusM,
    centerM: [dir[0] * distanceM - bc[0], dir[1] * distanceM - bc[1], dir[2] * distanceM - bc[2]],
  };
}

function normalize(v: Vec3): Vec3 {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
}
