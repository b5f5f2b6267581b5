// Chunk `sr_layer`: what a planet's analytic layers (the sea, the cloud layer: src/render/
// PlanetSea.ts, PlanetClouds.ts) share per pixel: the view ray's hit with a sphere around the
// planet's centre from float64 constants (src/render/planetLayerMath.ts says why), the depth a hit
// writes in the app's depth convention, and — with SR_LAYER_AIR, after `sr_atmosphere` — the
// atmosphere seen from a point: aerial perspective to a distance and the sky's light along a ray.

// Unit vector from the planet's centre to the camera, and the camera's distance from it (m).
uniform vec3 uLayerUp;
uniform float uLayerCameraR;
uniform mat4 projectionMatrix;
#ifdef USE_LOGARITHMIC_DEPTH_BUFFER
  uniform float logDepthBufFC;
#endif

// The first hit t ≥ 0 of the unit view ray `rd` with the sphere whose c = (|oc| − R)(|oc| + R) is
// given (float64 on the CPU); −1: none. Outside, the near root as c / (−b + √(b² − c)): no
// cancellation, so 20 m above a 6,000 km sphere it holds to millimetres (planetLayerMath.ts).
// Inside, the far root, in the same spirit. twin: raySphereHit.
float srLayerRayHit(vec3 rd, float c) {
  float b = uLayerCameraR * dot(uLayerUp, rd);
  float disc = b * b - c;
  if (disc < 0.0) return -1.0;
  float s = sqrt(disc);
  if (c > 0.0) return b >= 0.0 ? -1.0 : c / (-b + s);
  return b <= 0.0 ? -b + s : c / (-b - s);
}

// The far hit (leaving the sphere); −1: none or behind. twin: raySphereFar.
float srLayerRayFar(vec3 rd, float c) {
  float b = uLayerCameraR * dot(uLayerUp, rd);
  float disc = b * b - c;
  if (disc < 0.0) return -1.0;
  float s = sqrt(disc);
  float t = b <= 0.0 ? -b + s : c / (-b - s);
  return t >= 0.0 ? t : -1.0;
}

// gl_FragDepth for a point at `viewPos` (view space), as the rasteriser would have written it:
// reversed float depth (EXT_clip_control, z in [0, 1]), else three's logarithmic depth
// (logdepthbuf_fragment), else the standard [−1, 1] → [0, 1].
float srLayerFragDepth(vec3 viewPos) {
  #ifdef USE_LOGARITHMIC_DEPTH_BUFFER
    return log2(1.0 - viewPos.z) * logDepthBufFC * 0.5;
  #else
    vec4 clip = projectionMatrix * vec4(viewPos, 1.0);
    #ifdef USE_REVERSED_DEPTH_BUFFER
      return clip.z / clip.w;
    #else
      return 0.5 * clip.z / clip.w + 0.5;
    #endif
  #endif
}

#ifdef SR_LAYER_AIR
uniform vec3 uAtmoCamera;
uniform float uAtmoOn;
uniform sampler2D uAtmoAerialL;
uniform sampler2D uAtmoAerialT;
uniform vec3 uAtmoAerialSize;
uniform float uAtmoAerialMaxM;
uniform float uAtmoAerialValid;
uniform vec3 uAerialEyeUp;
uniform vec4 uAerialEyeSun;
uniform vec2 uAerialEyeHorizon;
uniform sampler2D uAtmoSkyView;
uniform vec2 uSkyViewSize;
uniform float uAtmoSkyValid;

// The air between the eye and the point `dist` along the unit view ray `rd`: returns the light it
// scatters towards the eye, T its transmittance. Inside the atmosphere from the aerial-perspective
// table (four fetches), else marched (`steps`). glsl/sr_aerial.glsl's srAerialVertex, per pixel.
vec3 srLayerAerial(vec3 rd, float dist, int steps, out vec3 T) {
  T = vec3(1.0);
  if (uAtmoOn < 0.5) return vec3(0.0);
  if (uAtmoAerialValid > 0.5) {
    float cz = dot(rd, uAerialEyeUp);
    vec3 viewT = rd - uAerialEyeUp * cz;
    float vt = dot(viewT, viewT);
    float cl = uAerialEyeSun.w > 0.5 && vt > 1e-8 ? dot(uAerialEyeSun.xyz, viewT) * inversesqrt(vt) : 1.0;
    vec2 uv = srSkyViewUvHorizon(uAerialEyeHorizon.x, uAerialEyeHorizon.y, cz, cl, uAtmoAerialSize.xy);
    float slices = uAtmoAerialSize.z;
    float s = sqrt(clamp(dist / uAtmoAerialMaxM, 0.0, 1.0)) * slices - 0.5;
    float k0 = floor(s);
    float f = s - k0;
    float k1 = min(k0 + 1.0, slices - 1.0);
    vec2 a1 = vec2((k1 + uv.x) / slices, uv.y);
    vec3 L1 = texture(uAtmoAerialL, a1).rgb;
    vec3 T1 = texture(uAtmoAerialT, a1).rgb;
    if (k0 < 0.0) {
      float w = clamp(2.0 * s + 1.0, 0.0, 1.0);
      T = mix(vec3(1.0), T1, w);
      return L1 * w;
    }
    vec2 a0 = vec2((k0 + uv.x) / slices, uv.y);
    T = mix(texture(uAtmoAerialT, a0).rgb, T1, f);
    return mix(texture(uAtmoAerialL, a0).rgb, L1, f);
  }
  vec2 span = srRaySphereSpan(uAtmoCamera, rd, uAtmoTop);
  float t1 = min(span.y, dist);
  if (t1 <= span.x) return vec3(0.0);
  return srInscatter(uAtmoCamera, rd, span.x, t1, steps, T);
}

// The sky's light arriving at the point `p` (planet frame, on or near the ground) from the unit
// direction `-dir` (looking along `dir`): inside the atmosphere from the sky-view table, as if the
// camera stood above p at its own height (the table holds the camera's radius); from space
// marched (`steps`) from p to the top of the air.
vec3 srLayerSky(vec3 p, vec3 dir, int steps) {
  if (uAtmoOn < 0.5) return vec3(0.0);
  vec3 up = normalize(p);
  if (uAtmoSkyValid > 0.5) {
    float r = max(length(uAtmoCamera), uAtmoBottom + 1.0);
    return texture(uAtmoSkyView, srSkyViewUvAt(up * r, dir, uSkyViewSize)).rgb;
  }
  vec3 ro = up * max(length(p), uAtmoBottom + 1.0);
  vec2 span = srRaySphereSpan(ro, dir, uAtmoTop);
  if (span.y <= 0.0) return vec3(0.0);
  vec3 T;
  return srInscatter(ro, dir, 0.0, span.y, steps, T);
}
#endif

// The sun's light reaching radius r where the sun is at cos(zenith) muS: through the air
// (transmittance table) with SR_LAYER_AIR, else cut off over ±edge of muS at the horizon.
vec3 srLayerSunT(float r, float muS, float edge) {
  #ifdef SR_LAYER_AIR
    return srTransmittanceToTop(r, muS);
  #else
    return vec3(smoothstep(-edge, edge, muS));
  #endif
}
