// sr_dither: ordered (Bayer 4×4) thresholds for screen-door transparency, used to cross-fade
// LOD meshes without sorting or blending. Thresholds are (rank + 0.5) / 16, so a mesh that
// draws where threshold < t and one that draws where threshold >= t cover every pixel once.
#ifndef SR_DITHER
#define SR_DITHER

float sr_bayer4(vec2 fragCoord) {
  ivec2 q = ivec2(mod(fragCoord, 4.0));
  // Row-major 4×4 Bayer matrix.
  const int M[16] = int[](0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5);
  return (float(M[q.y * 4 + q.x]) + 0.5) / 16.0;
}

// True when a fragment of a mesh at `fade` (0 hidden … 1 opaque) should be discarded.
// `complement` flips the pattern: the outgoing mesh of a cross-fade uses it with
// fade = 1 − t so that it covers exactly the pixels the incoming mesh (fade = t) leaves.
bool sr_fadeDiscard(vec2 fragCoord, float fade, bool complement) {
  if (fade >= 1.0) return false;
  float t = sr_bayer4(fragCoord);
  return (complement ? 1.0 - t : t) >= fade;
}

#endif
