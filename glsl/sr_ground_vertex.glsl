// Chunk `sr_ground_vertex` (after three's <project_vertex>): the ground's colour at this vertex, as
// its body worker computed it (src/scene/groundColours.ts): the albedo's square root in rgb,
// the roughness in a.
vGround = vec4(groundColour.rgb * groundColour.rgb, groundColour.a);
