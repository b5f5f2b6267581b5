/** Seed → recipes and the whole scene (sceneSpec). Pure: runs in Node, workers and pages. */
export { asteroidRecipe, asteroidFamily, ASTEROID_FAMILIES, ASTEROID_RADIUS_MIN_M, ASTEROID_RADIUS_MAX_M, type AsteroidFamily, type AsteroidOptions } from './asteroids';
export { planetRecipe, planetWorld, planetGround, PLANET_RADIUS_MIN_M, PLANET_RADIUS_MAX_M, type PlanetWorld } from './planets';
export { PLANET_CLASSES, PLANET_CLASS_LABELS, planetClassOf, planetAir, parsePlanetClass, type PlanetClass, type AirKind } from './planetClasses';
export { asteroidFieldSpec, asteroidGrid, singleAsteroidSpec, spinSweepM, DEFAULT_ASTEROID_COUNT, type AsteroidFieldSpec, type AsteroidSpec } from './asteroidField';
export { explorePlanet, heroCamera, PLANET_ASIDE_RAD, PLANET_DISTANCE_RADII, type ExplorePlanetSpec } from './exploreScene';
export { sceneSpec, type SceneKind, type ScenePlanet, type SceneSpec, type SceneOptions } from './sceneSpec';
export { bodyId } from './bodyId';
export { planetSurfaceView } from './planetSurfaceView';
export { recipeKey, recipeSceneSpec } from './recipeScene';
