// Chunk `sr_ground_color` (after three's <color_fragment>): the ground's albedo (src/scene/groundColours.ts).
diffuseColor.rgb = vGround.rgb;
