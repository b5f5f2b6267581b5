/**
 * A planet's sea (issue 41): the sphere of sea level drawn per pixel over the ground
 * (glsl/sea.frag.glsl), from a screen proxy that PlanetLayers owns. What the water shows: the
 * Fresnel-weighted reflection of the planet's sky (the atmosphere's sky-view table inside the air,
 * marched from space), the sun's glint on waves that fade into roughness below a pixel, the ground
 * under it through the rest (the body worker tints drowned ground by its depth), and aerial
 * perspective on what it adds.
 */
import { CustomBlending, EqualDepth, NoBlending, OneFactor, OneMinusSrcAlphaFactor, ShaderMaterial, Vector3, type IUniform } from 'three';
import type { SeaSpec } from '../field/atmosphereMedium';
import type { Atmosphere } from './Atmosphere';
import { THREE_CHUNK_NAMES } from './BodyMaterial';
import type { Disposable } from './disposal';
import { glslWithIncludes } from './renderGlslChunks';
import type { LayerCameraUniforms } from './PlanetLayers';
import { seaWaves, sphereRay, wavePhaseRad, WAVE_PERIOD_M, type SeaWave, type SphereRay, type Vec3 } from './planetLayerMath';
import atmosphereChunk from '../../glsl/sr_atmosphere.glsl?raw';
import layerChunk from '../../glsl/sr_layer.glsl?raw';
import proxyVertex from '../../glsl/layer_proxy.vert.glsl?raw';
import seaFragment from '../../glsl/sea.frag.glsl?raw';

export interface PlanetSeaOptions {
  sea: SeaSpec;
  seed: number;
  atmosphere: Atmosphere | null;
  camera: LayerCameraUniforms;
  software?: boolean;
  /** Share of the ground the water's own colour hides (default 0: the ground's depth tint shows the depth). */
  veil?: number;
}

const WAVES = 36;

export class PlanetSea implements Disposable {
  /** After the opaque ground, before the sky's passes (500, 501) and the clouds. */
  static readonly RENDER_ORDER = 400;
  /** Just before the water: {@link PlanetSea.fill}. */
  static readonly FILL_RENDER_ORDER = 399;
  readonly material: ShaderMaterial;
  /**
   * The water's own colour where nothing is behind the water (no ground: the view ray passes over
   * the sea floor's horizon), for the water pass to show through instead of space.
   */
  readonly fill: ShaderMaterial;
  private readonly ray: SphereRay = { up: [0, 1, 0], cameraR: 0, c: 0 };
  private readonly waves: SeaWave[];
  private readonly waveData: Float32Array;
  private readonly uniforms: Record<string, IUniform>;

  constructor(readonly options: PlanetSeaOptions) {
    const { sea, atmosphere } = options;
    // Shortest first (the shader walks them longest first and stops at the first it cannot resolve).
    this.waves = seaWaves(options.seed, WAVES).sort((a, b) => a.lengthM - b.lengthM);
    this.waveData = new Float32Array(4 * WAVES);
    this.waves.forEach((w, i) => this.waveData.set(w.k, 4 * i));
    this.uniforms = {
      ...(atmosphere?.uniforms ?? {}),
      ...options.camera,
      uLayerBoundR: { value: sea.radiusM },
      uSeaC: { value: 0 },
      uSeaR: { value: sea.radiusM },
      uSeaCameraLow: { value: new Vector3() },
      uWaves: { value: this.waveData },
      uWaveSlope: { value: this.waves[0].slope },
      uSeaDeep: { value: new Vector3(...sea.deep) },
      uSeaVeil: { value: options.veil ?? 0 },
    };
    const defines: Record<string, string | number> = { SR_SEA_WAVES: WAVES };
    if (atmosphere) Object.assign(defines, { SR_LAYER_AIR: '', SR_SEA_SKY_STEPS: options.software ? 3 : 5, SR_LAYER_AERIAL_STEPS: atmosphere.steps.aerial });
    const fragmentShader = glslWithIncludes(seaFragment, 'sea.frag', { external: THREE_CHUNK_NAMES, chunks: { sr_atmosphere: atmosphereChunk, sr_layer: layerChunk } });
    this.material = new ShaderMaterial({
      name: 'planet sea',
      uniforms: this.uniforms,
      defines,
      vertexShader: proxyVertex,
      fragmentShader,
      transparent: true,
      depthTest: true,
      depthWrite: true,
      blending: CustomBlending,
      blendSrc: OneFactor,
      blendDst: OneMinusSrcAlphaFactor,
    });
    // Opaque, on the cleared depth only (nothing drawn behind the water yet): see SR_SEA_FILL.
    this.fill = new ShaderMaterial({
      name: 'planet sea fill',
      uniforms: this.uniforms,
      defines: { ...defines, SR_SEA_FILL: '' },
      vertexShader: proxyVertex,
      fragmentShader,
      transparent: true,
      depthTest: true,
      depthWrite: false,
      depthFunc: EqualDepth,
      blending: NoBlending,
    });
  }

  /** The camera in the planet's frame (float64), the scene time. */
  update(cameraInBody: Readonly<Vec3>, timeS: number): void {
    const s = sphereRay(cameraInBody, this.options.sea.radiusM, this.ray);
    this.uniforms.uSeaC.value = s.c;
    // The camera's offset from the waves' grid: the grid point's part is whole turns of every wave.
    (this.uniforms.uSeaCameraLow.value as Vector3).set(
      cameraInBody[0] - Math.round(cameraInBody[0] / WAVE_PERIOD_M) * WAVE_PERIOD_M,
      cameraInBody[1] - Math.round(cameraInBody[1] / WAVE_PERIOD_M) * WAVE_PERIOD_M,
      cameraInBody[2] - Math.round(cameraInBody[2] / WAVE_PERIOD_M) * WAVE_PERIOD_M,
    );
    for (let i = 0; i < this.waves.length; i++) this.waveData[4 * i + 3] = wavePhaseRad(this.waves[i], timeS);
  }

  /** Frees the materials (the proxy's geometry is its layers'). */
  dispose(): void {
    this.material.dispose();
    this.fill.dispose();
  }
}
