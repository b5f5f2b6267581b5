// A planet's cloud layer (issue 41; src/render/PlanetClouds.ts): per pixel, the view ray meets the
// layer's sphere (sr_layer: the near side from above, the far side from below, both through the
// limb), the cover there is a seeded fractal noise on the direction turned by the drift (scene
// time) — its broad part one fetch from the planet's cover cube map (src/render/CloudCover.ts),
// its finer octaves added here where a pixel can see them (sr_cloud_cover) — lit by the sun
// through the air (the transmittance table) and seen through the air between it and the eye.
// Drawn after the sky (so the sky behind is dimmed by the cloud, and the air in front of it is the
// cloud's own aerial perspective), depth-tested against the ground and the sea (gl_FragDepth of
// the hit), premultiplied: ONE, ONE_MINUS_SRC_ALPHA.
#ifdef SR_LAYER_AIR
  #include <sr_atmosphere>
#endif
#include <sr_layer>
#include <sr_cloud_cover>

uniform float uCloudC;
uniform float uCloudR;
// The sphere under the clouds that certainly hides what is behind it (sea level or the lowest ground).
uniform float uCloudGroundC;
uniform mat3 uCloudDrift;
// Noise units per metre on the sphere (1 / featureM), and the seed's offset of the noise domain.
uniform float uCloudScale;
uniform vec3 uCloudOffset;
// The broad cover (r, encoded: CloudCover.ts) and the warp (gba) in the layer's frame; the octaves
// it holds ([0, uCloudBaked)), and its largest texel on the layer, metres (for the mip level).
uniform samplerCube uCloudCover;
uniform int uCloudBaked;
uniform float uCloudTexelM;
// Noise level above which a cloud starts (from the coverage), and the edge's width.
uniform float uCloudThreshold;
uniform float uCloudOpacity;
uniform vec3 uCloudColour;
uniform float uPixelAngle;
uniform vec3 uSunDir;
uniform vec3 uSunLight;

varying vec3 vDirWorld;

// A cloud at the hit `t` along `rd`: rgb its radiance (not yet premultiplied), a its opacity.
vec4 srCloudAt(vec3 rd, float t, bool fromAbove) {
  vec3 n = normalize(uLayerUp * uLayerCameraR + rd * t);
  vec3 m = uCloudDrift * n;
  vec3 q = m * (uCloudR * uCloudScale) + uCloudOffset;
  // A pixel's footprint on the layer (stretched at grazing view), metres.
  float footprintM = t * uPixelAngle / max(abs(dot(n, rd)), 0.05);
  // The broad cover and the warp: the mip level whose texels match the footprint.
  vec4 broad = textureLod(uCloudCover, m, log2(max(footprintM / uCloudTexelM, 1.0)));
  vec3 qc = q * 3.0 + (broad.gba - 0.5) * 1.6;
  float cover = (broad.r - 0.5) / SR_COVER_ENCODE + srCloudOctaves(qc, uCloudBaked, SR_CLOUD_OCTAVES, footprintM * uCloudScale * 3.0);
  float density = smoothstep(uCloudThreshold, uCloudThreshold + SR_CLOUD_EDGE, cover);
  density *= density;
  float alpha = uCloudOpacity * density;
  if (alpha <= 0.002) return vec4(0.0);
  float muS = dot(n, uSunDir);
  vec3 sunT = srLayerSunT(uCloudR, muS, 0.02);
  vec3 direct = uSunLight * sunT;
  vec3 light;
  if (fromAbove) {
    // Lit tops: a soft Lambert (sunlight scattered inside a thick layer still reaches the terminator).
    // Thin cloud lets light through rather than scattering it back: thick tops are the brightest.
    light = direct * (0.25 + 0.75 * max(muS, 0.0)) * (0.55 + 0.45 * density);
  } else {
    // Bases: the light that came through, less where the cloud is thick; brighter towards the sun.
    float g = 0.6;
    float cosSun = dot(rd, uSunDir);
    float hg = (1.0 - g * g) / pow(1.0 + g * g - 2.0 * g * cosSun, 1.5);
    light = direct * max(muS, 0.0) * mix(1.0, 0.3, density) * (0.5 + 0.35 * hg);
  }
  // Skylight: a blue-ish tenth of the sun's, by day.
  vec3 ambient = uSunLight * vec3(0.07, 0.08, 0.1) * smoothstep(-0.15, 0.25, muS);
  return vec4(uCloudColour * (light + ambient), alpha);
}

void main() {
  vec3 rd = normalize(vDirWorld);
  bool fromAbove = uCloudC > 0.0;
  float t = srLayerRayHit(rd, uCloudC);
  if (t < 0.0) discard;
  // Under the layer, a ray that meets the ground first never reaches the clouds.
  if (!fromAbove) {
    float tGround = srLayerRayHit(rd, uCloudGroundC);
    if (tGround >= 0.0 && tGround < t) discard;
  }
  gl_FragDepth = srLayerFragDepth((mat3(viewMatrix) * rd) * t);
  vec4 cloud = srCloudAt(rd, t, fromAbove);
  vec3 colour = cloud.rgb * cloud.a;
  float alpha = cloud.a;
  // From above, a ray past the ground's edge leaves the layer again through its far side (the limb).
  if (fromAbove && srLayerRayHit(rd, uCloudGroundC) < 0.0) {
    float tFar = srLayerRayFar(rd, uCloudC);
    if (tFar > t) {
      vec4 far = srCloudAt(rd, tFar, false);
      colour += (1.0 - alpha) * far.rgb * far.a;
      alpha += (1.0 - alpha) * far.a;
    }
  }
  if (alpha <= 0.002) discard;
  #ifdef SR_LAYER_AIR
    vec3 T;
    vec3 Lair = srLayerAerial(rd, t, SR_LAYER_AERIAL_STEPS, T);
    colour = colour * T + alpha * Lair;
  #endif
  gl_FragColor = vec4(colour, alpha);
  #include <tonemapping_fragment>
  #include <colorspace_fragment>
}
