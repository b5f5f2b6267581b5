// Chunk `sr_ground_roughness` (after three's <roughnessmap_fragment>): the ground's roughness, the
// alpha byte. With lava (SR_GROUND_GLOW) the bytes under 64 mark glowing ground instead
// (src/field/groundColours.ts GLOW_ALPHA_BYTES), a crust of roughness 0.6 (GLOW_ROUGHNESS); no
// roughness there is under 0.6, so the pixels between a glowing vertex and a dull one, whose
// interpolated byte passes through the glossy 0.25–0.6, do not catch the sun as glints.
#ifdef SR_GROUND_GLOW
roughnessFactor = max(vGround.a, 0.6);
#else
roughnessFactor = vGround.a;
#endif
