import {
  AdditiveBlending,
  Color,
  DoubleSide,
  DirectionalLight,
  Group,
  Matrix4,
  Mesh,
  PlaneGeometry,
  ShaderMaterial,
  Vector3,
  type ColorRepresentation,
  type Object3D,
  type PerspectiveCamera,
  type Sphere,
} from 'three';
import { glslWithIncludes } from './glslChunks';
import { THREE_CHUNK_NAMES } from './BodyMaterial';
import { CascadeMapCache, cascadeSplits, sliceSphere, type CascadeFitKey } from './cascadeFit';
import vertexShader from '../../glsl/sun.vert.glsl?raw';
import fragmentShader from '../../glsl/sun.frag.glsl?raw';

export { cascadeSplits, sliceSphere } from './cascadeFit';

/** Options of {@link Sun}. */
export interface SunOptions {
  /** World direction from the scene towards the sun (normalised); default (−0.55, 0.6, 0.58). */
  direction?: [number, number, number];
  /** Light colour; default 0xfff2e0. */
  color?: ColorRepresentation;
  /** Light intensity; default 3. */
  intensity?: number;
  /** Shadow map size (square, texels); default 2048. */
  shadowMapSize?: number;
  /** PCF kernel radius in texels (three's `shadow.radius`); default 2.5. */
  shadowRadius?: number;
  /**
   * Depth bias in shadow-map texels of world size (converted to three's normalised `bias` by
   * {@link Sun.fitShadow}); negative pushes the comparison away from the light. Default −1.
   */
  shadowBiasTexels?: number;
  /** Normal offset in shadow-map texels of world size (three's `normalBias`); default 1.5. */
  shadowNormalBiasTexels?: number;
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
  /**
   * Map size of each cascade relative to `shadowMapSize`; default 1 for every cascade but the
   * last of several, which gets 0.5 (3 cascades at 2048: 2048, 2048, 1024).
   */
  cascadeMapScale?: number[];
}

/** Options of {@link Sun.fitCascades}. Distances are view distances along the camera's axis (m). */
export interface CascadeFitOptions {
  /** Where shadows end (m): the far edge of the last cascade. */
  farM: number;
  /** Where the first cascade starts (m); default the camera's near plane. */
  nearM?: number;
  /**
   * Inner split distances (count − 1, increasing, between nearM and farM). Default: the
   * practical split scheme, `lambda` × logarithmic + (1 − lambda) × uniform.
   */
  splitsM?: number[];
  /** Weight of logarithmic against uniform splits; default 0.7. */
  lambda?: number;
  /**
   * How far (m) towards the sun beyond each cascade's bounding sphere the light camera reaches,
   * so casters outside the view (a mountain between the ground and the sun) still cast.
   * Default `farM`.
   */
  casterDepthM?: number;
  /** Number of cascades; default the current count. Changing it recompiles lit materials once. */
  count?: number;
  /**
   * Cascades past the first re-render their maps in turn, one a frame (with 3 cascades each far
   * map every other frame): far shadows lag a frame or two, the shadow passes draw about half as
   * much. A cascade that is not re-rendered keeps its fit, so map and lookup always agree. Each
   * new direction, quality or count renders every map once. Default false.
   */
  stagger?: boolean;
  /**
   * A number that changes whenever anything that casts into these maps changes (pieces shown or
   * hidden, bodies moving). Given, a cascade is rendered again only when its fit (in whole texels),
   * the light or this version changed, or after MAX_CACHED_FRAMES (cascadeFit.ts): a camera that
   * hovers re-renders no map. Absent: every cascade due renders each time.
   */
  castersVersion?: number;
}

const DEFAULT_DIRECTION: [number, number, number] = [-0.55, 0.6, 0.58];
const UP_Y = new Vector3(0, 1, 0);
const UP_X = new Vector3(1, 0, 0);
const ORIGIN = new Vector3();
const scratchLightRotation = new Matrix4();
const scratchInverse = new Matrix4();
const scratchRotationInverse = new Matrix4();
const scratchSnapped = new Vector3();
const scratchCenter = new Vector3();
const scratchForward = new Vector3();
const scratchCamera = new Vector3();
const scratchPark = new Vector3();
/** How far aside (perpendicular to the sun) {@link Sun.fitShadow} parks unused cascades, metres. */
const PARK_DISTANCE_M = 1e9;

/**
 * How far beyond {@link Sun.fitShadow}'s sphere, towards the sun, its light camera reaches for
 * casters: this share of the sphere's radius. A caster within (1 + this) radii can shadow the map.
 */
export const SHADOW_CASTER_REACH = 0.5;

/** One shadow map of the sun: cascade 0 is the sun's light, the others carry no light. */
interface Cascade {
  light: DirectionalLight;
  /** Map size relative to the sun's shadowMapSize. */
  mapScale: number;
  /** Bounding radius the map covers (m). */
  radiusM: number;
  /** Light-to-target distance (m). */
  distanceM: number;
}

/**
 * The sun: a `DirectionalLight` with a PCF shadow map whose orthographic camera is fitted
 * around given bounds ({@link fitShadow}), and a visible disc with an analytic glow drawn at
 * infinity in the light's direction (additive, HDR, depth-tested so bodies hide it).
 *
 * Add `sun` (a Group holding the light, its target and the disc) to the scene. Requires
 * `renderer.shadowMap.enabled = true` and `renderer.shadowMap.type = PCFShadowMap` for shadows.
 */
export class Sun extends Group {
  /** The sun's light; with cascades it is cascade 0 and the only one that carries light. */
  readonly light: DirectionalLight;
  readonly disc: Mesh<PlaneGeometry, ShaderMaterial>;
  /** Unit world direction towards the sun. */
  readonly direction = new Vector3();
  /**
   * View distances (m) bounding the cascades after {@link fitCascades}: cascade i covers
   * [splitsM[i], splitsM[i + 1]]. Empty until then.
   */
  readonly splitsM: number[] = [];
  private biasTexels: number;
  private normalBiasTexels: number;
  private baseMapSize: number;
  /** Staggered cascades (CascadeFitOptions.stagger): the frame count, and whether the next fit renders every map. */
  private staggerFrame = 0;
  private renderAllMaps = true;
  /** fitShadow parked cascades 1…: the next fitCascades fits and renders them all. */
  private cascadesParked = false;
  /** What each map was last rendered for (fits with a casters' version). */
  private readonly mapCache = new CascadeMapCache();
  private readonly cascadeMapScale: number[] | undefined;
  private readonly cascadeList: Cascade[] = [];

  constructor(options: SunOptions = {}) {
    super();
    this.name = 'sun';
    this.light = new DirectionalLight(options.color ?? 0xfff2e0, options.intensity ?? 3);
    this.light.name = 'sun light';
    this.light.castShadow = true;
    this.baseMapSize = options.shadowMapSize ?? 2048;
    this.cascadeMapScale = options.cascadeMapScale;
    this.light.shadow.mapSize.set(this.baseMapSize, this.baseMapSize);
    this.light.shadow.radius = options.shadowRadius ?? 2.5;
    this.biasTexels = options.shadowBiasTexels ?? -1;
    this.normalBiasTexels = options.shadowNormalBiasTexels ?? 1.5;
    this.add(this.light, this.light.target);
    this.cascadeList.push({ light: this.light, mapScale: 1, radiusM: 1, distanceM: 2 });

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
    this.disc.name = 'sun disc';
    this.disc.frustumCulled = false;
    this.disc.renderOrder = -500;
    this.disc.castShadow = false;
    this.disc.receiveShadow = false;
    this.add(this.disc);

    this.setCascadeCount(options.cascades ?? 1);
    this.setDirection(new Vector3(...(options.direction ?? DEFAULT_DIRECTION)));
    this.applyBias();
  }

  /**
   * After the group's matrices: a cascade whose map is not re-rendered this frame (staggered) still
   * needs its lookup matrix in this frame's floating-origin shift — three recomputes it only when it
   * renders the map, and the map itself does not depend on the shift (light and casters moved together).
   */
  override updateMatrixWorld(force?: boolean): void {
    super.updateMatrixWorld(force);
    for (const c of this.cascadeList ?? []) {
      const shadow = c.light.shadow;
      if (!shadow.autoUpdate && !shadow.needsUpdate) shadow.updateMatrices(c.light);
    }
  }

  /** Number of shadow cascades (1 = the single fitted map). */
  get cascadeCount(): number {
    return this.cascadeList.length;
  }

  /** The shadow-casting lights, nearest cascade first (`cascadeLights[0]` is {@link light}). */
  get cascadeLights(): DirectionalLight[] {
    return this.cascadeList.map((c) => c.light);
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
    const n = Math.max(1, Math.min(4, Math.round(count)));
    while (this.cascadeList.length > n) {
      const c = this.cascadeList.pop()!;
      c.light.shadow.map?.dispose();
      c.light.dispose();
      this.remove(c.light, c.light.target);
    }
    while (this.cascadeList.length < n) {
      const light = new DirectionalLight(this.light.color, 0);
      light.name = `sun cascade ${this.cascadeList.length}`;
      light.castShadow = true;
      light.shadow.radius = this.light.shadow.radius;
      // Appended after the previous cascades: three keeps scene order among shadow-casting
      // lights, so directional shadow i is cascade i. The target moves with the floating origin.
      this.add(light, light.target);
      this.cascadeList.push({ light, mapScale: 1, radiusM: this.cascadeList[0].radiusM, distanceM: this.cascadeList[0].distanceM });
    }
    this.cascadeList.forEach((c, i) => {
      c.mapScale = this.cascadeMapScale?.[i] ?? (n > 1 && i === n - 1 ? 0.5 : 1);
      const size = Math.max(64, Math.round(this.baseMapSize * c.mapScale));
      if (c.light.shadow.mapSize.x !== size) {
        c.light.shadow.mapSize.set(size, size);
        c.light.shadow.map?.dispose();
        c.light.shadow.map = null;
      }
    });
    this.setDirection(this.direction);
    this.applyBias();
  }

  /** Every shadow map rendered again on the next fit (a restored WebGL context lost them). */
  invalidateShadows(): void {
    this.renderAllMaps = true;
  }

  /** Points the light and the disc towards `dir` (world, towards the sun; normalised here). */
  setDirection(dir: { x: number; y: number; z: number }): void {
    this.direction.set(dir.x, dir.y, dir.z).normalize();
    this.renderAllMaps = true;
    (this.disc.material.uniforms.uDirectionWorld.value as Vector3).copy(this.direction);
    for (const c of this.cascadeList) {
      c.light.position.copy(c.light.target.position).addScaledVector(this.direction, Math.max(c.distanceM, 1));
      c.light.updateMatrixWorld();
      c.light.target.updateMatrixWorld();
    }
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
    const r = Math.max(bounds.radius, 1e-6) * 1.02;
    const cached = castersVersion !== undefined;
    if (this.renderAllMaps || !cached) this.mapCache.clear();
    this.renderAllMaps = false;
    // A later fitCascades renders every map: the others are parked here.
    this.cascadesParked = true;
    this.staggerFrame++;
    this.splitsM.length = 0;
    this.fitMap(0, bounds.center, r, SHADOW_CASTER_REACH * r, castersVersion);
    // With several cascades the others are parked: a tiny map far off to the side, which no
    // fragment falls in and no caster reaches, so their passes draw nothing and the one fitted map
    // decides (a sun shared by an asteroid field and a planet keeps its cascade count, and so
    // its shader variants, whichever body the camera is at).
    if (this.cascadeList.length > 1) {
      scratchLightRotation.lookAt(this.direction, ORIGIN, Math.abs(this.direction.y) < 0.99 ? UP_Y : UP_X);
      const aside = scratchPark.set(1, 0, 0).applyMatrix4(scratchLightRotation).multiplyScalar(PARK_DISTANCE_M).add(bounds.center);
      for (let i = 1; i < this.cascadeList.length; i++) this.fitMap(i, aside, 1e-3, 0, castersVersion);
    }
    this.applyBias();
  }

  /** fitShadow's fit of map `i`: every frame by three, or (cached) only when its key changed. */
  private fitMap(i: number, center: Vector3, r: number, casterM: number, castersVersion: number | undefined): void {
    const c = this.cascadeList[i];
    c.light.shadow.autoUpdate = castersVersion === undefined;
    if (castersVersion !== undefined) {
      if (!this.mapCache.needsRender(i, this.fitKey(c, center, r, castersVersion), this.staggerFrame)) return;
      c.light.shadow.needsUpdate = true;
    }
    this.fitCascade(c, center, r, casterM);
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
    const n = this.cascadeCount;
    const nearM = Math.max(options.nearM ?? camera.near, 1e-3);
    const farM = Math.max(options.farM, nearM * 1.01);
    let splits: number[];
    if (options.splitsM && options.splitsM.length === n - 1) splits = [nearM, ...options.splitsM, farM];
    else splits = cascadeSplits(n, nearM, farM, options.lambda ?? 0.7);
    this.splitsM.length = 0;
    this.splitsM.push(...splits);

    camera.updateMatrixWorld();
    // Half-angle tangents from the projection matrix (covers zoom and aspect).
    const p = camera.projectionMatrix.elements;
    const tanX = 1 / p[0];
    const tanY = 1 / p[5];
    scratchForward.set(0, 0, -1).transformDirection(camera.matrixWorld);
    scratchCamera.setFromMatrixPosition(camera.matrixWorld);
    const parent: Object3D | null = this.parent;
    if (parent) {
      parent.updateWorldMatrix(true, false);
      scratchInverse.copy(parent.matrixWorld).invert();
      scratchCamera.applyMatrix4(scratchInverse);
      scratchForward.transformDirection(scratchInverse);
    }
    const casterM = Math.max(options.casterDepthM ?? farM, 0);
    const stagger = options.stagger === true && n > 2 && !this.renderAllMaps && !this.cascadesParked;
    const cached = options.castersVersion !== undefined;
    // A fit without a version re-fits maps the cache does not know about.
    if (this.renderAllMaps || this.cascadesParked || !cached) this.mapCache.clear();
    this.staggerFrame++;
    for (let i = 0; i < n; i++) {
      const shadow = this.cascadeList[i].light.shadow;
      // Staggered or cached: three renders a map only when asked (needsUpdate), and a skipped cascade keeps its fit.
      shadow.autoUpdate = options.stagger !== true && !cached;
      const now = !stagger || i === 0 || this.staggerFrame % (n - 1) === i - 1;
      if (!now) continue;
      const s = sliceSphere(splits[i], splits[i + 1], tanX, tanY);
      // Round the radius up to 1/8-octave steps: a farM that changes every frame (altitude)
      // then changes the texel size only now and then, not continuously (no shimmer).
      const r = Math.pow(2, Math.ceil(Math.log2(s.radiusM * 1.02) * 8) / 8);
      scratchCenter.copy(scratchCamera).addScaledVector(scratchForward, s.centerM);
      // Cached: the map already holds this fit's depths (an update asked for and not yet rendered stays asked for).
      if (cached && !this.mapCache.needsRender(i, this.fitKey(this.cascadeList[i], scratchCenter, r, options.castersVersion!), this.staggerFrame)) continue;
      shadow.needsUpdate = true;
      this.fitCascade(this.cascadeList[i], scratchCenter, r, casterM);
    }
    this.renderAllMaps = false;
    this.cascadesParked = false;
    this.applyBias();
  }

  /** What cascade `c`'s map around (center, r) would be rendered for (see CascadeFitKey). */
  private fitKey(c: Cascade, center: Vector3, r: number, casters: number): CascadeFitKey {
    const texelM = (2 * r) / c.light.shadow.mapSize.x;
    scratchLightRotation.lookAt(this.direction, ORIGIN, Math.abs(this.direction.y) < 0.99 ? UP_Y : UP_X);
    const p = scratchSnapped.copy(center).applyMatrix4(scratchRotationInverse.copy(scratchLightRotation).transpose());
    return { x: Math.round(p.x / texelM), y: Math.round(p.y / texelM), z: Math.round(p.z / (r / 8)), radiusM: r, casters };
  }

  /**
   * Fits one cascade's orthographic camera around a sphere (center in this Group's parent
   * space, radius r), its near plane `reachM` beyond the sphere towards the sun.
   */
  private fitCascade(c: Cascade, center: Vector3, r: number, reachM: number): void {
    const size = c.light.shadow.mapSize.x;
    const texelM = (2 * r) / size;
    // Snap the center in the light's view basis to whole texels.
    scratchLightRotation.lookAt(this.direction, ORIGIN, Math.abs(this.direction.y) < 0.99 ? UP_Y : UP_X);
    // A pure rotation: its inverse is its transpose.
    const inverse = scratchRotationInverse.copy(scratchLightRotation).transpose();
    const snapped = scratchSnapped.copy(center).applyMatrix4(inverse);
    snapped.x = Math.round(snapped.x / texelM) * texelM;
    snapped.y = Math.round(snapped.y / texelM) * texelM;
    snapped.applyMatrix4(scratchLightRotation);

    // fitShadow's range (light 2 r from the center, near 0.5 r, far 3.5 r: reach 0.5 r)
    // generalised to any reach towards the sun.
    const lightDistanceM = 1.5 * r + reachM;
    c.radiusM = r;
    c.distanceM = lightDistanceM;
    c.light.target.position.copy(snapped);
    c.light.position.copy(snapped).addScaledVector(this.direction, lightDistanceM);
    const cam = c.light.shadow.camera;
    cam.left = -r;
    cam.right = r;
    cam.top = r;
    cam.bottom = -r;
    cam.near = 0.5 * r;
    cam.far = lightDistanceM + 1.5 * r;
    cam.updateProjectionMatrix();
    c.light.updateMatrixWorld();
    c.light.target.updateMatrixWorld();
  }

  /**
   * Shadow quality, live (no reload): map size (texels), PCF radius (texels), bias and normal
   * bias (in texels of world size, see {@link SunOptions}).
   */
  setShadowQuality(q: { mapSize?: number; radius?: number; biasTexels?: number; normalBiasTexels?: number }): void {
    if (q.mapSize !== undefined && q.mapSize !== this.baseMapSize) {
      this.baseMapSize = q.mapSize;
      for (const c of this.cascadeList) {
        const size = Math.max(64, Math.round(q.mapSize * c.mapScale));
        c.light.shadow.mapSize.set(size, size);
        // three re-creates the map at the new size when it is missing.
        c.light.shadow.map?.dispose();
        c.light.shadow.map = null;
      }
    }
    for (const c of this.cascadeList) if (q.radius !== undefined) c.light.shadow.radius = q.radius;
    this.renderAllMaps = true;
    if (q.biasTexels !== undefined) this.biasTexels = q.biasTexels;
    if (q.normalBiasTexels !== undefined) this.normalBiasTexels = q.normalBiasTexels;
    this.applyBias();
  }

  /** World size of one shadow-map texel (m) for the current fit (cascade 0, the finest). */
  get shadowTexelM(): number {
    return this.cascadeTexelM(0);
  }

  /** World size of one texel (m) of cascade `i`'s map for the current fit. */
  cascadeTexelM(i: number): number {
    const c = this.cascadeList[i];
    return (2 * c.radiusM) / c.light.shadow.mapSize.x;
  }

  private applyBias(): void {
    this.cascadeList.forEach((c, i) => {
      const shadow = c.light.shadow;
      const texelM = this.cascadeTexelM(i);
      const depthRangeM = Math.max(shadow.camera.far - shadow.camera.near, 1e-9);
      shadow.bias = (this.biasTexels * texelM) / depthRangeM;
      shadow.normalBias = this.normalBiasTexels * texelM;
    });
  }

  /** Frees the disc's geometry and material and the shadow maps. */
  override dispose(): void {
    this.disc.geometry.dispose();
    this.disc.material.dispose();
    for (const c of this.cascadeList) {
      c.light.shadow.map?.dispose();
      c.light.dispose();
    }
  }
}

