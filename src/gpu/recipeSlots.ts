/**
 * Several recipes of one shape in one batch (issue 16: "batch several bodies' grids into one pass
 * where they wait together"). With the numbers as data (glslParams.ts) a shape's programs read a
 * recipe's numbers from the `SrParams` block and its noise tables from rows of `sr_permutation`; a
 * batch bound one recipe's block and texture, so every asteroid was a batch of its own (on the H100,
 * 140 batches of 1.00 job each in `asteroids/50`, the sampling worker busy 60% of the run).
 *
 * Here the sampler's copy of a shape's field reads them per chunk: `sr_params[i]` becomes
 * `sr_params[sr_paramBase + i]` over a block that holds {@link RecipeSlots.recipes} recipes' numbers
 * one after another, and table `t` is layer `sr_permBase + t` of a texture that stacks their tables;
 * `sr_paramBase` and `sr_permBase` are per-chunk values of the chunk block (chunkBlock.ts), set from
 * the chunk's recipe. Pure string and byte work, tested in Node (test/gpu/recipeSlots.test.ts).
 */
import { PERM_LAYER_LINE } from '../field/glslCodegen';

/** Per-chunk ints the rewritten field reads (members of the chunk block). */
export const RECIPE_SLOT_UNIFORMS = [
  { name: 'sr_paramBase', type: 'int', count: 0 },
  { name: 'sr_permBase', type: 'int', count: 0 },
] as const;

export interface RecipeSlots {
  /** Recipes one batch can hold: their params blocks side by side within the largest uniform block. */
  recipes: number;
  /** vec4s of one recipe's params (every recipe of a shape has as many). */
  paramsVec4s: number;
  /** Permutation tables (texture layers) of one recipe. */
  tables: number;
}

const DECLARATION = /layout\(std140\) uniform SrParams \{ vec4 sr_params\[(\d+)\]; \};/;

/**
 * How many recipes of a shape one batch holds: as many params blocks as fit `maxBlockBytes` and as
 * many tables as fit `maxLayers` texture layers, at most `maxRecipes` (a batch's chunk slots). 1 when
 * the field has no numbers as data.
 */
export function recipeSlots(paramsFloats: number, tables: number, maxBlockBytes: number, maxRecipes: number, maxLayers: number): RecipeSlots {
  const paramsVec4s = Math.ceil(paramsFloats / 4);
  const byLayers = tables > 0 ? Math.floor(maxLayers / tables) : Infinity;
  const recipes = paramsVec4s === 0 ? 1 : Math.max(1, Math.min(maxRecipes, byLayers, Math.floor(maxBlockBytes / (16 * paramsVec4s))));
  return { recipes, paramsVec4s, tables };
}

/**
 * The field's source reading a chunk's recipe by its bases. The declaration line keeps its line (the
 * two globals go before the block on it), so compile errors still point at the right line. Throws if
 * the source is not a numbers-as-data field (no `SrParams` block, or a block of another size).
 */
export function recipeSlotsSource(source: string, slots: RecipeSlots): string {
  const match = DECLARATION.exec(source);
  if (!match || Number(match[1]) !== Math.max(1, slots.paramsVec4s)) {
    throw new Error(`recipeSlotsSource: no SrParams block of ${slots.paramsVec4s} vec4 in this field`);
  }
  const [head, tail] = [source.slice(0, match.index), source.slice(match.index + match[0].length)];
  const declaration = `int sr_paramBase; int sr_permBase; layout(std140) uniform SrParams { vec4 sr_params[${Math.max(1, slots.paramsVec4s) * slots.recipes}]; };`;
  const reads = (text: string) => text.replaceAll('sr_params[', 'sr_params[sr_paramBase + ');
  let out = reads(head) + declaration + reads(tail);
  if (slots.tables > 0) {
    if (!out.includes(PERM_LAYER_LINE)) throw new Error('recipeSlotsSource: the field reads noise tables, but not from sr_permutation');
    out = out.replace(PERM_LAYER_LINE, 'int sr_permLayer(int table) { return sr_permBase + table; }');
  }
  return out;
}

/** What a batch of jobs from several recipes binds: their params one after another, their tables stacked. */
export interface BatchRecipes<R> {
  /** The batch's distinct recipes, in first-use order. */
  recipes: R[];
  /** For each job: its recipe's index in `recipes`. */
  recipeOf: number[];
  /** The params block's contents: `slots.recipes` recipes' room, those used filled (built when read). */
  readonly params: Float32Array;
  /**
   * Each recipe's permutation tables (256 bytes a table), in `recipes` order: recipe i's tables are
   * layers `slots.tables × i …` of the batch's texture. Null when the shape has none.
   */
  readonly permutation: Uint8Array[] | null;
  /** Per job: its chunk-block values `sr_paramBase`, `sr_permBase`. */
  bases: { sr_paramBase: number; sr_permBase: number }[];
}

/**
 * Packs the recipes of a batch's jobs (`recipeOfJob` gives each job's recipe, with its `params` and
 * `permutation` bytes). At most `slots.recipes` distinct recipes: the caller splits larger groups
 * ({@link splitByRecipes}).
 */
export function packBatchRecipes<R extends { params: Float32Array; permutation: Uint8Array }>(
  jobs: readonly unknown[],
  recipeOfJob: (job: number) => R,
  slots: RecipeSlots,
): BatchRecipes<R> {
  const recipes: R[] = [];
  const recipeOf = jobs.map((_, n) => {
    const r = recipeOfJob(n);
    let i = recipes.indexOf(r);
    if (i < 0) i = recipes.push(r) - 1;
    return i;
  });
  if (recipes.length > slots.recipes) throw new RangeError(`${recipes.length} recipes in a batch that holds ${slots.recipes}`);
  const vec4s = Math.max(1, slots.paramsVec4s);
  for (const r of recipes) {
    // One shape, one layout: its text fixes the block's size and (every noise use its own table) the tables.
    if (r.params.length !== 4 * slots.paramsVec4s || r.permutation.length !== 256 * slots.tables) {
      throw new RangeError(`a recipe of ${r.params.length / 4} vec4 and ${r.permutation.length / 256} tables in a shape of ${slots.paramsVec4s} and ${slots.tables}`);
    }
  }
  const bases = recipeOf.map((i) => ({ sr_paramBase: vec4s * i, sr_permBase: slots.tables * i }));
  // The block and tables are built when read: the sampler reads them only for a batch of recipes it
  // has no packed binding for yet (samplerPasses.ts keeps the last few), and the block is 64 KiB.
  return {
    recipes, recipeOf, bases,
    get params() {
      const params = new Float32Array(4 * vec4s * slots.recipes);
      recipes.forEach((r, i) => params.set(r.params.subarray(0, 4 * vec4s), 4 * vec4s * i));
      return params;
    },
    get permutation() {
      return slots.tables === 0 ? null : recipes.map((r) => r.permutation);
    },
  };
}

/**
 * Splits a group of jobs (one shape, kind and size, in arrival order) into batches of at most
 * `maxJobs` jobs and `maxRecipes` distinct recipes each, keeping arrival order.
 */
export function splitByRecipes<T>(jobs: readonly T[], recipeOf: (job: T) => string, maxRecipes: number, maxJobs: number): T[][] {
  const out: T[][] = [];
  let batch: T[] = [];
  let recipes = new Set<string>();
  for (const job of jobs) {
    const r = recipeOf(job);
    if (batch.length >= maxJobs || (!recipes.has(r) && recipes.size >= maxRecipes)) {
      out.push(batch);
      batch = [];
      recipes = new Set();
    }
    batch.push(job);
    recipes.add(r);
  }
  if (batch.length > 0) out.push(batch);
  return out;
}
