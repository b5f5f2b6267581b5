/**
 * Bloom whose last step is the output pass's (FrameOutput.ts). three's UnrealBloomPass ends by
 * blending its half-size result over the whole frame: a full-size draw into the 4× MSAA HDR
 * target, then a second resolve of that target for the output pass to read. On a GPU with few
 * raster units (the H100's) those two full-size steps were half of bloom's millisecond. Here the
 * pass's own materials and targets run its first stages (high pass, five blurred mips, composite)
 * and the output pass adds the composite as it tone-maps: the same sum (UnrealBloomPass adds with
 * ONE, ONE), one full-size pass fewer. Frames with nothing over the threshold skip the blur chain
 * (bloomGate.ts).
 */
import { Color, DataTexture, RGBAFormat, Vector2, type Texture, type WebGLRenderer } from 'three';
import { FullScreenQuad } from 'three/examples/jsm/postprocessing/Pass.js';
import { OutputPass } from 'three/examples/jsm/postprocessing/OutputPass.js';
import { UnrealBloomPass } from 'three/examples/jsm/postprocessing/UnrealBloomPass.js';
import type { Disposable } from './disposal';
import addBloom from '../../glsl/sr_output_bloom.glsl?raw';
import discardUnderThreshold from '../../glsl/sr_bloom_discard.glsl?raw';
import { BloomGate, webglQueryBackend, type BloomGateStats } from './bloomGate';

/** UnrealBloomPass's blur directions (its statics, missing from @types/three). */
const BLUR_X = new Vector2(1, 0);
const BLUR_Y = new Vector2(0, 1);

/** What three's OutputShader reads the frame with: the bloom is added after that line (bloomOutputPass throws if it is gone). */
const OUTPUT_READ = 'texture2D( tDiffuse, vUv );';

/** Where three's LuminosityHighPassShader weighs its pixel: the discard under the threshold goes after it. */
const HIGH_PASS_WEIGHT = 'float alpha = smoothstep( luminosityThreshold, luminosityThreshold + smoothWidth, v );';

export class Bloom implements Disposable {
  /** three's pass: its materials, targets and settings (strength, radius, threshold). */
  readonly pass: UnrealBloomPass;
  private readonly quad = new FullScreenQuad();
  private readonly clearColor = new Color();
  /** Skips the blur chain while the high pass finds nothing (null without WebGL2's queries). */
  private readonly gate: BloomGate<WebGLQuery> | null;

  constructor(renderer: WebGLRenderer, width: number, height: number, strength: number, radius: number, threshold: number) {
    this.pass = new UnrealBloomPass(new Vector2(width, height), strength, radius, threshold);
    // Pixels under the threshold are discarded, not written black (the target is cleared black
    // first: the same image), so the gate's occlusion query counts only pixels that bloom.
    const highPass = this.pass.materialHighPassFilter;
    if (!highPass.fragmentShader.includes(HIGH_PASS_WEIGHT)) {
      throw new Error('Bloom: three’s LuminosityHighPassShader no longer weighs its pixel as it did (three.js changed)');
    }
    highPass.fragmentShader = highPass.fragmentShader.replace(HIGH_PASS_WEIGHT, `${HIGH_PASS_WEIGHT}\n${discardUnderThreshold}`);
    highPass.needsUpdate = true;
    const gl = renderer.getContext();
    this.gate = gl instanceof WebGL2RenderingContext ? new BloomGate(webglQueryBackend(gl)) : null;
  }

  /** Forgets the gate's answers (bloom switched back on: they are of frames before). */
  resetGate(): void {
    this.gate?.reset();
  }

  /** Frames blurred and frames skipped by the gate (continuous frames only). */
  get gateStats(): BloomGateStats {
    return this.gate?.stats ?? { blurred: 0, skipped: 0 };
  }

  /**
   * Renders the bloom of `input` (the resolved HDR frame) and returns it: half the frame's size,
   * to be added to the frame as is; null when earlier frames' high passes found nothing over the
   * threshold (bloomGate.ts). `continuous`: this frame continues the last one drawn through this
   * Bloom (the app's frame loop); otherwise (a screenshot tile, a thumbnail) it always blurs.
   * Leaves the renderer's clear colour, auto-clear and target as they were.
   */
  render(renderer: WebGLRenderer, input: Texture, continuous = false): Texture | null {
    const p = this.pass;
    const target = renderer.getRenderTarget();
    renderer.getClearColor(this.clearColor);
    const clearAlpha = renderer.getClearAlpha();
    const autoClear = renderer.autoClear;
    renderer.autoClear = false;
    renderer.setClearColor(p.clearColor, 0);
    try {
      const highPass = p.highPassUniforms as Record<string, { value: unknown }>;
      highPass.tDiffuse.value = input;
      highPass.luminosityThreshold.value = p.threshold;
      const gate = this.gate;
      if (gate && !continuous) gate.reset();
      const blur = gate && continuous ? gate.beginFrame() : true;
      this.quad.material = p.materialHighPassFilter;
      renderer.setRenderTarget(p.renderTargetBright);
      renderer.clear();
      if (gate && continuous) gate.measure(() => this.quad.render(renderer));
      else this.quad.render(renderer);
      if (!blur) return null;
      let from = p.renderTargetBright;
      for (let i = 0; i < p.nMips; i++) {
        const blur = p.separableBlurMaterials[i];
        blur.uniforms.colorTexture.value = from.texture;
        blur.uniforms.direction.value = BLUR_X;
        this.draw(renderer, blur, p.renderTargetsHorizontal[i]);
        blur.uniforms.colorTexture.value = p.renderTargetsHorizontal[i].texture;
        blur.uniforms.direction.value = BLUR_Y;
        this.draw(renderer, blur, p.renderTargetsVertical[i]);
        from = p.renderTargetsVertical[i];
      }
      const composite = p.compositeMaterial;
      composite.uniforms.bloomStrength.value = p.strength;
      composite.uniforms.bloomRadius.value = p.radius;
      composite.uniforms.bloomTintColors.value = p.bloomTintColors;
      this.draw(renderer, composite, p.renderTargetsHorizontal[0]);
      return p.renderTargetsHorizontal[0].texture;
    } finally {
      renderer.setClearColor(this.clearColor, clearAlpha);
      renderer.autoClear = autoClear;
      renderer.setRenderTarget(target);
    }
  }

  setSize(width: number, height: number): void {
    this.pass.setSize(width, height);
  }

  /** Frees three's pass (its targets and materials) and the quad. */
  dispose(): void {
    this.pass.dispose();
    this.quad.dispose();
  }

  private draw(renderer: WebGLRenderer, material: FullScreenQuad['material'], target: Parameters<WebGLRenderer['setRenderTarget']>[0]): void {
    this.quad.material = material;
    renderer.setRenderTarget(target);
    renderer.clear();
    this.quad.render(renderer);
  }
}

/** Black, for frames without bloom: the output pass adds it (one fetch; no second program). */
const NO_BLOOM = new DataTexture(new Uint8Array([0, 0, 0, 0]), 1, 1, RGBAFormat);
NO_BLOOM.needsUpdate = true;

/**
 * three's OutputPass (tone mapping and colour space) adding a bloom texture to the frame it reads
 * first; set it with {@link setOutputBloom} before each render (null: none).
 */
export function bloomOutputPass(): OutputPass {
  const pass = new OutputPass();
  const material = pass.material;
  const fs = material.fragmentShader;
  const read = fs.indexOf(OUTPUT_READ);
  const declared = fs.indexOf('uniform sampler2D tDiffuse;');
  if (read < 0 || declared < 0) {
    throw new Error('bloomOutputPass: three’s OutputShader no longer reads the frame as it did (three.js changed)');
  }
  const after = read + OUTPUT_READ.length;
  material.fragmentShader = `${fs.slice(0, declared)}uniform sampler2D tBloom;\n${fs.slice(declared, after)}\n${addBloom}\n${fs.slice(after)}`;
  material.uniforms.tBloom = { value: NO_BLOOM };
  return pass;
}

/** The bloom the output pass adds (null: none). */
export function setOutputBloom(pass: OutputPass, bloom: Texture | null): void {
  pass.material.uniforms.tBloom.value = bloom ?? NO_BLOOM;
}
