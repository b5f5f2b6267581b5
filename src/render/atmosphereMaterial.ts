/**
 * A planet's atmosphere on its surface (issue 20): patches a lit material (MeshStandardMaterial
 * through its `onBeforeCompile`, after any patch it already has such as withSunCascades; or
 * BodyMaterial) so that the sun reaches each vertex through the air — dimmer and redder low in
 * the sky — and the surface is seen through the air between it and the eye (aerial perspective):
 * `colour · T + L`, marched per vertex along the view ray inside the atmosphere
 * (glsl/sr_aerial.glsl, which says why per vertex), applied per fragment before tone mapping. The uniforms are the Atmosphere's own objects: one update serves every material.
 */
import type { Material } from 'three';
import { chainShaderPatch } from './shaderPatch';
import type { Atmosphere } from './Atmosphere';
import { glslWithIncludes } from './glslChunks';
import atmosphereChunk from '../../glsl/sr_atmosphere.glsl?raw';
import aerialChunk from '../../glsl/sr_aerial.glsl?raw';
import fragmentParsChunk from '../../glsl/sr_aerial_fragment_pars.glsl?raw';
import vertexChunk from '../../glsl/sr_aerial_vertex.glsl?raw';
import applyChunk from '../../glsl/sr_aerial_apply.glsl?raw';
import { THREE_CHUNK_NAMES } from './BodyMaterial';

const VERTEX_COMMON = '#include <common>';
const VERTEX_PROJECT = '#include <project_vertex>';
const FRAGMENT_COMMON = '#include <common>';
const FRAGMENT_TONEMAP = '#include <tonemapping_fragment>';

/** Splices the atmosphere into a lit shader (exported for test pages that patch a plain material). */
export function patchAtmosphereShader(shader: { vertexShader: string; fragmentShader: string }, aerialSteps: number): void {
  const vs = shader.vertexShader;
  const fs = shader.fragmentShader;
  for (const [text, chunk] of [[vs, VERTEX_COMMON], [vs, VERTEX_PROJECT], [fs, FRAGMENT_COMMON], [fs, FRAGMENT_TONEMAP]] as const) {
    if (!text.includes(chunk)) throw new Error(`withAtmosphere: the shader has no ${chunk} to patch (three.js changed?)`);
  }
  const chunks = {
    sr_atmosphere: atmosphereChunk, sr_aerial: aerialChunk, sr_aerial_fragment_pars: fragmentParsChunk, sr_aerial_vertex: vertexChunk, sr_aerial_apply: applyChunk,
  };
  shader.vertexShader = glslWithIncludes(
    vs.replace(VERTEX_COMMON, `${VERTEX_COMMON}\n#define SR_AERIAL_STEPS ${aerialSteps}\n#include <sr_atmosphere>\n#include <sr_aerial>`).replace(VERTEX_PROJECT, `${VERTEX_PROJECT}\n#include <sr_aerial_vertex>`),
    'atmosphere.vert', { external: THREE_CHUNK_NAMES, chunks },
  );
  shader.fragmentShader = glslWithIncludes(
    fs
      .replace(FRAGMENT_COMMON, `${FRAGMENT_COMMON}\n#include <sr_aerial_fragment_pars>`)
      .replace(FRAGMENT_TONEMAP, `#include <sr_aerial_apply>\n${FRAGMENT_TONEMAP}`),
    'atmosphere.frag', { external: THREE_CHUNK_NAMES, chunks },
  );
}

/** Patches `material` in place (returned) to be seen through `atmosphere`. */
export function withAtmosphere<M extends Material>(material: M, atmosphere: Atmosphere): M {
  chainShaderPatch(material, `sr-atmosphere-${atmosphere.steps.aerial}`, (shader) => {
    patchAtmosphereShader(shader, atmosphere.steps.aerial);
    Object.assign(shader.uniforms, atmosphere.uniforms);
  });
  return material;
}
