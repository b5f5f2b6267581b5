// Chunk `sr_ground_roughness` (after three's <roughnessmap_fragment>): the ground's roughness, the
// alpha byte over 64; bytes under it mark glowing ground (src/field/groundColours.ts
// GLOW_ALPHA_BYTES), a crust of roughness 0.6 (GLOW_ROUGHNESS).
roughnessFactor = vGround.a * 255.0 < 63.5 ? 0.6 : vGround.a;
