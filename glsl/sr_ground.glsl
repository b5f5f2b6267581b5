// Chunk `sr_ground` (fragment stage): the ground colour its vertices computed
// (glsl/sr_ground_common.glsl).
varying vec4 vGround;
