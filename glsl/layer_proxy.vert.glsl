// The screen area of a sphere around the planet's centre (the sea, the cloud layer: src/render/
// PlanetSea.ts, PlanetClouds.ts), each corner with its world-space view direction; the fragment
// shader intersects the sphere per pixel. Near the sphere (or inside it) the quad covers the
// screen; farther out only the rectangle the sphere projects to, from the same exact per-axis
// tangent bounds as the sky's passes (glsl/atmo_sky.vert.glsl). Depth comes from the fragment
// shader (gl_FragDepth); the quad's own is irrelevant.
uniform vec3 uLayerCamera;
uniform float uLayerBoundR;

varying vec3 vDirWorld;

// Extent of t = x / −z over a disc of radius R centred at (a, z) in a plane through the eye: tan of
// its tangent directions' angles from the view axis, unbounded (±1e30) where it reaches behind.
vec2 srLayerTangentBounds(float a, float z, float R) {
  float phi = atan(a, -z);
  float alpha = asin(min(R / length(vec2(a, z)), 1.0));
  const float HALF_PI = 1.5707963;
  float lo = phi - alpha;
  float hi = phi + alpha;
  return vec2(lo <= -HALF_PI ? -1e30 : tan(lo), hi >= HALF_PI ? 1e30 : tan(hi));
}

void main() {
  vec3 c = (viewMatrix * vec4(cameraPosition - uLayerCamera, 1.0)).xyz;
  float R = uLayerBoundR * 1.002 + 1.0;
  vec2 lo = vec2(-1.0);
  vec2 hi = vec2(1.0);
  if (dot(c, c) > 1.1025 * R * R) {
    if (c.z >= R) {
      lo = vec2(2.0);
      hi = vec2(2.0);
    } else {
      vec2 tx = srLayerTangentBounds(c.x, c.z, R);
      vec2 ty = srLayerTangentBounds(c.y, c.z, R);
      vec2 p = vec2(projectionMatrix[0][0], projectionMatrix[1][1]);
      vec2 q = vec2(projectionMatrix[2][0], projectionMatrix[2][1]);
      lo = clamp(p * vec2(tx.x, ty.x) - q, -1.0, 1.0);
      hi = clamp(p * vec2(tx.y, ty.y) - q, -1.0, 1.0);
    }
  }
  vec2 ndc = mix(lo, hi, position.xy * 0.5 + 0.5);
  vec3 dirView = vec3((ndc.x + projectionMatrix[2][0]) / projectionMatrix[0][0], (ndc.y + projectionMatrix[2][1]) / projectionMatrix[1][1], -1.0);
  vDirWorld = transpose(mat3(viewMatrix)) * dirView;
  gl_Position = vec4(ndc, 0.0, 1.0);
}
