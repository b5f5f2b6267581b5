// Point stars (src/render/Starfield.ts, issue 20): each a direction drawn at infinity, its size in
// pixels, its colour already scaled by its brightness. The sky cube map holds the nebula only, so
// stars stay crisp points whatever the cube's resolution.
in vec3 aColor;
in float aSize;
uniform float uPixelRatio;
out vec3 vColor;
out float vSize;

void main() {
  // A direction (w = 0): the camera's translation does not move the stars.
  vec3 v = (viewMatrix * vec4(position, 0.0)).xyz;
  gl_Position = projectionMatrix * vec4(2.0 * v, 1.0);
  vSize = aSize * uPixelRatio;
  gl_PointSize = vSize;
  vColor = aColor;
}
