#version 300 es
// Grid pass: the field at every corner of a chunk's (P = N+1)^3 grid.
// Packing (src/gpu/atlas.ts): the grid's values in their own order, x fastest (index
// i + P (j + P k)), four to an RGBA32F texel, sr_rowTexels texels a row from the bottom up, so a
// readback is the values themselves. A chunk fills sr_chunkRows rows; samples past P³ are 0.
// One draw samples a batch (src/gpu/batches.ts): chunk `slot` is the slot-th run of rows; its
// values come from the chunk block (src/gpu/chunkBlock.ts).
precision highp float;
precision highp int;

#include <sr_field>
#include <sr_chunk_map>
#include <sr_chunk_block>

uniform int sr_gridPoints; // P
uniform int sr_rowTexels;  // texels a row
uniform int sr_chunkRows;  // rows a chunk
uniform int sr_jobs;       // chunks in this batch
out vec4 sr_values;

float sampleAt(int n) {
  int p = sr_gridPoints;
  if (n >= p * p * p) return 0.0;
  int row = n / p;
  return sr_field(sr_chunkPointM(vec3(n - row * p, row % p, row / p)));
}

void main() {
  ivec2 px = ivec2(gl_FragCoord.xy);
  int slot = px.y / sr_chunkRows;
  if (slot >= sr_jobs || px.x >= sr_rowTexels) {
    sr_values = vec4(0.0);
    return;
  }
  sr_loadChunk(slot);
  int n = ((px.y - slot * sr_chunkRows) * sr_rowTexels + px.x) * 4;
  sr_values = vec4(sampleAt(n), sampleAt(n + 1), sampleAt(n + 2), sampleAt(n + 3));
}
