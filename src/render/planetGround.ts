/**
 * A planet's ground for its standard material (issue 20, "ground that reads at every altitude"):
 * patches a MeshStandardMaterial (after withSunCascades; before withAtmosphere) so its albedo and
 * roughness come from the pieces' `groundColour` attribute — maria in the low basins, regolith on
 * the highlands, rock on steep slopes, ice towards the poles, with tone variation from continents
 * down to a few hundred metres, computed per vertex by the body worker that meshed the piece
 * (src/field/groundColours.ts says why there). The palette is seeded per planet and goes to the
 * workers with the planet ({@link PlanetGround.palette}). The camera's position in the planet's
 * frame is the one per-frame input ({@link PlanetGround.setCamera}). Close to the ground a
 * per-pixel detail layer takes over below the mesh's cells (glsl/sr_ground_detail.glsl: a fractal
 * bump and albedo grain from the finest cell size down, `detailOctaves` of them, skipped where it
 * cannot show).
 */
import { Vector3, type IUniform, type MeshStandardMaterial } from 'three';
import { chainShaderPatch } from './shaderPatch';
import { groundPalette, type GroundClassOptions, type GroundPalette } from '../field/groundColours';
import { glslWithIncludes } from './renderGlslChunks';
import { THREE_CHUNK_NAMES } from './BodyMaterial';
import groundChunk from '../../glsl/sr_ground.glsl?raw';
import vertexChunk from '../../glsl/sr_ground_vertex.glsl?raw';
import vertexParsChunk from '../../glsl/sr_ground_vertex_pars.glsl?raw';
import colorChunk from '../../glsl/sr_ground_color.glsl?raw';
import roughnessChunk from '../../glsl/sr_ground_roughness.glsl?raw';
import detailChunk from '../../glsl/sr_ground_detail.glsl?raw';
import glowChunk from '../../glsl/sr_ground_glow.glsl?raw';

export interface PlanetGroundOptions extends GroundClassOptions {
  seed: number;
  /** Mean radius of the ground and its relief (about the deepest valley under it), metres. */
  meanRadiusM: number;
  reliefM: number;
  /**
   * Octaves of the close-range detail, from `detailMaxM` halving (0: none). Fewer than asked where
   * the planet is large: float32 positions at its radius cannot carry the finest.
   */
  detailOctaves?: number;
  /**
   * The detail's longest wavelength (m): the finest mesh cells' size, below which the mesh shows no
   * relief (default 1). Longer ones would repeat what the mesh draws, over a far larger area of
   * the screen: at 20 m a 4 m octave cost ~6 ms a frame on the H100.
   */
  detailMaxM?: number;
}

/**
 * Detail octaves by quality: `auto` 3, `high` 5, from the finest cell size (0.74 m on seed 4)
 * halving; the float32 floor drops those under R · 2⁻²⁰ (on seed 4 `high` keeps 4, to 9 cm).
 */
export const GROUND_DETAIL_OCTAVES = { auto: 3, high: 5 } as const;

/**
 * Molten rock's radiance at full glow (linear, before the hot core's colour: glsl/sr_ground_glow.glsl).
 * Sunlit basalt of albedo 0.05 under the sun's 3 is ~0.05; a glowing crack ~0.5 at its hottest, so
 * the cracks show in daylight and light up the night side from orbit.
 */
export const GROUND_GLOW_RADIANCE = 0.5;

const PATCH = {
  vertexCommon: '#include <common>',
  vertexProject: '#include <project_vertex>',
  fragmentCommon: '#include <common>',
  color: '#include <color_fragment>',
  roughness: '#include <roughnessmap_fragment>',
  emissive: '#include <emissivemap_fragment>',
  normal: '#include <normal_fragment_maps>',
  clipping: '#include <clipping_planes_fragment>',
};

export class PlanetGround {
  readonly uniforms: Record<string, IUniform>;
  readonly detailOctaves: number;
  private readonly detailMaxM: number;

  /** What the body workers colour the pieces' vertices from (src/field/groundColours.ts). */
  readonly palette: GroundPalette;

  constructor(options: PlanetGroundOptions) {
    this.detailOctaves = Math.max(0, Math.min(8, Math.round(options.detailOctaves ?? 0)));
    this.detailMaxM = options.detailMaxM ?? 1;
    this.palette = groundPalette(options);
    this.uniforms = {
      // The camera in the planet's frame, split in two (groundCameraSplit).
      uGroundCameraHigh: { value: new Vector3() },
      uGroundCameraLow: { value: new Vector3() },
      uGroundSalt: { value: this.palette.salt },
      // Eight float32 ulps of the radius (R · 2⁻²⁰): finer octaves would sparkle as the camera moves.
      uGroundDetailMinM: { value: groundDetailFloorM(options.meanRadiusM + options.reliefM) },
      uGroundGlow: { value: new Vector3(1, 1, 1).multiplyScalar(GROUND_GLOW_RADIANCE) },
    };
  }

  /** The camera in the planet's frame (metres), each frame. */
  setCamera(cameraInBody: readonly [number, number, number]): void {
    const { high, low } = groundCameraSplit(cameraInBody);
    (this.uniforms.uGroundCameraHigh.value as Vector3).set(...high);
    (this.uniforms.uGroundCameraLow.value as Vector3).set(...low);
  }

  /** Patches `material` in place (returned) to draw this ground. */
  patch<M extends MeshStandardMaterial>(material: M): M {
    const octaves = this.detailOctaves;
    const maxM = this.detailMaxM.toPrecision(3);
    const glow = this.palette.lava;
    chainShaderPatch(material, `sr-ground-${octaves}-${maxM}${glow ? '-glow' : ''}`, (shader) => {
      patchGroundShader(shader, octaves, maxM, glow);
      Object.assign(shader.uniforms, this.uniforms);
    });
    return material;
  }
}

/** The grid the camera's high part snaps to (m): a power of two, so the high part is exact in float32. */
export const GROUND_CAMERA_GRID_M = 1024;

/**
 * The camera in the planet's frame as `high + low`: `high` on a 1,024 m grid (exact in float32),
 * `low` the small rest (float32 keeps it to micrometres). The detail layer sums
 * `high + (low + offset)`, which rounds the same way for a given ground point whatever the camera
 * does, so the pattern stays on the ground; one float32 camera position rounded differently each
 * frame (4 mm at 62 km) and the whole pattern jumped by that as the camera moved.
 */
export function groundCameraSplit(cameraInBody: readonly [number, number, number]): { high: [number, number, number]; low: [number, number, number] } {
  const high = cameraInBody.map((c) => Math.round(c / GROUND_CAMERA_GRID_M) * GROUND_CAMERA_GRID_M) as [number, number, number];
  return { high, low: cameraInBody.map((c, i) => c - high[i]) as [number, number, number] };
}

/** The finest detail wavelength float32 positions carry without sparkle at radius `radiusM`: eight ulps. */
export function groundDetailFloorM(radiusM: number): number {
  return radiusM * 2 ** -20;
}

function patchGroundShader(shader: { vertexShader: string; fragmentShader: string }, detailOctaves: number, detailMaxM: string, glow: boolean): void {
  const define = (detailOctaves > 0 ? `#define SR_GROUND_DETAIL_OCTAVES ${detailOctaves}\n#define SR_GROUND_DETAIL_MAX_M ${detailMaxM}\n` : '') + (glow ? '#define SR_GROUND_GLOW\n' : '');
  const vs = define + shader.vertexShader;
  const fs = define + shader.fragmentShader;
  for (const [text, chunk] of [
    [vs, PATCH.vertexCommon], [vs, PATCH.vertexProject], [fs, PATCH.fragmentCommon], [fs, PATCH.color], [fs, PATCH.roughness], [fs, PATCH.emissive], [fs, PATCH.normal], [fs, PATCH.clipping],
  ] as const) {
    if (!text.includes(chunk)) throw new Error(`PlanetGround: the shader has no ${chunk} to patch (three.js changed?)`);
  }
  const chunks = {
    sr_ground: groundChunk, sr_ground_vertex_pars: vertexParsChunk, sr_ground_vertex: vertexChunk, sr_ground_color: colorChunk, sr_ground_roughness: roughnessChunk,
    sr_ground_detail: detailChunk, sr_ground_glow: glowChunk,
  };
  const detail = detailOctaves > 0 ? `${PATCH.normal}\n#include <sr_ground_detail>` : PATCH.normal;
  // The detail's pixel footprint, from screen-space derivatives: taken before any discard (the
  // cross-fade's dither), where every pixel of the quad still runs.
  const footprint = detailOctaves > 0 ? `float srGroundFootprintM = max(length(dFdx(vViewPosition)), length(dFdy(vViewPosition)));\n${PATCH.clipping}` : PATCH.clipping;
  shader.vertexShader = glslWithIncludes(
    vs.replace(PATCH.vertexCommon, `${PATCH.vertexCommon}\n#include <sr_ground_vertex_pars>`).replace(PATCH.vertexProject, `${PATCH.vertexProject}\n#include <sr_ground_vertex>`),
    'ground.vert', { external: THREE_CHUNK_NAMES, chunks },
  );
  shader.fragmentShader = glslWithIncludes(
    fs
      .replace(PATCH.fragmentCommon, `${PATCH.fragmentCommon}\n#include <sr_ground>`)
      .replace(PATCH.color, `${PATCH.color}\n#include <sr_ground_color>`)
      .replace(PATCH.roughness, `${PATCH.roughness}\n#include <sr_ground_roughness>`)
      .replace(PATCH.emissive, `${PATCH.emissive}\n#include <sr_ground_glow>`)
      .replace(PATCH.normal, detail)
      .replace(PATCH.clipping, footprint),
    'ground.frag', { external: THREE_CHUNK_NAMES, chunks },
  );
}
