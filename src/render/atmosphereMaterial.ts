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
import type { Atmosphere, CloudShadow } from './Atmosphere';
import { glslWithIncludes } from './renderGlslChunks';
import atmosphereChunk from '../../glsl/sr_atmosphere.glsl?raw';
import aerialChunk from '../../glsl/sr_aerial.glsl?raw';
import fragmentParsChunk from '../../glsl/sr_aerial_fragment_pars.glsl?raw';
import vertexChunk from '../../glsl/sr_aerial_vertex.glsl?raw';
import applyChunk from '../../glsl/sr_aerial_apply.glsl?raw';
import cloudShadowChunk from '../../glsl/sr_cloud_shadow.glsl?raw';
import { THREE_CHUNK_NAMES } from './BodyMaterial';

const VERTEX_COMMON = '#include <common>';
const VERTEX_PROJECT = '#include <project_vertex>';
const FRAGMENT_COMMON = '#include <common>';
const FRAGMENT_TONEMAP = '#include <tonemapping_fragment>';
/** The cover map's mip the ground's cloud shadow reads: 4 texels blurred into one (a soft edge, ~1 km on planet 4). */
const CLOUD_SHADOW_LOD = 2;

/**
 * Splices the atmosphere into a lit shader (exported for test pages that patch a plain material);
 * with `clouds`, the cloud layer's shadow thins the sun at each vertex (glsl/sr_cloud_shadow.glsl).
 */
export function patchAtmosphereShader(shader: { vertexShader: string; fragmentShader: string }, aerialSteps: number, clouds: CloudShadow | null = null): void {
  const vs = shader.vertexShader;
  const fs = shader.fragmentShader;
  for (const [text, chunk] of [[vs, VERTEX_COMMON], [vs, VERTEX_PROJECT], [fs, FRAGMENT_COMMON], [fs, FRAGMENT_TONEMAP]] as const) {
    if (!text.includes(chunk)) throw new Error(`withAtmosphere: the shader has no ${chunk} to patch (three.js changed?)`);
  }
  const chunks = {
    sr_atmosphere: atmosphereChunk, sr_aerial: aerialChunk, sr_aerial_fragment_pars: fragmentParsChunk, sr_aerial_vertex: vertexChunk, sr_aerial_apply: applyChunk,
    sr_cloud_shadow: cloudShadowChunk,
  };
  const cloudDefines = clouds
    ? Object.entries({ ...clouds.defines, SR_CLOUD_SHADOW_LOD: CLOUD_SHADOW_LOD.toFixed(1) }).map(([k, v]) => `#define ${k} ${v}\n`).join('') + '#include <sr_cloud_shadow>'
    : '';
  // After the vertex's air: its sun through the air, thinned by the cloud above it towards the sun.
  const cloudVertex = clouds ? '\nvAerialSunT *= srCloudShadow(uAtmoCamera + ((modelMatrix * vec4(transformed, 1.0)).xyz - cameraPosition), uAtmoSunDir);' : '';
  shader.vertexShader = glslWithIncludes(
    vs.replace(VERTEX_COMMON, `${VERTEX_COMMON}\n#define SR_AERIAL_STEPS ${aerialSteps}\n#include <sr_atmosphere>\n#include <sr_aerial>\n${cloudDefines}`)
      .replace(VERTEX_PROJECT, `${VERTEX_PROJECT}\n#include <sr_aerial_vertex>${cloudVertex}`),
    'atmosphere.vert', { external: THREE_CHUNK_NAMES, chunks },
  );
  shader.fragmentShader = glslWithIncludes(
    fs
      .replace(FRAGMENT_COMMON, `${FRAGMENT_COMMON}\n#include <sr_aerial_fragment_pars>`)
      .replace(FRAGMENT_TONEMAP, `#include <sr_aerial_apply>\n${FRAGMENT_TONEMAP}`),
    'atmosphere.frag', { external: THREE_CHUNK_NAMES, chunks },
  );
}

/**
 * Patches `material` in place (returned) to be seen through `atmosphere`, and shadowed by its
 * clouds where the atmosphere has them now (PlanetClouds registers them: create the layers first).
 */
export function withAtmosphere<M extends Material>(material: M, atmosphere: Atmosphere): M {
  const clouds = atmosphere.cloudShadow;
  chainShaderPatch(material, `sr-atmosphere-${atmosphere.steps.aerial}${clouds ? '-clouds' : ''}`, (shader) => {
    patchAtmosphereShader(shader, atmosphere.steps.aerial, clouds);
    Object.assign(shader.uniforms, atmosphere.uniforms, clouds?.uniforms ?? {});
  });
  return material;
}
