// Multiple-scattering LUT (Hillaire 2020 §5.5, 32 × 32): for a point at radius r with the sun at
// cos-zenith μ_s, the second-order light L₂ and the transfer f_ms gathered over 64 directions
// with an isotropic phase (ground bounce included); Ψ_ms = L₂ / (1 − f_ms) sums every order.
#include <sr_atmosphere>

void main() {
  vec2 uv = vec2(srSubToUnit(gl_FragCoord.x / SR_MULTI_SIZE, SR_MULTI_SIZE), srSubToUnit(gl_FragCoord.y / SR_MULTI_SIZE, SR_MULTI_SIZE));
  float muS = clamp(uv.x * 2.0 - 1.0, -1.0, 1.0);
  float r = mix(uAtmoBottom, uAtmoTop, clamp(uv.y, 0.0, 1.0));
  r = clamp(r, uAtmoBottom + 1.0, uAtmoTop - 1.0);
  vec3 ro = vec3(0.0, r, 0.0);
  vec3 sun = vec3(sqrt(max(0.0, 1.0 - muS * muS)), muS, 0.0);
  const int SQRT_DIRS = 8;
  const int STEPS = 20;
  const float ISO = 1.0 / (4.0 * SR_ATMO_PI);
  vec3 L2 = vec3(0.0);
  vec3 fms = vec3(0.0);
  for (int a = 0; a < SQRT_DIRS; a++) {
    for (int b = 0; b < SQRT_DIRS; b++) {
      // Uniform on the sphere: cos θ uniform in [−1, 1], φ uniform.
      float cosT = 1.0 - 2.0 * (float(a) + 0.5) / float(SQRT_DIRS);
      float phi = 2.0 * SR_ATMO_PI * (float(b) + 0.5) / float(SQRT_DIRS);
      float sinT = sqrt(max(0.0, 1.0 - cosT * cosT));
      vec3 rd = vec3(sinT * cos(phi), cosT, sinT * sin(phi));
      float tGround = srRaySphereNear(ro, rd, uAtmoBottom);
      float tTop = max(srRaySphereSpan(ro, rd, uAtmoTop).y, 0.0);
      float tMax = tGround > 0.0 ? tGround : tTop;
      float dt = tMax / float(STEPS);
      vec3 T = vec3(1.0);
      vec3 L = vec3(0.0);
      vec3 f = vec3(0.0);
      for (int i = 0; i < STEPS; i++) {
        vec3 p = ro + rd * ((float(i) + 0.5) * dt);
        float pr = length(p);
        SrMedium m = srMediumAt(pr);
        vec3 sunT = srTransmittanceToTop(pr, dot(p / pr, sun));
        vec3 stepT = exp(-m.extinction * dt);
        vec3 k = (vec3(1.0) - stepT) / max(m.extinction, vec3(1e-12));
        L += T * m.scattering * sunT * ISO * k;
        f += T * m.scattering * k;
        T *= stepT;
      }
      if (tGround > 0.0) {
        vec3 g = ro + rd * tGround;
        vec3 n = normalize(g);
        L += T * srTransmittanceToTop(length(g), dot(n, sun)) * max(dot(n, sun), 0.0) * uAtmoGroundAlbedo / SR_ATMO_PI;
      }
      L2 += L;
      fms += f * ISO;
    }
  }
  // Mean over directions × solid angle (4π) × isotropic phase (1 / 4π) for L₂; f_ms likewise.
  float n = float(SQRT_DIRS * SQRT_DIRS);
  L2 /= n;
  fms *= 4.0 * SR_ATMO_PI / n;
  gl_FragColor = vec4(L2 / max(vec3(1.0) - fms, vec3(1e-3)), 1.0);
}
