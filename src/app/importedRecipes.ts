/**
 * Recipes imported as bodies to explore (issue 45), kept in this browser's localStorage under their
 * content key (recipeKey) so the link the app writes (`?mode=asteroid&recipe=<key>`) reloads what
 * was shown; a link opened where the recipe was never imported names the key and shows the seed's
 * asteroid instead. The newest {@link MAX_KEPT} are kept.
 */
import { parseRecipe, type FieldRecipe } from '../field/index';
import { recipeKey } from '../scene/index';

const PREFIX = 'sr-recipe:';
const INDEX_KEY = 'sr-recipes';
export const MAX_KEPT = 16;

/** Keeps `recipe` (already validated); returns its key. Storage refused (private mode, quota): the key still works in this page. */
export function keepRecipe(recipe: FieldRecipe): string {
  const key = recipeKey(recipe);
  session.set(key, recipe);
  try {
    const keys = [key, ...readIndex().filter((k) => k !== key)];
    for (const old of keys.slice(MAX_KEPT)) localStorage.removeItem(PREFIX + old);
    localStorage.setItem(PREFIX + key, JSON.stringify(recipe));
    localStorage.setItem(INDEX_KEY, JSON.stringify(keys.slice(0, MAX_KEPT)));
  } catch {
    // This page still has it (session); a reload will say it is missing.
  }
  return key;
}

/** The recipe kept under `key`, validated again, or null. */
export function keptRecipe(key: string): FieldRecipe | null {
  const here = session.get(key);
  if (here) return here;
  try {
    const text = localStorage.getItem(PREFIX + key);
    return text === null ? null : parseRecipe(JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

/** This page's imports (also where storage is refused). */
const session = new Map<string, FieldRecipe>();

function readIndex(): string[] {
  try {
    const list = JSON.parse(localStorage.getItem(INDEX_KEY) ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}
