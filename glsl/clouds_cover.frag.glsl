// One face of a planet's cloud cover cube map (issue 41; src/render/CloudCover.ts): per texel,
// its direction m on the unit sphere (the inverse of the cube map lookup's face table, so the
// lookup finds what was written here), the noise domain point q, and the broad part of the cover
// (sr_cloud_cover): r the systems' term plus the octaves coarser than the texels can hold
// (uCoverOctaves of them), gba the domain warp, both offset into [0, 1] for an 8-bit target.
// The layer's shader (clouds.frag.glsl) adds the finer octaves where a pixel can see them.
#include <sr_cloud_cover>

uniform int uCoverFace;
uniform float uCoverSize;
// Noise units per unit of direction (the layer's radius / featureM), and the seed's offset.
uniform float uCoverScale;
uniform vec3 uCoverOffset;
uniform int uCoverOctaves;

void main() {
  vec2 st = gl_FragCoord.xy / uCoverSize * 2.0 - 1.0;
  float sc = st.x;
  float tc = st.y;
  vec3 m;
  if (uCoverFace == 0) m = vec3(1.0, -tc, -sc);
  else if (uCoverFace == 1) m = vec3(-1.0, -tc, sc);
  else if (uCoverFace == 2) m = vec3(sc, 1.0, tc);
  else if (uCoverFace == 3) m = vec3(sc, -1.0, -tc);
  else if (uCoverFace == 4) m = vec3(sc, -tc, 1.0);
  else m = vec3(-sc, -tc, -1.0);
  vec3 q = normalize(m) * uCoverScale + uCoverOffset;
  vec3 warp = srCloudWarp(q);
  float broad = 0.45 * srCloudSystem(q) + srCloudOctaves(q * 3.0 + warp * 1.6, 0, uCoverOctaves, 0.0);
  gl_FragColor = vec4(broad * SR_COVER_ENCODE + 0.5, warp + 0.5);
}
