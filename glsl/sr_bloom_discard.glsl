// Spliced into three's LuminosityHighPassShader after it weighs the pixel (src/render/bloom.ts):
// a pixel under the threshold is discarded instead of written black (its target was cleared
// black: the same image), so the occlusion query around the pass (src/render/bloomGate.ts)
// counts only pixels that bloom.
if ( alpha <= 0.0 ) discard;
