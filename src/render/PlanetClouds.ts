/**
 * A planet's cloud layer (issue 41): the sphere at the layer's radius drawn per pixel
 * (glsl/clouds.frag.glsl) from a screen proxy that PlanetLayers owns: a seeded fractal cover on
 * the direction (its broad part baked once into a cube map: CloudCover), turned east about the
 * planet's axis by the drift (scene time: frozen with `t=`),
 * lit by the sun through the air, seen through the air in front of it, behind mountains where
 * they stand in front (depth test).
 */
import { CustomBlending, Matrix3, OneFactor, OneMinusSrcAlphaFactor, ShaderMaterial, Vector3, type IUniform, type WebGLRenderer } from 'three';
import type { CloudSpec } from '../field/atmosphereMedium';
import type { Atmosphere, CloudShadow } from './Atmosphere';
import { THREE_CHUNK_NAMES } from './BodyMaterial';
import { CLOUD_COVER_CHUNKS, COVER_ENCODE, CloudCover } from './CloudCover';
import { GpuResources, type Disposable } from './disposal';
import { glslWithIncludes } from './renderGlslChunks';
import type { LayerCameraUniforms } from './PlanetLayers';
import { cloudDriftAngleRad, cloudDriftMatrix, probit, sphereRay, type SphereRay, type Vec3 } from './planetLayerMath';
import atmosphereChunk from '../../glsl/sr_atmosphere.glsl?raw';
import layerChunk from '../../glsl/sr_layer.glsl?raw';
import proxyVertex from '../../glsl/layer_proxy.vert.glsl?raw';
import cloudsFragment from '../../glsl/clouds.frag.glsl?raw';

export interface PlanetCloudsOptions {
  clouds: CloudSpec;
  atmosphere: Atmosphere | null;
  camera: LayerCameraUniforms;
  /** The sphere under the layer that hides what is behind it (sea level, or the lowest ground), metres. */
  groundRadiusM: number;
  software?: boolean;
}

/**
 * The cover noise of glsl/clouds.frag.glsl (the warped fractal plus the systems' term) is about
 * normal with this standard deviation (0.247 over 40,000 directions, measured with a float64 copy
 * of the shader's noise); with the soft edge (COVER_EDGE wide) centred on its (1 − c) quantile,
 * the mean density over the sphere comes out ~0.85 c for c = 0.1–0.6.
 */
const COVER_SIGMA = 0.247;
/** Width of the noise band over which a cloud thickens from nothing to full (wide: soft, thin edges). */
const COVER_EDGE = 0.4;
/**
 * Share of the sun a full cloud keeps off the ground (× opacity × density², as the clouds' own
 * alpha): thick cumulus lets through roughly a fifth of the direct sun.
 */
const CLOUD_SHADOW = 0.8;

export class PlanetClouds implements Disposable {
  /** After the sky's passes (500, 501): the sky behind a cloud is already drawn and dims under it. */
  static readonly RENDER_ORDER = 510;
  readonly material: ShaderMaterial;
  private readonly ray: SphereRay = { up: [0, 1, 0], cameraR: 0, c: 0 };
  private readonly uniforms: Record<string, IUniform>;
  private readonly drift: number[] = new Array<number>(9);
  /** The broad part of the cover, baked on the first {@link update}. */
  readonly cover: CloudCover;
  /** The material and the cover. */
  private readonly gpu = new GpuResources();
  /** What the ground under this air needs for the layer's shadow (registered on the atmosphere). */
  private readonly shadow: CloudShadow | null = null;

  constructor(readonly options: PlanetCloudsOptions) {
    const { clouds, atmosphere } = options;
    // The seed moves the noise's domain (a few hundred lattice cells: float32 keeps the detail).
    const h = (k: number): number => ((Math.imul(clouds.seed ^ Math.imul(k, 0x85ebca6b), 0x9e3779b1) >>> 0) / 4294967296) * 512 - 256;
    const offset = new Vector3(h(1), h(2), h(3));
    const octaves = options.software ? 6 : 8;
    // 512² a face: 254 m texels on planet 4's layer (65 km), 8 MB with mips; a software GPU bakes 256².
    this.cover = this.gpu.own(new CloudCover({ radiusM: clouds.radiusM, featureM: clouds.featureM, offset, octaves, size: options.software ? 256 : 512 }));
    this.uniforms = {
      ...(atmosphere?.uniforms ?? {}),
      ...options.camera,
      uLayerBoundR: { value: clouds.radiusM },
      uCloudC: { value: 0 },
      uCloudGroundC: { value: 0 },
      uCloudR: { value: clouds.radiusM },
      uCloudDrift: { value: new Matrix3() },
      uCloudScale: { value: 1 / clouds.featureM },
      uCloudOffset: { value: offset },
      uCloudCover: { value: this.cover.texture },
      uCloudBaked: { value: this.cover.baked },
      uCloudTexelM: { value: this.cover.texelM },
      uCloudThreshold: { value: COVER_SIGMA * probit(1 - clouds.coverage) - COVER_EDGE / 2 },
      uCloudOpacity: { value: clouds.opacity },
      uCloudColour: { value: new Vector3(...clouds.colour) },
    };
    const defines: Record<string, string | number> = { SR_CLOUD_OCTAVES: octaves, SR_CLOUD_EDGE: COVER_EDGE.toFixed(3), SR_COVER_ENCODE: COVER_ENCODE.toFixed(3) };
    // The ground under this air takes the layer's shadow (atmosphereMaterial.ts): its materials are
    // patched after this (SceneBodies makes the layers before the planet).
    if (atmosphere) {
      const u = this.uniforms;
      this.shadow = {
        uniforms: {
          uCloudR: u.uCloudR, uCloudDrift: u.uCloudDrift, uCloudCover: u.uCloudCover, uCloudThreshold: u.uCloudThreshold,
          uCloudOpacity: u.uCloudOpacity, uCloudShadow: { value: CLOUD_SHADOW },
        },
        defines: { SR_CLOUD_EDGE: COVER_EDGE.toFixed(3), SR_COVER_ENCODE: COVER_ENCODE.toFixed(3) },
      };
      atmosphere.cloudShadow = this.shadow;
    }
    if (atmosphere) Object.assign(defines, { SR_LAYER_AIR: '', SR_LAYER_AERIAL_STEPS: atmosphere.steps.aerial });
    this.material = this.gpu.own(new ShaderMaterial({
      name: 'planet clouds',
      uniforms: this.uniforms,
      defines,
      vertexShader: proxyVertex,
      fragmentShader: glslWithIncludes(cloudsFragment, 'clouds.frag', { external: THREE_CHUNK_NAMES, chunks: { sr_atmosphere: atmosphereChunk, sr_layer: layerChunk, ...CLOUD_COVER_CHUNKS } }),
      transparent: true,
      depthTest: true,
      depthWrite: false,
      blending: CustomBlending,
      blendSrc: OneFactor,
      blendDst: OneMinusSrcAlphaFactor,
    }));
  }

  /** The camera in the planet's frame (float64), the scene time; bakes the cover on first use. */
  update(renderer: WebGLRenderer, cameraInBody: Readonly<Vec3>, timeS: number): void {
    this.cover.update(renderer);
    const { clouds, groundRadiusM } = this.options;
    this.uniforms.uCloudC.value = sphereRay(cameraInBody, clouds.radiusM, this.ray).c;
    this.uniforms.uCloudGroundC.value = sphereRay(cameraInBody, groundRadiusM, this.ray).c;
    cloudDriftMatrix(cloudDriftAngleRad(timeS, clouds.driftMps, clouds.radiusM), this.drift);
    (this.uniforms.uCloudDrift.value as Matrix3).fromArray(this.drift);
  }

  dispose(): void {
    const air = this.options.atmosphere;
    if (air && air.cloudShadow === this.shadow) air.cloudShadow = null;
    this.gpu.dispose();
  }
}
