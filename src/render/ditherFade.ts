/**
 * A screen-door fade on a MeshStandardMaterial (the planet's standard material, issue 20's cross-fades):
 * patched through `onBeforeCompile` (after any patch it has), with its own `uSrFade` /
 * `uSrFadeComplement` uniforms, which the caller sets per draw (src/render/planetPieces.ts) —
 * BodyMaterial has the same fade built in (`sr_fadeDiscard`).
 */
import type { IUniform, MeshStandardMaterial } from 'three';
import { chainShaderPatch } from './shaderPatch';
import { glslWithIncludes } from './renderGlslChunks';
import { THREE_CHUNK_NAMES } from './BodyMaterial';
import parsChunk from '../../glsl/sr_fade_pars.glsl?raw';
import applyChunk from '../../glsl/sr_fade_apply.glsl?raw';

const COMMON = '#include <common>';
const CLIPPING = '#include <clipping_planes_fragment>';

export interface DitherFadeUniforms {
  uSrFade: IUniform<number>;
  uSrFadeComplement: IUniform<boolean>;
}

/** Patches `material` in place; returns the uniforms to set per draw. */
export function withDitherFade(material: MeshStandardMaterial): DitherFadeUniforms {
  const uniforms: DitherFadeUniforms = { uSrFade: { value: 1 }, uSrFadeComplement: { value: false } };
  chainShaderPatch(material, 'sr-fade', (shader) => {
    const fs = shader.fragmentShader;
    if (!fs.includes(COMMON) || !fs.includes(CLIPPING)) throw new Error('withDitherFade: the standard fragment shader no longer has the chunks it patches (three.js changed)');
    shader.fragmentShader = glslWithIncludes(
      fs.replace(COMMON, `${COMMON}\n#include <sr_fade_pars>`).replace(CLIPPING, `${CLIPPING}\n#include <sr_fade_apply>`),
      'fade.frag', { external: THREE_CHUNK_NAMES, chunks: { sr_fade_pars: parsChunk, sr_fade_apply: applyChunk } },
    );
    Object.assign(shader.uniforms, uniforms);
  });
  return uniforms;
}
