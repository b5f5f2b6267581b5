/**
 * Body ids (sceneSpec.ts): the name a job gives the workers for a recipe registered with them.
 * A function of what generates the recipe, so scenes that show the same body share it.
 */

/** The body id of a generated recipe: `asteroid:<seed>` or `planet:<seed>`. */
export function bodyId(generator: 'asteroid' | 'planet', seed: number): string {
  return `${generator}:${seed >>> 0}`;
}
