// Chunk `sr_ground_vertex` (after three's <project_vertex>): the ground's colour at this vertex
// (glsl/sr_ground_common.glsl), and its planet-frame position for the close-range detail.
vec3 groundWorld = (modelMatrix * vec4(transformed, 1.0)).xyz;
vGround = srGroundVertex(groundWorld, (modelMatrix * vec4(objectNormal, 0.0)).xyz);
#ifdef SR_GROUND_DETAIL_OCTAVES
vGroundPos = uGroundCamera + (groundWorld - cameraPosition);
#endif
