// Chunk `sr_ground_roughness` (after three's <roughnessmap_fragment>): the ground's roughness, the
// alpha byte. With lava (SR_GROUND_GLOW) the bytes under 64 mark glowing ground instead
// (src/field/groundColours.ts GLOW_ALPHA_BYTES), a crust as rough as the rock (GLOW_ROUGHNESS, 0.85):
// no roughness there is under 0.85, so the pixels between a glowing vertex and a dull one, whose
// interpolated byte passes through glossy values, stay as matte as the ground around them.
#ifdef SR_GROUND_GLOW
roughnessFactor = max(vGround.a, 0.85);
#else
roughnessFactor = vGround.a;
#endif
