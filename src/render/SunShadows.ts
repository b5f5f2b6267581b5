/**
 * The sun's shadow maps: one PCF map fitted around given bounds ({@link SunShadows.fitShadow}), or
 * up to four cascades over the view ({@link SunShadows.fitCascades}), with texel snapping, staggered
 * and cached re-renders, and biases kept in texels of world size. The arithmetic is in
 * cascadeFit.ts (tested in Node); this class applies it to three's lights. {@link Sun} owns one and
 * draws the disc; its lights are children of the Sun group.
 */
import { DirectionalLight, Matrix4, Vector3, type Object3D, type PerspectiveCamera, type Sphere } from 'three';
import {
  CascadeMapCache,
  cascadeDepthRange,
  cascadeDue,
  cascadeMapScale,
  cascadeMapSize,
  cascadeRadiusM,
  cascadeSplits,
  shadowBias,
  sliceSphere,
  snapToTexel,
  type CascadeFitKey,
} from './cascadeFit';
import type { Disposable } from './disposal';

/** Shadow options of {@link Sun} (SunOptions extends these). */
export interface SunShadowOptions {
  /** Shadow map size (square, texels); default 2048. */
  shadowMapSize?: number;
  /** PCF kernel radius in texels (three's `shadow.radius`); default 2.5. */
  shadowRadius?: number;
  /**
   * Depth bias in shadow-map texels of world size (converted to three's normalised `bias` by
   * {@link SunShadows.fitShadow}); negative pushes the comparison away from the light. Default −1.
   */
  shadowBiasTexels?: number;
  /** Normal offset in shadow-map texels of world size (three's `normalBias`); default 1.5. */
  shadowNormalBiasTexels?: number;
  /**
   * Map size of each cascade relative to `shadowMapSize`; default 1 for every cascade but the
   * last of several, which gets 0.5 (3 cascades at 2048: 2048, 2048, 1024).
   */
  cascadeMapScale?: number[];
}

/** Options of {@link SunShadows.fitCascades}. Distances are view distances along the camera's axis (m). */
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
/** How far aside (perpendicular to the sun) {@link SunShadows.fitShadow} parks unused cascades, metres. */
const PARK_DISTANCE_M = 1e9;

/**
 * How far beyond {@link SunShadows.fitShadow}'s sphere, towards the sun, its light camera reaches for
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

/** The sun's light rotation: its view basis looking along −direction. */
function lightRotation(direction: Vector3): Matrix4 {
  return scratchLightRotation.lookAt(direction, ORIGIN, Math.abs(direction.y) < 0.99 ? UP_Y : UP_X);
}

/**
 * The shadow maps of one sun. `owner` (the Sun group) holds the lights; `direction` is the sun's
 * unit direction, read at each fit (call {@link aim} after changing it).
 */
export class SunShadows implements Disposable {
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

  /** `light` is the sun's own light (cascade 0), already a child of `owner`. */
  constructor(
    private readonly owner: Object3D,
    private readonly direction: Vector3,
    light: DirectionalLight,
    options: SunShadowOptions = {},
  ) {
    light.castShadow = true;
    this.baseMapSize = options.shadowMapSize ?? 2048;
    this.cascadeMapScale = options.cascadeMapScale;
    light.shadow.mapSize.set(this.baseMapSize, this.baseMapSize);
    light.shadow.radius = options.shadowRadius ?? 2.5;
    this.biasTexels = options.shadowBiasTexels ?? -1;
    this.normalBiasTexels = options.shadowNormalBiasTexels ?? 1.5;
    this.cascadeList.push({ light, mapScale: 1, radiusM: 1, distanceM: 2 });
  }

  /**
   * After the owner's matrices: a cascade whose map is not re-rendered this frame (staggered) still
   * needs its lookup matrix in this frame's floating-origin shift — three recomputes it only when it
   * renders the map, and the map itself does not depend on the shift (light and casters moved together).
   */
  updateLookups(): void {
    for (const c of this.cascadeList) {
      const shadow = c.light.shadow;
      if (!shadow.autoUpdate && !shadow.needsUpdate) shadow.updateMatrices(c.light);
    }
  }

  /** Number of shadow cascades (1 = the single fitted map). */
  get cascadeCount(): number {
    return this.cascadeList.length;
  }

  /** The shadow-casting lights, nearest cascade first (`cascadeLights[0]` is the sun's light). */
  get cascadeLights(): DirectionalLight[] {
    return this.cascadeList.map((c) => c.light);
  }

  /** Sets the number of cascades (1–4); see Sun.setCascadeCount. */
  setCascadeCount(count: number): void {
    const n = Math.max(1, Math.min(4, Math.round(count)));
    const first = this.cascadeList[0].light;
    while (this.cascadeList.length > n) {
      const c = this.cascadeList.pop()!;
      c.light.shadow.map?.dispose();
      c.light.dispose();
      this.owner.remove(c.light, c.light.target);
    }
    while (this.cascadeList.length < n) {
      const light = new DirectionalLight(first.color, 0);
      light.name = `sun cascade ${this.cascadeList.length}`;
      light.castShadow = true;
      light.shadow.radius = first.shadow.radius;
      // Appended after the previous cascades: three keeps scene order among shadow-casting
      // lights, so directional shadow i is cascade i. The target moves with the floating origin.
      this.owner.add(light, light.target);
      this.cascadeList.push({ light, mapScale: 1, radiusM: this.cascadeList[0].radiusM, distanceM: this.cascadeList[0].distanceM });
    }
    this.cascadeList.forEach((c, i) => {
      c.mapScale = cascadeMapScale(i, n, this.cascadeMapScale);
      const size = cascadeMapSize(this.baseMapSize, c.mapScale);
      if (c.light.shadow.mapSize.x !== size) {
        c.light.shadow.mapSize.set(size, size);
        c.light.shadow.map?.dispose();
        c.light.shadow.map = null;
      }
    });
    this.aim();
    this.applyBias();
  }

  /** Every shadow map rendered again on the next fit (a restored WebGL context lost them). */
  invalidate(): void {
    this.renderAllMaps = true;
  }

  /** Points every cascade's light along the (new) direction; every map renders again. */
  aim(): void {
    this.renderAllMaps = true;
    for (const c of this.cascadeList) {
      c.light.position.copy(c.light.target.position).addScaledVector(this.direction, Math.max(c.distanceM, 1));
      c.light.updateMatrixWorld();
      c.light.target.updateMatrixWorld();
    }
  }

  /** See Sun.fitShadow. */
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
      const aside = scratchPark.set(1, 0, 0).applyMatrix4(lightRotation(this.direction)).multiplyScalar(PARK_DISTANCE_M).add(bounds.center);
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

  /** See Sun.fitCascades. */
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
    // The lights live in the owner's parent space (the world, shifted only while drawing).
    const parent: Object3D | null = this.owner.parent;
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
      if (!cascadeDue(i, n, this.staggerFrame, stagger)) continue;
      const s = sliceSphere(splits[i], splits[i + 1], tanX, tanY);
      const r = cascadeRadiusM(s.radiusM);
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
    const rotation = lightRotation(this.direction);
    const p = scratchSnapped.copy(center).applyMatrix4(scratchRotationInverse.copy(rotation).transpose());
    return { x: Math.round(p.x / texelM), y: Math.round(p.y / texelM), z: Math.round(p.z / (r / 8)), radiusM: r, casters };
  }

  /**
   * Fits one cascade's orthographic camera around a sphere (center in the owner's parent
   * space, radius r), its near plane `reachM` beyond the sphere towards the sun.
   */
  private fitCascade(c: Cascade, center: Vector3, r: number, reachM: number): void {
    const size = c.light.shadow.mapSize.x;
    const texelM = (2 * r) / size;
    // Snap the center in the light's view basis to whole texels.
    const rotation = lightRotation(this.direction);
    // A pure rotation: its inverse is its transpose.
    const inverse = scratchRotationInverse.copy(rotation).transpose();
    const snapped = scratchSnapped.copy(center).applyMatrix4(inverse);
    snapped.x = snapToTexel(snapped.x, texelM);
    snapped.y = snapToTexel(snapped.y, texelM);
    snapped.applyMatrix4(rotation);

    const range = cascadeDepthRange(r, reachM);
    c.radiusM = r;
    c.distanceM = range.lightDistanceM;
    c.light.target.position.copy(snapped);
    c.light.position.copy(snapped).addScaledVector(this.direction, range.lightDistanceM);
    const cam = c.light.shadow.camera;
    cam.left = -r;
    cam.right = r;
    cam.top = r;
    cam.bottom = -r;
    cam.near = range.nearM;
    cam.far = range.farM;
    cam.updateProjectionMatrix();
    c.light.updateMatrixWorld();
    c.light.target.updateMatrixWorld();
  }

  /** See Sun.setShadowQuality. */
  setQuality(q: { mapSize?: number; radius?: number; biasTexels?: number; normalBiasTexels?: number }): void {
    if (q.mapSize !== undefined && q.mapSize !== this.baseMapSize) {
      this.baseMapSize = q.mapSize;
      for (const c of this.cascadeList) {
        const size = cascadeMapSize(q.mapSize, c.mapScale);
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

  /** World size of one texel (m) of cascade `i`'s map for the current fit. */
  cascadeTexelM(i: number): number {
    const c = this.cascadeList[i];
    return (2 * c.radiusM) / c.light.shadow.mapSize.x;
  }

  /** Rescales every cascade's bias and normal bias to its current texel size and depth range. */
  applyBias(): void {
    this.cascadeList.forEach((c, i) => {
      const shadow = c.light.shadow;
      const b = shadowBias(this.biasTexels, this.normalBiasTexels, this.cascadeTexelM(i), shadow.camera.far - shadow.camera.near);
      shadow.bias = b.bias;
      shadow.normalBias = b.normalBias;
    });
  }

  /** Frees the shadow maps and the lights' shadows (the lights stay children of the owner). */
  dispose(): void {
    for (const c of this.cascadeList) {
      c.light.shadow.map?.dispose();
      c.light.dispose();
    }
  }
}
