// Placeholder sky backdrop: a unit sphere that follows the camera, drawn behind everything.
// (The procedural cubemap sky replaces it.)
out vec3 vDirectionWorld;

void main() {
  vDirectionWorld = normalize((modelMatrix * vec4(position, 0.0)).xyz);
  vec4 clip = projectionMatrix * viewMatrix * vec4(cameraPosition + vDirectionWorld, 1.0);
  gl_Position = clip.xyww; // depth = 1: behind every surface
}
