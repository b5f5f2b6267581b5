#version 300 es
// Field template: the (N)^3 grid corners of a box, z-slices tiled into a 2D atlas of
// sr_tilesX tiles per row, each tile N×N pixels; one value per pixel (R channel).
precision highp float;
precision highp int;

#include <sr_field>

uniform vec3 sr_gridOriginM;
uniform float sr_gridStepM;
uniform int sr_gridSize;
uniform int sr_tilesX;
out vec4 sr_value;

void main() {
  ivec2 px = ivec2(gl_FragCoord.xy);
  ivec2 tile = px / sr_gridSize;
  ivec2 cell = px - tile * sr_gridSize;
  int z = tile.y * sr_tilesX + tile.x;
  if (z >= sr_gridSize) {
    sr_value = vec4(0.0);
    return;
  }
  vec3 p = sr_gridOriginM + sr_gridStepM * vec3(cell.x, cell.y, z);
  sr_value = vec4(sr_field(p), 0.0, 0.0, 1.0);
}
