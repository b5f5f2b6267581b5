import {
  Color,
  DataArrayTexture,
  NearestFilter,
  RedIntegerFormat,
  ShaderChunk,
  ShaderMaterial,
  UniformsLib,
  UniformsUtils,
  UnsignedByteType,
  Vector2,
  Vector3,
  Vector4,
  type BufferGeometry,
  type Camera,
  type Group,
  type Object3D,
  type Scene,
  type WebGLRenderer,
} from 'three';
import { compileToGlsl, type CompiledGlsl } from '../field/compileGlsl';
import type { FieldRecipe } from '../field/recipe';
import { glslWithIncludes } from './renderGlslChunks';
import { permutationLayers, PERMUTATION_LAYER_ROWS } from '../field/noise';
import { Prng } from '../field/prng';
import vertexTemplate from '../../glsl/body.vert.glsl?raw';
import fragmentTemplate from '../../glsl/body.frag.glsl?raw';
import sunShadowChunk from '../../glsl/sr_sun_shadow.glsl?raw';
import sunDirectChunk from '../../glsl/sr_sun_direct.glsl?raw';

/** three.js's own shader chunk names: our include mechanism leaves them for three to resolve. */
export const THREE_CHUNK_NAMES: ReadonlySet<string> = new Set(Object.keys(ShaderChunk));

/** Rock palettes (linear RGB albedo) by asteroid family; the seed jitters them. */
export interface RockPalette {
  base: [number, number, number];
  alt: [number, number, number];
  dark: [number, number, number];
  regolith: [number, number, number];
  roughness: number;
  metalness: number;
}

/** Palettes for the families of src/scene/asteroids.ts (`default` for anything else). */
export const ROCK_PALETTES: Readonly<Record<string, RockPalette>> = {
  default: { base: [0.2, 0.18, 0.16], alt: [0.25, 0.21, 0.17], dark: [0.08, 0.075, 0.07], regolith: [0.3, 0.27, 0.23], roughness: 0.9, metalness: 0 },
  potato: { base: [0.19, 0.16, 0.13], alt: [0.26, 0.2, 0.15], dark: [0.08, 0.07, 0.06], regolith: [0.3, 0.26, 0.21], roughness: 0.9, metalness: 0 },
  shard: { base: [0.13, 0.14, 0.15], alt: [0.2, 0.2, 0.21], dark: [0.05, 0.05, 0.06], regolith: [0.24, 0.23, 0.22], roughness: 0.8, metalness: 0 },
  contactBinary: { base: [0.21, 0.17, 0.13], alt: [0.17, 0.15, 0.14], dark: [0.09, 0.07, 0.05], regolith: [0.31, 0.27, 0.22], roughness: 0.9, metalness: 0 },
  cratered: { base: [0.17, 0.17, 0.16], alt: [0.23, 0.22, 0.2], dark: [0.07, 0.07, 0.07], regolith: [0.29, 0.28, 0.26], roughness: 0.92, metalness: 0 },
  metallic: { base: [0.3, 0.29, 0.28], alt: [0.22, 0.2, 0.18], dark: [0.1, 0.09, 0.08], regolith: [0.22, 0.2, 0.18], roughness: 0.55, metalness: 0.6 },
  porous: { base: [0.24, 0.16, 0.11], alt: [0.3, 0.22, 0.15], dark: [0.1, 0.06, 0.04], regolith: [0.34, 0.27, 0.2], roughness: 0.95, metalness: 0 },
};

/** Options of {@link BodyMaterial}. Lengths in body-local metres; defaults scale with the body. */
export interface BodyMaterialOptions {
  /** Palette family (a key of {@link ROCK_PALETTES}); default `default`. */
  family?: string;
  /** Seed for the palette jitter, strata axis and colour noise; default 0. */
  seed?: number;
  /** Overrides of the family palette. */
  palette?: Partial<RockPalette>;
  /** Per-pixel normals from the field's gradient (define SR_FIELD_NORMALS); default true. */
  perPixelNormals?: boolean;
  /**
   * Mesh-cell size in pixels where the field normal starts to replace the mesh normal, and
   * where it has fully replaced it; default [1.5, 6].
   */
  normalBlendPx?: [number, number];
  /** Smallest gradient step (m), even when a pixel is smaller; default the compiled field's step. */
  minGradientStepM?: number;
  /** Field occlusion (darker concavities, SR_FIELD_OCCLUSION); default true. */
  occlusion?: boolean;
  /** First occlusion tap distance (m); the second is 3×. Default 2% of the body's size. */
  occlusionDistanceM?: number;
  /** 0..1; default 0.85. */
  occlusionStrength?: number;
  /**
   * Crater shading (darker floors, brighter rims) from the field's curvature at `scaleM`
   * (SR_CRATER_SHADING, three more field taps per pixel). Default off.
   */
  craterShading?: boolean | { scaleM?: number; strength?: number };
  /**
   * Polar ice caps by latitude and slope (SR_POLAR_ICE), for planets. `axis` is the body-space
   * pole (default +y), `latitudeDeg` the cap edge (default 65). Default off.
   */
  polarIce?: boolean | { axis?: [number, number, number]; latitudeDeg?: number; color?: [number, number, number] };
  /** Spacing of rock strata (m); default 4% of the body's size. */
  strataSpacingM?: number;
  /** Largest colour-noise wavelength (m); default 25% of the body's size. */
  noiseScaleM?: number;
  /** 0..1 regolith on flat ground; default 0.8. */
  regolithAmount?: number;
  /** Defaults for meshes drawn without {@link BodyMaterial.bindChunk}. */
  chunkOriginM?: [number, number, number];
  /** Default mesh cell size (m) for unbound meshes; default 1/32 of the body's diameter. */
  cellSizeM?: number;
  /** Default fade for unbound meshes; default 1. */
  fade?: number;
}

/** Per-mesh state of a chunk drawn with a shared {@link BodyMaterial}. */
export interface BodyChunkState {
  /** Body-local position (m) that the mesh's positions are relative to. */
  chunkOriginM: Vector3;
  /** The mesh's cell size (m): drives the mesh/field normal blend. */
  cellSizeM: number;
  /** 0 hidden … 1 opaque (screen-door dither). */
  fade: number;
  /**
   * Flip the dither pattern. Cross-fade: incoming mesh `fade = t`, outgoing mesh
   * `fade = 1 − t, fadeComplement = true`; together they cover every pixel exactly once.
   */
  fadeComplement: boolean;
}

/** What a {@link BodyMaterial} is made from: a compiled field, with its numbers as data or not. */
export type BodyMaterialField = Pick<CompiledGlsl, 'chunk' | 'bounds' | 'gradientStepM'> & Partial<Pick<CompiledGlsl, 'params' | 'permutation'>>;

/**
 * A body's field as its BodyMaterial reads it: the numbers as data (`sr_params`, the permutation
 * tables in a texture), so bodies of one shape — the seeds of an asteroid family — share one
 * program (issue 16).
 */
export function bodyMaterialField(recipe: FieldRecipe): CompiledGlsl {
  return compileToGlsl(recipe, { numbersAsData: true, permutationTexture: true, paramsUniform: true, gradient: true });
}

/** The permutation tables as an R8UI array texture (read with texelFetch; noise.ts permutationLayers). */
function permutationTexture(bytes: Uint8Array): DataArrayTexture {
  const t = new DataArrayTexture(permutationLayers(bytes), 256, PERMUTATION_LAYER_ROWS, bytes.length / 256);
  t.format = RedIntegerFormat;
  t.type = UnsignedByteType;
  t.internalFormat = 'R8UI';
  t.minFilter = t.magFilter = NearestFilter;
  t.generateMipmaps = false;
  t.unpackAlignment = 1;
  t.needsUpdate = true;
  return t;
}

const chunkStates = new WeakMap<Object3D, BodyChunkState>();
const scratchViewport = new Vector4();

/** The per-mesh state of a mesh bound with {@link BodyMaterial.bindChunk}, if any. */
export function bodyChunkState(mesh: Object3D): BodyChunkState | undefined {
  return chunkStates.get(mesh);
}

function jitter(prng: Prng, c: readonly number[], amount: number): Color {
  const k = 1 + prng.range(-amount, amount);
  return new Color(
    c[0] * k * (1 + prng.range(-amount, amount) * 0.5),
    c[1] * k,
    c[2] * k * (1 + prng.range(-amount, amount) * 0.5),
  );
}

/**
 * The material of a body's chunk meshes: three.js physical lighting (lights, shadow maps with
 * PCF, tone mapping, sRGB output, logarithmic depth) from our own GLSL (`glsl/body.*.glsl`,
 * assembled from three's shader chunks and our `sr_` chunks), with per-pixel normals from the
 * gradient of the body's field, procedural rock colouring and a screen-door LOD fade.
 *
 * One material per body (it holds that body's compiled field; with its numbers as data,
 * {@link bodyMaterialField}, bodies of one shape share the program). Meshes of the body share it;
 * each mesh's chunk origin, cell size and fade are per-mesh state set with
 * {@link bindChunk} and uploaded per draw. Meshes not bound use the material's own uniforms.
 *
 * The shadow pass uses three's default depth material: both meshes of a cross-fade cast
 * their full shadow (their surfaces nearly coincide), so shadows never flicker or dither.
 */
export class BodyMaterial extends ShaderMaterial {
  readonly isBodyMaterial = true;
  /** Body-local bounding-sphere radius (m) the defaults were scaled from. */
  readonly sizeM: number;
  /** Chunk state used for meshes drawn without {@link bindChunk} (from the options). */
  readonly defaultChunk: BodyChunkState;
  private compiled: BodyMaterialField;
  private readonly options: BodyMaterialOptions;
  /** The field's permutation texture, when its numbers are data (disposed with the material). */
  private readonly permutation: DataArrayTexture | null;

  constructor(compiled: BodyMaterialField, options: BodyMaterialOptions = {}) {
    const sizeM = compiled.bounds.sizeM;
    const prng = new Prng((options.seed ?? 0) ^ 0x5bd1e995);
    const family = options.family ?? 'default';
    const palette: RockPalette = { ...(ROCK_PALETTES[family] ?? ROCK_PALETTES.default), ...options.palette };
    const strataAxis = new Vector3(...(prng.unitVector() as [number, number, number]));
    const crater = options.craterShading
      ? { scaleM: 0.06 * sizeM, strength: 0.5, ...(typeof options.craterShading === 'object' ? options.craterShading : {}) }
      : null;
    const ice = options.polarIce
      ? { axis: [0, 1, 0] as [number, number, number], latitudeDeg: 65, color: [0.75, 0.8, 0.85] as [number, number, number],
          ...(typeof options.polarIce === 'object' ? options.polarIce : {}) }
      : null;

    const defines: Record<string, string> = {};
    if (options.perPixelNormals ?? true) defines.SR_FIELD_NORMALS = '';
    if (options.occlusion ?? true) defines.SR_FIELD_OCCLUSION = '';
    if (crater) defines.SR_CRATER_SHADING = '';
    if (ice) defines.SR_POLAR_ICE = '';
    if (defines.SR_FIELD_NORMALS !== undefined && !compiled.chunk.includes('vec4 sr_fieldGrad(')) {
      throw new Error('BodyMaterial: per-pixel normals need the field compiled with `gradient: true` (bodyMaterialField does)');
    }

    const center = compiled.bounds.sphereCenter;
    const uniforms = UniformsUtils.merge([
      UniformsLib.lights,
      {
        dfgLUT: { value: null },
        uChunkOriginM: { value: new Vector3(...(options.chunkOriginM ?? [0, 0, 0])) },
        uViewportHeightPx: { value: 1 },
        uFade: { value: options.fade ?? 1 },
        uFadeComplement: { value: false },
        uCellSizeM: { value: options.cellSizeM ?? (2 * sizeM) / 32 },
        uNormalBlendPx: { value: new Vector2(...(options.normalBlendPx ?? [1.5, 6])) },
        uMinGradientStepM: { value: options.minGradientStepM ?? compiled.gradientStepM },
        uOcclusionDistanceM: { value: options.occlusionDistanceM ?? 0.02 * sizeM },
        uOcclusionStrength: { value: options.occlusionStrength ?? 0.85 },
        uCraterScaleM: { value: crater?.scaleM ?? 0.06 * sizeM },
        uCraterStrength: { value: crater?.strength ?? 0 },
        uBodyCenterM: { value: new Vector3(center[0], center[1], center[2]) },
        uRockBase: { value: jitter(prng, palette.base, 0.12) },
        uRockAlt: { value: jitter(prng, palette.alt, 0.12) },
        uRockDark: { value: jitter(prng, palette.dark, 0.1) },
        uRegolith: { value: jitter(prng, palette.regolith, 0.08) },
        uStrataAxis: { value: strataAxis },
        uStrataSpacingM: { value: options.strataSpacingM ?? 0.04 * sizeM },
        uNoiseScaleM: { value: options.noiseScaleM ?? 0.25 * sizeM },
        uRegolithAmount: { value: options.regolithAmount ?? 0.8 },
        uRoughness: { value: palette.roughness },
        uMetalness: { value: palette.metalness },
        uSalt: { value: prng.seed() >>> 0 },
        uIceAxis: { value: new Vector3(...(ice?.axis ?? [0, 1, 0])).normalize() },
        uIceLatitudeSin: { value: Math.sin(((ice?.latitudeDeg ?? 65) * Math.PI) / 180) },
        uIceColor: { value: new Color(...(ice?.color ?? [0.75, 0.8, 0.85])) },
      },
    ]);
    // Numbers as data (bodyMaterialField): the field's numbers and tables are this material's uniforms.
    const data = (compiled.params?.length ?? 0) > 0;
    const permutation = data && compiled.chunk.includes('sr_permutation') && compiled.permutation && compiled.permutation.length > 0
      ? permutationTexture(compiled.permutation)
      : null;
    if (data) uniforms.sr_params = { value: compiled.params };
    if (permutation) uniforms.sr_permutation = { value: permutation };

    super({
      name: 'BodyMaterial',
      // No glslVersion: three still compiles `#version 300 es` on WebGL2 and adds its
      // compatibility defines (gl_FragColor, texture2D) that its chunks rely on.
      lights: true,
      defines,
      uniforms,
      // The vertex stage samples the field too, for occlusion and crater curvature.
      vertexShader: glslWithIncludes(vertexTemplate, 'body.vert', { external: THREE_CHUNK_NAMES, chunks: { sr_field: compiled.chunk } }),
      fragmentShader: glslWithIncludes(fragmentTemplate, 'body.frag', {
        external: THREE_CHUNK_NAMES,
        // The same generated field the GPU sampler splices (src/field/compileGlsl.ts), and
        // the sun's cascaded shadow lookup (src/render/Sun.ts).
        chunks: { sr_field: compiled.chunk, sr_sun_shadow: sunShadowChunk, sr_sun_direct: sunDirectChunk },
      }),
    });
    this.sizeM = sizeM;
    this.compiled = compiled;
    this.options = options;
    this.permutation = permutation;
    this.defaultChunk = {
      chunkOriginM: new Vector3(...(options.chunkOriginM ?? [0, 0, 0])),
      cellSizeM: options.cellSizeM ?? (2 * sizeM) / 32,
      fade: options.fade ?? 1,
      fadeComplement: false,
    };
  }

  /**
   * A new material for the same body and options (fresh uniforms; three shares the compiled
   * program). Current define switches are kept; per-mesh bindings are not.
   */
  override clone(): this {
    const copy = new BodyMaterial(this.compiled, this.options);
    copy.perPixelNormals = this.perPixelNormals;
    copy.occlusion = this.occlusion;
    return copy as this;
  }

  override dispose(): void {
    this.permutation?.dispose();
    super.dispose();
  }

  /**
   * The body's field changed by its numbers only (a brush edit, issue 19): when `compiled` is the
   * same program as this material's, its numbers replace the old ones (no compile) and true is
   * returned; false means it needs a material of its own. Bounds-derived uniforms (rock scales,
   * colours) stay as they were, so an edit does not repaint the whole body.
   */
  setFieldData(compiled: BodyMaterialField): boolean {
    if (compiled.chunk !== this.compiled.chunk || !compiled.params || !this.uniforms.sr_params) return false;
    this.uniforms.sr_params.value = compiled.params;
    this.compiled = compiled;
    this.uniformsNeedUpdate = true;
    return true;
  }

  /** Fade of meshes drawn without per-mesh state (see {@link bindChunk} for per-mesh fades). */
  get fade(): number {
    return this.defaultChunk.fade;
  }
  set fade(value: number) {
    this.defaultChunk.fade = value;
  }

  /** Switches per-pixel field normals on or off (recompiles only on change). */
  set perPixelNormals(on: boolean) {
    this.setDefine('SR_FIELD_NORMALS', on);
  }
  get perPixelNormals(): boolean {
    return 'SR_FIELD_NORMALS' in this.defines;
  }

  /** Switches field occlusion on or off (recompiles only on change). */
  set occlusion(on: boolean) {
    this.setDefine('SR_FIELD_OCCLUSION', on);
  }
  get occlusion(): boolean {
    return 'SR_FIELD_OCCLUSION' in this.defines;
  }

  private setDefine(name: string, on: boolean): void {
    if ((name in this.defines) === on) return;
    if (on) this.defines[name] = '';
    else delete this.defines[name];
    this.needsUpdate = true;
  }

  /**
   * Binds per-mesh state (chunk origin, cell size, fade) to a mesh drawn with this material
   * and returns it; change its fields at any time (no allocation, uploaded per draw).
   * `chunkOriginM` is copied. Binding again updates the same state object.
   */
  bindChunk(mesh: Object3D, params: Partial<Omit<BodyChunkState, 'chunkOriginM'>> & { chunkOriginM?: ArrayLike<number> } = {}): BodyChunkState {
    let state = chunkStates.get(mesh);
    if (!state) {
      state = {
        chunkOriginM: new Vector3(),
        cellSizeM: this.defaultChunk.cellSizeM,
        fade: 1,
        fadeComplement: false,
      };
      chunkStates.set(mesh, state);
    }
    if (params.chunkOriginM) state.chunkOriginM.fromArray(params.chunkOriginM as number[]);
    if (params.cellSizeM !== undefined) state.cellSizeM = params.cellSizeM;
    if (params.fade !== undefined) state.fade = params.fade;
    if (params.fadeComplement !== undefined) state.fadeComplement = params.fadeComplement;
    return state;
  }

  /** Forgets a mesh's per-mesh state (optional: it is held weakly). */
  unbindChunk(mesh: Object3D): void {
    chunkStates.delete(mesh);
  }

  /** Per-draw uniforms: viewport height and the drawn mesh's chunk state. */
  override onBeforeRender(
    renderer: WebGLRenderer,
    _scene: Scene,
    _camera: Camera,
    _geometry: BufferGeometry,
    object: Object3D,
    _group: Group,
  ): void {
    const u = this.uniforms;
    u.uViewportHeightPx.value = renderer.getCurrentViewport(scratchViewport).w;
    const state = chunkStates.get(object) ?? this.defaultChunk;
    (u.uChunkOriginM.value as Vector3).copy(state.chunkOriginM);
    u.uCellSizeM.value = state.cellSizeM;
    u.uFade.value = state.fade;
    u.uFadeComplement.value = state.fadeComplement;
    // Several meshes share this material: three uploads uniforms again only when asked.
    this.uniformsNeedUpdate = true;
  }
}
