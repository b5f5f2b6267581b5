// Chunk `sr_fade_pars`: the per-draw screen-door fade of a patched standard material
// (src/render/ditherFade.ts; the planet's cross-fades, src/render/pieceFades.ts).
#include <sr_dither>
uniform float uSrFade;
uniform bool uSrFadeComplement;
