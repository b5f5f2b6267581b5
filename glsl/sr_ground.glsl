// Chunk `sr_ground`: a planet's ground colour for its standard (non-detail) material
// (src/render/planetGround.ts splices it in): materials by altitude, slope and latitude —
// dark maria in the low basins (large, noise-edged: they read from orbit), light regolith on the
// highlands, bare darker rock on steep slopes, ice towards the poles on gentle ground — and tone
// variation at every scale from regions down to metres, each octave faded as it nears the pixel
// (sr_fbmFiltered) so near ground keeps its grain and far ground does not sparkle.
#include <sr_procnoise>

varying vec3 vGroundWorld;
varying vec3 vGroundNormal;
// The camera in the planet's frame (the frame is not rotated: body = world − centre).
uniform vec3 uGroundCamera;
uniform float uGroundRadius;
uniform float uGroundRelief;
uniform vec3 uGroundRegolith;
uniform vec3 uGroundMare;
uniform vec3 uGroundRock;
uniform vec3 uGroundIce;
uniform float uGroundIceLatitude;
uniform uint uGroundSalt;

float srGroundRoughness = 0.95;

vec3 srGroundAlbedo() {
  vec3 p = uGroundCamera + (vGroundWorld - cameraPosition);
  float r = length(p);
  vec3 up = p / r;
  vec3 n = normalize(vGroundNormal);
  float flatness = dot(n, up);
  // Size of a pixel here (m), from the screen-space change of position.
  float fp = max(length(dFdx(vGroundWorld)), length(dFdy(vGroundWorld)));
  float R = uGroundRadius;
  // Continental scale: basins and highlands.
  float big = sr_fbmFiltered(p / (0.4 * R), 4, fp / (0.4 * R), uGroundSalt);
  float region = sr_fbmFiltered(p / (0.06 * R), 5, fp / (0.06 * R), uGroundSalt + 7u);
  float h = (r - R) / max(uGroundRelief, 1.0);
  float mare = smoothstep(0.1, -0.25, h + 0.9 * big + 0.15 * region);
  vec3 albedo = mix(uGroundRegolith, uGroundMare, mare) * (1.0 + 0.22 * region);
  // Local scale: hundreds of metres down to metres (faded by the footprint).
  float local = sr_fbmFiltered(p / 300.0, 5, fp / 300.0, uGroundSalt + 13u);
  float fine = sr_fbmFiltered(p / 6.0, 5, fp / 6.0, uGroundSalt + 29u);
  albedo *= (1.0 + 0.18 * local) * (1.0 + 0.16 * fine);
  // Steep ground sheds its dust: bare rock, streaked.
  float steep = smoothstep(0.9, 0.65, flatness + 0.08 * local);
  albedo = mix(albedo, uGroundRock * (1.0 + 0.3 * fine), steep);
  // Ice towards the poles, on gentle ground, with a ragged edge.
  float lat = abs(up.y);
  float ice = smoothstep(uGroundIceLatitude - 0.02, uGroundIceLatitude + 0.02, lat + 0.06 * big + 0.03 * local) * smoothstep(0.55, 0.8, flatness);
  albedo = mix(albedo, uGroundIce * (1.0 + 0.08 * fine), ice);
  srGroundRoughness = mix(mix(0.95, 0.85, steep), 0.55, ice);
  return clamp(albedo, 0.0, 1.0);
}
