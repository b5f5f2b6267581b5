/**
 * The asteroid gallery's thumbnails (`mode=gallery`, the default kind): each seed's asteroid — what
 * `mode=asteroid&seed=…` explores — meshed by the body job on the workers and drawn with the Sun and
 * its shadow map, BodyMaterial at high quality or the per-family standard material otherwise.
 *
 * Deterministic: the mesh is a pure function of the seed, the camera and the sun are frozen per
 * seed, and nothing depends on time.
 */
import { Color, HemisphereLight, Mesh, PerspectiveCamera, Scene, Sphere, Vector3, type Material, type WebGLRenderer } from 'three';
import { BodyMaterial, bodyMaterialField } from '../render/BodyMaterial';
import { FamilyMaterials } from '../render/familyMaterial';
import { Sun } from '../render/Sun';
import { createBodyGeometry } from '../render/bodyGeometry';
import { compileForFrames, type FrameOutput } from '../render/FrameOutput';
import { frameMesh } from '../render/frameMesh';
import { BODY_SIMPLIFY } from '../mesher/index';
import { asteroidGrid, sceneSpec, type AsteroidSpec } from '../scene/index';
import type { BodyMeshResult } from '../jobs/bodyJob';
import type { BodyMesher } from '../workers/BodyMesher';
import { renderThumbnail, type ThumbJob, type ThumbSource } from './galleryThumbs';

/** Vertical field of view of the frozen thumbnail camera, degrees. */
const THUMB_FOV_DEG = 30;
/** How much of the frame height the mesh fills. */
const FILL = 0.86;
export const GALLERY_BACKGROUND = new Color(0x06080c);

export type GalleryQuality = 'low' | 'high';

export interface AsteroidThumbsOptions {
  renderer: WebGLRenderer;
  output: FrameOutput;
  mesher: BodyMesher;
  /** `high`: BodyMaterial (per-pixel field detail); `low`: the per-family standard material. */
  quality: GalleryQuality;
  thumbPx: number;
  /** Mesh cells per axis: 32 or 64 (64: a 256 px thumbnail needs ~50 at 5 px a cell). */
  cells: 32 | 64;
}

export class AsteroidThumbs implements ThumbSource<BodyMeshResult> {
  readonly title = 'Asteroids';
  private readonly options: AsteroidThumbsOptions;
  /** Per-family standard materials (quality low), owned here. */
  private readonly familyMaterials = new FamilyMaterials();
  private disposed = false;

  constructor(options: AsteroidThumbsOptions) {
    this.options = options;
  }

  label(seed: number): string {
    return cellAsteroid(seed).family;
  }

  ariaLabel(seed: number): string {
    return `Asteroid seed ${seed}: open in the explorer`;
  }

  cacheKey(seed: number): string {
    return `asteroid:${seed}:${this.options.quality}:${this.options.thumbPx}:${this.options.cells}`;
  }

  request(seed: number, priority: number): ThumbJob<BodyMeshResult> {
    const { mesher, cells } = this.options;
    const spec = cellAsteroid(seed);
    const grid = asteroidGrid(spec);
    // Registered for its one job: released when the job ends (meshed, failed or cancelled).
    const release = mesher.registerBody(spec.id, { recipe: spec.recipe });
    const job = mesher.mesh({ body: spec.id, cells, originM: grid.originM, stepM: grid.extentM / cells, simplify: BODY_SIMPLIFY, bvh: false }, priority);
    job.promise.finally(release).catch(() => {});
    return job;
  }

  /** Renders one asteroid at the thumbnail size (its BodyMaterial compiled first, without blocking a frame). */
  async draw(seed: number, result: BodyMeshResult): Promise<ImageData> {
    const spec = cellAsteroid(seed);
    const { scene, camera, mesh, sun, material } = this.thumbnailScene(spec, result);
    try {
      if (material instanceof BodyMaterial) {
        // The body's own program: compiled without blocking the frame (KHR_parallel_shader_compile).
        await compileForFrames(this.options.renderer, scene, camera);
        if (this.disposed) throw new Error('gallery disposed');
      }
      return renderThumbnail(this.options.renderer, this.options.output, scene, camera, this.options.thumbPx);
    } finally {
      mesh.geometry.dispose();
      if (material instanceof BodyMaterial) material.dispose();
      sun.dispose();
    }
  }

  /** The frozen scene of one thumbnail: the asteroid at the origin, its seeded sun, a fixed camera. */
  private thumbnailScene(spec: AsteroidSpec, result: BodyMeshResult): { scene: Scene; camera: PerspectiveCamera; mesh: Mesh; sun: Sun; material: Material } {
    const single = sceneSpec(spec.seed, 'asteroid');
    const scene = new Scene();
    scene.background = GALLERY_BACKGROUND;
    const sun = new Sun({ direction: single.sunDirection, shadowMapSize: 1024 });
    scene.add(sun, new HemisphereLight(0x2a3040, 0x050403, 0.25));

    const material = this.materialFor(spec);
    const geometry = createBodyGeometry(result);
    const mesh = new Mesh(geometry, material);
    mesh.castShadow = mesh.receiveShadow = true;
    // Body-local frame with the bounding-sphere center at the world origin.
    mesh.position.set(result.originM[0] - spec.bodyCenterM[0], result.originM[1] - spec.bodyCenterM[1], result.originM[2] - spec.bodyCenterM[2]);
    if (material instanceof BodyMaterial) {
      // BodyMaterial works in body-local metres: keep the body frame, move the whole scene.
      material.bindChunk(mesh, { chunkOriginM: result.originM, cellSizeM: asteroidGrid(spec).extentM / this.options.cells, fade: 1 });
    }
    scene.add(mesh);

    // Frozen camera: from beside the sun direction (the terminator shows), looking along a
    // fixed direction and framed on the mesh's own silhouette (a bounding sphere leaves
    // elongated shards tiny in their cell).
    const sunDir = new Vector3(...single.sunDirection);
    const side = new Vector3(0, 1, 0).cross(sunDir).normalize();
    const toCamera = sunDir.multiplyScalar(0.45).add(side.multiplyScalar(0.9)).normalize();
    const camera = new PerspectiveCamera(THUMB_FOV_DEG, 1, 1, 2);
    frameMesh(camera, mesh, toCamera, FILL);
    sun.fitShadow(new Sphere(new Vector3(), spec.radiusM));
    return { scene, camera, mesh, sun, material };
  }

  private materialFor(spec: AsteroidSpec): Material {
    if (this.options.quality === 'high') {
      return new BodyMaterial(bodyMaterialField(spec.recipe), { family: spec.family, seed: spec.seed });
    }
    return this.familyMaterials.get(spec.family);
  }

  dispose(): void {
    this.disposed = true;
    this.familyMaterials.dispose();
  }
}

/** A cell's asteroid: what `mode=asteroid&seed=…` explores (sceneSpec.ts). */
function cellAsteroid(seed: number): AsteroidSpec {
  return sceneSpec(seed, 'asteroid').asteroids!.asteroids[0];
}
