// Procedural sky: a box around the cube camera; the direction is the box position.
out vec3 vDirection;

void main() {
  vDirection = position;
  gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);
}
