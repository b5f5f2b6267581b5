// Transmittance LUT (Hillaire 2020 §4, 256 × 64): from (r, μ) to the atmosphere's top, 40 steps.
#include <sr_atmosphere>

void main() {
  vec2 rmu = srTransmittanceRMu(gl_FragCoord.xy / SR_TRANSMITTANCE_SIZE);
  vec3 ro = vec3(0.0, rmu.x, 0.0);
  vec3 rd = vec3(sqrt(max(0.0, 1.0 - rmu.y * rmu.y)), rmu.y, 0.0);
  float tMax = max(srRaySphereSpan(ro, rd, uAtmoTop).y, 0.0);
  const int STEPS = 40;
  float dt = tMax / float(STEPS);
  vec3 depth = vec3(0.0);
  for (int i = 0; i < STEPS; i++) {
    depth += srMediumAt(length(ro + rd * ((float(i) + 0.5) * dt))).extinction * dt;
  }
  gl_FragColor = vec4(exp(-depth), 1.0);
}
