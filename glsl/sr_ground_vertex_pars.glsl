// Chunk `sr_ground_vertex_pars` (vertex stage, after three's <common>): the pieces' ground colour
// attribute (src/scene/groundColours.ts: sqrt of the albedo in rgb, roughness in a, normalised
// bytes) and the varying the fragment stage reads (glsl/sr_ground.glsl).
attribute vec4 groundColour;
varying vec4 vGround;
