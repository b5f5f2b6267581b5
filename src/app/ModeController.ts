/**
 * Which scene the page shows, and the URL that says so: the explorer's bodies (explore, asteroid
 * and planet modes, built from their SceneSpec by SceneBodies) or the gallery, the switches
 * between them (a seed, a gallery cell, an imported recipe, Back/Forward), and the camera and
 * panel that follow a new state. A state that shows the same scene as the last (sceneChoice.ts)
 * keeps it and only moves the camera.
 */
import type { FieldRecipe } from '../field/index';
import { GROUND_DETAIL_OCTAVES } from '../render/planetGround';
import type { BodyMesher } from '../workers/BodyMesher';
import { isSoftwareRenderer } from '../workers/samplingPath';
import type { App } from './App';
import type { GpuCapabilities } from './capabilities';
import type { Gallery } from './Gallery';
import { galleryOpenState, syncGallery } from './galleryMode';
import { keepRecipe } from './importedRecipes';
import { showPlanetClass } from './planetClassLine';
import { SceneBodies } from './SceneBodies';
import { chooseScene, sameScene } from './sceneChoice';
import type { AppState } from './urlState';
import { UrlSync } from './urlSync';

/** What the controller needs beyond the App's public parts. */
export interface ModeControllerOptions {
  /** The state the page opened with (applied by {@link ModeController.apply}). */
  state: AppState;
  caps: GpuCapabilities;
  /** The element the app fills: the gallery fills it too. */
  container: HTMLElement;
  /** The UI layer over the canvas, hidden by `ui=0`. */
  ui: HTMLElement;
  /** Test hook: the asteroid index whose body jobs throw in their worker, and how many. */
  debugFailAsteroid?: number;
  debugFailJobs?: number;
}

export class ModeController {
  state: AppState;
  /** The URL as the state: written as the camera moves, pushed by navigations, read back on Back/Forward. */
  readonly url: UrlSync;
  gallery: Gallery | null = null;
  /** The bodies the explorer shows now, built from their SceneSpec (null in the gallery). */
  bodies: SceneBodies | null = null;
  /** Body jobs, once the sampling probe has answered: scenes built before then start with it. */
  private mesher: BodyMesher | null = null;
  /** Scenes built so far: each one's notices are scoped `scene-<n>`. */
  private sceneCount = 0;

  constructor(private readonly app: App, private readonly options: ModeControllerOptions) {
    this.state = options.state;
    this.url = new UrlSync({
      current: () => (this.state = { ...this.state, camera: app.rig.state() }),
      navigated: (state, problems) => {
        this.apply(state);
        app.notices.showUrlProblems(problems, this.state.ui);
      },
    });
  }

  /** The workers are up (samplingStart.ts): the scene shown starts its jobs, or the gallery opens. */
  start(mesher: BodyMesher): void {
    this.mesher = mesher;
    this.bodies?.start(mesher);
    if (this.state.mode === 'gallery') this.showGallery();
  }

  /** Shows what `state` asks for: the gallery, or the explorer's scene (rebuilt only when it differs) and camera. */
  apply(state: AppState): void {
    const app = this.app;
    app.flight.stop(); // a new state (Back, a seed, the gallery) has its own view: a flight under way ends
    if (state.mode === 'gallery') {
      this.state = state;
      this.disposeScene();
      this.options.ui.hidden = !state.ui;
      app.stats.element.hidden = true; // its frames stopped: no frozen overlay over the gallery
      app.controlsGui.show(false); // the explorer's controls do nothing here
      this.showGallery();
      return;
    }
    this.gallery?.dispose();
    this.gallery = null;
    app.controlsGui.show(true);
    app.stats.element.hidden = false;
    const previous = this.bodies ? this.state : null;
    this.state = state;
    if (!previous || !sameScene(previous, state)) this.buildScene();
    // The scene's default camera (sceneSpec.ts): the hero asteroid beside the sun, or the planet's lit limb.
    app.rig.lookFrom(state.camera ?? this.bodies!.spec.camera);
    app.sky.setSeed(state.seed);
    app.controlsGui.sync(state, this.bodies?.sun.direction ?? null);
    this.options.ui.hidden = !state.ui;
  }

  /** Changes the seed: a new history entry, so Back returns to the previous seed. */
  setSeed(seed: number): void {
    // apply compares with this.state to decide whether to rebuild: hand it the next state,
    // not an already-updated one (the scene used to stay on the old seed, only the sky changed).
    this.navigate({ ...this.state, seed, camera: null, edits: '', recipe: '' });
  }

  /** Opens a recipe alone in asteroid mode (an import that is none of the scene's bodies): a new history entry. */
  openRecipe(recipe: FieldRecipe): void {
    this.navigate({ ...this.state, mode: 'asteroid', recipe: keepRecipe(recipe), camera: null, edits: '' });
  }

  /** A new detail quality: the scene is rebuilt, the camera kept, the history entry rewritten. */
  setQuality(quality: AppState['quality']): void {
    const next = { ...this.state, quality, camera: this.app.rig.state() };
    this.url.replace(next);
    this.apply(next);
  }

  /** Nothing left to generate or fade in: what a screenshot should wait for. */
  settled(): boolean {
    if (this.state.mode === 'gallery') return this.gallery?.ready() ?? false;
    return this.bodies?.settled() ?? false;
  }

  /** Per-pixel field detail on: `quality=high`, or `auto` on a hardware GPU. */
  detailQuality(): boolean {
    const q = this.state.quality;
    return q === 'high' || (q === 'auto' && !isSoftwareRenderer(this.options.caps.renderer));
  }

  dispose(): void {
    this.url.dispose();
    this.disposeScene();
  }

  /** A navigation: a new history entry, then the state applied. */
  private navigate(next: AppState): void {
    this.url.push(next);
    this.apply(next);
  }

  private showGallery(): void {
    if (!this.mesher) return; // start() calls again once the sampling probe has answered
    const app = this.app;
    this.gallery = syncGallery(this.gallery, this.state, {
      container: this.options.container, renderer: app.renderer, output: app.output, mesher: this.mesher, progress: app.progress,
      quality: this.detailQuality() ? 'high' : 'low',
      onOpen: (seed) => this.navigate(galleryOpenState(this.state, seed)),
      onPage: (start) => {
        this.state = { ...this.state, start };
        this.url.push(this.state);
      },
    });
    // A start past the last page is clamped (Gallery.setPage): the URL says what is shown.
    if (this.gallery.pageStart !== this.state.start) this.url.replace((this.state = { ...this.state, start: this.gallery.pageStart }));
  }

  /** Builds the scene the state asks for (sceneChoice.ts, SceneBodies.ts); it starts once the workers are up. */
  private buildScene(): void {
    const app = this.app;
    this.disposeScene();
    const scope = `scene-${++this.sceneCount}`;
    app.output.bloom = this.detailQuality();
    const { spec, problem } = chooseScene(this.state);
    if (problem) app.notices.show('warning', problem, `${scope}:recipe`, undefined, { scope });
    showPlanetClass(app.stats, spec);
    this.bodies = new SceneBodies(spec, {
      renderer: app.renderer,
      scene: app.scene,
      world: app.world,
      progress: app.progress,
      // Keys and notices of this scene only: they go with it (disposeScene).
      report: (level, message, key, retry, group) =>
        app.notices.show(level, message, key && `${scope}:${key}`, retry ? { label: 'Retry', run: retry } : undefined, { group, scope }),
      detailMaterials: this.detailQuality(),
      planetDetailOctaves: this.state.quality === 'low' ? 0 : GROUND_DETAIL_OCTAVES[this.state.quality],
      softwareGpu: isSoftwareRenderer(this.options.caps.renderer),
      edits: this.state.edits,
      // Screenshot mode is a picture, full detail however long it takes (no time budget).
      ...(this.state.lodTimeS !== null || this.state.mode === 'screenshot' ? { planetTimeBudgetS: this.state.lodTimeS ?? 0 } : {}),
      debugFailAsteroid: this.options.debugFailAsteroid,
      debugFailJobs: this.options.debugFailJobs,
    });
    if (this.mesher) this.bodies.start(this.mesher);
  }

  /** Takes the scene shown down, and its notices with it (a scene that is gone has nothing to say). */
  private disposeScene(): void {
    this.bodies?.dispose();
    this.bodies = null;
    this.app.notices.clearScope(`scene-${this.sceneCount}`);
  }
}
