import {
  AdditiveBlending,
  Color,
  DoubleSide,
  DirectionalLight,
  Group,
  Mesh,
  PlaneGeometry,
  ShaderMaterial,
  Vector3,
  type ColorRepresentation,
  type PerspectiveCamera,
  type Sphere,
} from 'three';
import { glslWithIncludes } from './renderGlslChunks';
import { THREE_CHUNK_NAMES } from './BodyMaterial';
import { GpuResources, meshResources, type Disposable } from './disposal';
import { SunShadows, type CascadeFitOptions, type SunShadowOptions } from './SunShadows';
import vertexShader from '../../glsl/sun.vert.glsl?raw';
import fragmentShader from '../../glsl/sun.frag.glsl?raw';

export { cascadeSplits, sliceSphere } from './cascadeFit';
export { SHADOW_CASTER_REACH, type CascadeFitOptions } from './SunShadows';

/** Options of {@link Sun}; the shadow maps' are {@link SunShadowOptions}. */
export interface SunOptions extends SunShadowOptions {
  /** World direction from the scene towards the sun (normalised); default (−0.55, 0.6, 0.58). */
  direction?: [number, number, number];
  /** Light colour; default 0xfff2e0. */
  color?: ColorRepresentation;
  /** Light intensity; default 3. */
  intensity?: number;
  /** Angular radius of the visible disc (rad); default 0.012 (about 2.6× the Sun from Earth). */
  discRadiusRad?: number;
  /** Angular radius of the glow quad (rad); default 0.35. */
  glowRadiusRad?: number;
  /** HDR intensity of the disc (tone mapping rolls it off); default 60. */
  discIntensity?: number;
  /** HDR intensity of the glow at the disc's edge; default 1.2. */
  glowIntensity?: number;
  /**
   * Shadow cascades (1 = one map fitted with {@link Sun.fitShadow}, as before); default 1.
   * {@link Sun.fitCascades} can change the count later (a one-off shader recompile).
   */
  cascades?: number;
}

const DEFAULT_DIRECTION: [number, number, number] = [-0.55, 0.6, 0.58];

/**
 * The sun: a `DirectionalLight` with PCF shadow maps ({@link SunShadows}: one map fitted around
 * given bounds, {@link fitShadow}, or cascades over the view, {@link fitCascades}), and a visible
 * disc with an analytic glow drawn at infinity in the light's direction (additive, HDR,
 * depth-tested so bodies hide it).
 *
 * Add `sun` (a Group holding the light, its target, the cascades' lights and the disc) to the
 * scene. Requires `renderer.shadowMap.enabled = true` and `renderer.shadowMap.type = PCFShadowMap`
 * for shadows.
 */
export class Sun extends Group implements Disposable {
  /** The sun's light; with cascades it is cascade 0 and the only one that carries light. */
  readonly light: DirectionalLight;
  readonly disc: Mesh<PlaneGeometry, ShaderMaterial>;
  /** Unit world direction towards the sun. */
  readonly direction = new Vector3();
  /** The shadow maps: the fitting of the single map and of the cascades. */
  readonly shadows: SunShadows;
  /**
   * View distances (m) bounding the cascades after {@link fitCascades}: cascade i covers
   * [splitsM[i], splitsM[i + 1]]. Empty until then.
   */
  readonly splitsM: number[];
  /** The disc's geometry and material. */
  private readonly gpu = new GpuResources();

  constructor(options: SunOptions = {}) {
    super();
    this.name = 'sun';
    this.light = new DirectionalLight(options.color ?? 0xfff2e0, options.intensity ?? 3);
    this.light.name = 'sun light';
    this.add(this.light, this.light.target);
    this.shadows = new SunShadows(this, this.direction, this.light, options);
    this.splitsM = this.shadows.splitsM;

    const glowRadiusRad = options.glowRadiusRad ?? 0.35;
    this.disc = new Mesh(
      new PlaneGeometry(2, 2),
      new ShaderMaterial({
        name: 'SunDisc',
        vertexShader: glslWithIncludes(vertexShader, 'sun.vert', { external: THREE_CHUNK_NAMES }),
        fragmentShader: glslWithIncludes(fragmentShader, 'sun.frag', { external: THREE_CHUNK_NAMES }),
        uniforms: {
          uDirectionWorld: { value: new Vector3() },
          uColor: { value: new Color(options.color ?? 0xfff2e0) },
          uDiscRadiusRad: { value: options.discRadiusRad ?? 0.012 },
          uGlowRadiusRad: { value: glowRadiusRad },
          uDiscIntensity: { value: options.discIntensity ?? 60 },
          uGlowIntensity: { value: options.glowIntensity ?? 1.2 },
        },
        blending: AdditiveBlending,
        // The quad's winding depends on the basis built in the shader: draw both sides.
        side: DoubleSide,
        transparent: true,
        depthWrite: false,
        depthTest: true,
      }),
    );
    this.gpu.ownAll(meshResources(this.disc));
    this.disc.name = 'sun disc';
    this.disc.frustumCulled = false;
    this.disc.renderOrder = -500;
    this.disc.castShadow = false;
    this.disc.receiveShadow = false;
    this.add(this.disc);

    this.setCascadeCount(options.cascades ?? 1);
    this.setDirection(new Vector3(...(options.direction ?? DEFAULT_DIRECTION)));
    this.shadows.applyBias();
  }

  /** After the group's matrices, the skipped cascades' lookups (SunShadows.updateLookups). */
  override updateMatrixWorld(force?: boolean): void {
    super.updateMatrixWorld(force);
    // Object3D's constructor runs before the shadows exist.
    this.shadows?.updateLookups();
  }

  /** Number of shadow cascades (1 = the single fitted map). */
  get cascadeCount(): number {
    return this.shadows.cascadeCount;
  }

  /** The shadow-casting lights, nearest cascade first (`cascadeLights[0]` is {@link light}). */
  get cascadeLights(): DirectionalLight[] {
    return this.shadows.cascadeLights;
  }

  /**
   * Sets the number of cascades. Cascades 1… are DirectionalLights of intensity 0 that only
   * render a shadow map: BodyMaterial takes the sun's light once, from cascade 0, shadowed by
   * whichever cascade covers the fragment. A material that does not know about cascades
   * (e.g. MeshStandardMaterial) still gets the sun exactly once, shadowed by cascade 0 only.
   *
   * All of them cast shadows, so three.js sorts them first among directional lights, in the
   * order they are added here; the scene must hold no other shadow-casting directional light.
   * Changing the count changes the lights' hash: lit materials recompile once.
   */
  setCascadeCount(count: number): void {
    this.shadows.setCascadeCount(count);
    // The disc too (and the direction normalised again, as always before a fit).
    this.setDirection(this.direction);
  }

  /** Every shadow map rendered again on the next fit (a restored WebGL context lost them). */
  invalidateShadows(): void {
    this.shadows.invalidate();
  }

  /** Points the light and the disc towards `dir` (world, towards the sun; normalised here). */
  setDirection(dir: { x: number; y: number; z: number }): void {
    this.direction.set(dir.x, dir.y, dir.z).normalize();
    (this.disc.material.uniforms.uDirectionWorld.value as Vector3).copy(this.direction);
    this.shadows.aim();
  }

  /**
   * Fits the orthographic shadow camera around a world-space sphere (in this Group's parent
   * space: camera-relative if the scene is) so no shadow-map resolution is wasted. The center
   * is snapped to whole shadow texels in light space so shadows do not crawl as the bounds
   * move; bias and normal bias are rescaled to the new texel size.
   *
   * With `castersVersion` the map is rendered again only when the fit (in whole texels), the
   * light or this version changed, or after MAX_CACHED_FRAMES (cascadeFit.ts), as in
   * {@link fitCascades}; the caller bumps the version when what casts into the map moved.
   * Without, three renders it every frame.
   */
  fitShadow(bounds: Sphere, castersVersion?: number): void {
    this.shadows.fitShadow(bounds, castersVersion);
  }

  /**
   * Cascaded shadow maps for `camera` (the camera in the same world space as this Group's
   * parent, e.g. the app's unshifted world camera: positions are converted with the parent's
   * world matrix, so a floating origin applied only while drawing is fine). Splits the view
   * frustum between `nearM` and `farM` into {@link cascadeCount} slices and fits cascade i's
   * orthographic camera around the smallest sphere of slice i — a sphere, so the map's extent
   * does not change as the camera turns — with its radius rounded up to 1/8-octave steps and
   * its center snapped to whole texels in light space, so shadows do not crawl or shimmer. The
   * light camera reaches `casterDepthM` further towards the sun for casters outside the view;
   * bias and normal bias are rescaled per cascade from their texel sizes.
   */
  fitCascades(camera: PerspectiveCamera, options: CascadeFitOptions): void {
    if (options.count !== undefined && options.count !== this.cascadeCount) this.setCascadeCount(options.count);
    this.shadows.fitCascades(camera, options);
  }

  /**
   * Shadow quality, live (no reload): map size (texels), PCF radius (texels), bias and normal
   * bias (in texels of world size, see {@link SunOptions}).
   */
  setShadowQuality(q: { mapSize?: number; radius?: number; biasTexels?: number; normalBiasTexels?: number }): void {
    this.shadows.setQuality(q);
  }

  /** World size of one shadow-map texel (m) for the current fit (cascade 0, the finest). */
  get shadowTexelM(): number {
    return this.shadows.cascadeTexelM(0);
  }

  /** World size of one texel (m) of cascade `i`'s map for the current fit. */
  cascadeTexelM(i: number): number {
    return this.shadows.cascadeTexelM(i);
  }

  /** Frees the disc's geometry and material and the shadow maps. */
  override dispose(): void {
    this.gpu.dispose();
    this.shadows.dispose();
  }
}
