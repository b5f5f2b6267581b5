/**
 * Page-side set-up for test/browser/frameOutput.test.ts: the sun's disc half hidden behind a black
 * sphere, drawn through the app's FrameOutput with bloom on and off, at a small size.
 */
import { AmbientLight, BoxGeometry, DepthTexture, FloatType, Mesh, MeshBasicMaterial, MeshStandardMaterial, PerspectiveCamera, RGBFormat, Scene, SphereGeometry, UnsignedInt101111Type, Vector2, WebGLRenderTarget } from 'three';
import { OutputPass } from 'three/examples/jsm/postprocessing/OutputPass.js';
import { UnrealBloomPass } from 'three/examples/jsm/postprocessing/UnrealBloomPass.js';
import { createRenderer } from '../../../src/app/renderer';
import { DEFAULT_BLOOM, FrameOutput } from '../../../src/render/FrameOutput';
import { Sun } from '../../../src/render/Sun';

const WIDTH = 320;
const HEIGHT = 180;

export interface SunBloomShot {
  hdr: boolean;
  /** PNG data URLs, bloom off and on. */
  pngOff: string;
  pngOn: string;
  /** Mean luma (0–255) over the occluder just beside the hidden half of the disc. */
  overLimbOff: number;
  overLimbOn: number;
  /** Mean luma of the visible half of the disc (saturated either way). */
  discOff: number;
  discOn: number;
  /** Mean luma of the frame's far corner (space, away from the sun). */
  cornerOff: number;
  cornerOn: number;
  /** renderer.info.render after one FrameOutput.render: the whole frame, not only the last pass. */
  triangles: number;
  sphereTriangles: number;
  /**
   * The bloom-on frame against three's own UnrealBloomPass (blended over the MSAA target) and
   * OutputPass on the same target format: mean and largest |Δ| per channel (0–255).
   */
  referenceMeanDiff: number;
  referenceMaxDiff: number;
  pngReference: string;
}

/** The sun's disc half hidden behind a black sphere, through the app's FrameOutput. */
function sunScene() {
  const renderer = createRenderer();
  renderer.setPixelRatio(1);
  renderer.setSize(WIDTH, HEIGHT, false);
  document.body.appendChild(renderer.domElement);
  const output = new FrameOutput(renderer);
  const scene = new Scene();
  // The sun straight ahead (−z); a black sphere whose right limb crosses the disc's center.
  const sun = new Sun({ direction: [0, 0, -1] });
  scene.add(sun);
  const sphereGeometry = new SphereGeometry(20, 64, 32);
  const sphere = new Mesh(sphereGeometry, new MeshBasicMaterial({ color: 0x000000 }));
  sphere.position.set(-20, 0, -100);
  scene.add(sphere);
  const camera = new PerspectiveCamera(45, WIDTH / HEIGHT, 0.5, 1e6);
  camera.lookAt(0, 0, -1);
  camera.updateMatrixWorld(true);
  const gl = renderer.getContext();
  const cx = WIDTH / 2;
  const cy = HEIGHT / 2;
  const luma = (px: Uint8Array, x0: number, x1: number, y0: number, y1: number): number => {
    let sum = 0;
    let n = 0;
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const i = ((HEIGHT - 1 - y) * WIDTH + x) * 4; // readPixels rows run bottom-up
        sum += 0.2126 * px[i] + 0.7152 * px[i + 1] + 0.0722 * px[i + 2];
        n++;
      }
    }
    return sum / n;
  };
  const read = (): Uint8Array => {
    const px = new Uint8Array(WIDTH * HEIGHT * 4);
    gl.readPixels(0, 0, WIDTH, HEIGHT, gl.RGBA, gl.UNSIGNED_BYTE, px);
    return px;
  };
  // The disc’s radius is ≈ 0.012 rad ≈ 2.6 px here (the app’s 45° field of view): the band 6–20 px left of center is the sphere's dark side.
  const overLimb = (px: Uint8Array): number => luma(px, cx - 20, cx - 6, cy - 3, cy + 3);
  const dispose = (): void => {
    output.dispose();
    sun.dispose();
    sphereGeometry.dispose();
    renderer.dispose();
    renderer.domElement.remove();
  };
  return { renderer, output, scene, sun, sphereGeometry, camera, gl, cx, cy, luma, read, overLimb, dispose };
}

export function sunBloom(): SunBloomShot {
  const { renderer, output, scene, sphereGeometry, camera, gl, cx, cy, luma, read, overLimb, dispose } = sunScene();
  const shot = (bloom: boolean) => {
    output.bloom = bloom;
    output.render(scene, camera);
    const info = { triangles: renderer.info.render.triangles };
    const px = read();
    return {
      png: renderer.domElement.toDataURL('image/png'),
      overLimb: overLimb(px),
      disc: luma(px, cx + 1, cx + 2, cy - 1, cy + 1),
      corner: luma(px, WIDTH - 30, WIDTH - 5, 5, 30),
      px,
      ...info,
    };
  };
  /** The frame as three's passes drew it before bloom.ts: bloom blended into the MSAA target, then the output pass. */
  const reference = (): Uint8Array => {
    const depthTexture = renderer.capabilities.reversedDepthBuffer ? new DepthTexture(WIDTH, HEIGHT, FloatType) : null;
    const target = new WebGLRenderTarget(WIDTH, HEIGHT, { type: UnsignedInt101111Type, format: RGBFormat, samples: 4, depthTexture, resolveDepthBuffer: false });
    const bloom = new UnrealBloomPass(new Vector2(WIDTH, HEIGHT), DEFAULT_BLOOM.strength, DEFAULT_BLOOM.radius, DEFAULT_BLOOM.threshold);
    const out = new OutputPass();
    try {
      renderer.setRenderTarget(target);
      renderer.render(scene, camera);
      bloom.render(renderer, target, target, 0, false);
      out.renderToScreen = true;
      out.render(renderer, null!, target, 0, false);
      const px = new Uint8Array(WIDTH * HEIGHT * 4);
      gl.readPixels(0, 0, WIDTH, HEIGHT, gl.RGBA, gl.UNSIGNED_BYTE, px);
      return px;
    } finally {
      renderer.setRenderTarget(null);
      target.dispose();
      bloom.dispose();
      out.dispose();
    }
  };
  try {
    const off = shot(false);
    const on = shot(true);
    const ref = reference();
    const pngReference = renderer.domElement.toDataURL('image/png');
    let sum = 0, max = 0, n = 0;
    for (let i = 0; i < ref.length; i += 4) {
      for (let k = 0; k < 3; k++, n++) {
        const d = Math.abs(ref[i + k] - on.px[i + k]);
        sum += d;
        max = Math.max(max, d);
      }
    }
    return {
      hdr: output.hdr,
      pngOff: off.png,
      pngOn: on.png,
      overLimbOff: off.overLimb,
      overLimbOn: on.overLimb,
      discOff: off.disc,
      discOn: on.disc,
      cornerOff: off.corner,
      cornerOn: on.corner,
      triangles: on.triangles,
      sphereTriangles: sphereGeometry.index!.count / 3,
      referenceMeanDiff: sum / n,
      referenceMaxDiff: max,
      pngReference,
    };
  } finally {
    dispose();
  }
}

export interface GatedFrame {
  sun: boolean;
  continuous: boolean;
  /** Whether the blur chain ran (a render that does not continue the last one always blurs), and the glow over the limb. */
  blurred: boolean;
  overLimb: number;
}

export interface BloomGateRun {
  frames: GatedFrame[];
  /** Largest |Δ| (0–255) between a skipped frame without the sun and the same frame with bloom off (255: none skipped). */
  skippedVsOff: number;
}

/**
 * Frames in their own tasks, as the app draws them (a query's answer arrives only in a later
 * task): the sun in view, out of view, in view again (continuous frames), out again, then a
 * screenshot-like render (not continuous) with the sun after black frames.
 */
export async function bloomGate(): Promise<BloomGateRun> {
  const { output, scene, sun, camera, read, overLimb, dispose } = sunScene();
  const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
  const frames: GatedFrame[] = [];
  let skipped: Uint8Array | null = null;
  const frame = async (sunOn: boolean, continuous: boolean): Promise<void> => {
    sun.visible = sunOn;
    const before = output.bloomGateStats.blurred;
    output.render(scene, camera, continuous);
    const px = read();
    const blurred = !continuous || output.bloomGateStats.blurred > before;
    if (!blurred && !sunOn) skipped = px;
    frames.push({ sun: sunOn, continuous, blurred, overLimb: overLimb(px) });
    await nextTask();
  };
  try {
    output.bloom = true;
    for (const [sunOn, count] of [[true, 3], [false, 5], [true, 4], [false, 4]] as const) {
      for (let i = 0; i < count; i++) await frame(sunOn, true);
    }
    await frame(true, false);
    let skippedVsOff = 255;
    const last: Uint8Array | null = skipped;
    if (last) {
      sun.visible = false;
      output.bloom = false;
      output.render(scene, camera);
      const off = read();
      skippedVsOff = 0;
      for (let i = 0; i < off.length; i++) skippedVsOff = Math.max(skippedVsOff, Math.abs(off[i] - last[i]));
    }
    return { frames, skippedVsOff };
  } finally {
    dispose();
  }
}


export interface SubmitPointsRun {
  /** Submit points over one continuous frame, and over one that is not. */
  submitsContinuous: number;
  submitsOther: number;
  /** Largest |Δ| (0–255) between the continuous frame and the other. */
  maxDiff: number;
  /** Whether the renderer's renderBufferDirect is its own again afterwards. */
  restored: boolean;
  /** Pixels the boxes cover in the frame (the comparison is not of an empty frame). */
  covered: number;
}

/** Sixty lit boxes in front of the sun's sphere, drawn as an app frame (continuous: submit points) and as a screenshot (none). */
export function submitPoints(): SubmitPointsRun {
  const { renderer, output, scene, sun, camera, read, dispose } = sunScene();
  const box = new BoxGeometry(3, 3, 3);
  const material = new MeshStandardMaterial({ color: 0x8899aa, roughness: 0.6 });
  try {
    output.bloom = false;
    for (let i = 0; i < 60; i++) {
      const m = new Mesh(box, material);
      m.position.set(((i % 10) - 4.5) * 8, (Math.floor(i / 10) - 2.5) * 6, -90 + (i % 7));
      m.rotation.set(i * 0.3, i * 0.7, 0);
      scene.add(m);
    }
    scene.add(new AmbientLight(0xffffff, 0.3));
    const direct = renderer.renderBufferDirect;
    const points = output.submitPoints!;
    const before = points.submits;
    output.render(scene, camera);
    const other = read();
    const submitsOther = points.submits - before;
    output.render(scene, camera, true);
    const continuous = read();
    let maxDiff = 0, covered = 0;
    for (let i = 0; i < other.length; i++) maxDiff = Math.max(maxDiff, Math.abs(other[i] - continuous[i]));
    for (let i = 0; i < other.length; i += 4) if (other[i] + other[i + 1] + other[i + 2] > 30) covered++;
    return { submitsContinuous: points.submits - before - submitsOther, submitsOther, maxDiff, restored: renderer.renderBufferDirect === direct, covered };
  } finally {
    box.dispose();
    material.dispose();
    sun.visible = true;
    dispose();
  }
}
