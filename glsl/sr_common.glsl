// sr_common: constants and small helpers shared by every shader of the project.
#ifndef SR_COMMON
#define SR_COMMON

#define SR_PI 3.14159265358979
#define SR_TAU 6.28318530717959

float sr_saturate(float x) { return clamp(x, 0.0, 1.0); }

// Integer hash (PCG-ish), stable across drivers: used for stars and dithering.
uint sr_hashU(uint x) {
  x ^= x >> 16u; x *= 0x7feb352du;
  x ^= x >> 15u; x *= 0x846ca68bu;
  x ^= x >> 16u;
  return x;
}
float sr_hash13(uvec3 p) {
  return float(sr_hashU(p.x ^ sr_hashU(p.y ^ sr_hashU(p.z)))) * (1.0 / 4294967296.0);
}

#endif
