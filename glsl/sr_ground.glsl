// Chunk `sr_ground` (fragment stage): the ground colour of the vertices (src/field/groundColours.ts,
// glsl/sr_ground_vertex.glsl), and what the close-range detail reads (glsl/sr_ground_detail.glsl).
varying vec4 vGround;
#ifdef SR_GROUND_DETAIL_OCTAVES
#include <sr_procnoise>
uniform vec3 uGroundCameraHigh;
uniform vec3 uGroundCameraLow;
uniform uint uGroundSalt;
uniform float uGroundDetailMinM;
#endif
#ifdef SR_GROUND_GLOW
// Molten rock's radiance at full glow (glsl/sr_ground_glow.glsl).
uniform vec3 uGroundGlow;
#endif
