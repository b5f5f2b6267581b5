// Chunk `sr_ground_common` (vertex stage): a planet's ground colour per vertex
// (src/render/planetGround.ts sets the uniforms): materials by altitude, slope and latitude —
// dark maria in the low basins (large, noise-edged: they read from orbit), light regolith on the
// highlands, bare darker rock on steep slopes, ice towards the poles on gentle ground — and tone
// variation from continents down to a few hundred metres. Per vertex, not per pixel: near the
// ground a planet's triangles are a pixel or two, where a fragment shader runs ~4 invocations per
// triangle; per-pixel noise measured +12 ms a frame at 20 m on the H100 (with the log depth
// buffer, which also shaded hidden fragments) and did not show (the mesh's own relief does). Even
// per vertex every octave counts there (11 octaves: +8–13 ms against none): 8 octaves in all.
#include <sr_procnoise>

// The camera in the planet's frame (the frame is not rotated: body = world − centre), as a part on
// a 1,024 m grid and the small rest (src/render/planetGround.ts groundCameraSplit).
uniform vec3 uGroundCameraHigh;
uniform vec3 uGroundCameraLow;
uniform float uGroundRadius;
uniform float uGroundRelief;
uniform uint uGroundSalt;
uniform vec3 uGroundRegolith;
uniform vec3 uGroundMare;
uniform vec3 uGroundRock;
uniform vec3 uGroundIce;
uniform float uGroundIceLatitude;

// Albedo (rgb) and roughness (a).
varying vec4 vGround;

// Radians a pixel spans, about (1280 × 720 at 60°): filters the noise octaves by the vertex's distance.
const float SR_GROUND_PIXEL_RAD = 0.0016;

vec4 srGroundVertex(vec3 worldPosition, vec3 worldNormal) {
  vec3 p = uGroundCameraHigh + (uGroundCameraLow + (worldPosition - cameraPosition));
  float r = length(p);
  vec3 up = p / r;
  float flatness = dot(normalize(worldNormal), up);
  float fp = SR_GROUND_PIXEL_RAD * length(worldPosition - cameraPosition);
  float R = uGroundRadius;
  // Continental scale: basins and highlands; regional and local tone.
  float big = sr_fbmFiltered(p / (0.4 * R), 3, fp / (0.4 * R), uGroundSalt);
  float region = sr_fbmFiltered(p / (0.06 * R), 3, fp / (0.06 * R), uGroundSalt + 7u);
  float local = sr_fbmFiltered(p / 300.0, 2, fp / 300.0, uGroundSalt + 13u);
  float h = (r - R) / max(uGroundRelief, 1.0);
  float mare = smoothstep(0.1, -0.25, h + 0.9 * big + 0.15 * region);
  vec3 albedo = mix(uGroundRegolith, uGroundMare, mare) * (1.0 + 0.22 * region) * (1.0 + 0.18 * local);
  // Steep ground sheds its dust: bare rock.
  float steep = smoothstep(0.9, 0.65, flatness + 0.08 * local);
  albedo = mix(albedo, uGroundRock * (1.0 + 0.2 * local), steep);
  // Ice towards the poles, on gentle ground, with a ragged edge.
  float lat = abs(up.y);
  float ice = smoothstep(uGroundIceLatitude - 0.02, uGroundIceLatitude + 0.02, lat + 0.06 * big + 0.03 * local) * smoothstep(0.55, 0.8, flatness);
  albedo = mix(albedo, uGroundIce, ice);
  return vec4(clamp(albedo, 0.0, 1.0), mix(mix(0.95, 0.85, steep), 0.55, ice));
}
