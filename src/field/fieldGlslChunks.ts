/**
 * The field's GLSL chunks (files under `glsl/` named `sr_*.glsl`), keyed by the name used in
 * `#include <sr_name>`: what a compiled field and the sampling passes include. The render layer's
 * chunks (shading noise, rock, dither, stars) are registered in src/render/renderGlslChunks.ts. Imported
 * with Vite's `?raw`, so this module is for the browser and Vitest, not for plain-Node tools.
 */
import srNoise from '../../glsl/sr_noise.glsl?raw';
import srNoiseGrad from '../../glsl/sr_noise_grad.glsl?raw';
import srNoiseRel from '../../glsl/sr_noise_rel.glsl?raw';

export const GLSL_CHUNKS: Readonly<Record<string, string>> = {
  /** simplex-noise's noise3D and the fractal sums, on the JS back end's permutation tables. */
  sr_noise: srNoise,
  /** sr_noise's noise and fractals with analytic gradients (fields compiled with `gradient`). */
  sr_noise_grad: srNoiseGrad,
  /** sr_noise's fractals and the sphere relative to a chunk's origin (fields compiled with `chunkRelative`). */
  sr_noise_rel: srNoiseRel,
};
