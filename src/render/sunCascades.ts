/**
 * Cascaded sun shadows for three's MeshStandardMaterial (the planet's low-quality material, the
 * asteroids' family materials): the same two chunks BodyMaterial uses — `sr_sun_shadow` picks
 * the finest cascade covering the fragment, `sr_sun_direct` applies the sun once with it — spliced
 * into the standard fragment shader before three resolves its own includes. Without this a
 * standard material shadows the sun with cascade 0 only, and pays a PCF lookup per cascade.
 * With one cascade the result equals three's own shader.
 */
import type { MeshStandardMaterial } from 'three';
import { glslWithIncludes } from './renderGlslChunks';
import { THREE_CHUNK_NAMES } from './BodyMaterial';
import sunShadowChunk from '../../glsl/sr_sun_shadow.glsl?raw';
import sunDirectChunk from '../../glsl/sr_sun_direct.glsl?raw';

const SHADOW_PARS = '#include <shadowmap_pars_fragment>';
const LIGHTS_BEGIN = '#include <lights_fragment_begin>';

/** Patches `material` in place (returned) to take the sun's cascaded shadow. */
export function withSunCascades<M extends MeshStandardMaterial>(material: M): M {
  material.onBeforeCompile = (shader) => {
    const fs = shader.fragmentShader;
    if (!fs.includes(SHADOW_PARS) || !fs.includes(LIGHTS_BEGIN)) {
      throw new Error('withSunCascades: the standard fragment shader no longer has the chunks it patches (three.js changed)');
    }
    shader.fragmentShader = glslWithIncludes(
      fs.replace(SHADOW_PARS, `${SHADOW_PARS}\n#include <sr_sun_shadow>`).replace(LIGHTS_BEGIN, '#include <sr_sun_direct>'),
      'standard.frag',
      { external: THREE_CHUNK_NAMES, chunks: { sr_sun_shadow: sunShadowChunk, sr_sun_direct: sunDirectChunk } },
    );
  };
  // One program for every patched standard material (three keys programs by this too).
  material.customProgramCacheKey = () => 'sr-sun-cascades';
  return material;
}
