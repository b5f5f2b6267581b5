// Chunk `sr_aerial`, vertex stage: a planet's atmosphere on its own surface
// (src/render/atmosphereMaterial.ts splices it into the planet's materials after `sr_atmosphere`):
// per vertex, the sun's light reaching it through the air and aerial perspective — the air between
// it and the eye (transmittance T) and the light that air scatters towards the eye (L),
// SR_AERIAL_STEPS samples along the ray inside the atmosphere. Per vertex, not per pixel: both vary
// over kilometres, and near the ground a planet's triangles are a pixel or two, where a fragment
// shader runs 4 invocations per triangle and the log depth buffer (gl_FragDepth) defeats early
// depth rejection — on the H100 per-pixel marching cost 30 ms a frame at 20 m.
uniform vec3 uAtmoCamera;
// 0: the air switched off (Atmosphere.enabled): the surface as if airless, no recompile.
uniform float uAtmoOn;

varying vec3 vAerialT;
varying vec3 vAerialL;
varying vec3 vAerialSunT;

void srAerialVertex(vec3 worldPosition) {
  vAerialT = vec3(1.0);
  vAerialL = vec3(0.0);
  vAerialSunT = vec3(1.0);
  if (uAtmoOn < 0.5) return;
  vec3 ro = uAtmoCamera;
  vec3 p = ro + (worldPosition - cameraPosition);
  float r = length(p);
  vAerialSunT = srTransmittanceToTop(r, dot(p / r, uAtmoSunDir));
  vec3 d = p - ro;
  float dist = length(d);
  vec3 rd = d / max(dist, 1e-6);
  vec2 span = srRaySphereSpan(ro, rd, uAtmoTop);
  float t1 = min(span.y, dist);
  if (t1 > span.x) vAerialL = srInscatter(ro, rd, span.x, t1, SR_AERIAL_STEPS, vAerialT);
}
