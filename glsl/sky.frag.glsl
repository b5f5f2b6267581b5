// Procedural sky, pass 2 of 2 (src/render/SkyCubemap.ts, Sockalingam 2017 §3.5, §4.8): the nebula cube
// from pass 1, filtered up to full size. Linear HDR out; tone mapping happens when the background is
// drawn. The stars are not here: they are crisp points drawn each frame (src/render/Starfield.ts),
// since a star in a cube map is a magnified texel, a soft disc on screen.
uniform samplerCube uNebula;

in vec3 vDirection;

void main() {
  gl_FragColor = vec4(texture(uNebula, normalize(vDirection)).rgb, 1.0);
}
