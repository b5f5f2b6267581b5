// Chunk `sr_ground_color` (after three's <color_fragment>): the ground's albedo (glsl/sr_ground_common.glsl).
diffuseColor.rgb = vGround.rgb;
