// Chunk `sr_atmosphere`: a planet's atmosphere (src/scene/planetAtmosphere.ts's AtmosphereSpec) and the
// pieces of Hillaire 2020 every atmosphere shader shares: the medium, ray/sphere tests, phase
// functions, the transmittance and multiple-scattering look-up tables' mappings, and the
// in-scattering integral along a ray. Distances in metres, positions relative to the planet's
// centre. Render src/render/Atmosphere.ts's uniforms with it.

uniform float uAtmoBottom;
uniform float uAtmoTop;
uniform vec3 uAtmoRayleigh;
uniform float uAtmoRayleighH;
uniform vec3 uAtmoMieScattering;
uniform vec3 uAtmoMieExtinction;
uniform float uAtmoMieH;
uniform float uAtmoMieG;
uniform vec3 uAtmoAbsorption;
uniform float uAtmoAbsCenter;
uniform float uAtmoAbsHalfWidth;
uniform vec3 uAtmoGroundAlbedo;
// Unit vector towards the sun and its illuminance (the light's colour × intensity).
uniform vec3 uAtmoSunDir;
uniform vec3 uAtmoSunIlluminance;
uniform sampler2D uAtmoTransmittance;
uniform sampler2D uAtmoMultiScattering;

const float SR_ATMO_PI = 3.14159265358979;
const vec2 SR_TRANSMITTANCE_SIZE = vec2(256.0, 64.0);
const float SR_MULTI_SIZE = 32.0;

struct SrMedium {
  vec3 scattering;
  vec3 rayleigh;
  vec3 mie;
  vec3 extinction;
};

SrMedium srMediumAt(float r) {
  float h = max(r - uAtmoBottom, 0.0);
  float dR = exp(-h / uAtmoRayleighH);
  float dM = exp(-h / uAtmoMieH);
  float dO = max(0.0, 1.0 - abs(h - uAtmoAbsCenter) / uAtmoAbsHalfWidth);
  SrMedium m;
  m.rayleigh = uAtmoRayleigh * dR;
  m.mie = uAtmoMieScattering * dM;
  m.scattering = m.rayleigh + m.mie;
  m.extinction = m.rayleigh + uAtmoMieExtinction * dM + uAtmoAbsorption * dO;
  return m;
}

// Nearest hit t ≥ 0 of the ray (ro, unit rd) with the sphere of radius `radius` at the origin; −1: none.
float srRaySphereNear(vec3 ro, vec3 rd, float radius) {
  float b = dot(ro, rd);
  float c = dot(ro, ro) - radius * radius;
  float disc = b * b - c;
  if (disc < 0.0) return -1.0;
  float s = sqrt(disc);
  float t0 = -b - s;
  float t1 = -b + s;
  if (t0 >= 0.0) return t0;
  if (t1 >= 0.0) return t1;
  return -1.0;
}

// The ray's span inside the sphere: (enter, exit), both ≥ 0; exit < 0: it misses.
vec2 srRaySphereSpan(vec3 ro, vec3 rd, float radius) {
  float b = dot(ro, rd);
  float c = dot(ro, ro) - radius * radius;
  float disc = b * b - c;
  if (disc < 0.0) return vec2(0.0, -1.0);
  float s = sqrt(disc);
  return vec2(max(-b - s, 0.0), -b + s);
}

float srRayleighPhase(float cosTheta) {
  return 3.0 / (16.0 * SR_ATMO_PI) * (1.0 + cosTheta * cosTheta);
}

// Cornette-Shanks.
float srMiePhase(float cosTheta) {
  float g = uAtmoMieG;
  float k = 3.0 / (8.0 * SR_ATMO_PI) * (1.0 - g * g) / (2.0 + g * g);
  return k * (1.0 + cosTheta * cosTheta) / pow(max(1.0 + g * g - 2.0 * g * cosTheta, 1e-4), 1.5);
}

// A unit coordinate to the centre of the first/last texel (no clamp-to-edge halves).
float srUnitToSub(float u, float size) {
  return (u * (size - 1.0) + 0.5) / size;
}

float srSubToUnit(float u, float size) {
  return (u * size - 0.5) / (size - 1.0);
}

// Bruneton's mapping of (r, μ) for rays that leave the atmosphere without meeting the ground.
vec2 srTransmittanceUv(float r, float mu) {
  float H = sqrt(max(0.0, uAtmoTop * uAtmoTop - uAtmoBottom * uAtmoBottom));
  float rho = sqrt(max(0.0, r * r - uAtmoBottom * uAtmoBottom));
  float disc = r * r * (mu * mu - 1.0) + uAtmoTop * uAtmoTop;
  float d = max(0.0, -r * mu + sqrt(max(disc, 0.0)));
  float dMin = uAtmoTop - r;
  float dMax = rho + H;
  float xMu = (d - dMin) / max(dMax - dMin, 1e-3);
  float xR = rho / H;
  return vec2(srUnitToSub(xMu, SR_TRANSMITTANCE_SIZE.x), srUnitToSub(xR, SR_TRANSMITTANCE_SIZE.y));
}

// The inverse: a transmittance texel's (r, μ).
vec2 srTransmittanceRMu(vec2 uv) {
  float xMu = srSubToUnit(uv.x, SR_TRANSMITTANCE_SIZE.x);
  float xR = srSubToUnit(uv.y, SR_TRANSMITTANCE_SIZE.y);
  float H = sqrt(max(0.0, uAtmoTop * uAtmoTop - uAtmoBottom * uAtmoBottom));
  float rho = H * xR;
  float r = sqrt(rho * rho + uAtmoBottom * uAtmoBottom);
  float dMin = uAtmoTop - r;
  float dMax = rho + H;
  float d = dMin + xMu * (dMax - dMin);
  float mu = d == 0.0 ? 1.0 : (H * H - rho * rho - d * d) / (2.0 * r * d);
  return vec2(r, clamp(mu, -1.0, 1.0));
}

// Transmittance from radius r along cos-zenith μ to the top; 0 where the ray meets the ground.
vec3 srTransmittanceToTop(float r, float mu) {
  r = clamp(r, uAtmoBottom, uAtmoTop);
  // Below the bottom sphere's horizon: the planet is in the way.
  float horizon = -sqrt(max(0.0, 1.0 - (uAtmoBottom * uAtmoBottom) / (r * r)));
  if (mu < horizon) return vec3(0.0);
  return texture(uAtmoTransmittance, srTransmittanceUv(r, mu)).rgb;
}

// Multiple scattering's contribution Ψ_ms at radius r with the sun at cos-zenith μ_s (Hillaire §5.5).
vec3 srMultiScattering(float r, float muS) {
  vec2 uv = vec2(muS * 0.5 + 0.5, (r - uAtmoBottom) / (uAtmoTop - uAtmoBottom));
  uv = vec2(srUnitToSub(clamp(uv.x, 0.0, 1.0), SR_MULTI_SIZE), srUnitToSub(clamp(uv.y, 0.0, 1.0), SR_MULTI_SIZE));
  return texture(uAtmoMultiScattering, uv).rgb;
}

// Light scattered towards the eye along the ray from `ro` (unit `rd`) over [t0, t1], `steps`
// samples, and the transmittance over it (.w: none; see srInscatter's out param).
vec3 srInscatter(vec3 ro, vec3 rd, float t0, float t1, int steps, out vec3 transmittance) {
  vec3 L = vec3(0.0);
  vec3 T = vec3(1.0);
  float cosTheta = dot(rd, uAtmoSunDir);
  float phaseR = srRayleighPhase(cosTheta);
  float phaseM = srMiePhase(cosTheta);
  float dt = (t1 - t0) / float(steps);
  for (int i = 0; i < 64; i++) {
    if (i >= steps) break;
    float t = t0 + (float(i) + 0.5) * dt;
    vec3 p = ro + rd * t;
    float r = length(p);
    vec3 up = p / r;
    float muS = dot(up, uAtmoSunDir);
    SrMedium m = srMediumAt(r);
    vec3 sunT = srTransmittanceToTop(r, muS);
    vec3 single = (m.rayleigh * phaseR + m.mie * phaseM) * sunT;
    vec3 multi = m.scattering * srMultiScattering(r, muS);
    vec3 S = (single + multi) * uAtmoSunIlluminance;
    // Hillaire's energy-conserving step: ∫ S·T over the step, extinction constant within it.
    vec3 stepT = exp(-m.extinction * dt);
    vec3 Sint = (S - S * stepT) / max(m.extinction, vec3(1e-12));
    L += T * Sint;
    T *= stepT;
  }
  transmittance = T;
  return L;
}

// Sky-view LUT mapping (Hillaire 2020 §5.3): v packs the view's zenith angle with more texels
// near the horizon, above it in [0, 0.5), below in [0.5, 1]; u packs the azimuth from the sun
// (u = 0 towards it), squared for more texels near the sun. `r` is the camera's radius.
// The same with the camera's part given: the zenith angle of its horizon and beta = π − that
// (per vertex the camera's part is the same for every vertex: src/render/Atmosphere.ts sends it).
vec2 srSkyViewUvHorizon(float zenithHorizon, float beta, float cosViewZenith, float cosLightView, vec2 size) {
  float viewZenith = acos(clamp(cosViewZenith, -1.0, 1.0));
  float v;
  if (viewZenith < zenithHorizon) {
    float c = viewZenith / zenithHorizon;
    v = (1.0 - sqrt(max(0.0, 1.0 - c))) * 0.5;
  } else {
    float c = (viewZenith - zenithHorizon) / max(beta, 1e-5);
    v = sqrt(clamp(c, 0.0, 1.0)) * 0.5 + 0.5;
  }
  float u = sqrt(clamp(-cosLightView * 0.5 + 0.5, 0.0, 1.0));
  return vec2(srUnitToSub(u, size.x), srUnitToSub(v, size.y));
}

vec2 srSkyViewUv(float r, float cosViewZenith, float cosLightView, vec2 size) {
  float vHorizon = sqrt(max(0.0, r * r - uAtmoBottom * uAtmoBottom));
  float beta = acos(clamp(vHorizon / r, -1.0, 1.0));
  return srSkyViewUvHorizon(SR_ATMO_PI - beta, beta, cosViewZenith, cosLightView, size);
}

// The inverse: (cos view zenith, cos azimuth from the sun) of a unit sky-view coordinate.
vec2 srSkyViewAngles(float r, vec2 uv) {
  float vHorizon = sqrt(max(0.0, r * r - uAtmoBottom * uAtmoBottom));
  float beta = acos(clamp(vHorizon / r, -1.0, 1.0));
  float zenithHorizon = SR_ATMO_PI - beta;
  float viewZenith;
  if (uv.y < 0.5) {
    float c = 1.0 - 2.0 * uv.y;
    viewZenith = zenithHorizon * (1.0 - c * c);
  } else {
    float c = 2.0 * uv.y - 1.0;
    viewZenith = zenithHorizon + beta * c * c;
  }
  float cosLightView = -(uv.x * uv.x * 2.0 - 1.0);
  return vec2(cos(viewZenith), cosLightView);
}

// The view direction of a unit sky-view coordinate, in the tables' frame: y the camera's zenith,
// the sun in the x-y plane (the sky-view and aerial-perspective passes).
vec3 srSkyViewDir(float r, vec2 uv) {
  vec2 angles = srSkyViewAngles(r, clamp(uv, 0.0, 1.0));
  float sz = sqrt(max(0.0, 1.0 - angles.x * angles.x));
  float sa = sqrt(max(0.0, 1.0 - angles.y * angles.y));
  return vec3(sz * angles.y, angles.x, sz * sa);
}

// The sky-view texel coordinates of the unit direction `rd` seen from `ro` (planet frame): its
// zenith angle from ro, its azimuth from uAtmoSunDir's (the sky pass and the surface's lookups).
vec2 srSkyViewUvAt(vec3 ro, vec3 rd, vec2 size) {
  float r = length(ro);
  vec3 up = ro / r;
  float cz = dot(rd, up);
  vec3 sunT = uAtmoSunDir - up * dot(uAtmoSunDir, up);
  vec3 viewT = rd - up * cz;
  float cl = dot(sunT, sunT) > 1e-8 && dot(viewT, viewT) > 1e-8 ? dot(normalize(sunT), normalize(viewT)) : 1.0;
  return srSkyViewUv(r, cz, cl, size);
}
