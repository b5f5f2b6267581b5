// Point stars (src/render/Starfield.ts): a core about a pixel wide, and for the bright ones a small
// glare falling off as 1/r² to the edge of their point. Additive, linear HDR, tone mapped with the
// rest of the frame.

in vec3 vColor;
in float vSize;
// 1 at night and in space, down to ~0 under a day sky (src/render/Atmosphere.ts's daylight).
uniform float uBrightness;

void main() {
  float r = length(gl_PointCoord - 0.5) * vSize; // pixels from the centre
  float core = exp(-0.5 * r * r / 0.36);          // σ 0.6 px
  float reach = 0.5 * vSize;
  float glare = vSize > 3.0 ? 0.08 / (1.0 + r * r) * (1.0 - smoothstep(0.5 * reach, reach, r)) : 0.0;
  gl_FragColor = vec4(uBrightness * vColor * (core + glare), 1.0);
  #include <tonemapping_fragment>
  #include <colorspace_fragment>
}
