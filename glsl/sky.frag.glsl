// Procedural sky, pass 2 of 2 (src/render/SkyCubemap.ts, seed 004 §3.5 and §4.8): the
// nebula cube from pass 1, filtered, plus stars of several colours, brightnesses and sizes
// at full resolution. Linear HDR out; tone mapping happens when the background is drawn.
#include <sr_common>
#include <sr_sky_stars>

uniform samplerCube uNebula;
uniform uint uSalt;
uniform vec3 uGalaxyNormal;
uniform float uStarBrightness;
uniform float uTexelRad;     // angular size of one cube-map texel

in vec3 vDirection;

void main() {
  vec3 dir = normalize(vDirection);
  vec4 nebula = texture(uNebula, dir);
  float band = exp(-pow(dot(dir, uGalaxyNormal) / 0.22, 2.0));

  // Stars, dimmed a little behind dense cloud; many more faint ones along the band.
  float sigma = 0.75 * uTexelRad;
  vec3 stars = sr_starLayer(dir, 9.0, 0.025, 30.0, sigma * 1.2, 1.0, uSalt + 100u)
    + sr_starLayer(dir, 30.0, 0.03, 10.0, sigma, 0.0, uSalt + 200u)
    + sr_starLayer(dir, 100.0, 0.04 * (0.4 + 1.6 * band), 1.5, sigma, 0.0, uSalt + 300u);
  vec3 colour = nebula.rgb + uStarBrightness * stars * mix(1.0, 0.5, sr_saturate(nebula.a));
  gl_FragColor = vec4(colour, 1.0);
}
