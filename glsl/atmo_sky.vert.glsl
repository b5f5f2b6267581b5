// The atmosphere over the sky (src/render/Atmosphere.ts): one triangle covering the screen at
// the far plane (depth-tested, so only pixels no body covers), with each corner's world-space
// view direction.
varying vec3 vDirWorld;

void main() {
  vec2 ndc = position.xy;
  // The perspective frustum's ray through this corner at view depth 1 (off-centre frusta of
  // screenshot tiles included): clip.xy = P·(x, y, −1) gives x = (ndc.x + P[2][0]) / P[0][0].
  vec3 dirView = vec3((ndc.x + projectionMatrix[2][0]) / projectionMatrix[0][0], (ndc.y + projectionMatrix[2][1]) / projectionMatrix[1][1], -1.0);
  vDirWorld = transpose(mat3(viewMatrix)) * dirView;
  #ifdef USE_REVERSED_DEPTH_BUFFER
    // Reversed: the far plane is 0, and a body at distance D sits at ≈ near / D (5e-9 at
    // 10⁵ km): 0 exactly is behind every body.
    gl_Position = vec4(ndc, 0.0, 1.0);
  #else
    gl_Position = vec4(ndc, 0.999999, 1.0);
  #endif
}
