// A planet's sea (issue 41; src/render/PlanetSea.ts): per pixel, the view ray meets the sphere of
// sea level (sr_layer's srLayerRayHit, from float64 constants) and writes that depth, so the ground
// in front hides it and it covers the ground behind it, pixel-exact at every LOD: the coastline is
// where the ground mesh crosses the sphere. The water is a layer over the ground drawn before it
// (premultiplied: ONE, ONE_MINUS_SRC_ALPHA): the Fresnel-weighted (Schlick, n ≈ 1.33) reflection
// of the sky and the sun's glint added, the rest of the ground — tinted by its depth where the body
// worker coloured it — showing through (1 − F); aerial perspective on what the water adds.
#ifdef SR_LAYER_AIR
  #include <sr_atmosphere>
#endif
#include <sr_layer>

uniform float uSeaC;
uniform float uSeaR;
// The camera's offset from the nearest point of the waves' 1,024 m grid (planetLayerMath.ts).
uniform vec3 uSeaCameraLow;
// Waves, shortest first: xyz the wave vector (rad/m, whole turns per 1,024 m; its length gives
// the wavelength), w the phase now; one slope for all.
uniform vec4 uWaves[SR_SEA_WAVES];
uniform float uWaveSlope;
// Radians one pixel spans: the waves finer than a pixel go into the glint's roughness.
uniform float uPixelAngle;
uniform vec3 uSunDir;
uniform vec3 uSunLight;
uniform vec3 uSeaDeep;
// Share of the ground hidden by the water's own colour (0: clear water, the ground's tint shows depth).
uniform float uSeaVeil;

varying vec3 vDirWorld;

const float SR_SEA_F0 = 0.02; // ((1.33 − 1) / (1.33 + 1))²
const float SR_SEA_CALM_ALPHA2 = 0.0004; // GGX α² of a calm patch: the sun's disc stays a disc

float srSeaFresnel(float cosTheta) {
  float m = 1.0 - clamp(cosTheta, 0.0, 1.0);
  float m2 = m * m;
  return SR_SEA_F0 + (1.0 - SR_SEA_F0) * m2 * m2 * m;
}

void main() {
  vec3 rd = normalize(vDirWorld);
  float t = srLayerRayHit(rd, uSeaC);
  if (t < 0.0) discard;
  gl_FragDepth = srLayerFragDepth((mat3(viewMatrix) * rd) * t);
  // Planet frame: float32 rounds this to ~R · 6e-8 (0.4 m at 6,000 km), plenty for a normal.
  vec3 p = uLayerUp * uLayerCameraR + rd * t;
  vec3 n = p / uSeaR;
  #ifdef SR_SEA_FILL
    // The fill pass (PlanetSea.fill): drawn before the water where nothing is behind it yet (the
    // depth test passes only on the cleared depth), it puts the water's own colour there, which the
    // water pass then shows through (1 − alpha). Under the sea's horizon the straight view ray can
    // pass over the sea floor's own horizon: without this, space showed through as a dark strip.
    float muFill = dot(n, uSunDir);
    vec3 sunFill = srLayerSunT(uSeaR, muFill, 0.01);
    // The sky's light on the water stood in for by a quarter of the sun's.
    gl_FragColor = vec4(uSeaDeep * uSunLight * sunFill * (max(muFill, 0.0) + 0.25) * 0.31830989, 1.0);
    #ifdef USE_REVERSED_DEPTH_BUFFER
      gl_FragDepth = 0.0;
    #else
      gl_FragDepth = 1.0;
    #endif
    #include <tonemapping_fragment>
    #include <colorspace_fragment>
    return;
  #endif
  vec3 V = -rd;
  float cosV = max(dot(n, V), 1e-3);

  // Waves near the camera, each faded out as it nears a pixel's footprint (stretched at grazing
  // view); what is faded goes into the glint's roughness, so far water keeps the same mean slope.
  vec3 q = uSeaCameraLow + rd * t;
  // The footprint along the view, stretched by 1 / cos at grazing angles: with the geometric mean
  // of the two axes instead, far waves aliased into rings of moiré.
  float footprintM = t * uPixelAngle / max(cosV, 0.02);
  vec3 slope = vec3(0.0);
  float unresolved = 0.0;
  // Longest first: once one is faded out, so are the shorter rest (their share of the slope
  // variance added at once) — far water runs none of the loop.
  for (int i = SR_SEA_WAVES - 1; i >= 0; i--) {
    vec3 k = uWaves[i].xyz;
    float invK = inversesqrt(dot(k, k)); // the wavelength over 2π
    float fade = 1.0 - smoothstep(0.25, 0.5, footprintM * 0.15915494 / invK);
    if (fade <= 0.0) {
      unresolved += float(i + 1) * 0.5 * uWaveSlope * uWaveSlope;
      break;
    }
    unresolved += (1.0 - fade) * 0.5 * uWaveSlope * uWaveSlope;
    slope += (fade * uWaveSlope * cos(dot(k, q) + uWaves[i].w) * invK) * k;
  }
  vec3 N = normalize(n - (slope - n * dot(slope, n)));
  float NdotV = max(dot(N, V), 1e-3);
  float F = srSeaFresnel(NdotV);

  vec3 R = reflect(rd, N);
  float rUp = dot(R, n);
  if (rUp < 0.02) R = normalize(R + n * (0.02 - rUp));
  vec3 L = uSunDir;
  float muS = dot(n, L);
  #ifdef SR_LAYER_AIR
    vec3 sky = srLayerSky(p, R, SR_SEA_SKY_STEPS);
  #else
    vec3 sky = vec3(0.0);
  #endif
  vec3 sunT = srLayerSunT(uSeaR, muS, 0.01);

  // The sun's glint: GGX with the unresolved waves' slope variance (Cox–Munk: α² ≈ mean square slope).
  float alpha2 = SR_SEA_CALM_ALPHA2 + unresolved;
  vec3 H = normalize(V + L);
  float NdotL = max(dot(N, L), 0.0);
  float NdotH = max(dot(N, H), 0.0);
  float d = NdotH * NdotH * (alpha2 - 1.0) + 1.0;
  float D = alpha2 / (3.14159265 * d * d);
  float vis = 0.5 / (NdotL * sqrt(NdotV * NdotV * (1.0 - alpha2) + alpha2) + NdotV * sqrt(NdotL * NdotL * (1.0 - alpha2) + alpha2) + 1e-6);
  vec3 glint = uSunLight * sunT * (D * vis * srSeaFresnel(max(dot(V, H), 0.0)) * NdotL);

  // The water's own colour where it veils the ground: lit by the sun through the air and the sky.
  vec3 body = uSeaDeep * (uSunLight * sunT * max(muS, 0.0) + sky) * 0.31830989;
  // What shows through is the ground behind along the unrefracted ray: right looking down, wrong at
  // grazing view, where refraction turns the ray down into the water near the hit (under 49° from
  // the normal) while the straight ray meets ground kilometres on (or none: the fill pass). There
  // the water veils the ground with its own colour: fully below ~1.7° of elevation, not at all
  // above ~7° (cosV 0.03 .. 0.12).
  float veil = max(uSeaVeil, 1.0 - smoothstep(0.03, 0.12, cosV));
  float alpha = F + (1.0 - F) * veil;
  vec3 colour = F * sky + glint + (1.0 - F) * veil * body;
  #ifdef SR_LAYER_AIR
    vec3 T;
    vec3 Lair = srLayerAerial(rd, t, SR_LAYER_AERIAL_STEPS, T);
    colour = colour * T + alpha * Lair;
  #endif
  gl_FragColor = vec4(colour, alpha);
  #include <tonemapping_fragment>
  #include <colorspace_fragment>
}
