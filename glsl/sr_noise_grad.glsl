// sr_noise_grad: sr_noise's simplex noise and fractal sums with their analytic gradients, for a
// field compiled with `gradient` (src/field/glslGradient.ts: sr_fieldGrad). Each returns
// vec4(gradient, value); the value is sr_simplex3's / sr_fractal's to the last bit of the same
// operations. No JS twin: test/browser/fieldGradient.test.ts checks the gradients against
// central differences of sr_field.
#ifndef SR_NOISE_GRAD
#define SR_NOISE_GRAD

// One corner of sr_simplexCorner with its derivative: t⁴ (g·d), t = 0.6 − |d|², so
// ∂/∂d = t⁴ g − 8 t³ (g·d) d.
vec4 sr_simplexCornerG(int table, int gi, float t, vec3 d) {
  if (t < 0.0) return vec4(0.0);
  vec3 g = sr_grad3(sr_perm(table, gi & 255) % 12);
  float gd = dot(g, d);
  float t2 = t * t;
  float t3 = t2 * t;
  return vec4(t3 * t * g - 8.0 * t3 * gd * d, t2 * t2 * gd);
}

// sr_simplex3 and its gradient.
vec4 sr_simplex3G(vec3 v, int table) {
  SrSimplexCell c = sr_simplexCell(v, table);
  vec4 n0 = sr_simplexCornerG(table, c.g0, 0.6 - dot(c.x0, c.x0), c.x0);
  vec4 n1 = sr_simplexCornerG(table, c.g1, 0.6 - dot(c.x1, c.x1), c.x1);
  vec4 n2 = sr_simplexCornerG(table, c.g2, 0.6 - dot(c.x2, c.x2), c.x2);
  vec4 n3 = sr_simplexCornerG(table, c.g3, 0.6 - dot(c.x3, c.x3), c.x3);
  return 32.0 * (n0 + n1 + n2 + n3);
}

// sr_craterCell and its gradient.
vec4 sr_craterCellG(vec3 v, int table) {
  vec3 d;
  float rho;
  if (!sr_craterNear(v, table, d, rho)) return vec4(0.0);
  float dist = sqrt(dot(d, d));
  float t = dist / rho;
  float scale = rho / SR_CRATER_RHO_MAX;
  // d t / d v = d / (dist · rho); the bowl is scale·(−1 + (1 + rim) t²): d/dt = 2 scale (1 + rim) t.
  if (t < 1.0) return vec4(scale * 2.0 * (1.0 + SR_CRATER_RIM) * d / (rho * rho), scale * (-1.0 + (1.0 + SR_CRATER_RIM) * t * t));
  float e = 1.0 - (t - 1.0) / (SR_CRATER_EJECTA - 1.0);
  float dEdT = -1.0 / (SR_CRATER_EJECTA - 1.0);
  return vec4(scale * SR_CRATER_RIM * 2.0 * e * dEdT * d / (dist * rho), scale * SR_CRATER_RIM * e * e);
}

// Pixel footprint (m, in the field's frame) of the gradient being taken (sr_fieldGrad's caller
// sets it; scale nodes rescale it around their child): octaves whose wavelength is under two
// footprints are left out, and those under eight are attenuated as a difference over the
// footprint would (sin x / x, x = 2π footprint / wavelength). 0: every octave, exactly.
float sr_gradFootprintM = 0.0;

// The footprint's attenuation of an octave of frequency `f` (u units) when u = p × `uPerM`: 1
// (exact), down to 0 (left out).
float sr_octaveWeight(float f, float uPerM) {
  float x = 6.2831853 * sr_gradFootprintM * f * uPerM;
  return x < 1e-3 ? 1.0 : x >= 3.1415927 ? 0.0 : sin(x) / x;
}

// sr_fractal and its gradient (in u units; the caller scales by du/dp). `uPerM`: u per metre of
// the field's frame, for the footprint.
vec4 sr_fractalG(int kind, vec3 u, int table, int octaves, float lacunarity, float gain, float uPerM) {
  vec4 sum = vec4(0.0);
  float norm = 0.0;
  float amp = 1.0;
  float f = 1.0;
  float weight = 1.0;
  vec3 dWeight = vec3(0.0);
  for (int i = 0; i < SR_MAX_OCTAVES; i++) {
    if (i >= octaves) break;
    float w = sr_octaveWeight(f, uPerM);
    if (w > 0.0) {
      vec3 q = u * f + SR_OCTAVE_BASE + float(i) * SR_OCTAVE_SHIFT;
      vec4 n = kind == SR_NOISE_CRATERS ? sr_craterCellG(q, table) : sr_simplex3G(q, table);
      n.xyz *= f;
      vec4 v;
      if (kind == SR_NOISE_FBM || kind == SR_NOISE_TERRACE || kind == SR_NOISE_CRATERS) {
        v = n;
      } else if (kind == SR_NOISE_BILLOW) {
        v = vec4(2.0 * sign(n.w) * n.xyz, 2.0 * abs(n.w) - 1.0);
      } else {
        float a = 1.0 - abs(n.w);
        vec3 da = -sign(n.w) * n.xyz;
        vec4 r = vec4(2.0 * a * da, a * a);
        v = vec4(r.xyz * weight + r.w * dWeight, r.w * weight);
        float w2 = v.w * 2.0;
        dWeight = w2 > 0.0 && w2 < 1.0 ? 2.0 * v.xyz : vec3(0.0);
        weight = clamp(w2, 0.0, 1.0);
      }
      sum += amp * vec4(v.xyz * w, v.w);
    }
    norm += amp;
    amp *= gain;
    f *= lacunarity;
  }
  sum /= norm;
  if (kind == SR_NOISE_TERRACE) {
    // sr_terrace's slope: 6 q (1 − q) / 0.4 on the risers, 0 on the treads.
    float t = 4.0 * (sum.w + 1.0);
    float q = clamp((t - floor(t) - 0.3) / 0.4, 0.0, 1.0);
    return vec4(sum.xyz * (6.0 * q * (1.0 - q) / 0.4), sr_terrace(sum.w));
  }
  return sum;
}

// sr_smin / sr_smax of two (gradient, value) pairs.
vec4 sr_sminG(vec4 a, vec4 b, float k) {
  float h = max(k - abs(a.w - b.w), 0.0) / k;
  float value = min(a.w, b.w) - h * h * k * 0.25;
  vec3 g = a.w < b.w ? (1.0 - 0.5 * h) * a.xyz + 0.5 * h * b.xyz : 0.5 * h * a.xyz + (1.0 - 0.5 * h) * b.xyz;
  return vec4(g, value);
}
vec4 sr_smaxG(vec4 a, vec4 b, float k) {
  float h = max(k - abs(a.w - b.w), 0.0) / k;
  float value = max(a.w, b.w) + h * h * k * 0.25;
  vec3 g = a.w > b.w ? (1.0 - 0.5 * h) * a.xyz + 0.5 * h * b.xyz : 0.5 * h * a.xyz + (1.0 - 0.5 * h) * b.xyz;
  return vec4(g, value);
}
vec4 sr_minG(vec4 a, vec4 b) { return a.w <= b.w ? a : b; }
vec4 sr_maxG(vec4 a, vec4 b) { return a.w >= b.w ? a : b; }

#endif
