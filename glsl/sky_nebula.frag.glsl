// Procedural sky, pass 1 of 2 (src/render/SkyCubemap.ts): the nebula, at a lower resolution
// than the stars (it is smooth) — Sockalingam 2017 §3.5's recipe: a domain warp by fractal noise,
// Voronoi cells for bright knots and dark lanes, plus a galactic band. Linear HDR out.
#include <sr_common>
#include <sr_procnoise>

uniform uint uSalt;
uniform vec3 uNebulaA;       // main nebula colour
uniform vec3 uNebulaB;       // secondary colour
uniform vec3 uNebulaC;       // hot knots
uniform vec3 uBackground;    // darkest sky
uniform vec3 uGalaxyNormal;  // normal of the galactic plane
uniform vec3 uNebulaCenter;  // direction the nebula is concentrated around
uniform float uNebulaStrength;

in vec3 vDirection;

void main() {
  vec3 dir = normalize(vDirection);

  // Domain warp: the address of the cloud noise is pushed around by fractal noise.
  vec3 q = dir * 2.2;
  vec3 warp = vec3(
    sr_fbm(q + vec3(1.7, 9.2, 3.1), 4, uSalt + 1u),
    sr_fbm(q + vec3(8.3, 2.8, 6.5), 4, uSalt + 2u),
    sr_fbm(q + vec3(4.1, 5.9, 0.7), 4, uSalt + 3u));
  vec3 addr = q + 1.6 * warp;

  // Cloud density: fractal noise, shaped, concentrated around a seeded direction and along
  // the galactic band so the sky has structure at the largest scale too.
  float band = exp(-pow(dot(dir, uGalaxyNormal) / 0.22, 2.0));
  float region = smoothstep(-0.2, 1.0, dot(dir, uNebulaCenter));
  float cloud = sr_fbm(addr * 1.3, 6, uSalt + 4u);
  float density = smoothstep(-0.15, 0.6, cloud) * (0.3 + 0.7 * region) * (0.5 + 0.7 * band);

  // Voronoi on the warped address: bright knots near cell centers, dark dust lanes on edges.
  vec3 vor = sr_voronoi3(addr * 2.4, uSalt + 5u);
  float knots = exp(-4.0 * vor.x);
  // Soft lanes: a narrow edge band reads as cracked paint, a wide one as dust.
  float lanes = smoothstep(0.02, 0.45, vor.y - vor.x);
  float tint = sr_fbm(addr * 0.8 + 11.0, 3, uSalt + 6u);

  vec3 nebula = mix(uNebulaA, uNebulaB, smoothstep(-0.3, 0.3, tint)) * density;
  nebula += uNebulaC * density * knots * 0.8;
  nebula *= mix(0.3, 1.0, lanes);
  // Fine filaments at a smaller scale.
  float filaments = pow(sr_saturate(1.0 - abs(sr_fbm(addr * 4.0, 4, uSalt + 7u)) * 3.0), 4.0);
  nebula += uNebulaA * filaments * density * 0.6;

  vec3 colour = uBackground * (1.0 + band) + uNebulaStrength * nebula;
  // Unresolved stars of the galactic band: a faint glow. `a` carries the cloud density so
  // the star pass can dim stars behind dense cloud.
  colour += vec3(0.9, 0.85, 0.8) * band * 0.012;
  gl_FragColor = vec4(colour, density);
}
