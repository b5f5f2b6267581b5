// Chunk `sr_aerial_vertex` (after three's <project_vertex>): the vertex's render-space position
// for glsl/sr_aerial.glsl.
vSrAtmoWorld = (modelMatrix * vec4(transformed, 1.0)).xyz;
