/**
 * A planet's atmosphere on the GPU (issue 20), after Hillaire 2020: look-up tables rendered to
 * textures, and the sky drawn from them.
 *
 * - Transmittance (256 × 64) and multiple scattering (32 × 32): once per planet (and after a lost
 *   context), they depend only on the medium (src/scene/planetAtmosphere.ts).
 * - Sky view (192 × 108; 96 × 54 on a software GPU): the sky's light from the camera's radius, in
 *   a frame of the camera's zenith and the sun's azimuth. It depends on two numbers, the camera's
 *   radius and the sun's zenith angle: rendered again only when one of them moves.
 * - The sky (`sky`, two screen passes drawn after the bodies where none is): the background
 *   multiplied by the view ray's transmittance, then the air's light added — from the sky-view
 *   table inside the atmosphere, marched per pixel from space (the limb seen from orbit).
 * - Aerial perspective (32 × 32 directions × 32 distances; 16³ on a software GPU): the air's light
 *   and transmittance between the camera and every distance, in the sky view's frame, rendered
 *   with it. Inside the atmosphere the planet's materials look their vertices up in it (4 fetches);
 *   from space they march their own rays (glsl/sr_aerial.glsl).
 * - The planet's own surface gets the sun through the air and aerial perspective from its
 *   materials (src/render/atmosphereMaterial.ts, glsl/sr_aerial.glsl), with these uniforms.
 *
 * Positions: `update` takes the unshifted world camera and planet centre and hands the shaders
 * the camera relative to the planet (float32 holds metres there); the view direction is the
 * render camera's, so the floating origin changes nothing.
 */
import {
  AddEquation,
  Color,
  CustomBlending,
  Group,
  HalfFloatType,
  LinearFilter,
  Mesh,
  PlaneGeometry,
  RGBAFormat,
  ShaderMaterial,
  SrcColorFactor,
  Vector2,
  Vector3,
  Vector4,
  WebGLRenderTarget,
  ZeroFactor,
  AdditiveBlending,
  type IUniform,
  type WebGLRenderer,
} from 'three';
import { transmittanceToTop, type AtmosphereSpec } from '../field/atmosphereMedium';
import { GpuResources, type Disposable } from './disposal';
import { FullscreenQuad } from './fullscreenQuad';
import { glslWithIncludes } from './renderGlslChunks';
import { THREE_CHUNK_NAMES } from './BodyMaterial';
import atmosphereChunk from '../../glsl/sr_atmosphere.glsl?raw';
import lutVertex from '../../glsl/atmo_lut.vert.glsl?raw';
import transmittanceFragment from '../../glsl/atmo_transmittance.frag.glsl?raw';
import multiFragment from '../../glsl/atmo_multiscattering.frag.glsl?raw';
import skyViewFragment from '../../glsl/atmo_skyview.frag.glsl?raw';
import aerialFragment from '../../glsl/atmo_aerial.frag.glsl?raw';
import skyVertex from '../../glsl/atmo_sky.vert.glsl?raw';
import skyFragment from '../../glsl/atmo_sky.frag.glsl?raw';

export interface AtmosphereOptions {
  /** A software GPU: a smaller sky-view table and fewer steps. */
  software?: boolean;
}

/** Samples along a view ray: sky-view texels, the sky from space, the surface's aerial perspective. */
export interface AtmosphereSteps {
  skyView: number;
  space: number;
  /** Per vertex, from space. */
  aerial: number;
  /** Per texel of the aerial-perspective table (inside the atmosphere). */
  aerialTable: number;
}

const GPU_STEPS: AtmosphereSteps = { skyView: 30, space: 24, aerial: 10, aerialTable: 16 };
const SOFTWARE_STEPS: AtmosphereSteps = { skyView: 16, space: 12, aerial: 6, aerialTable: 8 };
/** Aerial-perspective table: directions (u azimuth, v zenith) × distance slices. */
const AERIAL_SIZE: [number, number, number] = [32, 32, 32];
const AERIAL_SIZE_SOFTWARE: [number, number, number] = [16, 16, 16];
/**
 * Sky view re-rendered when the camera's radius moves this share of a scale height (or of its
 * height over the bottom, if less: the horizon's dip changes fastest near the ground), μ_s this
 * much, or the sun's light changes.
 */
const SKY_VIEW_MOVE_H = 0.01;
const SKY_VIEW_MOVE_ALTITUDE = 0.02;
const SKY_VIEW_MOVE_MU = 0.002;

/** What the surface needs to darken under the clouds (glsl/sr_cloud_shadow.glsl). */
export interface CloudShadow {
  /** The clouds' own uniform objects (one update serves every material). */
  uniforms: Record<string, IUniform>;
  /** Numbers the chunk needs as defines (the cover's encoding, the edge's width). */
  defines: Record<string, string>;
}

export class Atmosphere implements Disposable {
  /** The two sky passes (add to the scene: drawn after bodies and the sun's disc). */
  readonly sky = new Group();
  /** Shared by every material that draws this atmosphere (the sky passes, the planet's surface). */
  readonly uniforms: Record<string, IUniform>;
  /**
   * The cloud layer under this air, set by PlanetClouds: the surface materials patched after it
   * (atmosphereMaterial.ts) take its shadow. Null: no clouds.
   */
  cloudShadow: CloudShadow | null = null;
  readonly steps: AtmosphereSteps;
  /** Look-up tables rendered (the transmittance and multiple-scattering pair; sky views). */
  tableRenders = 0;
  skyViewRenders = 0;
  /**
   * Inside the atmosphere the surface reads aerial perspective from the table (default), else it
   * marches per vertex as from space: the reference the table is tested against.
   */
  aerialTable = true;
  private readonly transmittance: WebGLRenderTarget;
  private readonly aerialL: WebGLRenderTarget;
  private readonly aerialT: WebGLRenderTarget;
  private readonly multi: WebGLRenderTarget;
  private readonly skyView: WebGLRenderTarget;
  private readonly lutPass: FullscreenQuad;
  /** The tables, the passes' and the sky's materials, the two quads. */
  private readonly gpu = new GpuResources();
  private readonly passes: {
    transmittance: ShaderMaterial; multi: ShaderMaterial; skyView: ShaderMaterial; aerialL: ShaderMaterial; aerialT: ShaderMaterial;
  };
  private tablesFor: WebGLRenderer | null = null;
  private readonly skyViewAt = new Vector2(NaN, NaN);
  private readonly skyViewSunLocal = new Vector3();
  private readonly skyViewLight = new Vector3(-1, -1, -1);
  private readonly skyViewUniforms: Record<string, IUniform>;

  constructor(readonly spec: AtmosphereSpec, options: AtmosphereOptions = {}) {
    this.steps = options.software ? SOFTWARE_STEPS : GPU_STEPS;
    const target = (w: number, h: number): WebGLRenderTarget => this.gpu.own(new WebGLRenderTarget(w, h, {
      // Half float: linear filtering of it is core in WebGL2 (float needs OES_texture_float_linear).
      type: HalfFloatType, format: RGBAFormat, minFilter: LinearFilter, magFilter: LinearFilter,
      depthBuffer: false, generateMipmaps: false,
    }));
    this.transmittance = target(256, 64);
    this.multi = target(32, 32);
    const skySize = options.software ? [96, 54] : [192, 108];
    this.skyView = target(skySize[0], skySize[1]);
    const aerialSize = options.software ? AERIAL_SIZE_SOFTWARE : AERIAL_SIZE;
    this.aerialL = target(aerialSize[0] * aerialSize[2], aerialSize[1]);
    this.aerialT = target(aerialSize[0] * aerialSize[2], aerialSize[1]);
    this.uniforms = {
      uAtmoBottom: { value: spec.bottomRadiusM },
      uAtmoTop: { value: spec.topRadiusM },
      uAtmoRayleigh: { value: new Vector3(...spec.rayleighScattering) },
      uAtmoRayleighH: { value: spec.rayleighScaleHeightM },
      uAtmoMieScattering: { value: new Vector3(...spec.mieScattering) },
      uAtmoMieExtinction: { value: new Vector3(...spec.mieScattering.map((s, i) => s + spec.mieAbsorption[i])) },
      uAtmoMieH: { value: spec.mieScaleHeightM },
      uAtmoMieG: { value: spec.mieG },
      uAtmoAbsorption: { value: new Vector3(...spec.absorption) },
      uAtmoAbsCenter: { value: spec.absorptionCenterM },
      uAtmoAbsHalfWidth: { value: spec.absorptionHalfWidthM },
      uAtmoGroundAlbedo: { value: new Vector3(...spec.groundAlbedo) },
      uAtmoSunDir: { value: new Vector3(0, 1, 0) },
      uAtmoSunIlluminance: { value: new Vector3(1, 1, 1) },
      uAtmoTransmittance: { value: this.transmittance.texture },
      uAtmoMultiScattering: { value: this.multi.texture },
      uAtmoSkyView: { value: this.skyView.texture },
      uAtmoAerialL: { value: this.aerialL.texture },
      uAtmoAerialT: { value: this.aerialT.texture },
      uAtmoAerialSize: { value: new Vector3(...aerialSize) },
      uAtmoAerialMaxM: { value: 1 },
      // 1 while the table holds the camera's radius and the sun's zenith (inside the atmosphere).
      uAtmoAerialValid: { value: 0 },
      uAtmoCamera: { value: new Vector3(0, spec.topRadiusM * 2, 0) },
      // The eye's part of the aerial table's coordinates (glsl/sr_aerial.glsl), set by update.
      uAerialEyeUp: { value: new Vector3(0, 1, 0) },
      uAerialEyeSun: { value: new Vector4() },
      uAerialEyeHorizon: { value: new Vector2() },
      uAtmoSkyValid: { value: 0 },
      uAtmoOn: { value: 1 },
      uAtmoSkyBounded: { value: 1 },
      uSkyViewSize: { value: new Vector2(skySize[0], skySize[1]) },
      uSpaceSteps: { value: this.steps.space },
    };
    // The sky-view pass sees the sun in its own frame (see atmo_skyview.frag.glsl).
    this.skyViewUniforms = {
      ...this.uniforms,
      uAtmoSunDir: { value: this.skyViewSunLocal },
      uSkyCameraR: { value: spec.topRadiusM },
      uSkySteps: { value: this.steps.skyView },
    };
    // The aerial table shares the sky view's frame and radius (the same uniform objects).
    const aerialUniforms = {
      ...this.skyViewUniforms,
      uAerialSize: this.uniforms.uAtmoAerialSize,
      uAerialMaxM: this.uniforms.uAtmoAerialMaxM,
      uAerialSteps: { value: this.steps.aerialTable },
    };
    this.passes = {
      transmittance: this.lutMaterial('atmosphere transmittance', transmittanceFragment, this.uniforms),
      multi: this.lutMaterial('atmosphere multiple scattering', multiFragment, this.uniforms),
      skyView: this.lutMaterial('atmosphere sky view', skyViewFragment, this.skyViewUniforms),
      aerialL: this.lutMaterial('atmosphere aerial light', aerialFragment, aerialUniforms),
      aerialT: this.lutMaterial('atmosphere aerial transmittance', aerialFragment, aerialUniforms, { SR_AERIAL_T: '' }),
    };
    this.lutPass = new FullscreenQuad(this.gpu, this.passes.transmittance);

    const transmit = this.skyMaterial('atmosphere sky transmittance', true);
    transmit.blending = CustomBlending;
    transmit.blendEquation = AddEquation;
    transmit.blendSrc = ZeroFactor;
    transmit.blendDst = SrcColorFactor;
    const inscatter = this.skyMaterial('atmosphere sky light', false);
    inscatter.blending = AdditiveBlending;
    const geometry = this.gpu.own(new PlaneGeometry(2, 2));
    [transmit, inscatter].forEach((material, i) => {
      const mesh = new Mesh(geometry, material);
      mesh.frustumCulled = false;
      // After the bodies and the sun's disc (renderOrder −500), in this order.
      mesh.renderOrder = 500 + i;
      mesh.name = material.name;
      this.sky.add(mesh);
    });
  }

  /**
   * Before each frame: the tables if not yet rendered for this renderer, the sky view if the
   * camera's radius or the sun's zenith angle moved. `cameraWorld` and `centerWorld` unshifted;
   * `sunDir` towards the sun; `sunIlluminance` the sun light's colour × intensity.
   * Returns the daylight at the camera, 0 (night or space) – 1 (full day sky): stars fade with it.
   */
  update(renderer: WebGLRenderer, cameraWorld: Vector3, centerWorld: Vector3, sunDir: Vector3, sunIlluminance: Color): number {
    const cam = (this.uniforms.uAtmoCamera.value as Vector3).subVectors(cameraWorld, centerWorld);
    (this.uniforms.uAtmoSunDir.value as Vector3).copy(sunDir).normalize();
    (this.uniforms.uAtmoSunIlluminance.value as Vector3).set(sunIlluminance.r, sunIlluminance.g, sunIlluminance.b);
    if (!this.enabled) return 0;
    if (this.tablesFor !== renderer) {
      this.renderPass(renderer, this.passes.transmittance, this.transmittance);
      this.renderPass(renderer, this.passes.multi, this.multi);
      this.tablesFor = renderer;
      this.tableRenders++;
      this.skyViewAt.set(NaN, NaN);
    }
    const r = cam.length();
    const inside = r < this.spec.topRadiusM;
    const muS = r > 0 ? cam.dot(sunDir) / (r * sunDir.length()) : 1;
    if (inside) {
      const at = this.skyViewAt;
      const moveM = Math.max(0.5, Math.min(SKY_VIEW_MOVE_H * this.spec.rayleighScaleHeightM, SKY_VIEW_MOVE_ALTITUDE * (r - this.spec.bottomRadiusM)));
      const light = this.uniforms.uAtmoSunIlluminance.value as Vector3;
      const moved = !(Math.abs(r - at.x) < moveM && Math.abs(muS - at.y) < SKY_VIEW_MOVE_MU) || !light.equals(this.skyViewLight);
      if (moved) {
        this.skyViewLight.copy(light);
        this.skyViewUniforms.uSkyCameraR.value = Math.max(r, this.spec.bottomRadiusM + 1);
        this.skyViewSunLocal.set(Math.sqrt(Math.max(0, 1 - muS * muS)), muS, 0);
        this.renderPass(renderer, this.passes.skyView, this.skyView);
        // Aerial perspective out to the farthest ground seen from here: the horizon, then the air beyond it.
        const bottom = this.spec.bottomRadiusM;
        const top = this.spec.topRadiusM;
        const camR = this.skyViewUniforms.uSkyCameraR.value as number;
        this.uniforms.uAtmoAerialMaxM.value = Math.sqrt(Math.max(0, camR * camR - bottom * bottom)) + Math.sqrt(top * top - bottom * bottom);
        this.renderPass(renderer, this.passes.aerialL, this.aerialL);
        this.renderPass(renderer, this.passes.aerialT, this.aerialT);
        at.set(r, muS);
        this.skyViewRenders++;
      }
    }
    if (inside) this.setAerialEye(cam);
    this.uniforms.uAtmoSkyValid.value = inside ? 1 : 0;
    this.uniforms.uAtmoAerialValid.value = inside && this.aerialTable ? 1 : 0;
    return this.daylight(r, muS);
  }

  /**
   * What srSkyViewUvAt computes from the eye alone, once a frame instead of once a vertex: the
   * eye's up, the sun along its horizon, its horizon's zenith angle (seen from no lower than just
   * above the bottom sphere, as the tables are).
   */
  private setAerialEye(cam: Vector3): void {
    const r = cam.length();
    const up = (this.uniforms.uAerialEyeUp.value as Vector3).copy(cam).divideScalar(Math.max(r, 1e-3));
    const sun = this.uniforms.uAtmoSunDir.value as Vector3;
    const along = scratchVector.copy(sun).addScaledVector(up, -sun.dot(up));
    const ok = along.lengthSq() > 1e-8;
    if (ok) along.normalize();
    (this.uniforms.uAerialEyeSun.value as Vector4).set(along.x, along.y, along.z, ok ? 1 : 0);
    const bottom = this.spec.bottomRadiusM;
    const eyeR = Math.max(r, bottom + 1);
    const beta = Math.acos(Math.min(1, Math.sqrt(Math.max(0, eyeR * eyeR - bottom * bottom)) / eyeR));
    (this.uniforms.uAerialEyeHorizon.value as Vector2).set(Math.PI - beta, beta);
  }

  /**
   * The sky passes cover only the rectangle the atmosphere projects to when the camera is well
   * outside it (default), or always the whole screen (the same image, drawn slower; for tests).
   */
  get boundedSky(): boolean {
    return this.uniforms.uAtmoSkyBounded.value === 1;
  }

  set boundedSky(on: boolean) {
    this.uniforms.uAtmoSkyBounded.value = on ? 1 : 0;
  }

  /** Drawn (default), or switched off: no sky passes, the surface as if airless (a uniform: no recompile). */
  get enabled(): boolean {
    return this.sky.visible;
  }

  set enabled(on: boolean) {
    this.sky.visible = on;
    this.uniforms.uAtmoOn.value = on ? 1 : 0;
  }

  /** After a lost context: the tables are rendered again on the next update. */
  invalidate(): void {
    this.tablesFor = null;
  }

  dispose(): void {
    this.sky.removeFromParent();
    this.gpu.dispose();
  }

  /**
   * How bright the sky is around the camera, 0–1: the air above it (1 − zenith transmittance,
   * relative to a clear planet's ground) times the sun's height (fading through twilight).
   */
  private daylight(r: number, muS: number): number {
    if (r >= this.spec.topRadiusM) return 0;
    const t = transmittanceToTop(this.spec, r, 1, 24);
    const air = Math.min(1, (1 - (t[0] + t[1] + t[2]) / 3) / 0.15);
    const sunUp = smoothstep(-0.12, 0.08, muS);
    return air * sunUp;
  }

  private renderPass(renderer: WebGLRenderer, material: ShaderMaterial, target: WebGLRenderTarget): void {
    const previous = renderer.getRenderTarget();
    const autoClear = renderer.autoClear;
    renderer.autoClear = false;
    renderer.setRenderTarget(target);
    this.lutPass.render(renderer, material);
    renderer.setRenderTarget(previous);
    renderer.autoClear = autoClear;
  }

  private lutMaterial(name: string, fragment: string, uniforms: Record<string, IUniform>, defines: Record<string, string> = {}): ShaderMaterial {
    return this.gpu.own(new ShaderMaterial({
      name,
      uniforms,
      defines,
      vertexShader: lutVertex,
      fragmentShader: glslWithIncludes(fragment, name, { chunks: { sr_atmosphere: atmosphereChunk } }),
      depthTest: false,
      depthWrite: false,
    }));
  }

  private skyMaterial(name: string, transmit: boolean): ShaderMaterial {
    const material = new ShaderMaterial({
      name,
      uniforms: this.uniforms,
      defines: transmit ? { SR_ATMO_TRANSMIT: '' } : {},
      vertexShader: skyVertex,
      fragmentShader: glslWithIncludes(skyFragment, name, { external: THREE_CHUNK_NAMES, chunks: { sr_atmosphere: atmosphereChunk } }),
      transparent: true,
      depthTest: true,
      depthWrite: false,
    });
    this.gpu.own(material);
    return material;
  }
}

const scratchVector = new Vector3();

function smoothstep(a: number, b: number, x: number): number {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
}
