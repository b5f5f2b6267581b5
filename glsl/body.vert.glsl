// Body material, vertex stage: three.js's meshphysical vertex shader cut down to what a
// chunk mesh of a body needs (no uv, maps, skinning, morphs), plus the body-local position
// and the size of a pixel at the vertex for the per-pixel field normal (seed 004 §4.6).
#define STANDARD

varying vec3 vViewPosition;
// Body-local position (m): the mesh's position attribute is relative to the chunk origin.
varying vec3 vBodyPositionM;
// Size of one pixel at this point, in body-local metres.
varying float vFootprintM;

uniform vec3 uChunkOriginM;
// Height of the viewport being rendered, in pixels (set per draw).
uniform float uViewportHeightPx;

#include <common>
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
}
