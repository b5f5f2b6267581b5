// Chunk `sr_ground_vertex_pars`: the varyings glsl/sr_ground.glsl reads.
varying vec3 vGroundWorld;
varying vec3 vGroundNormal;
