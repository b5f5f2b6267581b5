// Body material, vertex stage: three.js's meshphysical vertex shader cut down to what a
// chunk mesh of a body needs (no uv, maps, skinning, morphs), plus the body-local position
// and the size of a pixel at the vertex for the per-pixel field normal (Sockalingam 2017 §4.6), and
// the field's slow shading terms — occlusion (SR_FIELD_OCCLUSION) and crater curvature
// (SR_CRATER_SHADING) — per vertex: they vary over metres, not pixels, and per pixel they were
// a quarter of an asteroid's frame on the H100 (docs/rendering.md).
#define STANDARD

varying vec3 vViewPosition;
// Body-local position (m): the mesh's position attribute is relative to the chunk origin.
varying vec3 vBodyPositionM;
// Size of one pixel at this point, in body-local metres.
varying float vFootprintM;

uniform vec3 uChunkOriginM;
uniform float uCellSizeM;

#if defined(SR_FIELD_OCCLUSION) || defined(SR_CRATER_SHADING)
  #define SR_VERTEX_FIELD
#endif
#ifdef SR_FIELD_OCCLUSION
  uniform float uOcclusionDistanceM;
  uniform float uOcclusionStrength;
  // 1 on open ground, smaller in concavities.
  varying float vOcclusion;
#endif
#ifdef SR_CRATER_SHADING
  uniform float uCraterScaleM;
  // Mean curvature at crater scale, clamped to ±1: bowls negative, rims positive.
  varying float vCurvature;
#endif
// Height of the viewport being rendered, in pixels (set per draw).
uniform float uViewportHeightPx;

#include <common>
#ifdef SR_VERTEX_FIELD
  #include <sr_common>
  #include <sr_field>
#endif
#include <normal_pars_vertex>
#include <shadowmap_pars_vertex>
#include <logdepthbuf_pars_vertex>
#include <clipping_planes_pars_vertex>

void main() {
  #include <beginnormal_vertex>
  #include <defaultnormal_vertex>
  #include <normal_vertex>

  #include <begin_vertex>
  #include <project_vertex>
  #include <logdepthbuf_vertex>
  #include <clipping_planes_vertex>

  vViewPosition = - mvPosition.xyz;

  #include <worldpos_vertex>
  #include <shadowmap_vertex>

  vBodyPositionM = position + uChunkOriginM;
  // A pixel spans 2 / (P[1][1] · H) of the view height at unit depth (perspective) or in
  // total (orthographic); divide by the model's scale to get body-local metres.
  float pixelAtUnitDepth = 2.0 / (projectionMatrix[1][1] * max(uViewportHeightPx, 1.0));
  float depth = isPerspectiveMatrix(projectionMatrix) ? max(-mvPosition.z, 0.0) : 1.0;
  vFootprintM = pixelAtUnitDepth * depth / length(modelMatrix[0].xyz);

  #ifdef SR_VERTEX_FIELD
    // Sampled once a vertex, so nothing finer than the mesh's cells is asked of them: their
    // distances are at least a cell.
    vec3 p = vBodyPositionM;
    vec3 n = normalize(objectNormal);
    float fieldAtP = sr_field(p);
    // |∇f| along the normal (1 for a distance field).
    float e = 0.5 * uCellSizeM;
    float gradLen = max((sr_field(p + n * e) - sr_field(p - n * e)) / (2.0 * e), 1e-6);
  #endif
  #ifdef SR_FIELD_OCCLUSION
    // How far the surface is from two points out along the normal, relative to how far they
    // are from p: 1 on open ground, smaller in concavities.
    {
      float d = max(uOcclusionDistanceM, uCellSizeM);
      float o1 = (sr_field(p + n * d) - fieldAtP) / (d * gradLen);
      float o2 = (sr_field(p + n * (3.0 * d)) - fieldAtP) / (3.0 * d * gradLen);
      vOcclusion = mix(1.0, sr_saturate(0.4 * o1 + 0.6 * o2), uOcclusionStrength);
    }
  #endif
  #ifdef SR_CRATER_SHADING
    // Mean curvature at crater scale from three taps in the tangent plane:
    // mean f(p + D t_j) − f(p) ≈ D²/4 (κ1 + κ2).
    {
      float D = max(uCraterScaleM, 2.0 * uCellSizeM);
      vec3 t1 = normalize(cross(n, abs(n.y) < 0.9 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0)));
      vec3 t2 = cross(n, t1);
      float c = sr_field(p + D * t1)
        + sr_field(p + D * (-0.5 * t1 + 0.8660254 * t2))
        + sr_field(p + D * (-0.5 * t1 - 0.8660254 * t2));
      vCurvature = clamp(4.0 * (c / 3.0 - fieldAtP) / (D * gradLen), -1.0, 1.0);
    }
  #endif
}
