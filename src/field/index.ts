/**
 * The field, JS side: recipes, validation, the JS back end, bounds, noise and the PRNG.
 * No `?raw` imports in this module graph (plain Node and workers load it); the GLSL back
 * end is `src/field/glsl.ts`.
 */
export * from './recipe';
export { parseRecipe, parseRecipeText, RecipeError } from './parseRecipe';
export { compileClosures, fieldGradient, smin, smax, type CompileJsOptions, type FieldFn } from './compileJs';
export { compileToJs, evaluatePoints, fieldEvaluatorStatus, type CompileFieldOptions, type FieldEvaluatorStatus } from './compileField';
export { bandLimitSummary, bandSlotValues, shellDropped, usedOctaves, type BandLimitSummary, type BandSlot } from './bandLimit';
export { bandLipschitz, recipeBounds, baseRecipe, type RecipeBounds } from './bounds';
export { Prng, createRandom, normalizeSeed } from './prng';
export { noisePermutation, seededNoise3D, simplex3, fractal, NOISE_GRADIENT_BOUND, NOISE_MAX_ABS } from './noise';
export { placeCraters, craterHeight, craterHeightBound, CRATER_STRIDE } from './craters';
export * from './brushEdits';
export * from './editGate';
export {
  chunkRelativeEligible, chunkRelativeRefusal, forEachOctaveOrigin, reduceNoisePoint, relativeErrorM, relativeUniforms, splitNoisePoint, NOISE_PERIOD,
  type RelativeError, type RelativePlan, type RelativeUniforms,
} from './chunkRelative';
