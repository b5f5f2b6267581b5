#version 300 es
// Grid pass: the field at every corner of a chunk's (P = N+1)^3 grid.
// Packing: four consecutive x samples per RGBA32F texel. A z-slice is a tile of
// ceil(P/4) × P texels; tiles fill the atlas row by row, sr_tilesX tiles per row.
// Samples past the grid's end (x ≥ P or z ≥ P) are written as 0 and ignored on readback.
// One draw samples a batch (src/gpu/batches.ts): chunk `slot`'s atlas is the block at column
// slot % sr_blockCols, row slot / sr_blockCols of the target; its values come from the chunk
// block (src/gpu/chunkBlock.ts).
precision highp float;
precision highp int;

#include <sr_field>
#include <sr_chunk_map>
#include <sr_chunk_block>

uniform int sr_gridPoints; // P
uniform int sr_tileWidth;  // ceil(P / 4)
uniform int sr_tilesX;
uniform ivec2 sr_blockSize; // one chunk's atlas, texels
uniform int sr_blockCols;
uniform int sr_jobs;        // chunks in this batch
out vec4 sr_values;

float sampleAt(int x, int y, int z) {
  if (x >= sr_gridPoints) return 0.0;
  return sr_field(sr_chunkPointM(vec3(x, y, z)));
}

void main() {
  ivec2 block = ivec2(gl_FragCoord.xy) / sr_blockSize;
  int slot = block.y * sr_blockCols + block.x;
  if (block.x >= sr_blockCols || slot >= sr_jobs) {
    sr_values = vec4(0.0);
    return;
  }
  sr_loadChunk(slot);
  ivec2 px = ivec2(gl_FragCoord.xy) - block * sr_blockSize;
  ivec2 tileSize = ivec2(sr_tileWidth, sr_gridPoints);
  ivec2 tile = px / tileSize;
  ivec2 inTile = px - tile * tileSize;
  int z = tile.y * sr_tilesX + tile.x;
  if (z >= sr_gridPoints) {
    sr_values = vec4(0.0);
    return;
  }
  int x0 = inTile.x * 4;
  int y = inTile.y;
  sr_values = vec4(sampleAt(x0, y, z), sampleAt(x0 + 1, y, z), sampleAt(x0 + 2, y, z), sampleAt(x0 + 3, y, z));
}
