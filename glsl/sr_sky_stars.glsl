// sr_sky_stars: a seeded star field as a function of direction, for rendering into a cube map
// once. Stars live in cells of a 3D grid around the unit sphere (three layers: few bright,
// some medium, many faint); each is a Gaussian at least about one cube-map texel wide whose
// total flux does not depend on its drawn size, so once the cube map is filtered and
// mipmapped a turning camera sees no shimmer and dim stars do not vanish.
#ifndef SR_SKY_STARS
#define SR_SKY_STARS

#include <sr_procnoise>

// Black-body-ish tint for a temperature parameter t in [0, 1] (red dwarfs … blue giants).
vec3 sr_starTint(float t) {
  vec3 red = vec3(1.0, 0.55, 0.35);
  vec3 yellow = vec3(1.0, 0.88, 0.7);
  vec3 white = vec3(0.95, 0.97, 1.0);
  vec3 blue = vec3(0.62, 0.74, 1.0);
  return t < 0.35 ? mix(red, yellow, t / 0.35)
       : t < 0.7 ? mix(yellow, white, (t - 0.35) / 0.35)
       : mix(white, blue, (t - 0.7) / 0.3);
}

// One layer. cellsPerUnit: grid density on the unit sphere; probability: chance a cell holds
// a star; flux: brightness scale; sigmaRad: the smallest Gaussian radius (≈ a texel);
// weight of the brightest stars' halo.
vec3 sr_starLayer(vec3 dir, float cellsPerUnit, float probability, float flux, float sigmaRad, float halo, uint salt) {
  vec3 p = dir * cellsPerUnit;
  // The 8 cells whose centers are nearest to p: stars sit within ±0.3 of their cell center
  // and are much smaller than a cell, so no star is clipped at a cell border.
  ivec3 base = ivec3(floor(p - 0.5));
  vec3 sum = vec3(0.0);
  for (int k = 0; k < 2; k++)
    for (int j = 0; j < 2; j++)
      for (int i = 0; i < 2; i++) {
        ivec3 c = base + ivec3(i, j, k);
        float h = sr_latticeHash(c, salt);
        if (h >= probability) continue;
        vec3 jitter = vec3(sr_latticeHash(c, salt + 1u), sr_latticeHash(c, salt + 2u), sr_latticeHash(c, salt + 3u)) - 0.5;
        vec3 starDir = normalize((vec3(c) + 0.5 + 0.6 * jitter) / cellsPerUnit);
        // Brightness: a steep power law, most stars dim, a few bright.
        float u = sr_latticeHash(c, salt + 4u);
        float b = flux * (0.03 + pow(u, 8.0));
        float temperature = sr_latticeHash(c, salt + 5u);
        // Brighter stars are drawn a little larger (sizes differ, not only intensities).
        float sigma = sigmaRad * (1.0 + 0.5 * pow(u, 4.0));
        float d = length(dir - starDir);
        float core = exp(-0.5 * d * d / (sigma * sigma));
        // Normalised so the flux is the same whatever sigma is (relative to the base size).
        float peak = b * (sigmaRad * sigmaRad) / (sigma * sigma);
        // Halo of the brightest stars; it must end well inside the 8 cells searched, or it
        // is clipped to a cell's straight edges (seen as white polygons in the first sky).
        float reach = 0.35 / cellsPerUnit;
        float glow = halo * b * pow(u, 8.0) / (1.0 + d * d / (16.0 * sigma * sigma))
          * (1.0 - smoothstep(0.3 * reach, reach, d)) * 0.015;
        sum += sr_starTint(temperature) * (peak * core + glow);
      }
  return sum;
}

#endif
