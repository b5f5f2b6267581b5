#version 300 es
// Test template: the field's analytic gradient and value (sr_fieldGrad: xyz, w) at the point in
// the same texel of sr_points, with the footprint uFootprintM (0: exact).
precision highp float;
precision highp int;
precision highp sampler2D;

#include <sr_field>

uniform sampler2D sr_points;
uniform float uFootprintM;
out vec4 sr_value;

void main() {
  vec3 p = texelFetch(sr_points, ivec2(gl_FragCoord.xy), 0).xyz;
  sr_gradFootprintM = uFootprintM;
  sr_value = sr_fieldGrad(p);
}
