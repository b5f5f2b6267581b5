#version 300 es
// Field template: one field value per pixel at the point stored in the same texel of
// sr_points (RGBA32F, xyz body-local metres). The compiled field is spliced in at the
// `#include <sr_field>` slot (src/field/compileGlsl.ts spliceField).
precision highp float;
precision highp int;
precision highp sampler2D;

#include <sr_field>

uniform sampler2D sr_points;
out vec4 sr_value;

void main() {
  vec3 p = texelFetch(sr_points, ivec2(gl_FragCoord.xy), 0).xyz;
  sr_value = vec4(sr_field(p), 0.0, 0.0, 1.0);
}
