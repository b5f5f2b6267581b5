// The atmosphere over the sky (src/render/Atmosphere.ts): a quad at the far plane (depth-tested,
// so only pixels no body covers), with each corner's world-space view direction. From inside the
// atmosphere (or near it) the quad covers the screen; from farther out only the rectangle the top
// sphere projects to: elsewhere the passes would multiply by 1 and add 0, and a full-screen
// blended pass costs about a millisecond on a GPU with few raster units (the H100's).
uniform vec3 uAtmoCamera;
uniform float uAtmoTop;
// 0: the whole screen always (Atmosphere.boundedSky off; tests compare the two).
uniform float uAtmoSkyBounded;

varying vec3 vDirWorld;

// Extent of t = x / −z over a disc of radius R centred at (a, z) in a plane through the eye
// (z < 0 is in front; the eye outside the disc): tan of its tangent directions' angles from the
// view axis, unbounded (±1e30) where the disc reaches behind the eye on that side.
vec2 srTangentBounds(float a, float z, float R) {
  float phi = atan(a, -z);
  float alpha = asin(min(R / length(vec2(a, z)), 1.0));
  const float HALF_PI = 1.5707963;
  float lo = phi - alpha;
  float hi = phi + alpha;
  return vec2(lo <= -HALF_PI ? -1e30 : tan(lo), hi >= HALF_PI ? 1e30 : tan(hi));
}

void main() {
  // Per axis, x / −z (or y / −z) depends on two coordinates only: over the sphere it spans what
  // it spans over the sphere's shadow on their plane, a disc of the same centre and radius.
  vec3 c = (viewMatrix * vec4(cameraPosition - uAtmoCamera, 1.0)).xyz;
  float R = uAtmoTop * 1.002 + 1.0;
  vec2 lo = vec2(-1.0);
  vec2 hi = vec2(1.0);
  if (uAtmoSkyBounded > 0.5 && dot(c, c) > 1.1025 * R * R) {
    if (c.z >= R) {
      // Wholly behind the eye: nothing to draw.
      lo = vec2(2.0);
      hi = vec2(2.0);
    } else {
      vec2 tx = srTangentBounds(c.x, c.z, R);
      vec2 ty = srTangentBounds(c.y, c.z, R);
      // clip.x / clip.w = P[0][0] · x / −z − P[2][0] (and y likewise); clamped to the screen.
      vec2 p = vec2(projectionMatrix[0][0], projectionMatrix[1][1]);
      vec2 q = vec2(projectionMatrix[2][0], projectionMatrix[2][1]);
      lo = clamp(p * vec2(tx.x, ty.x) - q, -1.0, 1.0);
      hi = clamp(p * vec2(tx.y, ty.y) - q, -1.0, 1.0);
    }
  }
  vec2 ndc = mix(lo, hi, position.xy * 0.5 + 0.5);
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
