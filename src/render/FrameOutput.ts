/**
 * The frame's way to the screen. The scene renders into a linear HDR target (R11F_G11F_B10F, with
 * the MSAA the canvas used to have); the brightest pixels — the sun's disc, a hot specular glint —
 * bloom (three's UnrealBloomPass's stages, bloom.ts: a luminance high pass at half size, five
 * blurred mips); one output pass adds the bloom, tone-maps with the renderer's ACES and exposure
 * and encodes sRGB into whatever target is bound when {@link FrameOutput.render} is called (the
 * canvas, as a rule).
 *
 * So everything the scene blends — the atmosphere's transmittance and in-scattered light, the
 * sun's glow, the stars — adds up in linear light before tone mapping, and bloom bleeds over
 * whatever hides part of the sun (a planet's limb, an asteroid), as a lens does.
 *
 * The target follows the drawing-buffer size at each call (the screenshot's tiles resize the
 * renderer between draws). Without a colour-renderable float format (WebGL2 without
 * EXT_color_buffer_float) it falls back to an 8-bit target and no bloom: highlights then clip
 * before tone mapping, the only loss.
 */
import {
  DepthTexture,
  FloatType,
  HalfFloatType,
  RGBAFormat,
  RGBFormat,
  UnsignedByteType,
  UnsignedInt101111Type,
  Vector2,
  WebGLRenderTarget,
  type Camera,
  type Object3D,
  type Scene,
  type WebGLRenderer,
} from 'three';
import { Bloom, bloomOutputPass, setOutputBloom } from './bloom';
import { GpuResources, type Disposable } from './disposal';
import type { BloomGateStats } from './bloomGate';
import { SubmitPoints, withSubmitPoints } from './submitPoints';

export interface BloomSettings {
  /** How much of the blurred bright light is added back (UnrealBloomPass strength). */
  strength: number;
  /** 0 = tight glow (the fine mips dominate) … 1 = wide (UnrealBloomPass radius). */
  radius: number;
  /** Linear luminance (before exposure) above which a pixel blooms. */
  threshold: number;
}

/**
 * Only what is far brighter than lit ground blooms: the sun's disc is 60× its colour, rock in
 * full sun ≈ 1 (sun intensity 3 × albedo ≈ 0.3). Tuned by eye on the H100 image set.
 */
export const DEFAULT_BLOOM: BloomSettings = { strength: 0.4, radius: 0.35, threshold: 2.5 };

/** MSAA samples of the HDR target (three clamps to the context's MAX_SAMPLES). */
const SAMPLES = 4;

/** The target each renderer's frames are drawn into (the newest FrameOutput on it). */
const frameTargets = new WeakMap<WebGLRenderer, WebGLRenderTarget>();

/**
 * `renderer.compileAsync(object, camera, scene)` for the target the renderer's frames are drawn
 * into. three picks a program's tone mapping and output colour space from the render target bound
 * when it compiles: compiled against the canvas, a material got a variant no frame uses, and its
 * real program compiled inside the first frame that drew it.
 */
export function compileForFrames(renderer: WebGLRenderer, object: Object3D, camera: Camera, scene?: Scene): Promise<unknown> {
  const previous = renderer.getRenderTarget();
  renderer.setRenderTarget(frameTargets.get(renderer) ?? null);
  try {
    return renderer.compileAsync(object, camera, scene);
  } finally {
    renderer.setRenderTarget(previous);
  }
}

export class FrameOutput implements Disposable {
  /** False where no float format is colour-renderable: an 8-bit target, bloom off. */
  readonly hdr: boolean;
  private readonly target: WebGLRenderTarget;
  private readonly bloomPass: Bloom | null;
  /** The HDR target, the bloom and the output pass. */
  private readonly gpu = new GpuResources();
  private readonly outputPass = this.gpu.own(bloomOutputPass());
  private bloomOn: boolean;
  private readonly size = new Vector2();
  /** The scene handed to the GPU in parts (submitPoints.ts); null without WebGL2's fences. */
  readonly submitPoints: SubmitPoints | null;

  constructor(
    readonly renderer: WebGLRenderer,
    options: { bloom?: boolean; settings?: BloomSettings } = {},
  ) {
    const float = renderer.extensions.has('EXT_color_buffer_float');
    this.hdr = float || renderer.extensions.has('EXT_color_buffer_half_float');
    renderer.getDrawingBufferSize(this.size);
    const w = Math.max(1, this.size.x);
    const h = Math.max(1, this.size.y);
    // R11F_G11F_B10F (4 bytes a sample, no alpha: the frame is opaque) where floats render, else
    // RGBA16F (8 bytes). On the H100 the 4× MSAA target's bandwidth is most of the pipeline's cost.
    const [type, format] = float ? [UnsignedInt101111Type, RGBFormat] : [this.hdr ? HalfFloatType : UnsignedByteType, RGBAFormat];
    // A reversed depth buffer (src/app/renderer.ts) needs float depth: 32-bit float where the
    // renderer reverses it (three takes the format from a depth texture's type; the texture
    // itself is never resolved into nor read), three's default 24-bit fixed point otherwise.
    const depthTexture = renderer.capabilities.reversedDepthBuffer ? new DepthTexture(w, h, FloatType) : null;
    this.target = this.gpu.own(new WebGLRenderTarget(w, h, { type, format, samples: SAMPLES, depthTexture, resolveDepthBuffer: false }));
    this.target.texture.name = 'FrameOutput.scene';
    const s = options.settings ?? DEFAULT_BLOOM;
    this.bloomPass = this.hdr ? this.gpu.own(new Bloom(renderer, w, h, s.strength, s.radius, s.threshold)) : null;
    this.bloomOn = options.bloom ?? true;
    const gl = renderer.getContext();
    this.submitPoints = gl instanceof WebGL2RenderingContext ? new SubmitPoints(gl) : null;
    frameTargets.set(renderer, this.target);
  }

  /** Bloom on or off (the HDR target and tone mapping stay either way). */
  set bloom(on: boolean) {
    if (on && !this.bloomOn) this.bloomPass?.resetGate();
    this.bloomOn = on;
  }

  get bloom(): boolean {
    return this.bloomOn && this.bloomPass !== null;
  }

  /** Frames whose bloom blurred, and frames it skipped with nothing over the threshold (bloomGate.ts). */
  get bloomGateStats(): BloomGateStats {
    return this.bloomPass?.gateStats ?? { blurred: 0, skipped: 0 };
  }

  /**
   * Renders `scene` through the HDR target and bloom into the render target bound now (null = the
   * canvas). `renderer.info.render` afterwards counts the whole frame: the scene, its shadow maps
   * and the post passes. `continuous`: the frame continues the last one (the app's frame loop), so
   * bloom may go by earlier frames' answer to whether anything is bright enough (bloomGate.ts),
   * and the scene goes to the GPU in parts (submitPoints.ts); screenshots and thumbnails leave it
   * false.
   */
  render(scene: Scene, camera: Camera, continuous = false): void {
    const { renderer, target } = this;
    this.fitSize();
    const destination = renderer.getRenderTarget();
    const info = renderer.info;
    const autoReset = info.autoReset;
    info.reset();
    info.autoReset = false;
    try {
      renderer.setRenderTarget(target);
      // The app's frames start on the GPU while the rest is recorded (submitPoints.ts).
      if (continuous && this.submitPoints) withSubmitPoints(renderer, this.submitPoints, () => renderer.render(scene, camera));
      else renderer.render(scene, camera);
      setOutputBloom(this.outputPass, this.bloom ? this.bloomPass!.render(renderer, target.texture, continuous) : null);
      // OutputPass draws to the screen or to its write buffer: give it the destination.
      this.outputPass.renderToScreen = destination === null;
      this.outputPass.render(renderer, destination!, target, 0, false);
    } finally {
      info.autoReset = autoReset;
      renderer.setRenderTarget(destination);
    }
  }

  dispose(): void {
    if (frameTargets.get(this.renderer) === this.target) frameTargets.delete(this.renderer);
    this.gpu.dispose();
  }

  private fitSize(): void {
    const { x, y } = this.renderer.getDrawingBufferSize(this.size);
    const w = Math.max(1, x);
    const h = Math.max(1, y);
    if (w === this.target.width && h === this.target.height) return;
    this.target.setSize(w, h);
    this.bloomPass?.setSize(w, h);
  }
}
