// Chunk `sr_aerial`: a planet's atmosphere on its own surface (src/render/atmosphereMaterial.ts
// splices it into the planet's materials after `sr_atmosphere`): the sun's light reaching the
// fragment through the air (SR_SUN_TRANSMITTANCE, used by `sr_sun_direct`) and aerial
// perspective — the fragment's colour dimmed by the air between it and the eye, plus the light
// that air scatters towards the eye (SR_AERIAL_STEPS samples along the ray inside the atmosphere).
varying vec3 vSrAtmoWorld;
uniform vec3 uAtmoCamera;
// 0: the air switched off (Atmosphere.enabled): the surface as if airless, no recompile.
uniform float uAtmoOn;

vec3 srAtmoFragment() {
  return uAtmoCamera + (vSrAtmoWorld - cameraPosition);
}

vec3 srSunTransmittanceHere() {
  if (uAtmoOn < 0.5) return vec3(1.0);
  vec3 p = srAtmoFragment();
  float r = length(p);
  return srTransmittanceToTop(r, dot(p / r, uAtmoSunDir));
}

vec3 srAerialPerspective(vec3 color) {
  if (uAtmoOn < 0.5) return color;
  vec3 ro = uAtmoCamera;
  vec3 d = srAtmoFragment() - ro;
  float dist = length(d);
  vec3 rd = d / max(dist, 1e-6);
  vec2 span = srRaySphereSpan(ro, rd, uAtmoTop);
  float t1 = min(span.y, dist);
  if (t1 <= span.x) return color;
  vec3 T;
  vec3 L = srInscatter(ro, rd, span.x, t1, SR_AERIAL_STEPS, T);
  return color * T + L;
}

#define SR_SUN_TRANSMITTANCE srSunTransmittanceHere()
