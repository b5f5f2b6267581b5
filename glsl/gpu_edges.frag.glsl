#version 300 es
// The edge pass runs with RASTERIZER_DISCARD; WebGL2 still needs a fragment shader to link.
precision highp float;
out vec4 sr_unused;
void main() { sr_unused = vec4(0.0); }
