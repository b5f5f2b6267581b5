/**
 * Seed + scene kind → the whole scene, before anything is built: the bodies (each with its id,
 * recipe, placement and spin), the sun, the sky's seed and the default camera. Pure and
 * deterministic (Node-tested); App builds the asteroid field, the planet and the sky from it,
 * and the gallery shows `sceneSpec(seed, 'asteroid')` per cell.
 *
 * Body ids name a recipe for the workers (`registerBody`, src/jobs/bodyRegistry.ts): a job
 * carries the id, not the recipe. An id is a function of what generates the recipe (family of
 * generator and seed), so two scenes that show the same body share its registration.
 */
import { recipeBounds } from '../field/bounds';
import type { FieldRecipe, Vec3 } from '../field/recipe';
import { asteroidFieldSpec, singleAsteroidSpec, type AsteroidFieldSpec } from './asteroidField';
import { bodyId } from './bodyId';
import { explorePlanet, heroCamera } from './exploreScene';
import type { AtmosphereSpec, CloudSpec, SeaSpec } from '../field/atmosphereMedium';
import { planetAtmosphere, planetClouds } from './planetAtmosphere';
import { planetWorld, type PlanetWorld } from './planets';
import { planetClassOf, type PlanetClass } from './planetClasses';

/** What a URL mode shows: the explore scene (asteroid field + planet), one asteroid, one planet. */
export type SceneKind = 'explore' | 'asteroid' | 'planet';

export interface ScenePlanet {
  /** Body id (see the header). */
  id: string;
  seed: number;
  recipe: FieldRecipe;
  /** Bounding radius of the recipe, metres. */
  radiusM: number;
  /** World position of the planet's center (the recipe is body-local around it), metres. */
  centerM: Vec3;
  /** Its class (src/scene/planetClasses.ts): the seed's, or the one `class=` asked for. */
  planetClass: PlanetClass;
  /** Its atmosphere (src/scene/planetAtmosphere.ts); null: airless. */
  atmosphere: AtmosphereSpec | null;
  /** Its sea (drawn beside the field), or null. */
  sea: SeaSpec | null;
  /** Its cloud layer, or null. */
  clouds: CloudSpec | null;
}

/** What a scene may be asked for beyond its seed and kind. */
export interface SceneOptions {
  /** Draw the planet as this class instead of its seed's (`class=`; the seed still decides the rest). */
  planetClass?: PlanetClass;
}

export interface SceneSpec {
  seed: number;
  kind: SceneKind;
  /** Unit vector from the scene towards the sun (one sun lights every body). */
  sunDirection: Vec3;
  /** Seed of the procedural sky (stars, nebula). */
  skySeed: number;
  /** The asteroids (explore: the field; asteroid: one at the origin); null in planet mode. */
  asteroids: AsteroidFieldSpec | null;
  /** The LOD planet (explore: beside the field; planet: at the origin); null in asteroid mode. */
  planet: ScenePlanet | null;
  /** Where the camera starts when the URL gives none. */
  camera: { position: Vec3; target: Vec3 };
}

/**
 * Planet mode's sun: side-on to the default view (3 R out along ~(0.29, 0.19, 0.94)), so the
 * terminator shows.
 */
const PLANET_SUN: Vec3 = normalize([0.9, 0.35, -0.25]);

export function sceneSpec(seed: number, kind: SceneKind, options: SceneOptions = {}): SceneSpec {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new RangeError(`scene seed must be an integer in [0, 2^32), got ${seed}`);
  if (kind === 'planet') {
    const world = planetWorld(seed, options.planetClass);
    const radiusM = recipeBounds(world.recipe).sphereRadiusM;
    return {
      seed,
      kind,
      sunDirection: PLANET_SUN,
      skySeed: seed,
      asteroids: null,
      planet: scenePlanet(world, radiusM, [0, 0, 0], options),
      // Three radii out, the sunlit limb in view.
      camera: { position: [0.9 * radiusM, 0.6 * radiusM, 2.8 * radiusM], target: [0, 0, 0] },
    };
  }
  const asteroids = kind === 'asteroid' ? singleAsteroidSpec(seed) : asteroidFieldSpec(seed);
  const planet = kind === 'explore' ? explorePlanet(seed, asteroids) : null;
  return {
    seed,
    kind,
    sunDirection: asteroids.sunDirection,
    skySeed: seed,
    asteroids,
    planet: planet && scenePlanet(planet.world, planet.radiusM, planet.centerM, {}),
    camera: heroCamera(asteroids),
  };
}

function scenePlanet(world: PlanetWorld, radiusM: number, centerM: Vec3, options: SceneOptions): ScenePlanet {
  const { seed, recipe } = world;
  const atmosphere = planetAtmosphere(seed, world.meanRadiusM, world.lowestM, world.air);
  const overridden = options.planetClass !== undefined && options.planetClass !== planetClassOf(seed);
  return {
    id: bodyId('planet', seed, overridden ? world.planetClass : undefined),
    seed,
    recipe,
    radiusM,
    centerM,
    planetClass: world.planetClass,
    atmosphere,
    sea: world.sea,
    clouds: planetClouds(seed, world.planetClass, atmosphere, world.meanRadiusM, world.meanRadiusM - world.lowestM),
  };
}

function normalize(v: Vec3): Vec3 {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
}
