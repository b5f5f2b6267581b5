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
  type Sphere,
} from 'three';
import { glslWithIncludes } from '../field/glslChunks';
import { THREE_CHUNK_NAMES } from './BodyMaterial';
import vertexShader from '../../glsl/sun.vert.glsl?raw';
import fragmentShader from '../../glsl/sun.frag.glsl?raw';

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
}

const DEFAULT_DIRECTION: [number, number, number] = [-0.55, 0.6, 0.58];
const UP_Y = new Vector3(0, 1, 0);
const UP_X = new Vector3(1, 0, 0);
const ORIGIN = new Vector3();
const scratchLightRotation = new Matrix4();
const scratchInverse = new Matrix4();
const scratchCentre = new Vector3();

/**
 * The sun: a `DirectionalLight` with a PCF shadow map whose orthographic camera is fitted
 * around given bounds ({@link fitShadow}), and a visible disc with an analytic glow drawn at
 * infinity in the light's direction (additive, HDR, depth-tested so bodies hide it).
 *
 * Add `sun` (a Group holding the light, its target and the disc) to the scene. Requires
 * `renderer.shadowMap.enabled = true` and `renderer.shadowMap.type = PCFShadowMap` for shadows.
 */
export class Sun extends Group {
  readonly light: DirectionalLight;
  readonly disc: Mesh<PlaneGeometry, ShaderMaterial>;
  /** Unit world direction towards the sun. */
  readonly direction = new Vector3();
  private biasTexels: number;
  private normalBiasTexels: number;
  private fitRadiusM = 1;

  constructor(options: SunOptions = {}) {
    super();
    this.name = 'sun';
    this.light = new DirectionalLight(options.color ?? 0xfff2e0, options.intensity ?? 3);
    this.light.name = 'sun light';
    this.light.castShadow = true;
    const size = options.shadowMapSize ?? 2048;
    this.light.shadow.mapSize.set(size, size);
    this.light.shadow.radius = options.shadowRadius ?? 2.5;
    this.biasTexels = options.shadowBiasTexels ?? -1;
    this.normalBiasTexels = options.shadowNormalBiasTexels ?? 1.5;
    this.add(this.light, this.light.target);

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

    this.setDirection(new Vector3(...(options.direction ?? DEFAULT_DIRECTION)));
    this.applyBias();
  }

  /** Points the light and the disc towards `dir` (world, towards the sun; normalised here). */
  setDirection(dir: { x: number; y: number; z: number }): void {
    this.direction.set(dir.x, dir.y, dir.z).normalize();
    (this.disc.material.uniforms.uDirectionWorld.value as Vector3).copy(this.direction);
    const target = this.light.target.position;
    this.light.position.copy(target).addScaledVector(this.direction, Math.max(2 * this.fitRadiusM, 1));
    this.light.updateMatrixWorld();
    this.light.target.updateMatrixWorld();
  }

  /**
   * Fits the orthographic shadow camera around a world-space sphere (in this Group's parent
   * space: camera-relative if the scene is) so no shadow-map resolution is wasted. The centre
   * is snapped to whole shadow texels in light space so shadows do not crawl as the bounds
   * move; bias and normal bias are rescaled to the new texel size.
   */
  fitShadow(bounds: Sphere): void {
    const r = Math.max(bounds.radius, 1e-6) * 1.02;
    this.fitRadiusM = r;
    const size = this.light.shadow.mapSize.x;
    const texelM = (2 * r) / size;
    // Snap the centre in the light's view basis to whole texels.
    scratchLightRotation.lookAt(this.direction, ORIGIN, Math.abs(this.direction.y) < 0.99 ? UP_Y : UP_X);
    // A pure rotation: its inverse is its transpose.
    scratchInverse.copy(scratchLightRotation).transpose();
    scratchCentre.copy(bounds.center).applyMatrix4(scratchInverse);
    scratchCentre.x = Math.round(scratchCentre.x / texelM) * texelM;
    scratchCentre.y = Math.round(scratchCentre.y / texelM) * texelM;
    scratchCentre.applyMatrix4(scratchLightRotation);

    this.light.target.position.copy(scratchCentre);
    this.light.position.copy(scratchCentre).addScaledVector(this.direction, 2 * r);
    const cam = this.light.shadow.camera;
    cam.left = -r;
    cam.right = r;
    cam.top = r;
    cam.bottom = -r;
    cam.near = 0.5 * r;
    cam.far = 3.5 * r;
    cam.updateProjectionMatrix();
    this.light.updateMatrixWorld();
    this.light.target.updateMatrixWorld();
    this.applyBias();
  }

  /**
   * Shadow quality, live (no reload): map size (texels), PCF radius (texels), bias and normal
   * bias (in texels of world size, see {@link SunOptions}).
   */
  setShadowQuality(q: { mapSize?: number; radius?: number; biasTexels?: number; normalBiasTexels?: number }): void {
    const shadow = this.light.shadow;
    if (q.mapSize !== undefined && q.mapSize !== shadow.mapSize.x) {
      shadow.mapSize.set(q.mapSize, q.mapSize);
      // three re-creates the map at the new size when it is missing.
      shadow.map?.dispose();
      shadow.map = null;
    }
    if (q.radius !== undefined) shadow.radius = q.radius;
    if (q.biasTexels !== undefined) this.biasTexels = q.biasTexels;
    if (q.normalBiasTexels !== undefined) this.normalBiasTexels = q.normalBiasTexels;
    this.applyBias();
  }

  /** World size of one shadow-map texel (m) for the current fit. */
  get shadowTexelM(): number {
    return (2 * this.fitRadiusM) / this.light.shadow.mapSize.x;
  }

  private applyBias(): void {
    const shadow = this.light.shadow;
    const texelM = this.shadowTexelM;
    const depthRangeM = Math.max(shadow.camera.far - shadow.camera.near, 1e-9);
    shadow.bias = (this.biasTexels * texelM) / depthRangeM;
    shadow.normalBias = this.normalBiasTexels * texelM;
  }

  /** Frees the disc's geometry and material and the shadow map. */
  override dispose(): void {
    this.disc.geometry.dispose();
    this.disc.material.dispose();
    this.light.shadow.map?.dispose();
    this.light.dispose();
  }
}

