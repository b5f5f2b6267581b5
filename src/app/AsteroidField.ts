/**
 * The explore scene's asteroid field: scene objects for every asteroid of the seed's
 * AsteroidFieldSpec, per-frame mesh-resolution choice by screen size, body jobs on the
 * workers, a budgeted apply step, and cross-fades between resolutions so no hole shows.
 *
 * What to request, cancel and show is the pure asteroid LOD policy (`asteroidLodStep`,
 * src/lod/asteroidLevels.ts): LEVEL_CELLS[l]³ cells over the asteroid's bounding box, level 0 first
 * for every asteroid, then the level its on-screen size asks for with hysteresis. This class does
 * what it says. A mesh stays drawn until its replacement is ready.
 *
 * A failed job is tried again with backoff (src/lod/retry.ts: 0.5, 1, 2 s). After that the
 * asteroid gives up: a wireframe placeholder marks it when it has no mesh at all (a coarser mesh
 * stays drawn otherwise), and the error report carries a retry action ({@link retryFailed}).
 * A user's brush edits (issue 19, {@link setBrushes}) register the edited recipe and mesh the drawn
 * level again, swapped in at once.
 *
 * One asteroid's state, and what is read from it alone, is src/app/asteroidState.ts; the pure
 * parts live in src/lod (LOD step, retry) and src/render (placeholder, off-frame compiles).
 */
import {
  Group,
  HemisphereLight,
  Mesh,
  Sphere,
  Vector3,
  type Material,
  type PerspectiveCamera,
  type Scene,
  type WebGLRenderer,
} from 'three';
import { brushesHash, compileToJs, type Brush, type FieldFn, type FieldRecipe } from '../field/index';
import { bodyMaterialField } from '../render/BodyMaterial';
import { compileDetail } from './asteroidDetail';
import { FamilyMaterials } from '../render/familyMaterial';
import { Sun } from '../render/Sun';
import { FailedPlaceholders } from '../render/failedPlaceholder';
import { ASTEROID_LEVEL_CELLS, asteroidLevel, asteroidLodStep } from '../lod/asteroidLevels';
import { spinSweepM, type AsteroidFieldSpec, type AsteroidSpec } from '../scene/index';
import type { BodyMeshResult } from '../jobs/bodyJob';
import type { BodyMesher } from '../workers/BodyMesher';
import { BudgetedApply } from './budgetedApply';
import type { Progress } from './progress';
import {
  asteroidStatus, bodyFramePoint, bodyJobParams, buildOutsideBox, colliderMesh, drawsNewestEdit, meshEntry, nearestAsteroid, newAsteroidState,
  type AsteroidState, type AsteroidStatus, type ColliderMesh, type MeshEntry,
} from './asteroidState';

export type { AsteroidStatus } from './asteroidState';

/** Cells per axis of each resolution level. */
export const LEVEL_CELLS = ASTEROID_LEVEL_CELLS;
/** Cross-fade duration between two resolutions, seconds. */
const FADE_S = 0.35;
/**
 * Projected radius (px) from which an asteroid gets its own BodyMaterial (per-pixel field
 * normals, field occlusion). Each one is a shader program with the whole recipe in it;
 * compiling one for each of dozens of specks would cost seconds for nothing visible, so far
 * asteroids share a per-family standard material until they come close.
 */
const DETAIL_MATERIAL_PX = 24;

export interface AsteroidFieldOptions {
  /** The bodies to show: a SceneSpec's `asteroids` (src/scene/sceneSpec.ts). */
  spec: AsteroidFieldSpec;
  progress: Progress;
  /**
   * Reports a problem to the user: a failure being retried (warning), or one given up on (error,
   * with a retry action). `key` is per asteroid, so a later report replaces an earlier one.
   */
  onError: (message: string, details?: { level: 'warning' | 'error'; key: string; retry?: () => void }) => void;
  /** Test hook: the asteroid whose jobs are told to throw in their worker, and how many of them. */
  debugFailIndex?: number;
  debugFailJobs?: number;
  /** Give near asteroids their own BodyMaterial (per-pixel field normals); default true. */
  detailMaterials?: boolean;
  /** For compiling body materials off the frame path (`compileAsync`). */
  renderer?: WebGLRenderer;
  scene?: Scene;
  /**
   * Shadow cascades of the field's sun (default 1). Explore shares the sun with the planet, which
   * fits 3 cascades near its surface; here the field fits cascade 0 and the others are parked.
   */
  sunCascades?: number;
}

const scratch = new Vector3();
const shadowBounds = new Sphere();

export class AsteroidField {
  readonly root = new Group();
  readonly sun: Sun;
  readonly spec: AsteroidFieldSpec;
  private readonly asteroids: AsteroidState[];
  /** Shared per-family materials for asteroids without their own BodyMaterial yet. */
  private readonly familyMaterials = new FamilyMaterials();
  private readonly results: { state: AsteroidState; level: number; result: BodyMeshResult; version: number }[] = [];
  private mesher: BodyMesher | null = null;
  /** Releases of the asteroids' worker registrations. */
  private readonly releases: (() => void)[] = [];
  /** JS fields compiled on demand (altitude queries). */
  private readonly fields = new Map<AsteroidState, FieldFn>();
  /** Finished jobs applied within the frame's budget, with the progress task (budgetedApply.ts). */
  private readonly applier: BudgetedApply;
  private geometryBytes = 0;
  private debugFailIndex: number;
  private debugFailJobs: number;
  private readonly placeholders = new FailedPlaceholders();
  private readonly detailMaterials: boolean;
  private disposed = false;
  /** Jobs dropped because the asteroid no longer wanted that level. */
  staleCancelled = 0;
  jobsDone = 0;
  /** Changes whenever a mesh or placeholder joins or leaves the scene (what the bodies cast into shadow maps). */
  castersVersion = 0;

  constructor(private readonly options: AsteroidFieldOptions) {
    this.root.name = 'asteroid field';
    this.spec = options.spec;
    this.debugFailIndex = options.debugFailIndex ?? -1;
    this.debugFailJobs = options.debugFailJobs ?? 1;
    this.detailMaterials = options.detailMaterials ?? true;
    this.applier = new BudgetedApply(options.progress, 'generating asteroids');
    this.sun = new Sun({ direction: this.spec.sunDirection, cascades: options.sunCascades ?? 1 });
    this.root.add(this.sun, new HemisphereLight(0x2a3040, 0x050403, 0.25));

    this.asteroids = this.spec.asteroids.map((spec) => newAsteroidState(spec));
    for (const a of this.asteroids) this.root.add(a.pivot);
  }

  /** Starts generating with the given mesher (once the sampling path is known). */
  start(mesher: BodyMesher): void {
    this.mesher = mesher;
    // Each asteroid's recipe goes to the workers once; its jobs name it (bodyRegistry.ts).
    for (const a of this.spec.asteroids) this.releases.push(mesher.registerBody(a.id, { recipe: a.recipe }));
    // Edits made before the workers were up (the URL's).
    for (const a of this.asteroids) if (a.bodyId !== a.spec.id) a.releaseEdit = mesher.registerBody(a.bodyId, { recipe: a.recipe });
  }

  /** Per frame: spin, choose levels, request jobs, apply finished meshes within budget, fade. */
  update(camera: PerspectiveCamera, viewportHeightPx: number, dtS: number, timeS: number): void {
    const pxPerRadian = viewportHeightPx / 2 / Math.tan((camera.fov * Math.PI) / 360);
    this.spin(timeS);
    for (const a of this.asteroids) {
      const distance = Math.max(1e-3, camera.position.distanceTo(a.pivot.position) - a.spec.radiusM * 0.5);
      a.radiusPx = (a.spec.radiusM / distance) * pxPerRadian;
      a.desired = asteroidLevel(a.radiusPx, a.current?.level ?? -1);
      if (this.detailMaterials && a.radiusPx >= DETAIL_MATERIAL_PX && a.detailState === 'none' && a.current) {
        compileDetail(a, camera, {
          renderer: this.options.renderer!, scene: this.options.scene!, onError: (m) => this.options.onError(m),
          bind: (entry, leavingFade) => this.bind(a, entry, leavingFade),
        });
      }
    }
    if (this.mesher) this.request();
    this.applier.step(() => this.applyNext(), () => this.pending() === 0);
    this.fade(dtS);
  }

  /** Turns every asteroid to where its spin has it at scene time `timeS`. */
  spin(timeS: number): void {
    for (const a of this.asteroids) a.pivot.quaternion.setFromAxisAngle(scratch.set(...a.spec.spinAxis), a.spec.phaseRad + a.spec.spinRadPerS * timeS);
  }

  private request(): void {
    const mesher = this.mesher!;
    const nowMs = performance.now();
    for (const a of this.asteroids) {
      const step = asteroidLodStep({
        radiusPx: a.radiusPx, drawnLevel: a.current?.level ?? -1, jobLevel: a.job?.level ?? -1,
        failed: a.failed !== null, retryReady: a.retry.ready(nowMs), edited: a.current !== null && a.current.version !== a.version,
      });
      if (step.cancelJob) {
        a.job!.job.cancel();
        this.staleCancelled++;
        this.applier.endedWithoutResult();
        a.job = null;
      }
      if (!step.request) continue;
      const { level, priority } = step.request;
      const debugThrow = a.spec.index === this.debugFailIndex && this.debugFailJobs > 0;
      if (debugThrow) this.debugFailJobs--;
      const job = mesher.mesh(bodyJobParams(a, LEVEL_CELLS[level], debugThrow), priority);
      const version = a.version;
      a.job = { level, job, version };
      this.applier.started();
      job.promise.then(
        (result) => {
          if (a.job?.job !== job) return;
          a.job = null;
          a.retry.reset();
          this.jobsDone++;
          this.results.push({ state: a, level, result, version });
        },
        (error: unknown) => {
          if (a.job?.job !== job) return; // cancelled as stale: already counted
          // Cancelled because the asteroid (or its scene) went away: not a failure (issue 45).
          if (this.disposed || (error instanceof Error && error.name === 'JobCancelledError')) return;
          a.job = null;
          this.applier.endedWithoutResult();
          this.onJobFailed(a, error instanceof Error ? `${error.name}: ${error.message}` : String(error));
        },
      );
    }
  }

  /** A job failed: try again after a backoff, or give up with a placeholder and a retry action. */
  private onJobFailed(a: AsteroidState, message: string): void {
    const what = `Asteroid ${a.spec.index} (seed ${a.spec.seed}) failed to generate: ${message}`;
    const key = `asteroid-${a.spec.index}`;
    const verdict = a.retry.fail(performance.now());
    if (verdict.retry) {
      this.options.onError(`${what}; trying again in ${verdict.delayMs / 1000} s (attempt ${verdict.attempt}).`, { level: 'warning', key });
      return;
    }
    a.failed = message;
    if (!a.current && !a.placeholder) {
      a.placeholder = this.placeholders.create(a.spec.radiusM);
      a.pivot.add(a.placeholder);
      this.castersVersion++;
    }
    this.options.onError(`${what}; gave up after ${verdict.attempts} attempts.`, { level: 'error', key, retry: () => this.retryFailed() });
  }

  /** The user's retry: every asteroid that gave up starts over (placeholders go when meshes come). */
  retryFailed(): void {
    for (const a of this.asteroids) {
      if (a.failed === null) continue;
      a.failed = null;
      a.retry.reset();
    }
  }

  private removePlaceholder(a: AsteroidState): void {
    if (!a.placeholder) return;
    this.castersVersion++;
    this.placeholders.remove(a.placeholder);
    a.placeholder = null;
  }

  /** Applies the oldest finished job's mesh (false: none waiting). */
  private applyNext(): boolean {
    const next = this.results.shift();
    if (!next) return false;
    const { state: a, level, result, version } = next;
    if (version !== a.version) return true; // made before the newest edit
    const edited = a.current !== null && a.current.version !== version;
    if (edited && a.detail && !a.detail.setFieldData(bodyMaterialField(a.recipe))) {
      // The edit outgrew the program's room for brushes: the family material until a new one compiles.
      a.detail.dispose();
      a.detail = null;
      a.detailState = 'none';
      for (const e of [a.current, a.leaving]) if (e && e.cellSizeM > 0) e.mesh.material = this.familyMaterials.get(a.spec.family);
    }
    if (result.indices.length === 0) {
      // An empty mesh at this level (a sliver smaller than a cell, or all of it dug away): record it as done.
      this.swap(a, { level, mesh: new Mesh(), hash: result.hash, bytes: 0, fadeIn: 1, originM: result.originM, cellSizeM: 0, version });
      return true;
    }
    // Cross-fade only where the dither can do it: between two BodyMaterial meshes; an edit shows at once.
    const fadeIn = a.current && a.detail && !edited ? 0 : 1;
    const entry = meshEntry(result, level, a.grid.extentM / LEVEL_CELLS[level], this.materialFor(a), fadeIn, version);
    this.geometryBytes += entry.bytes;
    this.bind(a, entry);
    this.swap(a, entry);
    return true;
  }

  private swap(a: AsteroidState, entry: MeshEntry): void {
    this.removePlaceholder(a);
    if (a.leaving) this.disposeEntry(a.leaving);
    a.leaving = a.current;
    a.current = entry;
    a.body.add(entry.mesh);
    this.castersVersion++;
    if (entry.fadeIn >= 1 && a.leaving) {
      this.disposeEntry(a.leaving);
      a.leaving = null;
    }
  }

  private fade(dtS: number): void {
    for (const a of this.asteroids) {
      const c = a.current;
      if (!c || c.fadeIn >= 1) continue;
      c.fadeIn = Math.min(1, c.fadeIn + dtS / FADE_S);
      this.bind(a, c);
      if (a.leaving) this.bind(a, a.leaving, 1 - c.fadeIn);
      if (c.fadeIn >= 1 && a.leaving) {
        this.disposeEntry(a.leaving);
        a.leaving = null;
      }
    }
  }

  private materialFor(a: AsteroidState): Material {
    if (a.detail) return a.detail;
    return this.familyMaterials.get(a.spec.family);
  }

  /** Per-mesh BodyMaterial state: where its positions start, its cell size, its fade. */
  private bind(a: AsteroidState, entry: MeshEntry, leavingFade?: number): void {
    if (!a.detail || entry.cellSizeM === 0) return;
    a.detail.bindChunk(entry.mesh, {
      chunkOriginM: entry.originM,
      cellSizeM: entry.cellSizeM,
      fade: leavingFade ?? entry.fadeIn,
      fadeComplement: leavingFade !== undefined,
    });
  }

  /** The one place meshes leave the scene and free their GPU memory. */
  private disposeEntry(entry: MeshEntry): void {
    this.castersVersion++;
    entry.mesh.removeFromParent();
    entry.mesh.geometry.dispose();
    this.geometryBytes -= entry.bytes;
  }

  /** Jobs submitted and not finished, plus results waiting to be applied. */
  pending(): number {
    return this.asteroids.filter((a) => a.job !== null).length + this.results.length;
  }

  /** Every asteroid has the level its screen size asks for (or failed), and nothing is in flight. */
  allGenerated(): boolean {
    return this.pending() === 0 && this.asteroids.every((a) => a.failed !== null || a.current?.level === a.desired);
  }

  /**
   * Generated, every wanted material compiled and no cross-fade running: the image will not
   * change by itself.
   */
  settled(): boolean {
    return (
      this.allGenerated() &&
      this.asteroids.every((a) => a.leaving === null && (a.current?.fadeIn ?? 1) >= 1 && a.detailState !== 'compiling') &&
      !this.asteroids.some((a) => this.detailMaterials && a.detailState === 'none' && a.current && a.radiusPx >= DETAIL_MATERIAL_PX)
    );
  }

  status(): AsteroidStatus[] {
    return this.asteroids.map(asteroidStatus);
  }

  /** One line for the stats overlay. */
  statsLine(): string {
    const ready = this.asteroids.filter((a) => a.current !== null).length;
    const pool = this.mesher?.pool;
    return (
      `asteroids ${ready}/${this.asteroids.length} · jobs queued ${pool?.queued ?? 0} busy ${pool?.busy ?? 0}/${pool?.size ?? 0}` +
      ` · done ${this.jobsDone} · stale ${this.staleCancelled} · geometry ${(this.geometryBytes / 2 ** 20).toFixed(1)} MiB`
    );
  }

  /**
   * Fits the sun's shadow camera around the asteroids near `focus` (world metres); with
   * `castersVersion` the map is rendered only when the fit or the version changed (Sun.fitShadow).
   */
  fitShadows(focus: Vector3, radiusM: number, castersVersion?: number): void {
    this.sun.fitShadow(shadowBounds.set(focus, radiusM), castersVersion);
  }

  /** spinSweepM (src/scene/asteroidField.ts) over this field's asteroids. */
  spinSweepM(focus: Vector3, reachM: number, dtS: number): number {
    return spinSweepM(this.spec.asteroids, [focus.x, focus.y, focus.z], reachM, dtS);
  }

  /**
   * The field of the nearest asteroid at a world point: roughly the distance to its surface
   * (negative inside), metres. Drives fly speed and keeps tests honest about "outside".
   */
  fieldAt(pointWorld: Vector3): number {
    const near = nearestAsteroid(this.asteroids, pointWorld);
    let f = this.fields.get(near);
    if (!f) {
      f = compileToJs(near.recipe);
      this.fields.set(near, f);
    }
    near.body.updateWorldMatrix(true, false);
    const p = near.body.worldToLocal(scratch.copy(pointWorld));
    return f(p.x, p.y, p.z);
  }

  /** The spinning group of asteroid `index` (its meshes in the body's own frame below it). */
  pivotOf(index: number): Group {
    return this.asteroids[index].pivot;
  }

  /**
   * Gives asteroid `index` the user's brushes (issue 19), in order, on top of its generated recipe:
   * the edited recipe is registered with the workers under its own id (content-addressed, so undoing
   * every edit returns to the spec's id and its programs) and the drawn level is meshed again; the
   * new mesh replaces the old at once ({@link editDrawn}). Returns why not, or null.
   */
  setBrushes(index: number, brushes: readonly Brush[]): string | null {
    const a = this.asteroids[index];
    if (!a) return `no asteroid ${index} in this scene`;
    const outside = buildOutsideBox(a, brushes, LEVEL_CELLS[LEVEL_CELLS.length - 1]);
    if (outside) return outside;
    const base = a.spec.recipe;
    const recipe: FieldRecipe = { ...base, brushes: [...base.brushes, ...brushes] };
    const id = brushes.length > 0 ? `${a.spec.id}/e${brushesHash(brushes)}` : a.spec.id;
    if (id === a.bodyId) return null;
    const release = a.releaseEdit;
    a.releaseEdit = id !== a.spec.id && this.mesher ? this.mesher.registerBody(id, { recipe }) : null;
    release?.();
    a.recipe = recipe;
    a.bodyId = id;
    a.version++;
    // A body that gave up is tried again with its new recipe.
    a.failed = null;
    a.retry.reset();
    this.fields.delete(a);
    if (a.job) {
      a.job.job.cancel();
      this.applier.endedWithoutResult();
      a.job = null;
    }
    return null;
  }

  /** Why asteroid `index` cannot take `brush` (a build past its meshed box), or null. */
  brushProblem(index: number, brush: Brush): string | null {
    const a = this.asteroids[index];
    return a ? buildOutsideBox(a, [brush], LEVEL_CELLS[LEVEL_CELLS.length - 1]) : `no asteroid ${index} in this scene`;
  }

  /** Asteroid `index` draws a mesh of its newest edit (or of its spec, never edited). */
  editDrawn(index: number): boolean {
    const a = this.asteroids[index];
    return a !== undefined && drawsNewestEdit(a);
  }

  /** A world point in asteroid `index`'s own frame (its recipe's), metres. */
  toBodyFrame(index: number, world: Vector3): [number, number, number] {
    return bodyFramePoint(this.asteroids[index], world);
  }

  /** Asteroid `index`'s drawn mesh as a collider sees it (asteroidState.ts colliderMesh); null before its first mesh. */
  drawnMesh(index: number): ColliderMesh | null {
    return colliderMesh(this.asteroids[index]);
  }

  /** The asteroid nearest to `point`, with its surface distance estimate. */
  nearest(point: Vector3): { spec: AsteroidSpec; center: Vector3; distanceM: number } {
    const best = nearestAsteroid(this.asteroids, point);
    return { spec: best.spec, center: best.pivot.position.clone(), distanceM: point.distanceTo(best.pivot.position) - best.spec.radiusM };
  }

  dispose(): void {
    this.disposed = true;
    for (const a of this.asteroids) {
      a.job?.job.cancel();
      a.releaseEdit?.();
      this.removePlaceholder(a);
      if (a.current) this.disposeEntry(a.current);
      if (a.leaving) this.disposeEntry(a.leaving);
    }
    this.applier.finish();
    for (const release of this.releases.splice(0)) release();
    this.familyMaterials.dispose();
    this.placeholders.dispose();
    for (const a of this.asteroids) {
      a.detailState = 'failed'; // a compile still in flight disposes its material when it lands
      a.detail?.dispose();
    }
    this.sun.dispose();
    this.root.removeFromParent();
  }
}
