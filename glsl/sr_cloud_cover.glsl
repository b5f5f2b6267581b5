// sr_cloud_cover: the cover noise of a planet's clouds (issue 41), shared by the pass that bakes
// its broad part into a cube map once per planet (clouds_cover.frag.glsl, src/render/CloudCover.ts)
// and the layer's shader (clouds.frag.glsl), which adds the fine octaves near the eye. The cover
// at a point q of the noise domain (metres / featureM, plus the seed's offset) is
//   0.45 · system(q) + Σ_i 0.5^(i+1) · (2 · value(qc · 2.03^i + 17.13 i) − 1),   qc = 3q + 1.6 · warp(q)
// (weather systems set where cloud may form; a fractal a third of their size, swirled by a warp
// at half their size, makes the clouds: value noise alone reads as blocks).
#ifndef SR_CLOUD_COVER
#define SR_CLOUD_COVER

#include <sr_procnoise>

// The weather systems' term, about [−0.5, 0.5].
float srCloudSystem(vec3 q) {
  return sr_valueNoise3(q, 0x5c11u) - 0.5;
}

// The domain warp, each component about [−0.5, 0.5].
vec3 srCloudWarp(vec3 q) {
  return vec3(sr_valueNoise3(q * 2.0 + 11.3, 0x5c12u), sr_valueNoise3(q * 2.0 + 27.1, 0x5c13u),
    sr_valueNoise3(q * 2.0 + 43.7, 0x5c14u)) - 0.5;
}

// Octaves [first, last) of the fractal at the warped point qc, each faded out as its wavelength
// nears two footprints (in units of qc): a pixel never sees a pattern finer than itself.
float srCloudOctaves(vec3 qc, int first, int last, float footprint) {
  float sum = 0.0;
  float amp = 0.5;
  float freq = 1.0;
  for (int i = 0; i < 8; i++) {
    if (i >= last) break;
    if (i >= first) {
      float fade = 1.0 - smoothstep(0.25, 0.5, footprint * freq);
      if (fade <= 0.0) break;
      sum += amp * fade * (2.0 * sr_valueNoise3(qc * freq + float(i) * 17.13, 0x5c10u + uint(i)) - 1.0);
    }
    amp *= 0.5;
    freq *= 2.03;
  }
  return sum;
}

#endif
