// Chunk `sr_ground_color` (after three's <color_fragment>): the ground's albedo (glsl/sr_ground.glsl).
diffuseColor.rgb = srGroundAlbedo();
