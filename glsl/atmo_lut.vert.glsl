// A look-up table pass (src/render/Atmosphere.ts): a 2×2 quad straight to clip space; the
// fragment shaders address texels with gl_FragCoord.
void main() {
  gl_Position = vec4(position.xy, 0.0, 1.0);
}
