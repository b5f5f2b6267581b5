import { Group, Mesh, PerspectiveCamera, Scene, Vector2, Vector3, type WebGLRenderer } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { acceleratedRaycast } from 'three-mesh-bvh';
import { FlyControls } from '../interact/FlyControls';
import { SkyCubemap } from '../render/SkyCubemap';
import { drawShifted } from '../render/floatingOrigin';
import { GROUND_DETAIL_OCTAVES } from '../render/planetGround';
import type { BodyMesher } from '../workers/BodyMesher';
import { isSoftwareRenderer, type SamplingChoice } from '../workers/samplingPath';
import { GPU_DRAIN_CAP_MS, startMesher } from './samplingStart';
import { whenGpuDrained } from './gpuDrain';
import type { AsteroidField } from './AsteroidField';
import type { Gallery } from './Gallery';
import { galleryOpenState, syncGallery } from './galleryMode';
import { showPlanetClass } from './planetClassLine';
import type { PlanetView } from './PlanetView';
import { SceneBodies } from './SceneBodies';
import type { GpuCapabilities } from './capabilities';
import { measureFrame, type FrameMeasure } from './frameProbe';
import { FrameCompileWatch } from './frameCompiles';
import { captureView, download, type CaptureResult } from './screenshot';
import { Progress } from './progress';
import { ControlsGui } from './ui/ControlsGui';
import { Notices } from './ui/Notices';
import { ProgressBar } from './ui/ProgressBar';
import { shortRenderer, StatsOverlay } from './ui/StatsOverlay';
import { createRenderer } from './renderer';
import { compileForFrames, FrameOutput } from '../render/FrameOutput';
import { encodeView, type AppState, type CameraState } from './urlState';
import { UrlSync } from './urlSync';
import { ContextLossWatch } from './contextLoss';
import { AppKeys } from './appKeys';
import { CameraFlight } from './CameraFlight';
import { chooseScene, sameScene } from './sceneChoice';
import { keepRecipe } from './importedRecipes';
import type { FieldRecipe } from '../field/index';

export interface AppOptions {
  /** Element the app fills; its size drives the canvas size. */
  container: HTMLElement;
  caps: GpuCapabilities;
  /** Initial state, usually `parseAppState(location.search)`. */
  state: AppState;
  /** Maximum device-pixel ratio (default 2): beyond it, cost grows with no visible gain. */
  maxPixelRatio?: number;
  /** Test hook: the asteroid index whose body jobs throw in their worker, and how many (default 1). */
  debugFailAsteroid?: number;
  debugFailJobs?: number;
}

/** Near/far planes, metres: a logarithmic depth buffer holds both in one frame. */
const NEAR_M = 0.5;
const FAR_M = 1e8;

/**
 * The application shell: renderer, loop, resize, UI, URL state, and the explore scene (the
 * seed's asteroid field). It owns the WebGL renderer and disposes what it creates.
 */
export class App {
  readonly renderer: WebGLRenderer;
  /** The HDR target, bloom and tone mapping every frame and screenshot goes through. */
  readonly output: FrameOutput;
  readonly scene = new Scene();
  /** The camera in world space (metres, float64 on the CPU): controls move this one. */
  readonly camera: PerspectiveCamera;
  /**
   * What the GPU sees: the same view with the camera at the origin. Rendering shifts the
   * world by −camera.position for the draw (a floating origin), so every matrix three.js
   * uploads as float32 — model, view, shadow — holds small numbers near the camera, and a
   * planet 20,000 km away renders without jitter at 2 m above its surface.
   */
  readonly renderCamera = new PerspectiveCamera();
  /** Everything placed in world space; shifted only while drawing (see renderCamera). */
  readonly world = new Group();
  readonly controls: OrbitControls;
  readonly fly: FlyControls;
  readonly progress = new Progress();
  readonly notices: Notices;
  readonly stats: StatsOverlay;
  /** Programs three.js had to compile inside a frame's render call (issue 16: report any). */
  readonly frameCompiles = new FrameCompileWatch();
  readonly controlsGui: ControlsGui;
  /** F, P, T and the help overlay (? or H). */
  readonly keys: AppKeys;
  /** Go to what you see: flights to a clicked body (CameraFlight.ts). */
  readonly flight: CameraFlight;
  state: AppState;
  /** Where field sampling runs; null until the start-up probe has answered. */
  sampling: SamplingChoice | null = null;
  private disposed = false;
  /** Frames skipped while set: the sampling probe's timed GPU batches (samplingStart.ts), frameTiming.ts. */
  framesPaused = false;
  /**
   * Frames update the scene (camera, streaming, physics) but draw nothing: tests that check meshes
   * or physics, not pixels, switch drawing off while they wait (`__sr.draw(false)`), so that a
   * software GPU leaves the cores to the workers.
   */
  drawPaused = false;
  gallery: Gallery | null = null;
  /** The bodies the explorer shows now, built from their SceneSpec (null in the gallery). */
  bodies: SceneBodies | null = null;

  /** The asteroids shown now (explore, asteroid mode), or null. */
  get field(): AsteroidField | null {
    return this.bodies?.field ?? null;
  }

  /** The planet shown now (explore, planet mode), or null. */
  get planet(): PlanetView | null {
    return this.bodies?.planet ?? null;
  }

  private readonly container: HTMLElement;
  private readonly caps: GpuCapabilities;
  private readonly ui: HTMLElement;
  /** Scene time held while a screenshot renders (see {@link App.screenshot}); null otherwise. */
  private captureTime: number | null = null;
  private readonly progressBar: ProgressBar;
  /** The procedural sky, rendered once per seed into a cube map (scene background + fill light). */
  readonly sky: SkyCubemap;
  private readonly resizeObserver: ResizeObserver;
  private readonly maxPixelRatio: number;
  private readonly debugFailAsteroid: number | undefined;
  private readonly debugFailJobs: number | undefined;
  /** Body jobs on the sampling path the probe picked (null until it answers; read by __sr). */
  mesher: BodyMesher | null = null;
  readonly url: UrlSync;
  private contextLost = false;
  private readonly contextLoss: ContextLossWatch;
  private lastFrameMs = -1;
  /** Scenes built so far: each one's notices are scoped `scene-<n>`. */
  private sceneCount = 0;
  private readonly startMs = performance.now();

  constructor(options: AppOptions) {
    this.container = options.container;
    this.caps = options.caps;
    this.state = options.state;
    this.maxPixelRatio = options.maxPixelRatio ?? 2;
    this.debugFailAsteroid = options.debugFailAsteroid;
    this.debugFailJobs = options.debugFailJobs;

    // BVH raycasts for every Mesh: patched once, explicitly, at start-up (docs/design.md, house rule 16).
    Mesh.prototype.raycast = acceleratedRaycast;

    this.renderer = createRenderer();
    this.output = new FrameOutput(this.renderer);
    this.container.appendChild(this.renderer.domElement);

    this.ui = document.createElement('div');
    this.ui.className = 'sr-ui';
    this.container.appendChild(this.ui);
    this.notices = new Notices(this.ui);
    this.progressBar = new ProgressBar(this.ui, this.progress);
    this.stats = new StatsOverlay(this.ui, this.renderer);
    this.stats.setLine('gpu', `gpu ${shortRenderer(options.caps.renderer)}`);

    this.camera = new PerspectiveCamera(45, 1, NEAR_M, FAR_M);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.enableDamping = true;
    this.controls.addEventListener('end', () => this.url.scheduleWrite());
    this.fly = new FlyControls(this.camera, this.renderer.domElement, {
      altitude: () => Math.max(0, this.altitude()),
      collide: (from, to) => this.bodies?.collide(from, to) ?? to,
    });
    this.keys = new AppKeys(this, this.ui);
    this.flight = new CameraFlight(this);

    // A software GPU renders the sky's one-off passes on the CPU (seconds at 1024 a face): smaller faces there.
    this.sky = new SkyCubemap({ seed: this.state.seed, size: isSoftwareRenderer(options.caps.renderer) ? 512 : 1024 });
    this.sky.attach(this.scene);
    this.scene.add(this.world);
    this.world.name = 'world';

    this.url = new UrlSync({
      current: () => (this.state = { ...this.state, camera: this.currentCamera() }),
      navigated: (state, problems) => {
        this.applyState(state);
        this.notices.showUrlProblems(problems, this.state.ui);
      },
    });
    this.controlsGui = new ControlsGui(this.ui, {
      renderer: this.renderer,
      scene: this.scene,
      notices: this.notices,
      state: () => this.state,
      setSeed: (seed) => this.setSeed(seed),
      setCameraMode: (mode) => this.setCameraMode(mode),
      setQuality: (quality) => {
        const next = { ...this.state, quality, camera: this.currentCamera() };
        this.url.replace(next);
        this.applyState(next);
      },
      setSkySeed: (seed) => this.sky.setSeed(seed),
      sun: () => this.bodies?.sun ?? null,
      setChunkLevels: (on) => { if (this.planet) this.planet.debugLevels = on; },
      saveScreenshot: (scale) => void this.saveScreenshot(scale),
      throwProbe: () => void this.bodies?.throwProbe(this.camera),
      writeUrl: () => this.url.writeNow(),
      toggleHelp: () => this.keys.help.show(),
      bodyNames: () => [...(this.planet ? ['planet'] : []), ...(this.field?.spec.asteroids.map((a) => `asteroid ${a.index}`) ?? [])],
      goTo: (name) => void (name === 'planet' ? this.flight.toPlanet() : this.flight.toAsteroid(Number(name.slice('asteroid '.length)))),
    });

    this.applyState(this.state);

    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(this.container);
    this.resize();

    this.contextLoss = new ContextLossWatch(this.renderer.domElement, {
      notices: this.notices,
      setLost: (lost) => void (this.contextLost = lost),
      restored: () => {
        this.sky.invalidate(); // its cube map died with the context, the atmosphere's tables and the shadow maps too
        this.bodies?.contextRestored();
      },
    });
  }

  /** Starts the render loop and generation (in JS until a first load has measured the GPU: samplingStart.ts). */
  start(): void {
    // What the scene already holds (the sky, the sun disc) compiles before the first frame, not in it.
    void compileForFrames(this.renderer, this.scene, this.camera).catch(() => undefined);
    this.renderer.setAnimationLoop((t) => this.frame(t));
    this.stats.setLine('sampling', 'sampling: probing…');
    void startMesher(this.caps, this.state.sampling, {
      alive: () => !this.disposed,
      settled: () => this.settled(),
      pauseFrames: (paused) => void (this.framesPaused = paused),
      gpuDrained: () => whenGpuDrained(this.renderer.getContext() as WebGL2RenderingContext, GPU_DRAIN_CAP_MS),
      planetProbe: () => this.planet?.probeBody() ?? null,
      gpuFirst: () => this.state.mode === 'planet',
      onSampling: (choice) => this.stats.setLine('sampling', `sampling: ${(this.sampling = choice).path} — ${choice.detail}`),
      onWorkerLost: (why) => this.notices.show('warning', `${why[0].toUpperCase()}${why.slice(1)}.`, 'worker-lost'),
    }, this.state.workers ?? undefined).then((mesher) => {
      if (!mesher) return;
      this.mesher = mesher;
      this.bodies?.start(mesher);
      if (this.state.mode === 'gallery') this.showGallery();
    });
  }

  private frame(timeMs: number): void {
    if (this.contextLost || this.framesPaused || this.state.mode === 'gallery') return;
    const dtS = this.lastFrameMs < 0 ? 0 : Math.min(0.25, (timeMs - this.lastFrameMs) / 1000);
    this.lastFrameMs = timeMs;
    // A flight to a clicked body moves the camera itself (CameraFlight.ts).
    if (!this.flight.update(timeMs)) {
      if (this.fly.enabled) this.fly.update(dtS);
      else this.controls.update();
    }
    const heightPx = this.renderer.getDrawingBufferSize(scratchSize).y;
    const lines = this.bodies?.update(this.camera, this.controls.target, heightPx, dtS, this.sceneTime()) ?? {};
    for (const [key, line] of Object.entries(lines)) this.stats.setLine(key, line);
    this.stats.frame(timeMs);
    if (this.drawPaused) return;
    this.sky.update(this.renderer, this.bodies?.daylight ?? 0); // renders only when the seed changed; stars fade by day
    const programs = this.renderer.info.programs;
    this.frameCompiles.beforeRender(programs ?? undefined);
    this.drawShifted(() => this.output.render(this.scene, this.renderCamera, true));
    this.frameCompiles.afterRender(this.renderer.info.programs ?? undefined);
  }

  /** Orbit around a body, or free flight (key F toggles). */
  setCameraMode(mode: 'orbit' | 'fly'): void {
    this.controlsGui.syncCameraMode(mode);
    const flying = mode === 'fly';
    if (flying === this.fly.enabled) return;
    this.fly.enabled = flying;
    this.controls.enabled = !flying;
    if (!flying) {
      // Orbit around what is ahead: the nearest body's center if it is in front, else 10 m out.
      const ahead = new Vector3(0, 0, -1).applyQuaternion(this.camera.quaternion);
      const body = this.bodies?.bodyAhead(this.camera.position, ahead);
      this.controls.target.copy(body ?? this.camera.position.clone().addScaledVector(ahead, 10));
    }
    this.url.scheduleWrite();
  }

  /** Height of the camera above the nearest surface, metres. */
  altitude(): number {
    return this.bodies?.altitude(this.camera.position) ?? 100;
  }

  /**
   * Renders the current view at `width`×`height` (tiled past the GPU's limits) and returns
   * the PNG with its file name: `sr-<mode>-seed<seed>-<view code>-<w>x<h>.png`, where the
   * view code (camera + frozen time) reproduces the image through `?view=`.
   */
  async screenshot(width: number, height: number): Promise<CaptureResult & { name: string }> {
    const time = this.sceneTime();
    // Freeze the scene at this instant while the tiles render. Not through `state.time`: that is
    // the URL's `t`, and a URL write during the capture would freeze time for whoever opens it.
    this.captureTime = time;
    try {
      this.field?.update(this.camera, this.renderer.getDrawingBufferSize(new Vector2()).y, 0, time);
      let capture: Promise<CaptureResult> | null = null;
      this.drawShifted(() => (capture = captureView(this.output, this.scene, this.renderCamera, width, height)));
      const result = await capture!;
      const view = encodeView(this.currentCamera(), time);
      const mode = this.state.mode === 'screenshot' ? 'explore' : this.state.mode;
      return { ...result, name: `sr-${mode}-seed${this.state.seed}-${view}-${result.width}x${result.height}.png` };
    } finally {
      this.captureTime = null;
    }
  }

  /** The screenshot button and key P: the window size × the chosen scale, saved as a download. */
  async saveScreenshot(scale: number): Promise<void> {
    const size = this.renderer.getSize(new Vector2());
    try {
      const shot = await this.screenshot(size.x * scale, size.y * scale);
      if (shot.capped) this.notices.show('warning', `Screenshot: ${shot.capped}`, 'screenshot');
      download(shot.blob, shot.name);
    } catch (e) {
      this.notices.show('error', `Screenshot failed: ${e instanceof Error ? e.message : String(e)}`, 'screenshot');
    }
  }

  /** Nothing left to generate or fade in: what a screenshot should wait for. */
  settled(): boolean {
    if (this.state.mode === 'gallery') return this.gallery?.ready() ?? false;
    return this.bodies?.settled() ?? false;
  }

  /** Per-pixel field detail on: `quality=high`, or `auto` on a hardware GPU. */
  detailQuality(): boolean {
    const q = this.state.quality;
    return q === 'high' || (q === 'auto' && !isSoftwareRenderer(this.caps.renderer));
  }

  /** Scene time, seconds: frozen at the URL's `t` when given (screenshots), else running. */
  sceneTime(): number {
    return this.captureTime ?? this.state.time ?? (performance.now() - this.startMs) / 1000;
  }

  /**
   * Runs `draw` with the floating origin at the camera (src/render/floatingOrigin.ts): the world
   * group shifted by −camera.position, the render camera at the origin with the camera's
   * orientation and projection. CPU-side logic (LOD, raycasts, fields) always sees the unshifted world.
   */
  drawShifted(draw: () => void): void {
    drawShifted(this.world, this.camera, this.renderCamera, draw);
  }

  /** Workers the body pool replaced after they died. */
  mesherCrashes(): number {
    return this.mesher?.pool.crashes ?? 0;
  }

  /** Renders once more and measures the frame's pixels (tests and the debug overlay). */
  measure(options: { shadows?: boolean; keepLuma?: boolean } = {}): FrameMeasure {
    let result: FrameMeasure | null = null;
    this.drawShifted(() => (result = measureFrame(this.renderer, this.scene, this.renderCamera, options)));
    return result!;
  }

  private resize(): void {
    const width = Math.max(1, this.container.clientWidth);
    const height = Math.max(1, this.container.clientHeight);
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, this.maxPixelRatio));
    this.renderer.setSize(width, height, false);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
  }

  private showGallery(): void {
    if (!this.mesher) return; // start() calls again once the sampling probe has answered
    this.gallery = syncGallery(this.gallery, this.state, {
      container: this.container, renderer: this.renderer, output: this.output, mesher: this.mesher, progress: this.progress,
      quality: this.detailQuality() ? 'high' : 'low',
      onOpen: (seed) => {
        const next = galleryOpenState(this.state, seed);
        this.url.push(next);
        this.applyState(next);
      },
      onPage: (start) => {
        this.state = { ...this.state, start };
        this.url.push(this.state);
      },
    });
    // A start past the last page is clamped (Gallery.setPage): the URL says what is shown.
    if (this.gallery.pageStart !== this.state.start) this.url.replace((this.state = { ...this.state, start: this.gallery.pageStart }));
  }

  private applyState(state: AppState): void {
    this.flight.stop(); // a new state (Back, a seed, the gallery) has its own view: a flight under way ends
    if (state.mode === 'gallery') {
      this.state = state;
      this.disposeScene();
      this.ui.hidden = !state.ui;
      this.stats.element.hidden = true; // its frames stopped: no frozen overlay over the gallery
      this.controlsGui.show(false); // the explorer's controls do nothing here
      this.showGallery();
      return;
    }
    this.gallery?.dispose();
    this.gallery = null;
    this.controlsGui.show(true);
    this.stats.element.hidden = false;
    const previous = this.bodies ? this.state : null;
    this.state = state;
    if (!previous || !sameScene(previous, state)) this.buildScene();
    const cam = state.camera ?? this.defaultCamera();
    this.camera.position.fromArray(cam.position);
    this.controls.target.fromArray(cam.target);
    this.camera.lookAt(new Vector3().fromArray(cam.target));
    this.controls.update();
    this.sky.setSeed(state.seed);
    this.controlsGui.sync(state, this.bodies?.sun.direction ?? null);
    this.ui.hidden = !state.ui;
  }

  /** Builds the scene the state asks for (sceneChoice.ts, SceneBodies.ts); it starts once the workers are up. */
  private buildScene(): void {
    this.disposeScene();
    const scope = `scene-${++this.sceneCount}`;
    this.output.bloom = this.detailQuality();
    const { spec, problem } = chooseScene(this.state);
    if (problem) this.notices.show('warning', problem, `${scope}:recipe`, undefined, { scope });
    showPlanetClass(this.stats, spec);
    this.bodies = new SceneBodies(spec, {
      renderer: this.renderer,
      scene: this.scene,
      world: this.world,
      progress: this.progress,
      // Keys and notices of this scene only: they go with it (disposeScene).
      report: (level, message, key, retry, group) =>
        this.notices.show(level, message, key && `${scope}:${key}`, retry ? { label: 'Retry', run: retry } : undefined, { group, scope }),
      detailMaterials: this.detailQuality(),
      planetDetailOctaves: this.state.quality === 'low' ? 0 : GROUND_DETAIL_OCTAVES[this.state.quality],
      softwareGpu: isSoftwareRenderer(this.caps.renderer),
      edits: this.state.edits,
      debugFailAsteroid: this.debugFailAsteroid,
      debugFailJobs: this.debugFailJobs,
    });
    if (this.mesher) this.bodies.start(this.mesher);
  }

  /** Takes the scene shown down, and its notices with it (a scene that is gone has nothing to say). */
  private disposeScene(): void {
    this.bodies?.dispose();
    this.bodies = null;
    this.notices.clearScope(`scene-${this.sceneCount}`);
  }

  /** The scene's default camera (sceneSpec.ts): the hero asteroid beside the sun, or the planet's lit limb. */
  private defaultCamera(): CameraState {
    return this.bodies!.spec.camera;
  }

  private currentCamera(): CameraState {
    // In flight the "target" is a point straight ahead, so the URL still holds the view.
    const target = this.fly.enabled
      ? this.camera.position.clone().add(new Vector3(0, 0, -10).applyQuaternion(this.camera.quaternion))
      : this.controls.target;
    return {
      position: this.camera.position.toArray() as [number, number, number],
      target: target.toArray() as [number, number, number],
    };
  }

  /** Opens a recipe alone in asteroid mode (an import that is none of the scene's bodies): a new history entry. */
  openRecipe(recipe: FieldRecipe): void {
    const next: AppState = { ...this.state, mode: 'asteroid', recipe: keepRecipe(recipe), camera: null, edits: '' };
    this.url.push(next);
    this.applyState(next);
  }

  /** Changes the seed: a new history entry, so Back returns to the previous seed. */
  setSeed(seed: number): void {
    // applyState compares with this.state to decide whether to rebuild: hand it the next state,
    // not an already-updated one (the scene used to stay on the old seed, only the sky changed).
    const next = { ...this.state, seed, camera: null, edits: '', recipe: '' };
    this.url.push(next);
    this.applyState(next);
  }

  dispose(): void {
    this.disposed = true;
    this.renderer.setAnimationLoop(null);
    this.contextLoss.dispose();
    this.url.dispose();
    this.resizeObserver.disconnect();
    this.keys.dispose();
    this.flight.dispose();
    this.controls.dispose();
    this.fly.dispose();
    this.controlsGui.dispose();
    this.progressBar.dispose();
    this.disposeScene();
    this.mesher?.dispose();
    this.sky.detach(this.scene);
    this.sky.dispose();
    this.output.dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
    this.ui.remove();
  }
}

const scratchSize = new Vector2();
