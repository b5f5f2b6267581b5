// Chunk `sr_ground_glow` (after three's <emissivemap_fragment>, where the planet's palette has
// lava): molten rock's light. The ground colour's alpha bytes under 64 mark glowing ground, glow =
// 1 − byte / 64 (src/field/groundColours.ts, GLOW_ALPHA_BYTES); its colour runs from a dull red
// at the edges of a crack to orange-yellow where it is brightest (a hotter melt). Added before the
// atmosphere, which dims and reddens it with distance like any light from the ground.
#ifdef SR_GROUND_GLOW
{
  float srGlowByte = vGround.a * 255.0;
  if (srGlowByte < 63.5) {
    // Clamped: a pixel at a triangle's edge can read its varyings outside the triangle (at the
    // pixel's centre, multisampled), extrapolated past the vertices' values; unclamped, a thin
    // triangle at a ridge gave g of 10 and more, a blue-white flare with bloom.
    float g = clamp(1.0 - srGlowByte / 64.0, 0.0, 1.0);
    totalEmissiveRadiance += uGroundGlow * g * vec3(1.0, 0.16 + 0.26 * g, 0.02 + 0.06 * g * g);
  }
}
#endif
