// Chunk `sr_ground_vertex` (after three's <project_vertex>): the ground's colour at this vertex
// (glsl/sr_ground_common.glsl).
vGround = srGroundVertex((modelMatrix * vec4(transformed, 1.0)).xyz, (modelMatrix * vec4(objectNormal, 0.0)).xyz);
