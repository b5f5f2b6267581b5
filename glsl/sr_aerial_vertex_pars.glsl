// Chunk `sr_aerial_vertex_pars`: the varying glsl/sr_aerial.glsl reads.
varying vec3 vSrAtmoWorld;
