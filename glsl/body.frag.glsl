// Body material, fragment stage: three.js's meshphysical fragment shader cut down to lights,
// shadows, log depth, tone mapping and colour space, with
// - the normal taken per pixel from the gradient of the body's field (the same recipe the GPU
//   sampler evaluates, differentiated: sr_fieldGrad), blended with the mesh normal by how many
//   pixels a mesh cell covers;
// - procedural rock colouring (sr_rock), darker concavities from a field occlusion term,
//   optional crater shading (curvature) — both from the vertex stage — and polar ice;
// - a screen-door fade for LOD cross-fades (sr_dither).
// Defines (set by src/render/BodyMaterial.ts): SR_FIELD_NORMALS, SR_FIELD_OCCLUSION,
// SR_CRATER_SHADING, SR_POLAR_ICE.
#define STANDARD

varying vec3 vViewPosition;
varying vec3 vBodyPositionM;
varying float vFootprintM;

// The vertex stage's normal matrix (body → view for normals). Declared here too: a uniform
// may be shared by both stages, and three.js sets it by name for every draw.
uniform mat3 normalMatrix;

uniform float uFade;
uniform bool uFadeComplement;
uniform float uCellSizeM;
uniform vec2 uNormalBlendPx;
uniform float uMinGradientStepM;
uniform float uCraterStrength;
#ifdef SR_FIELD_OCCLUSION
  varying float vOcclusion;
#endif
#ifdef SR_CRATER_SHADING
  varying float vCurvature;
#endif
uniform vec3 uBodyCenterM;
uniform vec3 uRockBase;
uniform vec3 uRockAlt;
uniform vec3 uRockDark;
uniform vec3 uRegolith;
uniform vec3 uStrataAxis;
uniform float uStrataSpacingM;
uniform float uNoiseScaleM;
uniform float uRegolithAmount;
uniform float uRoughness;
uniform float uMetalness;
uniform uint uSalt;
uniform vec3 uIceAxis;
uniform float uIceLatitudeSin;
uniform vec3 uIceColor;

#include <common>
#include <sr_common>
#include <sr_field>
#include <sr_dither>
#include <sr_rock>
#include <lights_pars_begin>
#include <normal_pars_fragment>
#include <lights_physical_pars_fragment>
#include <shadowmap_pars_fragment>
#include <sr_sun_shadow>
#include <logdepthbuf_pars_fragment>
#include <clipping_planes_pars_fragment>

void main() {
  if (sr_fadeDiscard(gl_FragCoord.xy, uFade, uFadeComplement)) discard;

  #include <clipping_planes_fragment>
  #include <logdepthbuf_fragment>
  #include <normal_fragment_begin>

  vec3 p = vBodyPositionM;
  float footprintM = max(vFootprintM, 1e-6);
  // View → body for directions: the normal matrix is (s·R)^-T = R / s, so its transpose,
  // normalised, undoes it for rotations with uniform scale.
  vec3 meshNormalBody = normalize(transpose(normalMatrix) * normal);
  vec3 nBody = meshNormalBody;

  #ifdef SR_FIELD_NORMALS
    // How many pixels one mesh cell covers: below uNormalBlendPx.x the mesh already resolves
    // everything a pixel can show (use its normal), above uNormalBlendPx.y the field adds
    // detail finer than the mesh (use the field's).
    float cellPx = uCellSizeM / footprintM;
    float wField = smoothstep(uNormalBlendPx.x, uNormalBlendPx.y, cellPx);
    if (wField > 0.0) {
      // The field's analytic gradient (src/field/glslGradient.ts), one evaluation: octaves
      // under two footprints are left out and the rest weighted as a difference over the
      // footprint would weight them, so normal detail below a pixel cannot alias.
      sr_gradFootprintM = max(footprintM, uMinGradientStepM);
      vec3 g = sr_fieldGrad(p).xyz;
      float gLen = length(g);
      if (gLen > 0.0) {
        nBody = normalize(mix(meshNormalBody, g / gLen, wField));
        normal = normalize(normalMatrix * nBody);
      }
    }
  #endif

  vec3 up = normalize(p - uBodyCenterM);

  float occlusion = 1.0;
  #ifdef SR_FIELD_OCCLUSION
    occlusion = vOcclusion;
  #endif

  float curvature = 0.0;
  #ifdef SR_CRATER_SHADING
    curvature = vCurvature;
  #endif

  SrRockParams rp;
  rp.base = uRockBase;
  rp.alt = uRockAlt;
  rp.dark = uRockDark;
  rp.regolith = uRegolith;
  rp.strataAxis = uStrataAxis;
  rp.strataSpacingM = uStrataSpacingM;
  rp.noiseScaleM = uNoiseScaleM;
  rp.regolith_amount = uRegolithAmount;
  rp.roughness = uRoughness;
  rp.metalness = uMetalness;
  rp.salt = uSalt;
  SrRockSurface surface = sr_rockSurface(p, nBody, up, footprintM, rp);

  vec3 albedo = surface.albedo;
  float roughnessFactor = surface.roughness;
  float metalnessFactor = surface.metalness;

  #ifdef SR_CRATER_SHADING
    // Darker floors, brighter rims and ejecta.
    albedo *= 1.0 + uCraterStrength * (curvature > 0.0 ? 0.6 * curvature : 0.8 * curvature);
  #endif

  #ifdef SR_POLAR_ICE
    float ice = sr_polarIce(p, nBody, up, uIceAxis, uIceLatitudeSin, footprintM, uNoiseScaleM, uSalt);
    albedo = mix(albedo, uIceColor, ice);
    roughnessFactor = mix(roughnessFactor, 0.45, ice);
    metalnessFactor *= 1.0 - ice;
  #endif

  // Concavities are darker: less dust-free exposure and less light reaching in.
  albedo *= mix(0.6, 1.0, occlusion);

  vec4 diffuseColor = vec4(albedo, 1.0);
  ReflectedLight reflectedLight = ReflectedLight(vec3(0.0), vec3(0.0), vec3(0.0), vec3(0.0));
  vec3 totalEmissiveRadiance = vec3(0.0);

  // accumulation
  #include <lights_physical_fragment>
  // three's light setup, then the sun once with its cascaded shadow (glsl/sr_sun_direct.glsl).
  #include <sr_sun_direct>
  #include <lights_fragment_maps>
  #include <lights_fragment_end>

  // The sky light reaches into concavities less.
  reflectedLight.indirectDiffuse *= occlusion;
  reflectedLight.indirectSpecular *= occlusion;

  vec3 totalDiffuse = reflectedLight.directDiffuse + reflectedLight.indirectDiffuse;
  vec3 totalSpecular = reflectedLight.directSpecular + reflectedLight.indirectSpecular;
  vec3 outgoingLight = totalDiffuse + totalSpecular + totalEmissiveRadiance;

  #include <opaque_fragment>
  #include <tonemapping_fragment>
  #include <colorspace_fragment>
}
