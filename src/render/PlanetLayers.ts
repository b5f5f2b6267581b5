/**
 * A planet's analytic layers (issue 41): its sea (PlanetSea) and its cloud layer (PlanetClouds),
 * each a sphere around the planet's centre drawn per pixel by a screen-space proxy — no mesh, no
 * LOD, no tessellation: the view ray meets the sphere in the fragment shader, which writes the
 * hit's depth, so the ground mesh of any LOD cuts the sea exactly at its coastline and hides the
 * clouds behind mountains. docs/rendering.md ("Sea and clouds") says why and what it costs.
 *
 * Each frame `update` takes the unshifted world camera and the planet's centre and hands the
 * shaders float64-derived constants (src/render/planetLayerMath.ts); the proxies use no model
 * matrix, so the floating origin changes nothing. Add {@link PlanetLayers.root} to the scene (not
 * to the shifted world).
 */
import { Group, Mesh, PlaneGeometry, Vector3, type Color, type IUniform, type PerspectiveCamera, type ShaderMaterial, type WebGLRenderer } from 'three';
import type { CloudSpec, SeaSpec } from '../field/atmosphereMedium';
import type { Atmosphere } from './Atmosphere';
import { GpuResources, type Disposable } from './disposal';
import { PlanetClouds } from './PlanetClouds';
import { PlanetSea } from './PlanetSea';
import type { Vec3 } from './planetLayerMath';

export interface PlanetLayersOptions {
  /** The planet's seed (the waves' pattern). */
  seed: number;
  sea: SeaSpec | null;
  clouds: CloudSpec | null;
  /** The planet's air (its tables light and veil the layers); null: airless. */
  atmosphere: Atmosphere | null;
  /** About the lowest ground, metres from the centre: under the clouds, rays that reach it end there. */
  lowestGroundM: number;
  /** A software GPU: fewer noise octaves and march steps. */
  software?: boolean;
}

/** The uniforms every layer shares: the camera relative to the planet (set once a frame). */
export interface LayerCameraUniforms {
  uLayerUp: IUniform<Vector3>;
  uLayerCameraR: IUniform<number>;
  uLayerCamera: IUniform<Vector3>;
  uPixelAngle: IUniform<number>;
  uSunDir: IUniform<Vector3>;
  uSunLight: IUniform<Vector3>;
}

export class PlanetLayers implements Disposable {
  /** The layers' proxies (add to the scene; drawn after the opaque ground, in renderOrder). */
  readonly root = new Group();
  readonly sea: PlanetSea | null;
  readonly clouds: PlanetClouds | null;
  private readonly camera: LayerCameraUniforms = {
    uLayerUp: { value: new Vector3(0, 1, 0) },
    uLayerCameraR: { value: 1 },
    uLayerCamera: { value: new Vector3() },
    uPixelAngle: { value: 1e-3 },
    uSunDir: { value: new Vector3(0, 1, 0) },
    uSunLight: { value: new Vector3(1, 1, 1) },
  };
  private readonly cameraInBody: Vec3 = [0, 0, 0];
  /** The proxies' geometry, the sea and the clouds. */
  private readonly gpu = new GpuResources();
  private readonly geometry = this.gpu.own(new PlaneGeometry(2, 2));

  constructor(options: PlanetLayersOptions) {
    this.root.name = 'planet layers';
    this.sea = options.sea && this.gpu.own(new PlanetSea({ ...options, sea: options.sea, camera: this.camera }));
    const groundM = Math.max(options.lowestGroundM, options.sea?.radiusM ?? 0);
    this.clouds = options.clouds && this.gpu.own(new PlanetClouds({ ...options, clouds: options.clouds, groundRadiusM: groundM, camera: this.camera }));
    const proxy = (material: ShaderMaterial, renderOrder: number): Mesh => {
      const mesh = new Mesh(this.geometry, material);
      mesh.name = material.name;
      mesh.frustumCulled = false;
      mesh.renderOrder = renderOrder;
      // A screen proxy: nothing to pick or collide with.
      mesh.raycast = () => {};
      return mesh;
    };
    if (this.sea) {
      const water = proxy(this.sea.material, PlanetSea.RENDER_ORDER);
      // The fill goes with the water (hiding the sea hides both).
      water.add(proxy(this.sea.fill, PlanetSea.FILL_RENDER_ORDER));
      this.root.add(water);
    }
    if (this.clouds) this.root.add(proxy(this.clouds.material, PlanetClouds.RENDER_ORDER));
  }

  /** The drawn proxy of the sea or the clouds (tests hide one to compare). */
  mesh(which: 'sea' | 'clouds'): Mesh | null {
    const material = which === 'sea' ? this.sea?.material : this.clouds?.material;
    return (this.root.children as Mesh[]).find((m) => m.material === material) ?? null;
  }

  /**
   * Before each frame (`renderer` bakes the clouds' cover on first use): `camera` the unshifted world camera, `centerWorld` the planet's centre,
   * `heightPx` the drawing buffer's height, `timeS` the scene time (frozen with `t=`), the sun's
   * direction and light (colour × intensity).
   */
  update(renderer: WebGLRenderer, camera: PerspectiveCamera, centerWorld: Vector3, heightPx: number, timeS: number, sunDir: Vector3, sunLight: Color): void {
    const c = this.cameraInBody;
    c[0] = camera.position.x - centerWorld.x;
    c[1] = camera.position.y - centerWorld.y;
    c[2] = camera.position.z - centerWorld.z;
    const u = this.camera;
    const r = Math.hypot(c[0], c[1], c[2]);
    u.uLayerUp.value.set(c[0], c[1], c[2]).divideScalar(r > 0 ? r : 1);
    u.uLayerCameraR.value = r;
    u.uLayerCamera.value.set(c[0], c[1], c[2]);
    u.uPixelAngle.value = (2 * Math.tan((camera.fov * Math.PI) / 360)) / (Math.max(1, heightPx) * camera.zoom);
    u.uSunDir.value.copy(sunDir).normalize();
    u.uSunLight.value.set(sunLight.r, sunLight.g, sunLight.b);
    this.sea?.update(c, timeS);
    this.clouds?.update(renderer, c, timeS);
  }

  /** After a WebGL context restore: render targets lost their contents. */
  invalidate(): void {
    this.clouds?.cover.invalidate();
  }

  dispose(): void {
    this.root.removeFromParent();
    this.gpu.dispose();
  }
}
