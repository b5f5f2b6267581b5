/**
 * Shader patches that stack: each runs after the material's `onBeforeCompile` so far, and adds
 * its name to the program key (three builds one program per key: two materials with the same
 * patches share it). Used by the planet's patches (atmosphere, ground, fade) on top of
 * withSunCascades.
 */
import type { Material, WebGLProgramParametersWithUniforms } from 'three';

export function chainShaderPatch(material: Material, key: string, patch: (shader: WebGLProgramParametersWithUniforms) => void): void {
  const previous = material.onBeforeCompile;
  const previousKey = material.customProgramCacheKey.bind(material);
  material.onBeforeCompile = (shader, renderer) => {
    previous.call(material, shader, renderer);
    patch(shader);
  };
  material.customProgramCacheKey = () => `${previousKey()}|${key}`;
  material.needsUpdate = true;
}
