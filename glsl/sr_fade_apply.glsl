// Chunk `sr_fade_apply` (after three's <clipping_planes_fragment>): drop the pixels this draw's
// dither leaves to the other mesh of a cross-fade (glsl/sr_dither.glsl).
if (sr_fadeDiscard(gl_FragCoord.xy, uSrFade, uSrFadeComplement)) discard;
