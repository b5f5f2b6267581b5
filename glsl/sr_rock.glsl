// sr_rock: procedural rock colouring from body-local position and normal, no textures
// (issue 6 "not a flat colour", issue 7 surface colouring, Sockalingam 2017 §3.6). All patterns are
// filtered by the pixel footprint so that distant bodies do not sparkle.
#ifndef SR_ROCK
#define SR_ROCK

#include <sr_procnoise>

struct SrRockParams {
  vec3 base;        // main rock albedo (linear)
  vec3 alt;         // secondary rock albedo, mixed in by large-scale noise
  vec3 dark;        // dark strata / veins
  vec3 regolith;    // dust on flat ground
  vec3 strataAxis;  // unit normal of the bedding planes (body space)
  float strataSpacingM;
  float noiseScaleM;   // wavelength of the largest colour variation
  float regolith_amount;
  float roughness;
  float metalness;
  uint salt;
};

struct SrRockSurface {
  vec3 albedo;
  float roughness;
  float metalness;
};

// p: body-local position (m); n: shading normal (body space); up: outward radial direction
// (body space); footprintM: pixel size at p (m).
SrRockSurface sr_rockSurface(vec3 p, vec3 n, vec3 up, float footprintM, SrRockParams rp) {
  vec3 q = p / rp.noiseScaleM;
  float fq = footprintM / rp.noiseScaleM;

  // Large-scale colour variation between two rock tones.
  float variation = sr_fbmFiltered(q, 4, fq, rp.salt);
  vec3 albedo = mix(rp.base, rp.alt, smoothstep(-0.35, 0.35, variation));

  // Strata: bedding planes along an axis, warped by noise so they meander; each layer gets
  // its own tone from a hash of its index, with thin dark partings between layers.
  float warp = sr_fbmFiltered(q * 0.8 + 3.1, 3, fq * 0.8, rp.salt + 11u);
  float s = dot(p, rp.strataAxis) / rp.strataSpacingM + 1.6 * warp;
  float layer = floor(s);
  float tone = sr_latticeHash(ivec3(int(layer), 7, 3), rp.salt + 23u);
  float inLayer = s - layer;
  float parting = smoothstep(0.0, 0.08, inLayer) * smoothstep(1.0, 0.9, inLayer);
  vec3 strata = mix(rp.dark, albedo * 1.25, tone) * mix(0.6, 1.0, parting);
  // Fade strata to their mean where a layer is smaller than a few pixels.
  float strataVisible = 1.0 - smoothstep(0.15, 0.4, footprintM / rp.strataSpacingM);
  vec3 strataMean = mix(rp.dark, albedo * 1.25, 0.5) * 0.9;
  strata = mix(strataMean, strata, strataVisible);

  // Steep faces show bare, layered rock; flat ground collects regolith (Sockalingam 2017 §3.6).
  float flat_ = sr_saturate(dot(n, up));
  float dust = sr_fbmFiltered(q * 3.0 + 7.7, 3, fq * 3.0, rp.salt + 37u);
  float regolith = smoothstep(0.55, 0.9, flat_ + 0.25 * dust) * rp.regolith_amount;
  albedo = mix(mix(albedo, strata, 0.55), rp.regolith * (1.0 + 0.3 * dust), regolith);

  // Fine grain and speckle below the colour variation.
  float grain = sr_fbmFiltered(q * 23.0, 3, fq * 23.0, rp.salt + 53u);
  albedo *= 1.0 + 0.35 * grain;

  SrRockSurface surface;
  surface.albedo = max(albedo, vec3(0.0));
  surface.roughness = mix(rp.roughness, min(rp.roughness + 0.08, 1.0), regolith);
  surface.metalness = rp.metalness * (1.0 - regolith);
  return surface;
}

// Polar ice (Sockalingam 2017, Figure 15): on flat-ish ground above a latitude, with a noisy edge.
// axis: body-space pole; latitudeSin: sin of the cap's edge latitude. Returns coverage 0..1.
float sr_polarIce(vec3 p, vec3 n, vec3 up, vec3 axis, float latitudeSin, float footprintM, float noiseScaleM, uint salt) {
  float t = abs(dot(up, axis));
  float edge = sr_fbmFiltered(p / noiseScaleM * 2.0, 4, footprintM / noiseScaleM * 2.0, salt + 71u);
  float cap = smoothstep(latitudeSin - 0.04, latitudeSin + 0.04, t + 0.12 * edge);
  float slope = smoothstep(0.45, 0.75, dot(n, up));
  return cap * slope;
}

#endif
