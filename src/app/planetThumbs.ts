/**
 * The planet gallery's thumbnails (`mode=gallery&kind=planets`): each seed's planet — what
 * `mode=planet&seed=…` shows, in the seed's own class — seen whole from orbit. One body job per
 * planet meshes it coarsely (`meshPlanetThumb`, src/jobs/planetThumbJob.ts: the six cube faces
 * as root chunks, 32 cells a face, and the seams between them; ~0.2–1 s in JS) with the ground's
 * colours per vertex (src/field/groundColours.ts, the palette PlanetView's pieces get); drawn with
 * the planet's own ground material (src/render/planetGround.ts, no close-range detail: it cannot
 * show from orbit) and a sun from the side so the terminator shows, in the app's one WebGL context.
 * Where the class has a sea, the vertices under it are lifted to sea level and made smooth as water
 * ({@link floodSea}): a sphere at sea level crossed the coarse ground in a checkerboard along every
 * shallow coast.
 *
 * Not drawn: the atmosphere and clouds (their tables cost seconds a planet on a software GPU).
 * Deterministic: mesh, camera and sun are functions of the seed.
 */
import {
  BufferAttribute,
  BufferGeometry,
  Color,
  DirectionalLight,
  HemisphereLight,
  Mesh,
  MeshStandardMaterial,
  PerspectiveCamera,
  Scene,
  Vector3,
  type WebGLRenderer,
} from 'three';
import { compileForFrames, type FrameOutput } from '../render/FrameOutput';
import { frameMesh } from '../render/frameMesh';
import { PlanetGround } from '../render/planetGround';
import type { SeaSpec } from '../field/atmosphereMedium';
import { PLANET_CLASS_LABELS, planetClassOf, sceneSpec, type ScenePlanet } from '../scene/index';
import { planetGround } from '../scene/planets';
import type { BodyMesher } from '../workers/BodyMesher';
import type { PlanetThumbParams, PlanetThumbResult } from '../jobs/planetThumbJob';
import { GALLERY_BACKGROUND } from './asteroidThumbs';
import { renderThumbnail, type ThumbJob, type ThumbSource } from './galleryThumbs';

/** Cells per cube face of a thumbnail's mesh (a power of two): ~12 k triangles a planet. */
export const PLANET_THUMB_CELLS = 32;
const THUMB_FOV_DEG = 30;
/** How much of the frame the planet fills. */
const FILL = 0.84;
/** The direction the camera looks from (planet frame), and the sun's, ~65° apart: a lit crescent-to-gibbous disc. */
const TO_CAMERA = new Vector3(0.25, 0.3, 1).normalize();
const SUN_DIRECTION = new Vector3(1, 0.35, 0.35).normalize();
/** The app's sun (render/Sun.ts): colour and intensity. */
const SUN_COLOUR = 0xfff2e0;
const SUN_INTENSITY = 3;

export interface PlanetThumbsOptions {
  renderer: WebGLRenderer;
  output: FrameOutput;
  mesher: BodyMesher;
  thumbPx: number;
  /** Cells per cube face, a power of two (default {@link PLANET_THUMB_CELLS}). */
  cells?: number;
}

export class PlanetThumbs implements ThumbSource<PlanetThumbResult> {
  readonly title = 'Planets';
  private readonly options: PlanetThumbsOptions;
  private readonly cells: number;

  constructor(options: PlanetThumbsOptions) {
    this.options = options;
    this.cells = options.cells ?? PLANET_THUMB_CELLS;
  }

  label(seed: number): string {
    return PLANET_CLASS_LABELS[planetClassOf(seed)];
  }

  ariaLabel(seed: number): string {
    return `Planet seed ${seed}, ${this.label(seed)}: open in planet mode`;
  }

  cacheKey(seed: number): string {
    return `planet:${seed}:${this.options.thumbPx}:${this.cells}`;
  }

  request(seed: number, priority: number): ThumbJob<PlanetThumbResult> {
    const planet = cellPlanet(seed);
    // Its own id: the definition has no chunk space (the GPU sampling worker compiles nothing for it).
    const body = `${planet.id}/thumb`;
    const release = this.options.mesher.registerBody(body, { recipe: planet.recipe, ground: groundOf(planet).palette });
    const params: PlanetThumbParams = { body, radiusM: planet.radiusM, cells: this.cells };
    const job = this.options.mesher.pool.run<PlanetThumbResult>('meshPlanetThumb', params, { priority });
    job.promise.finally(release).catch(() => {});
    return job;
  }

  async draw(seed: number, result: PlanetThumbResult): Promise<ImageData> {
    const planet = cellPlanet(seed);
    const scene = new Scene();
    scene.background = GALLERY_BACKGROUND;
    const sun = new DirectionalLight(SUN_COLOUR, SUN_INTENSITY);
    sun.position.copy(SUN_DIRECTION);
    scene.add(sun, new HemisphereLight(0x2a3040, 0x050403, 0.25));

    // In planet radii: small numbers for every matrix, whatever the planet's size.
    const unit = 1 / planet.radiusM;
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(result.positions, 3));
    geometry.setAttribute('normal', new BufferAttribute(result.normals, 3));
    geometry.setIndex(new BufferAttribute(result.indices, 1));
    const material = new MeshStandardMaterial({ color: new Color(0.26, 0.24, 0.21), roughness: 0.95 });
    if (result.colours) {
      if (planet.sea) floodSea(result, planet.sea);
      geometry.setAttribute('groundColour', new BufferAttribute(result.colours, 4, true));
      groundOf(planet).patch(material);
    }
    const ground = new Mesh(geometry, material);
    ground.scale.setScalar(unit);
    ground.position.set(result.originM[0] * unit, result.originM[1] * unit, result.originM[2] * unit);
    scene.add(ground);

    const camera = new PerspectiveCamera(THUMB_FOV_DEG, 1, 0.1, 10);
    frameMesh(camera, ground, TO_CAMERA.clone(), FILL);
    try {
      // The ground's program compiles once for the whole gallery, without blocking a frame.
      await compileForFrames(this.options.renderer, scene, camera);
      return renderThumbnail(this.options.renderer, this.options.output, scene, camera, this.options.thumbPx);
    } finally {
      geometry.dispose();
      material.dispose();
    }
  }

  dispose(): void {}
}

/** A cell's planet: what `mode=planet&seed=…` shows (sceneSpec.ts), in the seed's own class. */
function cellPlanet(seed: number): ScenePlanet {
  return sceneSpec(seed, 'planet').planet!;
}

/** The ground PlanetView's pieces get (SceneBodies' options: palette by class and sea; no close-range detail). */
function groundOf(planet: ScenePlanet): PlanetGround {
  const g = planetGround(planet.recipe);
  return new PlanetGround({
    seed: planet.seed, meanRadiusM: g.meanRadiusM, reliefM: g.meanRadiusM - g.lowestM, detailOctaves: 0, planetClass: planet.planetClass, sea: planet.sea,
  });
}

/** Roughness of the thumbnails' water: the sun's glint shows as a soft highlight. */
const WATER_ROUGHNESS = 0.35;

/**
 * Floods `result` in place below `sea`'s level: each vertex under it moves out to the sea's radius
 * with a radial normal and the water's roughness; its colour stays the palette's, which already
 * fades the sea floor into the water's colour with depth (src/field/groundColours.ts). The coast
 * then runs through the triangles that have vertices on both sides.
 */
export function floodSea(result: Pick<PlanetThumbResult, 'positions' | 'normals' | 'colours' | 'originM'>, sea: Pick<SeaSpec, 'radiusM'>): void {
  const { positions, normals, colours, originM } = result;
  const [ox, oy, oz] = originM;
  for (let i = 0, n = positions.length / 3; i < n; i++) {
    const x = ox + positions[3 * i], y = oy + positions[3 * i + 1], z = oz + positions[3 * i + 2];
    const r = Math.hypot(x, y, z);
    if (!(r < sea.radiusM) || r === 0) continue;
    const s = sea.radiusM / r;
    positions[3 * i] = x * s - ox;
    positions[3 * i + 1] = y * s - oy;
    positions[3 * i + 2] = z * s - oz;
    normals[3 * i] = x / r;
    normals[3 * i + 1] = y / r;
    normals[3 * i + 2] = z / r;
    if (colours) colours[4 * i + 3] = Math.round(255 * WATER_ROUGHNESS);
  }
}
