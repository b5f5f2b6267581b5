// Chunk `sr_aerial`, vertex stage: a planet's atmosphere on its own surface
// (src/render/atmosphereMaterial.ts splices it into the planet's materials after `sr_atmosphere`):
// per vertex, the sun's light reaching it through the air and aerial perspective — the air between
// it and the eye (transmittance T) and the light that air scatters towards the eye (L). Inside the
// atmosphere both come from the aerial-perspective table (glsl/atmo_aerial.frag.glsl: the vertex's
// direction in the sky view's parametrisation, its distance between two of the table's slices:
// four fetches); from space, SR_AERIAL_STEPS samples along the ray. Per vertex, not per pixel: both vary
// over kilometres, and near the ground a planet's triangles are a pixel or two, where a fragment
// shader runs 4 invocations per triangle — on the H100 per-pixel marching cost 30 ms a frame at
// 20 m (measured with the log depth buffer, whose gl_FragDepth also defeated early depth rejection).
uniform vec3 uAtmoCamera;
// 0: the air switched off (Atmosphere.enabled): the surface as if airless, no recompile.
uniform float uAtmoOn;
uniform sampler2D uAtmoAerialL;
uniform sampler2D uAtmoAerialT;
// Directions u, v and distance slices of the table; the distance its last slice reaches.
uniform vec3 uAtmoAerialSize;
uniform float uAtmoAerialMaxM;
uniform float uAtmoAerialValid;
// The eye's part of the table's coordinates, the same for every vertex (src/render/Atmosphere.ts):
// its up, the sun's direction along its horizon (w 0 with the sun at its zenith or nadir), and its
// horizon's zenith angle and beta (srSkyViewUvHorizon).
uniform vec3 uAerialEyeUp;
uniform vec4 uAerialEyeSun;
uniform vec2 uAerialEyeHorizon;

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
  if (uAtmoAerialValid > 0.5) {
    // srSkyViewUvAt from the eye (no lower than just above the bottom, as the tables are), its part hoisted.
    float cz = dot(rd, uAerialEyeUp);
    vec3 viewT = rd - uAerialEyeUp * cz;
    float vt = dot(viewT, viewT);
    float cl = uAerialEyeSun.w > 0.5 && vt > 1e-8 ? dot(uAerialEyeSun.xyz, viewT) * inversesqrt(vt) : 1.0;
    vec2 uv = srSkyViewUvHorizon(uAerialEyeHorizon.x, uAerialEyeHorizon.y, cz, cl, uAtmoAerialSize.xy);
    // Slice k holds the distance max · ((k + 0.5) / slices)², so distance 0 is s = −0.5: between it
    // and slice 0 the air fades from none (L 0, T 1).
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
      vAerialL = L1 * w;
      vAerialT = mix(vec3(1.0), T1, w);
    } else {
      vec2 a0 = vec2((k0 + uv.x) / slices, uv.y);
      vAerialL = mix(texture(uAtmoAerialL, a0).rgb, L1, f);
      vAerialT = mix(texture(uAtmoAerialT, a0).rgb, T1, f);
    }
    return;
  }
  vec2 span = srRaySphereSpan(ro, rd, uAtmoTop);
  float t1 = min(span.y, dist);
  if (t1 > span.x) vAerialL = srInscatter(ro, rd, span.x, t1, SR_AERIAL_STEPS, vAerialT);
}
