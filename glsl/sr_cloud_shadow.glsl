// Chunk `sr_cloud_shadow` (vertex stage, after `sr_aerial`; issue 41): the cloud layer's shadow on
// the ground. From a vertex at `p` (the planet's frame, metres) the ray towards the sun leaves the
// layer's sphere at one point; the layer's broad cover there (the cube map the clouds baked:
// src/render/CloudCover.ts, a blurred mip: a shadow's edge is soft) thins the sunlight by the
// cloud's opacity × density² (as the clouds' own alpha) × uCloudShadow. Per vertex: the layer's
// weather is kilometres wide, the chunks' vertices metres to a few hundred apart.
uniform float uCloudR;
uniform mat3 uCloudDrift;
uniform samplerCube uCloudCover;
uniform float uCloudThreshold;
uniform float uCloudOpacity;
uniform float uCloudShadow;

float srCloudShadow(vec3 p, vec3 sunDir) {
  float c = dot(p, p) - uCloudR * uCloudR;
  if (c > 0.0) return 1.0; // above the layer
  float b = dot(p, sunDir);
  float t = -b + sqrt(max(b * b - c, 0.0));
  vec3 m = uCloudDrift * normalize(p + sunDir * t);
  float cover = (textureLod(uCloudCover, m, SR_CLOUD_SHADOW_LOD).r - 0.5) / SR_COVER_ENCODE;
  float density = smoothstep(uCloudThreshold, uCloudThreshold + SR_CLOUD_EDGE, cover);
  return 1.0 - uCloudShadow * uCloudOpacity * density * density;
}
