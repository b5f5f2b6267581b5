/**
 * Which scene a URL state shows (ModeController.apply / buildScene): the mode's kind, the planet's class
 * (planet mode's `class=`), and in asteroid mode an imported recipe (`recipe=`, importedRecipes.ts)
 * instead of the seed's asteroid. Two states that agree on all of it (and on seed and quality) share
 * one built scene.
 */
import { recipeSceneSpec, sceneSpec, type SceneKind, type SceneSpec } from '../scene/index';
import { keptRecipe } from './importedRecipes';
import type { AppState } from './urlState';

/** The class the scene's planet is asked to have: the URL's `class`, in planet mode only. */
export function sceneClass(state: AppState): AppState['planetClass'] {
  return state.mode === 'planet' ? state.planetClass : null;
}

/** Which scene a mode shows. */
export function sceneKind(mode: AppState['mode']): SceneKind {
  return mode === 'planet' ? 'planet' : mode === 'asteroid' ? 'asteroid' : 'explore';
}

/** The imported recipe's key the scene shows ('' none): asteroid mode only. */
export function sceneRecipe(state: AppState): string {
  return state.mode === 'asteroid' ? state.recipe : '';
}

/** `a` and `b` show the same built scene. */
export function sameScene(a: AppState, b: AppState): boolean {
  return a.seed === b.seed && a.quality === b.quality && sceneClass(a) === sceneClass(b) &&
    sceneKind(a.mode) === sceneKind(b.mode) && sceneRecipe(a) === sceneRecipe(b);
}

/** The scene `state` asks for, and why it shows another where it cannot (a recipe this browser does not hold). */
export function chooseScene(state: AppState): { spec: SceneSpec; problem: string | null } {
  const key = sceneRecipe(state);
  const recipe = key ? keptRecipe(key) : null;
  if (recipe) return { spec: recipeSceneSpec(recipe, state.seed), problem: null };
  const spec = sceneSpec(state.seed, sceneKind(state.mode), { planetClass: sceneClass(state) ?? undefined });
  const problem = key
    ? `The imported recipe “${key}” is not kept in this browser (import it again: Brush → import recipe JSON); showing seed ${state.seed}'s asteroid.`
    : null;
  return { spec, problem };
}
