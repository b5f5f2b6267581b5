// Chunk `sr_ground_roughness` (after three's <roughnessmap_fragment>): the ground's roughness.
roughnessFactor = vGround.a;
