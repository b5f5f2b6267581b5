/**
 * Body ids (sceneSpec.ts): the name a job gives the workers for a recipe registered with them.
 * A function of what generates the recipe, so scenes that show the same body share it.
 */

/**
 * The body id of a generated recipe: `asteroid:<seed>` or `planet:<seed>`; a planet drawn as a
 * class other than its seed's (`class=` in the URL) is `planet:<seed>:<class>`.
 */
export function bodyId(generator: 'asteroid' | 'planet', seed: number, variant?: string): string {
  return variant ? `${generator}:${seed >>> 0}:${variant}` : `${generator}:${seed >>> 0}`;
}
