// sr_procnoise: cheap procedural noise for shading (rock colour, sky), independent of the
// field's baked simplex tables: integer-hash value noise, its fractal sum with octaves faded
// out below the pixel footprint (no aliasing), and 3D Voronoi (cell) noise.
// Not bit-identical to anything on the CPU: it only colours pixels.
#ifndef SR_PROCNOISE
#define SR_PROCNOISE

#include <sr_common>

// Hash of an integer lattice point to [0, 1). Negative coordinates wrap through uint.
// One mixing round over a linear combination (large odd multipliers): a third of the cost
// of sr_hash13, which matters on software rasterisers (value noise takes 8 per octave).
float sr_latticeHash(ivec3 c, uint salt) {
  uvec3 u = uvec3(c);
  return float(sr_hashU(u.x * 0x8da6b343u ^ u.y * 0xd8163841u ^ u.z * 0xcb1ab31fu ^ salt * 0x9e3779b9u))
    * (1.0 / 4294967296.0);
}

// Trilinear value noise with a quintic fade, in [0, 1].
float sr_valueNoise3(vec3 p, uint salt) {
  vec3 fl = floor(p);
  ivec3 c = ivec3(fl);
  vec3 f = p - fl;
  vec3 u = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
  float n000 = sr_latticeHash(c, salt);
  float n100 = sr_latticeHash(c + ivec3(1, 0, 0), salt);
  float n010 = sr_latticeHash(c + ivec3(0, 1, 0), salt);
  float n110 = sr_latticeHash(c + ivec3(1, 1, 0), salt);
  float n001 = sr_latticeHash(c + ivec3(0, 0, 1), salt);
  float n101 = sr_latticeHash(c + ivec3(1, 0, 1), salt);
  float n011 = sr_latticeHash(c + ivec3(0, 1, 1), salt);
  float n111 = sr_latticeHash(c + ivec3(1, 1, 1), salt);
  return mix(
    mix(mix(n000, n100, u.x), mix(n010, n110, u.x), u.y),
    mix(mix(n001, n101, u.x), mix(n011, n111, u.x), u.y),
    u.z);
}

// Fractal sum of value noise in about [-1, 1] (centered), `octaves` ≤ 8. Each octave fades out
// as its wavelength (1 / frequency, in units of p) approaches two footprints, so a pixel never
// sees a pattern finer than itself: distant surfaces average to the mean instead of sparkling.
// `footprint` is the size of a pixel in units of p.
float sr_fbmFiltered(vec3 p, int octaves, float footprint, uint salt) {
  float sum = 0.0;
  float amp = 0.5;
  float freq = 1.0;
  for (int i = 0; i < 8; i++) {
    if (i >= octaves) break;
    float fade = 1.0 - smoothstep(0.25, 0.5, footprint * freq);
    if (fade <= 0.0) break;
    sum += amp * fade * (2.0 * sr_valueNoise3(p * freq + float(i) * 17.13, salt + uint(i)) - 1.0);
    amp *= 0.5;
    freq *= 2.03;
  }
  return sum;
}

// Unfiltered fractal sum in about [-1, 1] (for shaders that render at a fixed resolution).
float sr_fbm(vec3 p, int octaves, uint salt) {
  return sr_fbmFiltered(p, octaves, 0.0, salt);
}

// 3D Voronoi: x = distance to the nearest feature point, y = to the second nearest,
// z = a hash of the nearest cell in [0, 1). Distances in cell units.
vec3 sr_voronoi3(vec3 p, uint salt) {
  vec3 fl = floor(p);
  ivec3 c = ivec3(fl);
  vec3 f = p - fl;
  float d1 = 8.0;
  float d2 = 8.0;
  float id = 0.0;
  for (int k = -1; k <= 1; k++)
    for (int j = -1; j <= 1; j++)
      for (int i = -1; i <= 1; i++) {
        ivec3 o = ivec3(i, j, k);
        ivec3 cc = c + o;
        vec3 feature = vec3(o) + vec3(
          sr_latticeHash(cc, salt), sr_latticeHash(cc, salt + 101u), sr_latticeHash(cc, salt + 202u));
        float d = length(feature - f);
        if (d < d1) {
          d2 = d1;
          d1 = d;
          id = sr_latticeHash(cc, salt + 303u);
        } else if (d < d2) {
          d2 = d;
        }
      }
  return vec3(d1, d2, id);
}

#endif
