/**
 * The JS back end's entry point: `compileToJs` compiles a recipe to the generated evaluator
 * (jsCodegen.ts: straight-line JS, noise inlined, a lattice of points in one call), bitwise the
 * closure chain (compileJs.ts `compileClosures`), which it falls back to where generated code is
 * refused: a content security policy without 'unsafe-eval' makes `new Function` throw an EvalError.
 * `fieldEvaluatorStatus()` says which one runs here, and why.
 *
 * Programs are cached by source text: the source is a recipe's shape only (its numbers are data),
 * so every asteroid of a shape, every LOD level of a planet and every brush set share one compiled
 * factory, and with it V8's optimised code.
 */
import { compileClosures, type CompileJsOptions, type FieldFn } from './compileJs';
import { craterHeightIndexed } from './craters';
import { fieldProgram } from './jsCodegen';
import { parseRecipe } from './parseRecipe';
import type { FieldRecipe } from './recipe';

/** Options of {@link compileToJs}. */
export interface CompileFieldOptions extends CompileJsOptions {
  /**
   * `auto` (default): the generated evaluator where this context allows generated code, else the
   * closures; `closures`: the closure chain (the oracle, or a bench's peer); `generated`: the
   * generated evaluator or an error.
   */
  evaluator?: 'auto' | 'closures' | 'generated';
}

/** Which JS evaluator `compileToJs` gives in this context. */
export interface FieldEvaluatorStatus {
  evaluator: 'generated' | 'closures';
  /** Why the closures: the error `new Function` threw (a content security policy), or ''. */
  reason: string;
}

type Factory = (...data: unknown[]) => { point: (x: number, y: number, z: number) => number; points: NonNullable<FieldFn['points']> };

/** Compiled factories by source, least recently used first. */
const factories = new Map<string, Factory>();
const MAX_FACTORIES = 64;
let status: FieldEvaluatorStatus | null = null;

/** Whether this context runs generated code (asked once: a tiny `new Function`). */
export function fieldEvaluatorStatus(): FieldEvaluatorStatus {
  if (!status) {
    try {
      const ok = new Function('return 1') as () => number;
      status = ok() === 1 ? { evaluator: 'generated', reason: '' } : { evaluator: 'closures', reason: 'new Function returned a wrong value' };
    } catch (e) {
      status = { evaluator: 'closures', reason: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
    }
  }
  return status;
}

function factoryFor(source: string): Factory {
  let f = factories.get(source);
  if (f) {
    factories.delete(source);
  } else {
    f = (new Function(source) as () => Factory)();
    if (factories.size >= MAX_FACTORIES) factories.delete(factories.keys().next().value!);
  }
  factories.set(source, f);
  return f;
}

/**
 * Compiles a recipe (validated again here, so untrusted JSON is fine too: it throws RecipeError)
 * into `(x, y, z) => value`, metres in, metres out, double precision; the generated evaluator also
 * carries `points` (many points in one call; {@link evaluatePoints}). The values are bitwise
 * `compileClosures(recipe, options)`'s whichever evaluator it gives.
 */
export function compileToJs(recipe: FieldRecipe | unknown, options: CompileFieldOptions = {}): FieldFn {
  const parsed = parseRecipe(recipe);
  const want = options.evaluator ?? 'auto';
  if (want === 'closures' || options.reference || (want === 'auto' && fieldEvaluatorStatus().evaluator === 'closures')) {
    return compileClosures(parsed, options);
  }
  const program = fieldProgram(parsed, options.minWavelengthM ?? 0);
  let closures: FieldFn | null = null;
  const slow = (x: number, y: number, z: number): number => (closures ??= compileClosures(parsed, options))(x, y, z);
  const { point, points } = factoryFor(program.source)(program.K, program.U, program.N, program.X, craterHeightIndexed, program.B, slow);
  const field = point as FieldFn;
  field.points = points;
  return field;
}

/**
 * The field at `count` points (xyz interleaved, metres) into `out`: one call of the generated
 * evaluator's `points`, or the closures point by point. Values are bitwise `field(x, y, z)`'s
 * (rounded to float32 where `out` is a Float32Array).
 */
export function evaluatePoints(field: FieldFn, xyz: Float64Array, out: Float32Array | Float64Array, count: number): void {
  if (field.points) {
    field.points(xyz, out, count);
    return;
  }
  for (let p = 0, i = 0; p < count; p++, i += 3) out[p] = field(xyz[i], xyz[i + 1], xyz[i + 2]);
}

/** Forgets the answer of {@link fieldEvaluatorStatus} (tests that stub `Function`). */
export function resetFieldEvaluatorStatus(): void {
  status = null;
}
