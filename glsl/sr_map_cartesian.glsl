// sr_map_cartesian: chunk-space mapping for the sampling passes (cartesian chunks).
// Every sampling pass reaches positions only through sr_chunkPointM, so the cube-sphere
// warp can replace this chunk without touching the passes.
//
// localIndex: chunk-local grid coordinates (0..N on each axis, may be fractional).
// Returns the body-local position in metres. Chunk origin and step are uniforms so one
// program serves every chunk of a body.
uniform vec3 sr_chunkOriginM;
uniform float sr_chunkStepM;

vec3 sr_chunkPointM(vec3 localIndex) {
  return sr_chunkOriginM + sr_chunkStepM * localIndex;
}
