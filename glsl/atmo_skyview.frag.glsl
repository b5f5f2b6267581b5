// Sky-view LUT (Hillaire 2020 §5.3, 192 × 108 on a GPU): the sky's light from the camera's radius
// in every direction, in a frame whose y is the camera's zenith and whose sun lies in the x-y
// plane (uAtmoSunDir is that frame's sun here). Re-rendered when the camera's radius or the sun's
// zenith angle moves (src/render/Atmosphere.ts).
#include <sr_atmosphere>

uniform float uSkyCameraR;
uniform vec2 uSkyViewSize;
uniform int uSkySteps;

void main() {
  vec2 uv = vec2(srSubToUnit(gl_FragCoord.x / uSkyViewSize.x, uSkyViewSize.x), srSubToUnit(gl_FragCoord.y / uSkyViewSize.y, uSkyViewSize.y));
  vec3 rd = srSkyViewDir(uSkyCameraR, uv);
  vec3 ro = vec3(0.0, uSkyCameraR, 0.0);
  float tGround = srRaySphereNear(ro, rd, uAtmoBottom);
  float tTop = max(srRaySphereSpan(ro, rd, uAtmoTop).y, 0.0);
  float tMax = tGround > 0.0 ? tGround : tTop;
  vec3 T;
  vec3 L = srInscatter(ro, rd, 0.0, tMax, uSkySteps, T);
  gl_FragColor = vec4(L, 1.0);
}
