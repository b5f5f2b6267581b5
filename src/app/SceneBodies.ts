/**
 * The bodies of the scene shown now, built from its SceneSpec (src/scene/sceneSpec.ts says what is
 * in a scene; this draws it): an AsteroidField for the asteroids, a PlanetView for the planet, one
 * sun for both (the field's when there is one, so explore lights and shadows every body alike).
 * Each frame it decides which body the camera is at — that one gets the sun's shadow cascades
 * and the body workers first — and answers the shell's questions about surfaces (altitude,
 * collision, the nearest body).
 */
import { Color, Vector3, type Group, type PerspectiveCamera, type Scene, type WebGLRenderer } from 'three';
import { collideMove } from '../interact/collision';
import { pushOutside } from '../interact/keepOutside';
import { SHADOW_CASTER_REACH, type Sun } from '../render/Sun';
import { Atmosphere } from '../render/Atmosphere';
import { PlanetLayers } from '../render/PlanetLayers';
import type { PlanetGroundOptions } from '../render/planetGround';
import { planetGround } from '../scene/planets';
import {
  asteroidEdit, editTargetName, EditHistory, MAX_EDITS, parseEdits, PLANET_EDIT,
  type BrushEdit, type EditTarget, type FieldRecipe, type ParsedEdits,
} from '../field/index';
import { PlanetEdits } from '../lod/index';
import type { ScenePlanet, SceneSpec } from '../scene/index';
import type { BodyMesher } from '../workers/BodyMesher';
import { AsteroidField } from './AsteroidField';
import { BACKGROUND_PRIORITY, PlanetView } from './PlanetView';
import { Probes, type ProbeStats } from './Probes';
import type { Progress } from './progress';
import { StartupTimeline } from './startupTimeline';

export interface SceneBodiesOptions {
  renderer: WebGLRenderer;
  scene: Scene;
  /** Where the bodies' roots go (the floating-origin world group). */
  world: Group;
  progress: Progress;
  /**
   * Reports a problem on the page (a per-body `key` replaces that body's last report; reports of one
   * `group` show as one line with a count). The shell takes them away with the scene.
   */
  report: (level: 'warning' | 'error', message: string, key?: string, retry?: () => void, group?: string) => void;
  /** Per-pixel field detail on asteroids (quality high, or auto on a real GPU). */
  detailMaterials: boolean;
  /**
   * Octaves of the planet ground's close-range detail (src/render/planetGround.ts,
   * GROUND_DETAIL_OCTAVES by quality; 0: none).
   */
  planetDetailOctaves: number;
  /** The planet's time budget (s; `lodTime=`, src/lod/timeFactor.ts); default: PlanetView's. */
  planetTimeBudgetS?: number;
  /** The user's brush edits to show: the URL's `edits` (issue 19; urlState.ts checked them). */
  edits?: string;
  /** A software GPU: the atmosphere's smaller tables and fewer steps. */
  softwareGpu?: boolean;
  /** Test hooks: the asteroid whose body jobs throw in their worker, and how many. */
  debugFailAsteroid?: number;
  debugFailJobs?: number;
}

/** What the shell shows each frame on its overlay, by line key. */
export type StatsLines = Partial<Record<'field' | 'planet', string>>;

export class SceneBodies {
  readonly field: AsteroidField | null;
  readonly planet: PlanetView | null;
  /** The light of every body. */
  readonly sun: Sun;
  /** The planet's air (null: airless or no planet); its sky passes are in the scene. */
  readonly atmosphere: Atmosphere | null;
  /** The planet's sea and cloud layer (issue 41; null: neither), drawn per pixel in the scene. */
  readonly layers: PlanetLayers | null;
  /** How bright the sky is at the camera, 0 (space, night) – 1 (day under the air): stars fade with it. */
  daylight = 0;
  private readonly renderer: WebGLRenderer;
  /** When this scene's start reached each stage (`window.__sr.startup()`). */
  readonly startup = new StartupTimeline();
  /** Thrown probes and their physics. */
  readonly probes: Probes;
  /** The brush edits shown now; each body's brushes are its own list filtered from them. */
  readonly edits: EditHistory;
  /** Bodies that had edits (an undo of a body's last edit must still reach it). */
  /** Bodies that have or had edits, by {@link editTargetName}. */
  private readonly editedTargets = new Map<string, EditTarget>();
  /** What cast into the planet's shadow maps at the last fit, and its version (fitPlanetShadows). */
  private readonly castersSeen = { pieces: -1, asteroids: -1, probes: -1, timeS: Number.NaN, version: 0 };
  /** What the asteroid field's shadow map was last rendered for (fitFieldShadows). */
  private readonly fieldCastersSeen = { asteroids: -1, probes: -1, renderedS: Number.NaN, version: 0 };

  constructor(readonly spec: SceneSpec, options: SceneBodiesOptions) {
    this.renderer = options.renderer;
    const air = spec.planet?.atmosphere;
    this.atmosphere = air ? new Atmosphere(air, { software: options.softwareGpu }) : null;
    if (this.atmosphere) options.scene.add(this.atmosphere.sky);
    this.field = spec.asteroids && new AsteroidField({
      spec: spec.asteroids,
      progress: options.progress,
      onError: (message, details) => options.report(details?.level ?? 'error', message, details?.key, details?.retry, 'asteroids'),
      debugFailIndex: options.debugFailAsteroid,
      debugFailJobs: options.debugFailJobs,
      renderer: options.renderer,
      scene: options.scene,
      detailMaterials: options.detailMaterials,
      // Explore: the planet shares this sun and needs its cascades near the surface.
      sunCascades: spec.planet ? 3 : 1,
    });
    // The layers before the planet: its ground materials take the clouds' shadow (PlanetClouds).
    const p = spec.planet;
    this.layers = p && (p.sea || p.clouds) ? new PlanetLayers({
      seed: p.seed, sea: p.sea, clouds: p.clouds, atmosphere: this.atmosphere, software: options.softwareGpu,
      lowestGroundM: p.atmosphere?.bottomRadiusM ?? planetGround(p.recipe).lowestM,
    }) : null;
    this.planet = spec.planet && new PlanetView({
      bodyId: spec.planet.id,
      recipe: spec.planet.recipe,
      centerM: spec.planet.centerM,
      sunDirection: spec.sunDirection,
      sun: this.field?.sun,
      progress: options.progress,
      onError: (message, level) => options.report(level ?? 'error', message, undefined, undefined, 'planet'),
      renderer: options.renderer,
      scene: options.scene,
      atmosphere: this.atmosphere,
      ground: spec.planet && planetGroundOptions(spec.planet, options.planetDetailOctaves),
      timeBudgetS: options.planetTimeBudgetS,
    });
    this.sun = (this.field ?? this.planet)!.sun;
    if (this.layers) options.scene.add(this.layers.root);
    for (const body of [this.field, this.planet]) if (body) options.world.add(body.root);
    this.probes = new Probes(this.field, this.planet, options.world, spec.planet?.sea?.radiusM ?? null);
    this.edits = new EditHistory();
    // The URL's parser named entries that are no edits at all; the scene names those it has no place for.
    const problems = this.loadEdits(parseEdits(options.edits ?? ''));
    if (problems.length > 0) options.report('warning', `URL edits: ${problems.join('; ')}; showing the others`, 'edits');
  }

  /**
   * Shows the good edits of a parsed `edits=` (a URL's, Back/Forward), each checked on its own against
   * this scene (its body exists, the brush fits the body's meshed space): the rest are named, none
   * takes the others with it. Undo starts over. Returns the problems.
   */
  loadEdits(parsed: Pick<ParsedEdits, 'edits' | 'texts'>): string[] {
    const kept: BrushEdit[] = [];
    const problems: string[] = [];
    parsed.edits.slice(0, MAX_EDITS).forEach((e, i) => {
      const problem = this.editProblem(e);
      if (problem) problems.push(`edit "${parsed.texts[i] ?? i + 1}": ${problem}`);
      else kept.push(e);
    });
    const problem = this.replaceEdits(kept);
    return problem ? [...problems, problem] : problems;
  }

  /** Why this scene cannot show `e` on its own, or null. */
  private editProblem(e: BrushEdit): string | null {
    const problem = this.checkTarget(e.target);
    if (problem) return problem;
    if (e.target.kind === 'planet') return new PlanetEdits(this.planet!.chunkSpace).problem([e.brush]);
    return this.field!.brushProblem(e.target.index, e.brush);
  }

  /** A new edit (a click of the brush tool); null, or why it was refused (nothing changed then). */
  addEdit(edit: BrushEdit): string | null {
    if (this.edits.edits.length >= MAX_EDITS) return `at most ${MAX_EDITS} edits a scene: undo one first`;
    const problem = this.show([...this.edits.edits, edit]);
    if (!problem) this.edits.push(edit);
    return problem;
  }

  /** Takes back the newest edit (null: none). */
  undoEdit(): BrushEdit | null {
    const e = this.edits.undo();
    if (e) this.show(this.edits.edits);
    return e;
  }

  /** Puts back the newest undone edit (null: none). */
  redoEdit(): BrushEdit | null {
    const e = this.edits.redo();
    if (e) this.show(this.edits.edits);
    return e;
  }

  /** Shows `edits` instead of the current ones (a URL's, Back/Forward, an import); undo starts over. */
  replaceEdits(edits: readonly BrushEdit[]): string | null {
    if (edits.length > MAX_EDITS) return `${edits.length} edits: at most ${MAX_EDITS} a scene`;
    const problem = this.show(edits);
    if (!problem) this.edits.replace(edits);
    return problem;
  }

  /**
   * Shows `edits` (the whole list, oldest first): each body that has or had edits gets its brushes.
   * Returns the first problem (an asteroid index not in this scene, a build out of its box), in
   * which case nothing changed.
   */
  private show(edits: readonly BrushEdit[]): string | null {
    const next = new EditHistory(edits);
    const targets = [...new Map<string, EditTarget>([...this.editedTargets, ...edits.map((e) => [editTargetName(e.target), e.target] as const)]).values()];
    for (const t of targets) {
      const problem = this.checkTarget(t);
      if (problem) return problem;
    }
    const applied: EditTarget[] = [];
    for (const t of targets) {
      const problem = this.setBrushes(t, next.brushesFor(t));
      if (problem) {
        // Put back what this call changed: all or nothing.
        for (const u of applied) this.setBrushes(u, this.edits.brushesFor(u));
        return problem;
      }
      applied.push(t);
    }
    for (const t of targets) this.editedTargets.set(editTargetName(t), t);
    return null;
  }

  private checkTarget(t: EditTarget): string | null {
    if (t.kind === 'planet') return this.planet ? null : 'this scene has no planet';
    return this.field && t.index < this.field.spec.asteroids.length ? null : `this scene has no asteroid ${t.index}`;
  }

  private setBrushes(t: EditTarget, brushes: ReturnType<EditHistory['brushesFor']>): string | null {
    if (t.kind === 'planet') return this.planet!.setBrushes(brushes);
    return this.field!.setBrushes(t.index, brushes);
  }

  /** Every body the user may edit here. */
  editTargets(): EditTarget[] {
    const out: EditTarget[] = this.planet ? [PLANET_EDIT] : [];
    for (const a of this.field?.spec.asteroids ?? []) out.push(asteroidEdit(a.index));
    return out;
  }

  /** A body's recipe: with the scene's edits as brushes (export), or as generated (`edited` false). */
  recipeOf(t: EditTarget, edited = true): FieldRecipe {
    const base = t.kind === 'planet' ? this.spec.planet!.recipe : this.spec.asteroids!.asteroids[t.index].recipe;
    return edited ? { ...base, brushes: [...base.brushes, ...this.edits.brushesFor(t)] } : base;
  }

  /** Every edited body draws its newest edit. */
  editsDrawn(): boolean {
    for (const t of this.editedTargets.values()) {
      const drawn = t.kind === 'planet' ? this.planet!.editDrawn() : this.field!.editDrawn(t.index);
      if (!drawn) return false;
    }
    return true;
  }

  /** Throws a probe from the camera along its view (or toward a world point); its id. */
  throwProbe(camera: PerspectiveCamera, speedMS?: number, toward?: [number, number, number]): number {
    return this.probes.throwFrom(camera, speedMS, toward);
  }

  /** The probes' physics counters (`window.__sr.physics()`). */
  physics(): ProbeStats {
    return this.probes.stats();
  }

  /** Starts generation on the body workers (once the sampling probe has answered). */
  start(mesher: BodyMesher): void {
    this.startup.note('jobsStarted');
    this.field?.start(mesher);
    this.planet?.start(mesher);
  }

  /**
   * One frame: LOD, jobs, fades and shadows for the camera. `orbitTarget` is what the orbit camera
   * looks at (its asteroid gets the field's shadows).
   */
  update(camera: PerspectiveCamera, orbitTarget: Vector3, heightPx: number, dtS: number, timeS: number): StatsLines {
    const lines: StatsLines = {};
    this.noteStartup();
    const atPlanet = this.atPlanet(camera.position);
    if (this.field) this.field.spin(timeS);
    this.keepOutside(camera.position); // after the spin: a surface swept over the camera pushes it out
    if (this.field) {
      this.field.update(camera, heightPx, dtS, timeS);
      if (!atPlanet) this.fitFieldShadows(this.field, orbitTarget, timeS);
      lines.field = this.field.statsLine();
    }
    this.probes.update(timeS);
    if (this.planet) {
      this.planet.priorityOffset = atPlanet ? 0 : BACKGROUND_PRIORITY;
      this.planet.update(camera, heightPx);
      if (atPlanet) this.fitPlanetShadows(camera, timeS);
      lines.planet = this.planet.statsLine(camera);
    }
    if (this.atmosphere && this.planet) {
      const light = this.sun.light;
      const illuminance = scratchColor.copy(light.color).multiplyScalar(light.intensity);
      this.daylight = this.atmosphere.update(this.renderer, camera.position, this.planet.root.position, this.sun.direction, illuminance);
    }
    if (this.layers && this.planet) {
      const light = scratchColor.copy(this.sun.light.color).multiplyScalar(this.sun.light.intensity);
      this.layers.update(this.renderer, camera, this.planet.root.position, heightPx, timeS, this.sun.direction, light);
    }
    return lines;
  }

  /**
   * The camera is at the planet rather than among the asteroids: nearer the planet's surface than
   * any asteroid's (always in planet mode, never without a planet).
   */
  atPlanet(point: Vector3): boolean {
    if (!this.planet) return false;
    if (!this.field) return true;
    return this.planet.altitude(point) < this.field.nearest(point).distanceM;
  }

  /** Height of `point` above the nearest surface, metres (100 where nothing says). */
  altitude(point: Vector3): number {
    const planet = this.planet ? this.planet.altitude(point) : Infinity;
    const field = this.field ? this.field.fieldAt(point) : Infinity;
    const h = Math.min(planet, field);
    return Number.isFinite(h) ? h : 100;
  }

  /** Stops a move 1 m short of the first surface along it (BVH raycast; the field on planets). */
  collide(from: Vector3, to: Vector3): Vector3 {
    return collideMove(from, to, {
      meshes: this.field?.root ?? null,
      blockedAt: this.planet ? (p) => this.planet!.altitude(p) < 1 : undefined,
    });
  }

  /**
   * Keeps `point` (the camera) at least {@link KEEP_OUT_M} outside every body, pushed out along the
   * field (src/interact/keepOutside.ts); returns whether it moved.
   */
  keepOutside(point: Vector3): boolean {
    let moved = false;
    if (this.field) {
      const near = this.field.nearest(point);
      moved = pushOutside(point, (p) => this.field!.fieldAt(p), KEEP_OUT_M, near.center, near.spec.radiusM * 2);
    }
    const planet = this.planet;
    if (planet) moved = pushOutside(point, (p) => planet.altitude(p), KEEP_OUT_M, planet.root.position, planet.radiusM * 1.2) || moved;
    return moved;
  }

  /** The nearest asteroid's center when it is ahead of `position` along `ahead`, else null. */
  bodyAhead(position: Vector3, ahead: Vector3): Vector3 | null {
    const near = this.field?.nearest(position);
    if (!near) return null;
    return scratch.copy(near.center).sub(position).dot(ahead) > 0 ? near.center : null;
  }

  /** The start's stages reached by the frame before this one (a stage reached is not asked again). */
  private noteStartup(): void {
    const { field, planet, startup } = this;
    startup.note('firstFrame');
    if (field) {
      startup.note('asteroidsGenerated', () => field.allGenerated());
      startup.note('asteroidsSettled', () => field.settled());
    }
    if (planet) startup.note('planetComplete', () => planet.stats().complete);
  }

  /** Nothing left to generate, compile or fade in. */
  settled(): boolean {
    const planet = this.planet?.stats();
    if (planet && !planet.complete) return false;
    return (this.field?.settled() ?? true) && this.editsDrawn();
  }

  /**
   * The sun's cascades at the planet, for `camera` at scene time `timeS`: a map is rendered again
   * only when its fit or what casts into it changed (Sun.fitCascades `castersVersion`) — the
   * planet's drawn pieces, the asteroids' meshes, the probes drawn, or anything that moves:
   * asteroids spinning while scene time runs, probes in flight (a probe at rest stays put).
   */
  fitPlanetShadows(camera: PerspectiveCamera, timeS: number): void {
    if (!this.planet) return;
    const seen = this.castersSeen;
    const now = { pieces: this.planet.castersVersion, asteroids: this.field?.castersVersion ?? 0, probes: this.probes.drawnCount };
    const moving = this.probes.anyMoving || (this.field !== null && timeS !== seen.timeS);
    if (moving || now.pieces !== seen.pieces || now.asteroids !== seen.asteroids || now.probes !== seen.probes) seen.version++;
    Object.assign(seen, now, { timeS });
    this.planet.fitShadows(camera, seen.version);
  }

  /**
   * The sun's map around the asteroid the orbit camera looks at, rendered again only when what
   * casts into it moved (Sun.fitShadow `castersVersion`): a mesh swapped in or out, probes drawn or
   * flying, or spin since the last render past half a texel (spinSweepM: a still view of a slowly
   * turning field renders the map every few frames, not every frame; 0.6 of 6.4 ms on the H100).
   */
  private fitFieldShadows(field: AsteroidField, orbitTarget: Vector3, timeS: number): void {
    const near = field.nearest(orbitTarget);
    const radiusM = near.spec.radiusM * 1.6;
    const seen = this.fieldCastersSeen;
    // Casters as far as the light's box reaches towards the sun beyond the sphere (Sun.fitShadow).
    const reachM = (1 + SHADOW_CASTER_REACH) * radiusM;
    const sweepM = Number.isFinite(seen.renderedS) ? field.spinSweepM(near.center, reachM, timeS - seen.renderedS) : Infinity;
    const now = { asteroids: field.castersVersion, probes: this.probes.drawnCount };
    if (sweepM > 0.5 * this.sun.shadowTexelM || this.probes.anyMoving || now.asteroids !== seen.asteroids || now.probes !== seen.probes) {
      Object.assign(seen, now, { renderedS: timeS, version: seen.version + 1 });
    }
    field.fitShadows(near.center, radiusM, seen.version);
  }

  /** After a lost WebGL context is restored: the atmosphere's tables and every shadow map are rendered again. */
  contextRestored(): void {
    this.atmosphere?.invalidate();
    this.layers?.invalidate();
    this.sun.invalidateShadows();
  }

  dispose(): void {
    this.atmosphere?.dispose();
    this.layers?.dispose();
    this.probes.dispose();
    this.field?.dispose();
    this.planet?.dispose();
  }
}

const scratch = new Vector3();
/** How far outside every body the camera stays, metres (the fly collision's margin). */
const KEEP_OUT_M = 1;

/** The palette seed, mean radius, relief, class, sea and detail octaves the planet's ground shading needs. */
function planetGroundOptions(planet: ScenePlanet, detailOctaves: number): PlanetGroundOptions {
  const ground = planetGround(planet.recipe);
  return { seed: planet.seed, meanRadiusM: ground.meanRadiusM, reliefM: ground.meanRadiusM - ground.lowestM, detailOctaves, planetClass: planet.planetClass, sea: planet.sea };
}
const scratchColor = new Color();
