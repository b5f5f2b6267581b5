import GUI from 'lil-gui';
import {
  ACESFilmicToneMapping,
  Group,
  Mesh,
  PCFShadowMap,
  Raycaster,
  PerspectiveCamera,
  Scene,
  SRGBColorSpace,
  Vector2,
  Vector3,
  WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { acceleratedRaycast } from 'three-mesh-bvh';
import { FlyControls } from '../interact/FlyControls';
import { SkyCubemap } from '../render/SkyCubemap';
import { drawShifted } from '../render/floatingOrigin';
import type { Sun } from '../render/Sun';
import type { FieldRecipe } from '../field/index';
import { explorePlanet, heroCamera, planetRecipe, singleAsteroidSpec } from '../scene/index';
import { BodyMesher } from '../workers/BodyMesher';
import { chooseSamplingPath, isSoftwareRenderer, type SamplingChoice } from '../workers/samplingPath';
import { AsteroidField } from './AsteroidField';
import { Gallery } from './Gallery';
import { exportMeshBase64, type MeshFormat } from './exportMesh';
import { BACKGROUND_PRIORITY, PlanetView } from './PlanetView';
import type { GpuCapabilities } from './capabilities';
import { measureFrame, type FrameMeasure } from './frameProbe';
import { captureView, download, type CaptureResult } from './screenshot';
import { Progress } from './progress';
import { Notices } from './ui/Notices';
import { ProgressBar } from './ui/ProgressBar';
import { StatsOverlay } from './ui/StatsOverlay';
import { encodeView, formatAppState, parseAppState, parseSeed, type AppState, type CameraState } from './urlState';

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

const URL_WRITE_DELAY_MS = 250;
/** Near/far planes, metres: a logarithmic depth buffer holds both in one frame. */
const NEAR_M = 0.5;
const FAR_M = 1e8;

/**
 * The application shell: renderer, loop, resize, UI, URL state, and the explore scene (the
 * seed's asteroid field). It owns the WebGL renderer and disposes what it creates.
 */
export class App {
  readonly renderer: WebGLRenderer;
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
  readonly gui: GUI;
  state: AppState;
  /** Where field sampling runs; null until the start-up probe has answered. */
  sampling: SamplingChoice | null = null;
  field: AsteroidField | null = null;
  planet: PlanetView | null = null;
  gallery: Gallery | null = null;

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
  private mesher: BodyMesher | null = null;
  private urlTimer: ReturnType<typeof setTimeout> | undefined;
  private contextLost = false;
  private lastFrameMs = -1;
  private readonly startMs = performance.now();
  private readonly guiParams = {
    exposure: 1,
    shadows: true,
    shadowRadius: 3,
    shadowMapSize: 2048,
    shadowBiasTexels: -1,
    seed: '',
    quality: 'auto' as AppState['quality'],
    camera: 'orbit' as 'orbit' | 'fly',
    screenshotScale: 2,
    skySeed: 1,
    sunAzimuthDeg: 0,
    sunElevationDeg: 30,
  };

  constructor(options: AppOptions) {
    this.container = options.container;
    this.caps = options.caps;
    this.state = options.state;
    this.maxPixelRatio = options.maxPixelRatio ?? 2;
    this.debugFailAsteroid = options.debugFailAsteroid;
    this.debugFailJobs = options.debugFailJobs;

    // BVH raycasts for every Mesh: patched once, explicitly, at start-up (STYLE.md §18).
    Mesh.prototype.raycast = acceleratedRaycast;

    this.renderer = new WebGLRenderer({
      antialias: true,
      powerPreference: 'high-performance',
      logarithmicDepthBuffer: true,
    });
    this.renderer.outputColorSpace = SRGBColorSpace;
    this.renderer.toneMapping = ACESFilmicToneMapping;
    this.renderer.shadowMap.enabled = true;
    this.renderer.shadowMap.type = PCFShadowMap;
    this.renderer.domElement.className = 'sr-canvas';
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
    this.controls.addEventListener('end', () => this.scheduleUrlWrite());
    this.fly = new FlyControls(this.camera, this.renderer.domElement, {
      altitude: () => Math.max(0, this.altitude()),
      collide: (from, to) => this.collide(from, to),
    });
    window.addEventListener('keydown', this.onKeyDown);
    window.addEventListener('keyup', this.onKeyUp);

    // A software GPU renders the sky's one-off passes on the CPU (seconds at 1024 a face):
    // smaller faces there; real GPUs get the full resolution.
    this.sky = new SkyCubemap({ seed: this.state.seed, size: isSoftwareRenderer(options.caps.renderer) ? 512 : 1024 });
    this.sky.attach(this.scene);
    this.scene.add(this.world);
    this.world.name = 'world';

    this.gui = new GUI({ container: this.ui, title: 'Controls' });
    this.buildGui();

    this.applyState(this.state);

    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(this.container);
    this.resize();

    const canvas = this.renderer.domElement;
    canvas.addEventListener('webglcontextlost', this.onContextLost);
    canvas.addEventListener('webglcontextrestored', this.onContextRestored);
    window.addEventListener('popstate', this.onPopState);
  }

  /** Starts the render loop, and the sampling-path probe beside it; generation follows. */
  start(): void {
    this.renderer.setAnimationLoop((t) => this.frame(t));
    this.stats.setLine('sampling', 'sampling: probing…');
    void chooseSamplingPath(this.caps, this.state.sampling).then((choice) => {
      this.sampling = choice;
      this.stats.setLine('sampling', `sampling: ${choice.path} — ${choice.detail}`);
      this.mesher = new BodyMesher({
        sampling: choice.path,
        gpuWorker: choice.gpuWorker,
        onWorkerLost: (why) => this.notices.show('warning', `${why[0].toUpperCase()}${why.slice(1)}.`, 'worker-lost'),
      });
      this.field?.start(this.mesher);
      this.planet?.start(this.mesher.pool, this.mesher.gpuWorker);
      if (this.state.mode === 'gallery') this.showGallery();
    });
  }

  /** Reports bad URL parameters on the page (or the console in screenshot mode). */
  reportUrlProblems(problems: readonly { param: string; message: string }[]): void {
    for (const p of problems) {
      if (!this.state.ui) console.warn(`URL parameter ${p.param}: ${p.message}`);
      else this.notices.show('warning', `URL parameter “${p.param}”: ${p.message}`, `url-${p.param}`);
    }
  }

  private frame(timeMs: number): void {
    if (this.contextLost || this.state.mode === 'gallery') return;
    const dtS = this.lastFrameMs < 0 ? 0 : Math.min(0.25, (timeMs - this.lastFrameMs) / 1000);
    this.lastFrameMs = timeMs;
    if (this.fly.enabled) this.fly.update(dtS);
    else this.controls.update();
    const heightPx = this.renderer.getDrawingBufferSize(scratchSize).y;
    // Explore holds both: the shared sun's shadows and the body pool go to the one the camera is at.
    const atPlanet = this.atPlanet();
    if (this.field) {
      this.field.update(this.camera, heightPx, dtS, this.sceneTime());
      if (!atPlanet) {
        const near = this.field.nearest(this.controls.target);
        this.field.fitShadows(near.center, near.spec.radiusM * 1.6);
      }
      this.stats.setLine('field', this.field.statsLine());
    }
    if (this.planet) {
      this.planet.priorityOffset = atPlanet ? 0 : BACKGROUND_PRIORITY;
      this.planet.update(this.camera, heightPx);
      if (atPlanet) this.planet.fitShadows(this.camera);
      // No-op unless its detail material was asked for; in explore only once the camera is at the
      // planet: seen from the asteroids its cells are already ~1 px, below where the per-pixel field
      // fades in, and the whole planet recipe per pixel is the heaviest shader there is.
      if (atPlanet) this.planet.compileDetail(this.camera);
      this.stats.setLine('planet', this.planet.statsLine(this.camera));
    }
    this.sky.update(this.renderer); // renders only when the seed changed
    this.drawShifted(() => this.renderer.render(this.scene, this.renderCamera));
    this.stats.frame(timeMs);
  }

  /** Orbit around a body, or free flight (key F toggles). */
  setCameraMode(mode: 'orbit' | 'fly'): void {
    this.guiParams.camera = mode;
    this.gui.controllersRecursive().forEach((c) => c.updateDisplay());
    const flying = mode === 'fly';
    if (flying === this.fly.enabled) return;
    this.fly.enabled = flying;
    this.controls.enabled = !flying;
    if (!flying) {
      // Orbit around what is ahead: the nearest body's center if it is in front, else 10 m out.
      const ahead = new Vector3(0, 0, -1).applyQuaternion(this.camera.quaternion);
      const near = this.field?.nearest(this.camera.position);
      const toBody = near ? near.center.clone().sub(this.camera.position) : null;
      this.controls.target.copy(
        toBody && toBody.dot(ahead) > 0 ? near!.center : this.camera.position.clone().addScaledVector(ahead, 10),
      );
    }
    this.scheduleUrlWrite();
  }

  /**
   * The camera is at the planet rather than among the asteroids: nearer the planet's surface than
   * any asteroid's (always in planet mode, never without a planet).
   */
  atPlanet(): boolean {
    if (!this.planet) return false;
    if (!this.field) return true;
    return this.planet.altitude(this.camera.position) < this.field.nearest(this.camera.position).distanceM;
  }

  /** Height above the nearest surface, metres (the field is roughly a distance). */
  altitude(): number {
    const planet = this.planet ? this.planet.altitude(this.camera.position) : Infinity;
    const field = this.field ? this.field.fieldAt(this.camera.position) : Infinity;
    const h = Math.min(planet, field);
    return Number.isFinite(h) ? h : 100;
  }

  /** Stops a move 1 m short of the first surface along it (BVH raycast; the field on planets). */
  private collide(from: Vector3, to: Vector3): Vector3 {
    if (this.planet && this.planet.altitude(to) < 1) return from;
    if (!this.field) return to;
    const dir = to.clone().sub(from);
    const length = dir.length();
    if (length === 0) return to;
    const margin = 1;
    raycaster.set(from, dir.divideScalar(length));
    raycaster.far = length + margin;
    raycaster.firstHitOnly = true;
    const hit = raycaster.intersectObject(this.field.root, true)[0];
    if (!hit) return to;
    return from.clone().addScaledVector(dir, Math.max(0, hit.distance - margin));
  }

  private readonly onKeyDown = (e: KeyboardEvent): void => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.code === 'KeyF') this.setCameraMode(this.fly.enabled ? 'orbit' : 'fly');
    if (e.code === 'KeyP') void this.saveScreenshot();
  };

  private readonly onKeyUp = (): void => {
    if (this.fly.enabled) this.scheduleUrlWrite();
  };

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
      this.drawShifted(() => (capture = captureView(this.renderer, this.scene, this.renderCamera, width, height)));
      const result = await capture!;
      const view = encodeView(this.currentCamera(), time);
      const mode = this.state.mode === 'screenshot' ? 'explore' : this.state.mode;
      return { ...result, name: `sr-${mode}-seed${this.state.seed}-${view}-${result.width}x${result.height}.png` };
    } finally {
      this.captureTime = null;
    }
  }

  /** The screenshot button: the window size × the chosen scale, saved as a download. */
  private async saveScreenshot(): Promise<void> {
    const size = this.renderer.getSize(new Vector2());
    const scale = this.guiParams.screenshotScale;
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
    if (this.planet && !this.planet.stats().complete) return false;
    return this.field?.settled() ?? this.planet !== null;
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
  measure(options: { shadows?: boolean } = {}): FrameMeasure {
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
    const state = this.state;
    if (this.gallery) {
      if (this.gallery.pageStart !== state.start) this.gallery.setPage(state.start);
      return;
    }
    this.gallery = new Gallery({
      container: this.container,
      renderer: this.renderer,
      mesher: this.mesher,
      progress: this.progress,
      start: state.start,
      count: state.count,
      quality: this.detailQuality() ? 'high' : 'low',
      ui: state.ui,
      onOpen: (seed) => {
        const next: AppState = { ...this.state, mode: 'asteroid', seed, camera: null };
        history.pushState(null, '', formatAppState(next, location.search));
        this.applyState(next);
      },
      onPage: (start) => {
        this.state = { ...this.state, start };
        history.pushState(null, '', formatAppState(this.state, location.search));
      },
    });
  }

  /** The asteroid in view (nearest the orbit target) as a mesh file, base64 (CLI, tests). */
  async exportAsteroid(format: MeshFormat): Promise<{ base64: string; name: string; triangles: number }> {
    if (!this.field) throw new Error('no asteroid in view');
    const near = this.field.nearest(this.controls.target);
    return exportMeshBase64(this.field.pivotOf(near.spec.index), format, `sr-asteroid-seed${near.spec.seed}`, {
      family: near.spec.family,
    });
  }

  private applyState(state: AppState): void {
    if (state.mode === 'gallery') {
      this.state = state;
      this.field?.dispose();
      this.field = null;
      this.planet?.dispose();
      this.planet = null;
      this.ui.hidden = !state.ui;
      this.gui.hide(); // the explorer's controls do nothing here
      this.showGallery();
      return;
    }
    this.gallery?.dispose();
    this.gallery = null;
    this.gui.show();
    const previous = this.field || this.planet ? this.state : null;
    this.state = state;
    const scene = sceneKind(state.mode);
    if (
      !previous ||
      previous.seed !== state.seed ||
      previous.quality !== state.quality ||
      sceneKind(previous.mode) !== scene
    ) {
      this.buildScene(state.seed, scene);
    }
    const cam = state.camera ?? this.defaultCamera();
    this.camera.position.fromArray(cam.position);
    this.controls.target.fromArray(cam.target);
    this.camera.lookAt(new Vector3().fromArray(cam.target));
    this.controls.update();
    this.sky.setSeed(state.seed);
    this.guiParams.seed = String(state.seed);
    this.guiParams.quality = state.quality;
    this.guiParams.skySeed = state.seed;
    const sunDir = (this.field ?? this.planet)?.sun.direction;
    if (sunDir) {
      this.guiParams.sunAzimuthDeg = Math.round((Math.atan2(sunDir.x, sunDir.z) * 180) / Math.PI);
      this.guiParams.sunElevationDeg = Math.round((Math.asin(Math.max(-1, Math.min(1, sunDir.y))) * 180) / Math.PI);
    }
    this.gui.controllersRecursive().forEach((c) => c.updateDisplay());
    this.ui.hidden = !state.ui;
  }

  private buildScene(seed: number, kind: 'field' | 'asteroid' | 'planet'): void {
    this.field?.dispose();
    this.field = null;
    this.planet?.dispose();
    this.planet = null;
    if (kind === 'planet') {
      this.addPlanet(planetRecipe(seed), [0, 0, 0]);
      return;
    }
    this.field = new AsteroidField({
      seed,
      spec: kind === 'asteroid' ? singleAsteroidSpec(seed) : undefined,
      progress: this.progress,
      onError: (message, details) => this.notices.show(
        details?.level ?? 'error', message, details?.key,
        details?.retry ? { label: 'Retry', run: details.retry } : undefined,
      ),
      debugFailIndex: this.debugFailAsteroid,
      debugFailJobs: this.debugFailJobs,
      renderer: this.renderer,
      scene: this.scene,
      detailMaterials: this.detailQuality(),
      // Explore: the planet shares this sun and needs its cascades near the surface.
      sunCascades: kind === 'field' ? 3 : 1,
    });
    this.world.add(this.field.root);
    if (this.mesher) this.field.start(this.mesher);
    if (kind === 'field') {
      // The explore scene's planet: the LOD planet of this seed, beside the field, under its sun.
      const planet = explorePlanet(seed, this.field.spec);
      this.addPlanet(planet.recipe, planet.centerM, this.field.sun);
    }
  }

  private addPlanet(recipe: FieldRecipe, centerM: [number, number, number], sun?: Sun): void {
    this.planet = new PlanetView({
      recipe,
      centerM,
      sun,
      progress: this.progress,
      onError: (message) => this.notices.show('error', message),
      // The whole planet recipe per pixel (continents, ridges, canyons, craters, caves) is far
      // heavier than an asteroid's: only on explicit request until it is measured on real GPUs.
      detailMaterial: this.state.quality === 'high',
      renderer: this.renderer,
      scene: this.scene,
    });
    this.world.add(this.planet.root);
    if (this.mesher) this.planet.start(this.mesher.pool, this.mesher.gpuWorker);
  }

  /** Looking at the hero asteroid from beside the sun direction (so the terminator shows), a few radii out. */
  private defaultCamera(): CameraState {
    if (this.planet && !this.field) {
      // Three radii out, the sunlit limb in view.
      const r = this.planet.radiusM;
      return { position: [0.9 * r, 0.6 * r, 2.8 * r], target: [0, 0, 0] };
    }
    return heroCamera(this.field!.spec);
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

  private scheduleUrlWrite(): void {
    clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(() => {
      this.state = { ...this.state, camera: this.currentCamera() };
      history.replaceState(null, '', formatAppState(this.state, location.search));
    }, URL_WRITE_DELAY_MS);
  }

  /** Changes the seed: a new history entry, so Back returns to the previous seed. */
  setSeed(seed: number): void {
    // applyState compares with this.state to decide whether to rebuild: hand it the next state,
    // not an already-updated one (the scene used to stay on the old seed, only the sky changed).
    const next = { ...this.state, seed, camera: null };
    history.pushState(null, '', formatAppState(next, location.search));
    this.applyState(next);
  }

  private readonly onPopState = (): void => {
    const { state, problems } = parseAppState(location.search);
    this.applyState(state);
    this.reportUrlProblems(problems);
  };

  private readonly onContextLost = (event: Event): void => {
    event.preventDefault(); // tells the browser we want the context back
    this.contextLost = true;
    this.notices.show(
      'error',
      'The GPU context was lost (driver reset or too many tabs). Waiting for the browser to restore it…',
      'context',
    );
  };

  private readonly onContextRestored = (): void => {
    this.contextLost = false;
    this.sky.invalidate(); // its cube map died with the context
    this.notices.show('info', 'The GPU context was restored.', 'context');
  };

  private buildGui(): void {
    const p = this.guiParams;
    this.gui
      .add(p, 'seed')
      .name('seed')
      .onFinishChange((value: string) => {
        const seed = parseSeed(value);
        if (seed === null) {
          this.notices.show('warning', `seed “${value}” is not a whole number from 0 to 4294967295`, 'gui-seed');
          p.seed = String(this.state.seed);
          this.gui.controllersRecursive().forEach((c) => c.updateDisplay());
          return;
        }
        this.notices.dismiss('gui-seed');
        this.setSeed(seed);
      });
    this.gui
      .add(p, 'camera', ['orbit', 'fly'])
      .name('camera (F)')
      .onChange((mode: 'orbit' | 'fly') => this.setCameraMode(mode));
    const look = this.gui.addFolder('Look');
    look.add(p, 'exposure', 0.1, 4, 0.01).onChange((v: number) => (this.renderer.toneMappingExposure = v));
    // Bound to guiParams, not this.state: lil-gui writes the value before onChange, and the
    // rebuild test in applyState would then see no change.
    look
      .add(p, 'quality', ['auto', 'low', 'high'])
      .name('detail')
      .onChange((quality: AppState['quality']) => {
        const next = { ...this.state, quality, camera: this.currentCamera() };
        history.replaceState(null, '', formatAppState(next, location.search));
        this.applyState(next);
      });
    look
      .add(p, 'skySeed', 0, 4294967295, 1)
      .name('sky seed')
      .onFinishChange((v: number) => this.sky.setSeed(Math.round(v) >>> 0));
    look.add({ chunkLevels: false }, 'chunkLevels').name('chunk levels (planet)').onChange((v: boolean) => { if (this.planet) this.planet.debugLevels = v; });
    const light = this.gui.addFolder('Sun');
    const aimSun = (): void => {
      const az = (p.sunAzimuthDeg * Math.PI) / 180;
      const el = (p.sunElevationDeg * Math.PI) / 180;
      (this.field ?? this.planet)?.sun.setDirection({ x: Math.cos(el) * Math.sin(az), y: Math.sin(el), z: Math.cos(el) * Math.cos(az) });
    };
    light.add(p, 'sunAzimuthDeg', -180, 180, 1).name('azimuth °').onChange(aimSun);
    light.add(p, 'sunElevationDeg', -89, 89, 1).name('elevation °').onChange(aimSun);
    light.close();
    const shadows = this.gui.addFolder('Shadows');
    shadows.add(p, 'shadows').onChange((v: boolean) => {
      this.renderer.shadowMap.enabled = v;
      this.scene.traverse((o) => {
        const m = (o as { material?: { needsUpdate: boolean } }).material;
        if (m) m.needsUpdate = true;
      });
    });
    shadows
      .add(p, 'shadowRadius', 0, 8, 0.5)
      .name('PCF radius')
      .onChange((v: number) => (this.field ?? this.planet)?.sun.setShadowQuality({ radius: v }));
    shadows
      .add(p, 'shadowMapSize', [512, 1024, 2048, 4096])
      .name('map size')
      .onChange((v: number) => (this.field ?? this.planet)?.sun.setShadowQuality({ mapSize: v }));
    shadows
      .add(p, 'shadowBiasTexels', -4, 1, 0.1)
      .name('bias (texels)')
      .onChange((v: number) => (this.field ?? this.planet)?.sun.setShadowQuality({ biasTexels: v }));
    shadows.close();
    const shot = this.gui.addFolder('Screenshot');
    shot.add(p, 'screenshotScale', { '1× window': 1, '2× window': 2, '4× window': 4 }).name('size');
    shot.add({ save: () => void this.saveScreenshot() }, 'save').name('save PNG (P)');
  }

  dispose(): void {
    this.renderer.setAnimationLoop(null);
    clearTimeout(this.urlTimer);
    this.resizeObserver.disconnect();
    window.removeEventListener('popstate', this.onPopState);
    window.removeEventListener('keydown', this.onKeyDown);
    window.removeEventListener('keyup', this.onKeyUp);
    this.controls.dispose();
    this.fly.dispose();
    this.gui.destroy();
    this.progressBar.dispose();
    this.field?.dispose();
    this.planet?.dispose();
    this.mesher?.dispose();
    this.sky.detach(this.scene);
    this.sky.dispose();
    this.sampling?.gpuWorker?.dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
    this.ui.remove();
  }
}

const scratchSize = new Vector2();

/** Which scene a mode shows. */
function sceneKind(mode: AppState['mode']): 'field' | 'asteroid' | 'planet' {
  return mode === 'planet' ? 'planet' : mode === 'asteroid' ? 'asteroid' : 'field';
}
const raycaster = new Raycaster();

/** `ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) …))` → a line that fits the overlay. */
function shortRenderer(renderer: string): string {
  if (!renderer) return 'unknown';
  const s = renderer.replace(/^ANGLE \((.*)\)$/, '$1');
  return s.length > 56 ? `${s.slice(0, 55)}…` : s;
}
