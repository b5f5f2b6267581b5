// sr_noise: GLSL port of simplex-noise 4.0.3 `noise3D` reading the same permutation table,
// plus the fractal sums of src/field/noise.ts. The JS back end (src/field/noise.ts
// `simplex3`, `fractal`) is the reference: keep the two line-for-line alike.
//
// The permutation tables are baked by the field compiler (src/field/glslCodegen.ts), which
// defines `sr_perm` and `sr_permYZ` below the prototypes: table t's entry i, i in [0, 256), and
// perm[(y + perm[z & 255]) & 255] (one fetch of a pair table where the tables are a texture:
// src/field/noise.ts permutationLayers).
#ifndef SR_NOISE
#define SR_NOISE

int sr_perm(int table, int i);
int sr_permYZ(int table, int y, int z);

#define SR_NOISE_FBM 0
#define SR_NOISE_RIDGED 1
#define SR_NOISE_BILLOW 2
#define SR_NOISE_CRATERS 3
#define SR_NOISE_TERRACE 4
#define SR_MAX_OCTAVES 12

const vec3 SR_OCTAVE_SHIFT = vec3(31.416, 47.853, 12.793);
// Keeps grid diagonals (x = y, …) off simplex faces: see OCTAVE_BASE in src/field/noise.ts.
const vec3 SR_OCTAVE_BASE = vec3(0.1273, 0.3719, 0.6143);

// simplex-noise's grad3 table, entry h in [0, 12): (±1, ±1, 0), (±1, 0, ±1), (0, ±1, ±1), the
// first sign from bit 0 of h, the second from bit 1. Computed, not looked up: a constant array
// indexed by a different h in every thread is copied to per-thread memory or read one address at
// a time on GPUs.
vec3 sr_grad3(int h) {
  float a = (h & 1) != 0 ? -1.0 : 1.0;
  float b = (h & 2) != 0 ? -1.0 : 1.0;
  return h < 4 ? vec3(a, b, 0.0) : h < 8 ? vec3(a, 0.0, b) : vec3(0.0, a, b);
}

float sr_simplexCorner(int table, int gi, float t, vec3 d) {
  if (t < 0.0) return 0.0;
  vec3 g = sr_grad3(sr_perm(table, gi & 255) % 12);
  t *= t;
  return t * t * dot(g, d);
}

// The simplex cell of v: its four corners' offsets from v and their gradient indices (before the
// table lookup). Shared by sr_simplex3 and sr_simplex3G (glsl/sr_noise_grad.glsl).
struct SrSimplexCell {
  vec3 x0;
  vec3 x1;
  vec3 x2;
  vec3 x3;
  int g0;
  int g1;
  int g2;
  int g3;
};

// The cell of cell + v for an integer point `cell` whose coordinates sum to a multiple of 3 (its
// skewed image cell + Σcell/3 is then a lattice point): the offsets are v's own, only the hash reads
// the shift. A chunk-relative field (glsl/sr_noise_rel.glsl) hands a far octave's input over this way,
// its whole part as `cell` and a small v, so float32 never holds the far point.
SrSimplexCell sr_simplexCellShifted(ivec3 cell, vec3 v, int table) {
  const float F3 = 1.0 / 3.0;
  const float G3 = 1.0 / 6.0;
  float s = (v.x + v.y + v.z) * F3;
  ivec3 c = ivec3(floor(v + s));
  float t = float(c.x + c.y + c.z) * G3;
  vec3 x0 = v - (vec3(c) - t);
  ivec3 o1;
  ivec3 o2;
  if (x0.x >= x0.y) {
    if (x0.y >= x0.z) { o1 = ivec3(1, 0, 0); o2 = ivec3(1, 1, 0); }
    else if (x0.x >= x0.z) { o1 = ivec3(1, 0, 0); o2 = ivec3(1, 0, 1); }
    else { o1 = ivec3(0, 0, 1); o2 = ivec3(1, 0, 1); }
  } else {
    if (x0.y < x0.z) { o1 = ivec3(0, 0, 1); o2 = ivec3(0, 1, 1); }
    else if (x0.x < x0.z) { o1 = ivec3(0, 1, 0); o2 = ivec3(0, 1, 1); }
    else { o1 = ivec3(0, 1, 0); o2 = ivec3(1, 1, 0); }
  }
  SrSimplexCell r;
  r.x0 = x0;
  r.x1 = x0 - vec3(o1) + G3;
  r.x2 = x0 - vec3(o2) + 2.0 * G3;
  r.x3 = x0 - 1.0 + 3.0 * G3;
  ivec3 m = (c + cell + (cell.x + cell.y + cell.z) / 3) & 255;
  r.g0 = m.x + sr_permYZ(table, m.y, m.z);
  r.g1 = m.x + o1.x + sr_permYZ(table, m.y + o1.y, m.z + o1.z);
  r.g2 = m.x + o2.x + sr_permYZ(table, m.y + o2.y, m.z + o2.z);
  r.g3 = m.x + 1 + sr_permYZ(table, m.y + 1, m.z + 1);
  return r;
}

SrSimplexCell sr_simplexCell(vec3 v, int table) {
  return sr_simplexCellShifted(ivec3(0), v, table);
}

// 3D simplex noise in about [-1, 1] (the package's 0.6 kernel and 32 scale), at cell + v.
float sr_simplex3Shifted(ivec3 shift, vec3 v, int table) {
  SrSimplexCell c = sr_simplexCellShifted(shift, v, table);
  float n0 = sr_simplexCorner(table, c.g0, 0.6 - dot(c.x0, c.x0), c.x0);
  float n1 = sr_simplexCorner(table, c.g1, 0.6 - dot(c.x1, c.x1), c.x1);
  float n2 = sr_simplexCorner(table, c.g2, 0.6 - dot(c.x2, c.x2), c.x2);
  float n3 = sr_simplexCorner(table, c.g3, 0.6 - dot(c.x3, c.x3), c.x3);
  return 32.0 * (n0 + n1 + n2 + n3);
}

float sr_simplex3(vec3 v, int table) {
  return sr_simplex3Shifted(ivec3(0), v, table);
}

// One octave of the craters kind: a crater in v's unit cell or none (src/field/noise.ts
// craterCell, the reference: same hash lookups, same profile).
const int SR_CRATER_PRESENCE = 160;
const float SR_CRATER_RHO_MIN = 0.1;
const float SR_CRATER_RHO_MAX = 0.3;
const float SR_CRATER_EJECTA = 1.6;
const float SR_CRATER_RIM = 0.25;

// The crater of v's unit cell, if it has one and v is within its reach (ejecta included): d is v
// from its centre, rho its radius (noise units). Shared by sr_craterCell and sr_craterCellG.
bool sr_craterNearShifted(ivec3 shift, vec3 v, int table, out vec3 d, out float rho) {
  d = vec3(0.0);
  rho = 0.0;
  vec3 fl = floor(v);
  ivec3 c = (ivec3(fl) + shift) & 255;
  int h0 = sr_perm(table, (c.x + sr_permYZ(table, c.y, c.z)) & 255);
  if (h0 >= SR_CRATER_PRESENCE) return false;
  int h1 = sr_perm(table, (h0 + 71) & 255);
  int h2 = sr_perm(table, (h1 + 13) & 255);
  int h3 = sr_perm(table, (h2 + 151) & 255);
  int h4 = sr_perm(table, (h3 + 97) & 255);
  rho = SR_CRATER_RHO_MIN + (SR_CRATER_RHO_MAX - SR_CRATER_RHO_MIN) * (float(h1) / 255.0);
  float reach = SR_CRATER_EJECTA * rho;
  float span = 1.0 - 2.0 * reach;
  d = v - (fl + reach + span * (vec3(float(h2), float(h3), float(h4)) / 255.0));
  return dot(d, d) < reach * reach;
}

bool sr_craterNear(vec3 v, int table, out vec3 d, out float rho) {
  return sr_craterNearShifted(ivec3(0), v, table, d, rho);
}

// At shift + v (shift: any integer point; see sr_simplexCellShifted).
float sr_craterCellShifted(ivec3 shift, vec3 v, int table) {
  vec3 d;
  float rho;
  if (!sr_craterNearShifted(shift, v, table, d, rho)) return 0.0;
  float t = sqrt(dot(d, d)) / rho;
  float scale = rho / SR_CRATER_RHO_MAX;
  if (t < 1.0) return scale * (-1.0 + (1.0 + SR_CRATER_RIM) * t * t);
  float e = 1.0 - (t - 1.0) / (SR_CRATER_EJECTA - 1.0);
  return scale * SR_CRATER_RIM * e * e;
}

float sr_craterCell(vec3 v, int table) {
  return sr_craterCellShifted(ivec3(0), v, table);
}

// The terrace kind's steps on an fbm sum (src/field/noise.ts terrace).
float sr_terrace(float s) {
  float t = 4.0 * (s + 1.0);
  float k = floor(t);
  float q = clamp((t - k - 0.3) / 0.4, 0.0, 1.0);
  return (k + q * q * (3.0 - 2.0 * q)) / 4.0 - 1.0;
}

// One octave's value of a kind at noise-space point shift + q (ridged keeps its weight in `weight`;
// shift: an integer point whose coordinates sum to a multiple of 3).
float sr_octaveShifted(int kind, ivec3 shift, vec3 q, int table, inout float weight) {
  if (kind == SR_NOISE_CRATERS) return sr_craterCellShifted(shift, q, table);
  float n = sr_simplex3Shifted(shift, q, table);
  if (kind == SR_NOISE_FBM || kind == SR_NOISE_TERRACE) return n;
  if (kind == SR_NOISE_BILLOW) return 2.0 * abs(n) - 1.0;
  float v = 1.0 - abs(n);
  v *= v;
  v *= weight;
  weight = clamp(v * 2.0, 0.0, 1.0);
  return v;
}

float sr_octave(int kind, vec3 q, int table, inout float weight) {
  return sr_octaveShifted(kind, ivec3(0), q, table, weight);
}

// Fractal sum in noise space (u = position × base frequency), normalised by the octave
// weights: fbm and billow in about [-1, 1], ridged in [0, 1], craters in [-1, 0.25], terrace
// in [-1, 1].
float sr_fractal(int kind, vec3 u, int table, int octaves, float lacunarity, float gain) {
  float sum = 0.0;
  float norm = 0.0;
  float amp = 1.0;
  float f = 1.0;
  float weight = 1.0;
  for (int i = 0; i < SR_MAX_OCTAVES; i++) {
    if (i >= octaves) break;
    sum += amp * sr_octave(kind, u * f + SR_OCTAVE_BASE + float(i) * SR_OCTAVE_SHIFT, table, weight);
    norm += amp;
    amp *= gain;
    f *= lacunarity;
  }
  return kind == SR_NOISE_TERRACE ? sr_terrace(sum / norm) : sum / norm;
}

// sr_fractal band-limited (JS `fractal` with `used`): only octaves i < used are summed, still
// normalised by all `octaves`, so used = octaves is sr_fractal and used = 0 gives exactly 0.
// `used` comes from the sr_band uniform (src/field/glslCodegen.ts bandUniforms).
float sr_fractalBand(int kind, vec3 u, int table, int octaves, int used, float lacunarity, float gain) {
  float sum = 0.0;
  float norm = 0.0;
  float amp = 1.0;
  float f = 1.0;
  float weight = 1.0;
  for (int i = 0; i < SR_MAX_OCTAVES; i++) {
    if (i >= octaves) break;
    if (i < used) sum += amp * sr_octave(kind, u * f + SR_OCTAVE_BASE + float(i) * SR_OCTAVE_SHIFT, table, weight);
    norm += amp;
    amp *= gain;
    f *= lacunarity;
  }
  return kind == SR_NOISE_TERRACE ? sr_terrace(sum / norm) : sum / norm;
}

// Polynomial smooth min/max (Quílez), blend radius k > 0: as smin/smax in compileJs.ts.
float sr_smin(float a, float b, float k) {
  float h = max(k - abs(a - b), 0.0) / k;
  return min(a, b) - h * h * k * 0.25;
}
float sr_smax(float a, float b, float k) {
  float h = max(k - abs(a - b), 0.0) / k;
  return max(a, b) + h * h * k * 0.25;
}

#endif
