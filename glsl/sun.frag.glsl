// Sun disc with an analytic glow, additive and HDR-bright so tone mapping rolls it off.
uniform vec3 uColor;
uniform float uDiscRadiusRad;
uniform float uGlowRadiusRad;
uniform float uDiscIntensity;
uniform float uGlowIntensity;

in vec2 vOffsetRad;

void main() {
  float r = length(vOffsetRad);
  // Anti-aliased disc edge over about one pixel's angle.
  float aa = max(fwidth(r), 1e-7);
  float disc = 1.0 - smoothstep(uDiscRadiusRad - aa, uDiscRadiusRad + aa, r);
  // Limb darkening keeps the disc from looking like a flat sticker.
  float mu = sqrt(max(0.0, 1.0 - (r * r) / (uDiscRadiusRad * uDiscRadiusRad)));
  float limb = 0.55 + 0.45 * mu;
  // Glow: a tight halo (≈ 1/x²) plus a wide faint one, both faded to 0 at the quad's edge.
  float x = r / uDiscRadiusRad;
  float halo = 1.0 / (1.0 + 1.5 * x * x) + 0.06 * exp(-0.12 * x);
  halo *= 1.0 - smoothstep(0.5, 1.0, r / uGlowRadiusRad);
  gl_FragColor = vec4(uColor * (uDiscIntensity * disc * limb + uGlowIntensity * halo), 1.0);
  #include <tonemapping_fragment>
  #include <colorspace_fragment>
}
