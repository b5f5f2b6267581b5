/**
 * An imported recipe as a scene (issue 45: import any recipe): *Import recipe JSON* of a recipe that is
 * none of the scene's bodies — `assets/recipes/*.json`, or one exported from another seed — opens it
 * alone in asteroid mode, lit and framed as the seed's asteroid would be. Its body id is a content key
 * (`import:<key>`), so two imports of the same recipe share the workers' registration and never
 * collide with a generated body's id.
 *
 * Pure and deterministic (Node-tested: test/scene/recipeScene.test.ts).
 */
import { textHash } from '../field/brushEdits';
import { recipeBounds } from '../field/bounds';
import type { FieldRecipe, Vec3 } from '../field/recipe';
import { singleAsteroidSpec } from './asteroidField';
import { heroCamera } from './exploreScene';
import type { SceneSpec } from './sceneSpec';

/** A short content key of a recipe: the hash of its JSON (textHash, at most 14 characters). */
export function recipeKey(recipe: FieldRecipe): string {
  return textHash(JSON.stringify(recipe));
}

/**
 * Asteroid mode's scene for `recipe` (already validated: parseRecipe): one body at the origin, the sun
 * and the rock palette of `seed`'s asteroid, the camera 3.2 bounding radii out.
 */
export function recipeSceneSpec(recipe: FieldRecipe, seed: number): SceneSpec {
  const field = singleAsteroidSpec(seed);
  const bounds = recipeBounds(recipe);
  const seedAsteroid = field.asteroids[0];
  field.asteroids = [{
    ...seedAsteroid,
    id: `import:${recipeKey(recipe)}`,
    recipe,
    radiusM: bounds.sphereRadiusM,
    bodyCenterM: [...bounds.sphereCenter] as Vec3,
  }];
  field.extentM = bounds.sphereRadiusM;
  return {
    seed,
    kind: 'asteroid',
    sunDirection: field.sunDirection,
    skySeed: seed,
    asteroids: field,
    planet: null,
    camera: heroCamera(field),
  };
}
