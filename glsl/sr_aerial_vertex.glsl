// Chunk `sr_aerial_vertex` (after three's <project_vertex>): the air between this vertex and the
// eye, and the sun through it (glsl/sr_aerial.glsl).
srAerialVertex((modelMatrix * vec4(transformed, 1.0)).xyz);
