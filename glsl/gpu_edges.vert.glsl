#version 300 es
// Edge pass (transform feedback): for each sign-changing grid edge, the zero crossing t
// in [0, 1] from the edge's lower end and the field gradient there with respect to the
// chunk's grid coordinates — the WebGL2 form of Gildea 2015's edge crossing + normal search.
//
// Edge id (the mesher's HermiteEdges layout): axis * P^3 + i + P * (j + P * k).
// Output: sr_hermite = (t, gx, gy, gz), gradient normalised; t = -1 marks an edge whose
// end values do not differ in sign (re-evaluated here when not given; the mesher then interpolates).
precision highp float;
precision highp int;

#include <sr_field>
#include <sr_chunk_map>
#include <sr_chunk_block>

uniform int sr_gridPoints; // P
/** Central-difference step of the gradient, in cells. */
uniform float sr_gradientStepCells;
/** 1: sr_ends holds the grid pass's values at the edge's two ends; 0: evaluate them here. */
uniform int sr_endsGiven;

in uint sr_edgeId;
in uint sr_slot; // the edge's chunk in this batch (src/gpu/chunkBlock.ts)
in vec2 sr_ends;
out vec4 sr_hermite;

// Bisection first, to a bracket of 1/16 cell, then regula falsi (Illinois) inside it until the
// bracket is under 1e-4 cell. Pure regula falsi stalled on edges whose field rises and falls again
// (seen on the potato recipe at 17³: 10 steps left t 0.06 cell from the root).
// About 7 field evaluations a crossing (was 2 + 12; the ends come from the grid pass when given) and
// 6 for the gradient: the edge pass was three quarters of the GPU time of a planet chunk.
const int SR_BISECTION_STEPS = 4;
const int SR_FALSI_STEPS = 6;

float fieldAtIndex(vec3 index) {
  return sr_field(sr_chunkPointM(index));
}

void main() {
  sr_loadChunk(int(sr_slot));
  int p = sr_gridPoints;
  int p3 = p * p * p;
  int id = int(sr_edgeId);
  int axis = id / p3;
  int rest = id - axis * p3;
  int k = rest / (p * p);
  rest -= k * p * p;
  int j = rest / p;
  int i = rest - j * p;
  vec3 a = vec3(i, j, k);
  vec3 dir = vec3(axis == 0 ? 1.0 : 0.0, axis == 1 ? 1.0 : 0.0, axis == 2 ? 1.0 : 0.0);

  // Bisection narrows the bracket; regula falsi with the Illinois modification then
  // converges superlinearly inside it while still keeping a bracket.
  float lo = 0.0, hi = 1.0;
  float flo = sr_endsGiven != 0 ? sr_ends.x : fieldAtIndex(a);
  float fhi = sr_endsGiven != 0 ? sr_ends.y : fieldAtIndex(a + dir);
  float t = -1.0;
  if ((flo < 0.0) != (fhi < 0.0)) {
    for (int s = 0; s < SR_BISECTION_STEPS; s++) {
      float mid = 0.5 * (lo + hi);
      float fm = fieldAtIndex(a + mid * dir);
      if ((fm < 0.0) == (flo < 0.0)) { lo = mid; flo = fm; } else { hi = mid; fhi = fm; }
    }
    int side = 0;
    t = 0.5 * (lo + hi);
    for (int s = 0; s < SR_FALSI_STEPS; s++) {
      t = clamp(lo + (hi - lo) * flo / (flo - fhi), lo, hi);
      float ft = fieldAtIndex(a + t * dir);
      if (ft == 0.0) break;
      if ((ft < 0.0) == (flo < 0.0)) {
        lo = t; flo = ft;
        if (side == -1) fhi *= 0.5;
        side = -1;
      } else {
        hi = t; fhi = ft;
        if (side == 1) flo *= 0.5;
        side = 1;
      }
      if (hi - lo < 1e-4) break;
    }
  }
  vec3 c = a + (t < 0.0 ? 0.5 : t) * dir; // the crossing, or the edge midpoint when t = -1
  // Central differences (a 4-point tetrahedral stencil is only first order: normals 16–35° off
  // near creases of the test recipes).
  float h = sr_gradientStepCells;
  vec3 g = vec3(
    fieldAtIndex(c + vec3(h, 0.0, 0.0)) - fieldAtIndex(c - vec3(h, 0.0, 0.0)),
    fieldAtIndex(c + vec3(0.0, h, 0.0)) - fieldAtIndex(c - vec3(0.0, h, 0.0)),
    fieldAtIndex(c + vec3(0.0, 0.0, h)) - fieldAtIndex(c - vec3(0.0, 0.0, h))
  );
  float len = length(g);
  sr_hermite = vec4(t, len > 0.0 ? g / len : vec3(0.0));
}
