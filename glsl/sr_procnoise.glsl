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

// A pseudo-random gradient in [-1, 1]³ for an integer lattice point (three 10-bit fields of one hash).
vec3 sr_latticeGradient(ivec3 c, uint salt) {
  uvec3 u = uvec3(c);
  uint h = sr_hashU(u.x * 0x8da6b343u ^ u.y * 0xd8163841u ^ u.z * 0xcb1ab31fu ^ salt * 0x9e3779b9u);
  return vec3(uvec3(h, h >> 10u, h >> 20u) & 1023u) * (2.0 / 1023.0) - 1.0;
}

// Gradient (Perlin-style) noise with a quintic fade, about [-1, 1], and its gradient, analytic
// (xyz: d/dp, w: the value). For bump mapping: value noise's gradient vanishes on the lattice,
// which shows as a grid of squares; this one's does not. Analytic, so no screen-space
// derivatives, which pixel-sized triangles break (a 2×2 quad spans several of them).
vec4 sr_gradientNoise3Grad(vec3 p, uint salt) {
  vec3 fl = floor(p);
  ivec3 c = ivec3(fl);
  vec3 f = p - fl;
  vec3 u = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
  vec3 du = 30.0 * f * f * (f * (f - 2.0) + 1.0);
  vec3 ga = sr_latticeGradient(c, salt);
  vec3 gb = sr_latticeGradient(c + ivec3(1, 0, 0), salt);
  vec3 gc = sr_latticeGradient(c + ivec3(0, 1, 0), salt);
  vec3 gd = sr_latticeGradient(c + ivec3(1, 1, 0), salt);
  vec3 ge = sr_latticeGradient(c + ivec3(0, 0, 1), salt);
  vec3 gf = sr_latticeGradient(c + ivec3(1, 0, 1), salt);
  vec3 gg = sr_latticeGradient(c + ivec3(0, 1, 1), salt);
  vec3 gh = sr_latticeGradient(c + ivec3(1, 1, 1), salt);
  float va = dot(ga, f);
  float vb = dot(gb, f - vec3(1.0, 0.0, 0.0));
  float vc = dot(gc, f - vec3(0.0, 1.0, 0.0));
  float vd = dot(gd, f - vec3(1.0, 1.0, 0.0));
  float ve = dot(ge, f - vec3(0.0, 0.0, 1.0));
  float vf = dot(gf, f - vec3(1.0, 0.0, 1.0));
  float vg = dot(gg, f - vec3(0.0, 1.0, 1.0));
  float vh = dot(gh, f - vec3(1.0, 1.0, 1.0));
  // value = Σ trilinear terms with the fade u; its gradient: the same blend of the corner
  // gradients, plus the fade's derivative times the blend weights' differences.
  vec3 k123 = vec3(vb - va, vc - va, ve - va);
  vec3 k456 = vec3(va - vb - vc + vd, va - vc - ve + vg, va - vb - ve + vf);
  float k7 = -va + vb + vc - vd + ve - vf - vg + vh;
  float value = va + dot(u, k123) + u.x * u.y * k456.x + u.y * u.z * k456.y + u.z * u.x * k456.z + u.x * u.y * u.z * k7;
  vec3 grad = ga + u.x * (gb - ga) + u.y * (gc - ga) + u.z * (ge - ga)
    + u.x * u.y * (ga - gb - gc + gd) + u.y * u.z * (ga - gc - ge + gg) + u.z * u.x * (ga - gb - ge + gf)
    + u.x * u.y * u.z * (-ga + gb + gc - gd + ge - gf - gg + gh)
    + du * (k123 + u.yzx * k456 + u.zxy * k456.zxy + u.yzx * u.zxy * k7);
  return vec4(grad, value);
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
