import {
  BackSide,
  BoxGeometry,
  Color,
  CubeCamera,
  HalfFloatType,
  HemisphereLight,
  LinearFilter,
  Mesh,
  NoToneMapping,
  Scene,
  ShaderMaterial,
  Vector3,
  WebGLCubeRenderTarget,
  type CubeTexture,
  type WebGLRenderer,
} from 'three';
import { GpuResources, meshResources, type Disposable } from './disposal';
import { glslWithIncludes } from './renderGlslChunks';
import { Prng } from '../field/prng';
import { THREE_CHUNK_NAMES } from './BodyMaterial';
import { Starfield } from './Starfield';
import vertexShader from '../../glsl/sky.vert.glsl?raw';
import fragmentShader from '../../glsl/sky.frag.glsl?raw';
import nebulaFragmentShader from '../../glsl/sky_nebula.frag.glsl?raw';

/** Options of {@link SkyCubemap}. */
export interface SkyCubemapOptions {
  /** Sky seed (uint32); default 1. */
  seed?: number;
  /** Cube face size in texels; default 1024 (512 is enough for small windows and tests). */
  size?: number;
  /**
   * Face size of the nebula pass, which is smooth and the costly part; default size / 2.
   * The full-size pass samples it filtered.
   */
  nebulaSize?: number;
  /** Overall nebula brightness; default 1. */
  nebulaStrength?: number;
  /** Overall star brightness; default 1. */
  starBrightness?: number;
  /** Intensity of the palette-tinted hemisphere fill light {@link SkyCubemap.ambient}; default 0.08. */
  ambientIntensity?: number;
}

/** The seed's sky palette (linear RGB), also used to tint the ambient light. */
export interface SkyPalette {
  nebulaA: Color;
  nebulaB: Color;
  nebulaC: Color;
  background: Color;
  galaxyNormal: Vector3;
  nebulaCenter: Vector3;
}

/** Seed → palette: hues from the project PRNG, so a seed always gives the same sky. */
export function skyPalette(seed: number): SkyPalette {
  const prng = new Prng((seed ^ 0x2c1b3c6d) >>> 0);
  const hue = prng.next();
  // Second hue: analogous or complementary, by the seed.
  const hueB = (hue + (prng.next() < 0.5 ? prng.range(0.08, 0.18) : prng.range(0.4, 0.6))) % 1;
  const hueC = (hue + prng.range(-0.08, 0.08) + 1) % 1;
  const strength = prng.range(0.7, 1.3);
  return {
    nebulaA: new Color().setHSL(hue, prng.range(0.55, 0.85), 0.5).multiplyScalar(0.18 * strength),
    nebulaB: new Color().setHSL(hueB, prng.range(0.45, 0.8), 0.5).multiplyScalar(0.13 * strength),
    nebulaC: new Color().setHSL(hueC, 0.5, 0.7).multiplyScalar(0.4 * strength),
    background: new Color().setHSL(hue, 0.4, 0.5).multiplyScalar(0.003),
    galaxyNormal: new Vector3(...(prng.unitVector() as [number, number, number])),
    nebulaCenter: new Vector3(...(prng.unitVector() as [number, number, number])),
  };
}

/**
 * The procedural sky (issue 7), rendered ONCE per seed into a cube render target used as
 * `scene.background`, with a dim hemisphere light tinted by the palette as the sky's
 * contribution to lighting. Two passes of six faces each through `CubeCamera`s: the nebula
 * (`glsl/sky_nebula.frag.glsl`, the costly part, smooth) into a half-size cube, then the
 * full-size cube filtered from it (`glsl/sky.frag.glsl`). The stars are crisp points drawn each frame
 * ({@link Starfield}), attached with the background.
 *
 * Call {@link update} every frame: it renders only when the seed changed since the last
 * render ({@link renderCount} counts cube renders, six face passes each).
 */
export class SkyCubemap implements Disposable {
  readonly target: WebGLCubeRenderTarget;
  /** The nebula pass's cube (lower resolution), sampled by the full-size pass. */
  readonly nebulaTarget: WebGLCubeRenderTarget;
  /** Palette-tinted fill light: add it to the scene (it is not a child of anything). */
  readonly ambient: HemisphereLight;
  /** The stars, crisp points drawn each frame over the cube's nebula (issue 20). */
  readonly stars: Starfield;
  /** Full cube renders so far (each is six face passes). */
  renderCount = 0;
  /** The current seed's palette. */
  palette: SkyPalette;
  private seedValue: number;
  private dirty = true;
  private lastRenderer: WebGLRenderer | null = null;
  private readonly scene = new Scene();
  private readonly camera: CubeCamera;
  private attachedTo: Scene | null = null;
  private readonly nebulaCamera: CubeCamera;
  private readonly box: Mesh<BoxGeometry, ShaderMaterial>;
  private readonly nebulaMaterial: ShaderMaterial;
  private readonly ambientIntensity: number;
  /** Both cube targets, the box's geometry, both materials, the fill light and the stars. */
  private readonly gpu = new GpuResources();

  constructor(options: SkyCubemapOptions = {}) {
    const size = options.size ?? 1024;
    this.target = this.gpu.own(new WebGLCubeRenderTarget(size, {
      type: HalfFloatType,
      generateMipmaps: false,
      minFilter: LinearFilter,
      magFilter: LinearFilter,
    }));
    this.target.texture.name = 'sky';
    this.nebulaTarget = this.gpu.own(new WebGLCubeRenderTarget(options.nebulaSize ?? Math.max(16, size >> 1), {
      type: HalfFloatType,
      generateMipmaps: false,
      minFilter: LinearFilter,
      magFilter: LinearFilter,
    }));
    this.nebulaTarget.texture.name = 'sky nebula';
    this.camera = new CubeCamera(0.1, 10, this.target);
    this.nebulaCamera = new CubeCamera(0.1, 10, this.nebulaTarget);
    const vert = glslWithIncludes(vertexShader, 'sky.vert', { external: THREE_CHUNK_NAMES });
    this.nebulaMaterial = this.gpu.own(new ShaderMaterial({
      name: 'SkyNebula',
      vertexShader: vert,
      fragmentShader: glslWithIncludes(nebulaFragmentShader, 'sky_nebula.frag', { external: THREE_CHUNK_NAMES }),
      uniforms: {
        uSalt: { value: 0 },
        uNebulaA: { value: new Color() },
        uNebulaB: { value: new Color() },
        uNebulaC: { value: new Color() },
        uBackground: { value: new Color() },
        uGalaxyNormal: { value: new Vector3(0, 1, 0) },
        uNebulaCenter: { value: new Vector3(1, 0, 0) },
        uNebulaStrength: { value: options.nebulaStrength ?? 1 },
      },
      side: BackSide,
      depthTest: false,
      depthWrite: false,
      toneMapped: false,
    }));
    this.box = new Mesh(
      new BoxGeometry(2, 2, 2),
      new ShaderMaterial({
        name: 'SkyNebulaFull',
        vertexShader: vert,
        fragmentShader: glslWithIncludes(fragmentShader, 'sky.frag', { external: THREE_CHUNK_NAMES }),
        uniforms: {
          uNebula: { value: this.nebulaTarget.texture },
        },
        side: BackSide,
        depthTest: false,
        depthWrite: false,
        toneMapped: false,
      }),
    );
    this.gpu.ownAll(meshResources(this.box));
    this.box.frustumCulled = false;
    this.stars = this.gpu.own(new Starfield(options.starBrightness ?? 1));
    this.scene.add(this.box);
    this.ambientIntensity = options.ambientIntensity ?? 0.08;
    this.ambient = this.gpu.own(new HemisphereLight(0xffffff, 0x000000, this.ambientIntensity));
    this.ambient.name = 'sky ambient';
    this.seedValue = (options.seed ?? 1) >>> 0;
    this.palette = skyPalette(this.seedValue);
    this.applyPalette();
  }

  /** The cube texture to use as `scene.background`. */
  get texture(): CubeTexture {
    return this.target.texture;
  }

  get seed(): number {
    return this.seedValue;
  }

  /** Changes the sky; the next {@link update} renders it (once). Same seed: nothing to do. */
  setSeed(seed: number): void {
    const s = seed >>> 0;
    if (s === this.seedValue) return;
    this.seedValue = s;
    this.palette = skyPalette(s);
    this.applyPalette();
    this.dirty = true;
  }

  /**
   * Forces a render on the next {@link update}: call it after a WebGL context restore (render
   * target contents do not survive a context loss).
   */
  invalidate(): void {
    this.dirty = true;
  }

  /** Whether the next {@link update} will render. */
  get needsRender(): boolean {
    return this.dirty;
  }

  /**
   * Renders the cube map if the seed changed (or on first use, or for another renderer, or
   * after {@link invalidate}); returns whether it rendered.
   * Cheap to call every frame. Restores the renderer's tone mapping and render target.
   */
  update(renderer: WebGLRenderer, daylight = 0): boolean {
    this.setDaylight(daylight);
    // A render target's contents live in one context: another renderer needs its own render.
    if (!this.dirty && renderer === this.lastRenderer) return false;
    this.lastRenderer = renderer;
    const toneMapping = renderer.toneMapping;
    // Linear HDR in the cube map: tone mapping happens when the background is drawn.
    renderer.toneMapping = NoToneMapping;
    const fullMaterial = this.box.material;
    this.box.material = this.nebulaMaterial;
    this.nebulaCamera.update(renderer, this.scene);
    this.box.material = fullMaterial;
    this.camera.update(renderer, this.scene);
    renderer.toneMapping = toneMapping;
    this.dirty = false;
    this.renderCount++;
    return true;
  }

  /**
   * Under a planet's day sky (daylight 0–1, src/render/Atmosphere.ts) the eye sees neither stars
   * nor nebula: both fade with it.
   */
  setDaylight(daylight: number): void {
    this.stars.setDaylight(daylight);
    if (this.attachedTo) this.attachedTo.backgroundIntensity = 1 - 0.97 * Math.min(1, Math.max(0, daylight));
  }

  /** Sets `scene.background` to the sky and adds the fill light and the stars. */
  attach(scene: Scene): void {
    this.attachedTo = scene;
    scene.background = this.texture;
    if (this.ambient.parent !== scene) scene.add(this.ambient);
    if (this.stars.points.parent !== scene) scene.add(this.stars.points);
  }

  /** Removes the sky from a scene it was attached to. */
  detach(scene: Scene): void {
    if (this.attachedTo === scene) this.attachedTo = null;
    if (scene.background === this.texture) scene.background = null;
    scene.remove(this.ambient, this.stars.points);
  }

  private applyPalette(): void {
    const pal = this.palette;
    const salt = new Prng(this.seedValue).seed() >>> 0;
    this.stars.setSeed(this.seedValue, pal.galaxyNormal);
    const u = this.nebulaMaterial.uniforms;
    u.uSalt.value = salt;
    (u.uNebulaA.value as Color).copy(pal.nebulaA);
    (u.uNebulaB.value as Color).copy(pal.nebulaB);
    (u.uNebulaC.value as Color).copy(pal.nebulaC);
    (u.uBackground.value as Color).copy(pal.background);
    (u.uGalaxyNormal.value as Vector3).copy(pal.galaxyNormal);
    (u.uNebulaCenter.value as Vector3).copy(pal.nebulaCenter);
    // Fill light: the nebula's hues, normalised to a fixed luminance (brightness is set by
    // the intensity), the "ground" side a darker mix.
    const sky = pal.nebulaA.clone().add(pal.nebulaC).add(new Color(0.02, 0.02, 0.025));
    const ground = pal.nebulaB.clone().add(new Color(0.015, 0.014, 0.013));
    normaliseLuminance(sky, 1);
    normaliseLuminance(ground, 0.45);
    this.ambient.color.copy(sky);
    this.ambient.groundColor.copy(ground);
    this.ambient.intensity = this.ambientIntensity;
  }

  /** Frees both cube render targets, the box's geometry, both materials, the light and the stars. */
  dispose(): void {
    this.gpu.dispose();
  }
}

function normaliseLuminance(c: Color, luminance: number): void {
  const y = 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;
  if (y > 0) c.multiplyScalar(luminance / y);
}
