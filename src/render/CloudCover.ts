/**
 * A planet's cloud cover baked into a cube map (issue 41): the broad part of the clouds' noise
 * (glsl/sr_cloud_cover.glsl: the weather systems, the domain warp and the octaves coarser than a
 * few texels) rendered once per planet, so the layer's shader (glsl/clouds.frag.glsl) makes one
 * filtered fetch where it ran ~12 value-noise taps, and adds only the octaves finer than the
 * texels, only where a pixel is small enough to see them. The map is in the layer's own frame: the
 * drift (scene time) turns the lookup direction, so nothing is re-rendered as the clouds move.
 * docs/rendering.md ("Sea and clouds") has the cost before and after.
 *
 * RGBA8 (renderable and filterable on every WebGL2 context): r the broad cover scaled by
 * {@link COVER_ENCODE} about 0.5, gba the warp about 0.5. Bilinear filtering of the stored values
 * keeps both continuous; mipmaps average the cover when the texels are smaller than a pixel.
 */
import {
  LinearFilter,
  LinearMipmapLinearFilter,
  NoToneMapping,
  RGBAFormat,
  ShaderMaterial,
  UnsignedByteType,
  Vector3,
  WebGLCubeRenderTarget,
  type CubeTexture,
  type WebGLRenderer,
} from 'three';
import { GpuResources, type Disposable } from './disposal';
import { FullscreenQuad } from './fullscreenQuad';
import { glslWithIncludes } from './renderGlslChunks';
import lutVertex from '../../glsl/atmo_lut.vert.glsl?raw';
import coverFragment from '../../glsl/clouds_cover.frag.glsl?raw';
import coverChunk from '../../glsl/sr_cloud_cover.glsl?raw';

/** The shader chunk the layer's shader includes for the fine octaves (same noise as the bake). */
export const CLOUD_COVER_CHUNKS: Readonly<Record<string, string>> = { sr_cloud_cover: coverChunk };

/** The broad cover (about ±1.5) is stored as cover · COVER_ENCODE + 0.5. */
export const COVER_ENCODE = 0.25;
/** The fractal's octaves: wavelength ratio between neighbours (sr_cloud_cover.glsl). */
const LACUNARITY = 2.03;
/** An octave goes into the map when its lattice cell spans at least this many of the largest texels. */
const TEXELS_PER_CELL = 2.5;

export interface CloudCoverOptions {
  /** Radius of the cloud layer, metres. */
  radiusM: number;
  /** The weather systems' size, metres (one unit of the noise domain). */
  featureM: number;
  /** The seed's offset of the noise domain. */
  offset: Vector3;
  /** Octaves of the whole fractal (the layer's SR_CLOUD_OCTAVES). */
  octaves: number;
  /** Face size, texels. */
  size: number;
}

/**
 * How many of the fractal's leading octaves a map of `size` texels a face holds for a layer of
 * `radiusM` with systems of `featureM`: those whose lattice cell (featureM / (3 · 2.03^i) metres)
 * spans at least 2.5 of the largest texels (2 · radiusM / size, at a face's centre).
 */
export function bakedOctaves(radiusM: number, featureM: number, size: number, octaves: number): number {
  const texelM = (2 * radiusM) / size;
  let n = 0;
  while (n < octaves && featureM / (3 * LACUNARITY ** n) >= TEXELS_PER_CELL * texelM) n++;
  return n;
}

export class CloudCover implements Disposable {
  readonly texture: CubeTexture;
  /** Octaves [0, baked) are in the map; the layer's shader adds [baked, octaves). */
  readonly baked: number;
  /** The largest texel's size on the layer, metres (the layer's shader picks the mip level from it). */
  readonly texelM: number;
  private readonly target: WebGLCubeRenderTarget;
  private readonly material: ShaderMaterial;
  private readonly pass: FullscreenQuad;
  /** The cube target, the bake's material and quad. */
  private readonly gpu = new GpuResources();
  private dirty = true;
  private lastRenderer: WebGLRenderer | null = null;

  constructor(readonly options: CloudCoverOptions) {
    const { radiusM, featureM, size, octaves } = options;
    this.baked = bakedOctaves(radiusM, featureM, size, octaves);
    this.texelM = (2 * radiusM) / size;
    this.target = this.gpu.own(new WebGLCubeRenderTarget(size, {
      format: RGBAFormat,
      type: UnsignedByteType,
      generateMipmaps: true,
      minFilter: LinearMipmapLinearFilter,
      magFilter: LinearFilter,
      depthBuffer: false,
    }));
    this.texture = this.target.texture;
    this.texture.name = 'cloud cover';
    this.material = this.gpu.own(new ShaderMaterial({
      name: 'cloud cover bake',
      uniforms: {
        uCoverFace: { value: 0 },
        uCoverSize: { value: size },
        uCoverScale: { value: radiusM / featureM },
        uCoverOffset: { value: options.offset },
        uCoverOctaves: { value: this.baked },
      },
      defines: { SR_COVER_ENCODE: COVER_ENCODE.toFixed(3) },
      vertexShader: lutVertex,
      fragmentShader: glslWithIncludes(coverFragment, 'clouds_cover.frag', { chunks: CLOUD_COVER_CHUNKS }),
      depthTest: false,
      depthWrite: false,
    }));
    this.pass = new FullscreenQuad(this.gpu, this.material);
  }

  /** The map is rendered again on the next {@link update} (after a WebGL context restore). */
  invalidate(): void {
    this.dirty = true;
  }

  /**
   * Renders the six faces when needed (first use, another renderer, after {@link invalidate});
   * returns whether it rendered. Cheap every frame; restores the render target and tone mapping.
   */
  update(renderer: WebGLRenderer): boolean {
    if (!this.dirty && renderer === this.lastRenderer) return false;
    const previous = renderer.getRenderTarget();
    const previousFace = renderer.getActiveCubeFace();
    const previousLevel = renderer.getActiveMipmapLevel();
    const toneMapping = renderer.toneMapping;
    const autoClear = renderer.autoClear;
    renderer.toneMapping = NoToneMapping;
    renderer.autoClear = false;
    // three.js rebuilds the mip chain after each face (a few cheap passes, once per planet): its
    // storage is allocated with the target, so turning that off for five faces would leave one level.
    for (let face = 0; face < 6; face++) {
      this.material.uniforms.uCoverFace.value = face;
      renderer.setRenderTarget(this.target, face);
      this.pass.render(renderer);
    }
    renderer.setRenderTarget(previous, previousFace, previousLevel);
    renderer.toneMapping = toneMapping;
    renderer.autoClear = autoClear;
    this.lastRenderer = renderer;
    this.dirty = false;
    return true;
  }

  dispose(): void {
    this.gpu.dispose();
  }
}
