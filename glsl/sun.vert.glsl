// Sun disc and glow: a quad facing the camera in the light's direction, at infinity.
// Corners come in as `position.xy` in [-1, 1]; the quad spans uGlowRadiusRad around the sun.
uniform vec3 uDirectionWorld;
uniform float uGlowRadiusRad;

out vec2 vOffsetRad;

void main() {
  vec3 dirView = normalize((viewMatrix * vec4(uDirectionWorld, 0.0)).xyz);
  vec3 helper = abs(dirView.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
  vec3 right = normalize(cross(helper, dirView));
  vec3 up = cross(dirView, right);
  float extent = tan(uGlowRadiusRad);
  vec3 cornerView = dirView + (right * position.x + up * position.y) * extent;
  vOffsetRad = position.xy * uGlowRadiusRad;
  // w = 0: a direction, infinitely far; then pin depth just inside the far plane so bodies
  // in front hide the sun (the quad is drawn after opaque objects, with depth test).
  gl_Position = projectionMatrix * vec4(cornerView, 0.0);
  #ifdef USE_REVERSED_DEPTH_BUFFER
    // Reversed: the far plane is 0, and anything at distance D sits at ≈ near / D (5e-9 at
    // 10⁵ km): 0 exactly is behind every body.
    gl_Position.z = 0.0;
  #else
    gl_Position.z = gl_Position.w * 0.999999;
  #endif
}
