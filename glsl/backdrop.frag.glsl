#include <sr_common>

uniform uint uSeed;
in vec3 vDirectionWorld;
out vec4 outColor;

// Stars: one candidate per cell of a direction grid on the cube map faces' equivalent,
// hashed with the seed. Size in cells, not pixels, so the pattern does not shimmer
// with resolution; brightness falls off smoothly so edges are anti-aliased by fwidth.
vec3 stars(vec3 dir) {
  const float CELLS = 180.0;
  vec3 p = dir * CELLS;
  vec3 cell = floor(p);
  vec3 col = vec3(0.0);
  uvec3 key = uvec3(ivec3(cell) + 4096) ^ uvec3(uSeed, uSeed * 7u, uSeed * 13u);
  float h = sr_hash13(key);
  if (h > 0.92) {
    vec3 centre = cell + 0.5 + 0.35 * (vec3(sr_hash13(key + 1u), sr_hash13(key + 2u), sr_hash13(key + 3u)) - 0.5);
    float d = length(p - centre);
    float w = fwidth(d) + 0.08;
    float b = (h - 0.92) / 0.08;
    float core = 1.0 - smoothstep(0.0, w + 0.12 * b, d);
    vec3 tint = mix(vec3(1.0, 0.75, 0.55), vec3(0.65, 0.8, 1.0), sr_hash13(key + 4u));
    col = tint * core * (0.5 + 3.0 * b * b);
  }
  return col;
}

void main() {
  vec3 dir = normalize(vDirectionWorld);
  float band = exp(-12.0 * dir.y * dir.y);
  vec3 base = vec3(0.004, 0.005, 0.012) + band * vec3(0.012, 0.008, 0.02);
  outColor = vec4(base + stars(dir), 1.0);
}
