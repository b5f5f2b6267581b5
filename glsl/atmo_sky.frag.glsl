// The atmosphere over the sky, in two passes (src/render/Atmosphere.ts): with SR_ATMO_TRANSMIT
// the background (nebula, stars, the sun's disc) is multiplied by the view ray's transmittance
// (blend ZERO, SRC_COLOR); without, the light the air scatters towards the eye is added
// (additive). Inside the atmosphere the sky-view LUT answers; from space the ray is marched.
#include <sr_atmosphere>

uniform vec3 uAtmoCamera;
uniform sampler2D uAtmoSkyView;
uniform vec2 uSkyViewSize;
uniform int uSpaceSteps;
uniform float uAtmoSkyValid;

varying vec3 vDirWorld;

void main() {
  vec3 rd = normalize(vDirWorld);
  vec3 ro = uAtmoCamera;
  float r = length(ro);
  // Below the atmosphere's bottom (a deep crater or canyon): seen from just above it, else every
  // ray would meet the bottom sphere from inside and the whole sky go black.
  if (r < uAtmoBottom + 1.0) {
    ro *= (uAtmoBottom + 1.0) / max(r, 1e-3);
    r = uAtmoBottom + 1.0;
  }
  vec3 T = vec3(1.0);
  vec3 L = vec3(0.0);
  vec2 span = srRaySphereSpan(ro, rd, uAtmoTop);
  if (span.y > 0.0) {
    float tGround = srRaySphereNear(ro, rd, uAtmoBottom);
    float tEnd = tGround > 0.0 ? tGround : span.y;
    if (r < uAtmoTop && uAtmoSkyValid > 0.5) {
      #ifdef SR_ATMO_TRANSMIT
        T = tGround > 0.0 ? vec3(0.0) : srTransmittanceToTop(r, dot(rd, ro / r));
      #else
        L = texture(uAtmoSkyView, srSkyViewUvAt(ro, rd, uSkyViewSize)).rgb;
      #endif
    } else {
      #ifdef SR_ATMO_TRANSMIT
        if (tGround > 0.0) T = vec3(0.0);
        else {
          vec3 entry = ro + rd * span.x;
          float re = length(entry);
          T = srTransmittanceToTop(re, dot(entry / re, rd));
        }
      #else
        L = srInscatter(ro, rd, span.x, tEnd, uSpaceSteps, T);
      #endif
    }
  }
  #ifdef SR_ATMO_TRANSMIT
    // The frame below is linear HDR (FrameOutput): light behind the air is multiplied by T.
    gl_FragColor = vec4(T, 1.0);
  #else
    gl_FragColor = vec4(L, 1.0);
    #include <tonemapping_fragment>
    #include <colorspace_fragment>
  #endif
}
