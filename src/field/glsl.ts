/**
 * The field, GLSL side (browser and Vitest only: it imports GLSL with `?raw`).
 * The JS-side API is src/field/index.ts.
 */
export { compileToGlsl, spliceField, SR_FIELD_SLOT, FIELD_TEMPLATES, type CompiledGlsl, type CompileGlslOptions } from './compileGlsl';
export { glslFloat, glslInt, generateFieldGlsl, GlslCodegenError } from './glslCodegen';
export * from './index';
