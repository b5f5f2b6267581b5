// Chunk `sr_ground_vertex` (after three's <project_vertex>): render-space position and normal
// for glsl/sr_ground.glsl.
vGroundWorld = (modelMatrix * vec4(transformed, 1.0)).xyz;
vGroundNormal = (modelMatrix * vec4(objectNormal, 0.0)).xyz;
