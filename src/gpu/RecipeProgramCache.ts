/**
 * The recipes a GPU sampler has seen (GpuFieldSampler): each one's compiled field, the program set
 * it samples with — shared by every recipe of a shape when the numbers are data — and its own GPU
 * data (permutation texture, params buffer), with the holders that keep that data. Program sets
 * stay for the sampler's life; a recipe's own data goes once its last holder released it and none
 * of its jobs waits. The job queue that uses them is GpuFieldSampler's.
 */
import type { CompiledGlsl } from '../field/compileGlsl';
import type { FieldRecipe } from '../field/recipe';
import {
  buildFieldPrograms, compileSamplerField, deleteFieldPrograms, deleteRecipeGpuData, programLabel, programReady, recipeGpuData,
  type FieldProgramOptions, type FieldPrograms, type RecipeGpuData,
} from './fieldPrograms';

/** A recipe the sampler has seen: its compiled field, the key of the programs it uses, its own GPU data. */
interface RecipeEntry {
  compiled: CompiledGlsl;
  programsKey: string;
  data: RecipeGpuData;
  /** Holders that {@link RecipeProgramCache.hold} it and have not released it. */
  holders: number;
  /** The last holder released it: its data goes once no job of it waits. */
  released: boolean;
}

export class RecipeProgramCache {
  /** Programs by the text they were built from: a recipe's, or (numbers as data) its shape's. */
  private readonly programs = new Map<string, FieldPrograms>();
  /** Each recipe's compiled field, programs' key and own GPU data, by recipe key. */
  private readonly recipes = new Map<string, RecipeEntry>();
  /** Recipe keys by recipe object (the same object comes back with every job of a body). */
  private readonly recipeKeys = new WeakMap<FieldRecipe, string>();
  /** Recipes released by their last holder whose data still waits for their jobs ({@link sweep}). */
  private releasedCount = 0;
  /** Programs built so far (grid + edge pass each), the bench's `programs-compiled`. */
  programsBuilt = 0;

  /** `parallelCompile`: KHR_parallel_shader_compile is there, so asking whether a program linked never blocks. */
  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly options: FieldProgramOptions,
    private readonly parallelCompile: boolean,
  ) {}

  /**
   * The recipe's key; its field compiled and its programs started if they had not been. With the
   * numbers as data, recipes of one shape share programs: only the first of them compiles.
   */
  keyOf(recipe: FieldRecipe): string {
    // Workers pass their registered recipe object with every job (bodyRegistry.ts): serialise once.
    let key = this.recipeKeys.get(recipe);
    if (key === undefined) this.recipeKeys.set(recipe, (key = JSON.stringify(recipe)));
    if (this.recipes.has(key)) return key;
    const compiled = compileSamplerField(recipe, this.options);
    const programsKey = this.options.fieldOptions.numbersAsData ? compiled.chunk : key;
    if (!this.programs.has(programsKey)) {
      this.programs.set(programsKey, buildFieldPrograms(this.gl, compiled, programLabel(this.options, recipe, programsKey), this.options));
      this.programsBuilt++;
    }
    this.recipes.set(key, { compiled, programsKey, data: recipeGpuData(this.gl, compiled, this.options), holders: 0, released: false });
    return key;
  }

  /** The compiled field of the recipe with key `key` ({@link keyOf}). */
  compiled(key: string): CompiledGlsl {
    return this.recipes.get(key)!.compiled;
  }

  /** The program set the recipe with key `key` samples with. */
  programsOf(key: string): FieldPrograms {
    return this.programs.get(this.recipes.get(key)!.programsKey)!;
  }

  /** The key of that program set: one for every recipe of a shape when the numbers are data. */
  programsKeyOf(key: string): string {
    return this.recipes.get(key)!.programsKey;
  }

  /** The recipe's own GPU data. */
  dataOf(key: string): RecipeGpuData {
    return this.recipes.get(key)!.data;
  }

  /** Whether the recipe's program for `pass` has linked. Throws its compile or link error. */
  ready(key: string, pass: 'grid' | 'edges'): boolean {
    const programs = this.programsOf(key);
    return programReady(this.gl, pass === 'grid' ? programs.grid : programs.edges, this.parallelCompile);
  }

  /** One more holder of the recipe (its programs start compiling if they had not). Throws its compile error. */
  hold(recipe: FieldRecipe): void {
    const entry = this.recipes.get(this.keyOf(recipe))!;
    entry.holders++;
    if (entry.released) this.releasedCount--;
    entry.released = false;
  }

  /** Undoes one {@link hold}: when no holder is left, the recipe's own data goes at the next {@link sweep}. */
  release(recipe: FieldRecipe): void {
    const key = this.recipeKeys.get(recipe) ?? JSON.stringify(recipe);
    const entry = this.recipes.get(key);
    if (!entry || entry.holders === 0) return;
    if (--entry.holders === 0 && !entry.released) {
      entry.released = true;
      this.releasedCount++;
    }
  }

  /** Deletes the own GPU data of released recipes none of whose jobs `waiting(key)` says waits. */
  sweep(waiting: (key: string) => boolean): void {
    if (this.releasedCount === 0) return; // the usual poll: nothing to look at
    for (const [key, entry] of this.recipes) {
      if (!entry.released || entry.holders > 0 || waiting(key)) continue;
      // Batches in flight already bound the data: GL keeps deleted objects alive until they finish.
      if (!this.gl.isContextLost()) deleteRecipeGpuData(this.gl, entry.data);
      this.recipes.delete(key);
      this.releasedCount--;
    }
  }

  /** Recipes held with their own GPU data (tests: released recipes leave). */
  get recipeCount(): number {
    return this.recipes.size;
  }

  /** Distinct program sets (grid + edge pass each) held. */
  get programCount(): number {
    return this.programs.size;
  }

  /** The context was lost: every GL object died with it; forget them without deleting. */
  forget(): void {
    this.programs.clear();
    this.recipes.clear();
    this.releasedCount = 0;
  }

  /** Frees every program set and recipe's data. */
  dispose(): void {
    if (!this.gl.isContextLost()) {
      for (const p of this.programs.values()) deleteFieldPrograms(this.gl, p);
      for (const r of this.recipes.values()) deleteRecipeGpuData(this.gl, r.data);
    }
    this.forget();
  }
}
