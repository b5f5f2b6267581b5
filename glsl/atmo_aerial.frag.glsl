// Aerial-perspective table (Hillaire 2020 §5.4's camera volume, in the sky view's frame rather than
// the frustum's): for each direction of the sky-view parametrisation (u: azimuth from the sun,
// v: zenith angle, horizon-dense) and each of SLICES distances d_k = uAerialMaxM · ((k + 0.5) /
// SLICES)², the light the air scatters towards the camera over [0, d_k] (L) or its transmittance
// (T, with SR_AERIAL_T). Slices sit side by side along x: texel (k · U + i, j). Rendered with the
// sky view, when the camera's radius or the sun's zenith angle moves (src/render/Atmosphere.ts);
// the planet's materials read it per vertex (glsl/sr_aerial.glsl) in place of a march of their own.
#include <sr_atmosphere>

uniform float uSkyCameraR;
uniform vec3 uAerialSize;
uniform float uAerialMaxM;
uniform int uAerialSteps;

void main() {
  float slices = uAerialSize.z;
  float k = floor(gl_FragCoord.x / uAerialSize.x);
  float i = gl_FragCoord.x - k * uAerialSize.x;
  vec2 uv = vec2(srSubToUnit(i / uAerialSize.x, uAerialSize.x), srSubToUnit(gl_FragCoord.y / uAerialSize.y, uAerialSize.y));
  vec3 rd = srSkyViewDir(uSkyCameraR, uv);
  vec3 ro = vec3(0.0, uSkyCameraR, 0.0);
  float d = uAerialMaxM * pow((k + 0.5) / slices, 2.0);
  // No ground point lies past the lowest ground or outside the air.
  float tGround = srRaySphereNear(ro, rd, uAtmoBottom);
  float tTop = max(srRaySphereSpan(ro, rd, uAtmoTop).y, 0.0);
  float t1 = min(d, tGround > 0.0 ? tGround : tTop);
  vec3 T = vec3(1.0);
  vec3 L = t1 > 0.0 ? srInscatter(ro, rd, 0.0, t1, uAerialSteps, T) : vec3(0.0);
  #ifdef SR_AERIAL_T
    gl_FragColor = vec4(T, 1.0);
  #else
    gl_FragColor = vec4(L, 1.0);
  #endif
}
