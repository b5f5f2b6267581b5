import { Group, Mesh, Scene, Vector2, type PerspectiveCamera, type WebGLRenderer } from 'three';
import type { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { acceleratedRaycast } from 'three-mesh-bvh';
import type { FlyControls } from '../interact/FlyControls';
import { SkyCubemap } from '../render/SkyCubemap';
import type { BodyMesher } from '../workers/BodyMesher';
import { isSoftwareRenderer, type SamplingChoice } from '../workers/samplingPath';
import { GPU_DRAIN_CAP_MS, startMesher } from './samplingStart';
import { whenGpuDrained } from './gpuDrain';
import type { AsteroidField } from './AsteroidField';
import type { PlanetView } from './PlanetView';
import type { SceneBodies } from './SceneBodies';
import type { GpuCapabilities } from './capabilities';
import type { FrameMeasure } from './frameMeasure';
import { FrameCompileWatch } from './frameCompiles';
import type { CaptureResult } from './screenshot';
import { Progress } from './progress';
import type { ControlsGui } from './ui/ControlsGui';
import { createControlsPanel } from './controlsPanel';
import type { Notices } from './ui/Notices';
import { shortRenderer, type StatsOverlay } from './ui/StatsOverlay';
import { UiLayer } from './ui/UiLayer';
import { createRenderer } from './renderer';
import { compileForFrames, FrameOutput } from '../render/FrameOutput';
import type { AppState } from './urlState';
import type { UrlSync } from './urlSync';
import { ContextLossWatch } from './contextLoss';
import { AppKeys } from './appKeys';
import { CameraFlight } from './CameraFlight';
import { CameraRig } from './CameraRig';
import { ModeController } from './ModeController';
import { ViewCapture } from './ViewCapture';

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

/**
 * The application shell: renderer, frame loop, resize, UI, the start of generation, and disposal.
 * It owns the WebGL renderer and disposes what it creates. The rest it wires and keeps apart: which
 * scene shows and the URL (ModeController.ts), the camera and its controls (CameraRig.ts),
 * screenshots and measured frames (ViewCapture.ts), keys (appKeys.ts), flights to a body
 * (CameraFlight.ts), a lost context (contextLoss.ts).
 */
export class App {
  readonly renderer: WebGLRenderer;
  /** The HDR target, bloom and tone mapping every frame and screenshot goes through. */
  readonly output: FrameOutput;
  readonly scene = new Scene();
  /** The camera, the floating origin's render camera, orbit and free flight (CameraRig.ts). */
  readonly rig: CameraRig;
  /** The camera in world space (metres, float64 on the CPU): controls move this one. */
  readonly camera: PerspectiveCamera;
  /** What the GPU sees: the same view with the camera at the origin (CameraRig.renderCamera). */
  readonly renderCamera: PerspectiveCamera;
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
  /** Which scene shows, the URL state, and the switches between them (ModeController.ts). */
  readonly modes: ModeController;
  /** Screenshots and measured frames (ViewCapture.ts). */
  readonly capture: ViewCapture;
  /** The URL as the app's state (ModeController.url). */
  readonly url: UrlSync;
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

  get state(): AppState {
    return this.modes.state;
  }

  set state(state: AppState) {
    this.modes.state = state;
  }

  /** The bodies the explorer shows now, built from their SceneSpec (null in the gallery). */
  get bodies(): SceneBodies | null {
    return this.modes.bodies;
  }

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
  /** Stats, progress and notices over the canvas (ui/UiLayer.ts), and its element. */
  private readonly uiLayer: UiLayer;
  private readonly ui: HTMLElement;
  /** The procedural sky, rendered once per seed into a cube map (scene background + fill light). */
  readonly sky: SkyCubemap;
  private readonly resizeObserver: ResizeObserver;
  private readonly maxPixelRatio: number;
  /** Body jobs on the sampling path the probe picked (null until it answers; read by __sr). */
  mesher: BodyMesher | null = null;
  private readonly contextLoss: ContextLossWatch;
  private lastFrameMs = -1;
  private readonly startMs = performance.now();

  constructor(options: AppOptions) {
    this.container = options.container;
    this.caps = options.caps;
    this.maxPixelRatio = options.maxPixelRatio ?? 2;

    // BVH raycasts for every Mesh: patched once, explicitly, at start-up (docs/design.md, house rule 16).
    Mesh.prototype.raycast = acceleratedRaycast;

    this.renderer = createRenderer();
    this.output = new FrameOutput(this.renderer);
    this.container.appendChild(this.renderer.domElement);

    this.uiLayer = new UiLayer(this.container, this.renderer, this.progress);
    ({ element: this.ui, notices: this.notices, stats: this.stats } = this.uiLayer);
    this.stats.setLine('gpu', `gpu ${shortRenderer(options.caps.renderer)}`);

    this.rig = new CameraRig({
      element: this.renderer.domElement,
      altitude: () => this.altitude(),
      collide: (from, to) => this.bodies?.collide(from, to) ?? to,
      moved: () => this.url.scheduleWrite(),
    });
    ({ camera: this.camera, renderCamera: this.renderCamera, controls: this.controls, fly: this.fly } = this.rig);
    this.keys = new AppKeys(this, this.ui);
    this.flight = new CameraFlight(this);
    this.capture = new ViewCapture(this);

    // A software GPU renders the sky's one-off passes on the CPU (seconds at 1024 a face): smaller faces there.
    this.sky = new SkyCubemap({ seed: options.state.seed, size: isSoftwareRenderer(options.caps.renderer) ? 512 : 1024 });
    this.sky.attach(this.scene);
    this.scene.add(this.world);
    this.world.name = 'world';

    this.modes = new ModeController(this, {
      state: options.state, caps: options.caps, container: this.container, ui: this.ui,
      debugFailAsteroid: options.debugFailAsteroid, debugFailJobs: options.debugFailJobs,
    });
    this.url = this.modes.url;
    this.controlsGui = createControlsPanel(this, this.ui);

    this.modes.apply(this.state);

    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(this.container);
    this.resize();

    this.contextLoss = new ContextLossWatch(this.renderer.domElement, {
      notices: this.notices,
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
      settled: () => this.modes.settled(),
      pauseFrames: (paused) => void (this.framesPaused = paused),
      gpuDrained: () => whenGpuDrained(this.renderer.getContext() as WebGL2RenderingContext, GPU_DRAIN_CAP_MS),
      planetMeasureBody: () => this.planet?.measureBody() ?? null,
      gpuFirst: () => this.state.mode === 'planet',
      onSampling: (choice) => this.stats.setLine('sampling', `sampling: ${(this.sampling = choice).path} — ${choice.detail}`),
      onWorkerLost: (why) => this.notices.show('warning', `${why[0].toUpperCase()}${why.slice(1)}.`, 'worker-lost'),
    }, this.state.workers ?? undefined).then((mesher) => {
      if (!mesher) return;
      this.mesher = mesher;
      this.modes.start(mesher);
    });
  }

  private frame(timeMs: number): void {
    if (this.contextLoss.lost || this.framesPaused || this.state.mode === 'gallery') return;
    const dtS = this.lastFrameMs < 0 ? 0 : Math.min(0.25, (timeMs - this.lastFrameMs) / 1000);
    this.lastFrameMs = timeMs;
    // A flight to a clicked body moves the camera itself (CameraFlight.ts).
    if (!this.flight.update(timeMs)) this.rig.update(dtS);
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
    // Back to orbit: around the nearest body's center if it is in front (CameraRig.setMode).
    if (this.rig.setMode(mode, (position, ahead) => this.bodies?.bodyAhead(position, ahead))) this.url.scheduleWrite();
  }

  /** Height of the camera above the nearest surface, metres. */
  altitude(): number {
    return this.bodies?.altitude(this.camera.position) ?? 100;
  }

  /** The current view at `width`×`height` as a PNG and its file name (ViewCapture.screenshot). */
  screenshot(width: number, height: number): Promise<CaptureResult & { name: string }> {
    return this.capture.screenshot(width, height);
  }

  /** Scene time, seconds: held by a screenshot, else frozen at the URL's `t` when given, else running. */
  sceneTime(): number {
    return this.capture.heldTimeS ?? this.state.time ?? (performance.now() - this.startMs) / 1000;
  }

  /** Runs `draw` with the floating origin at the camera (CameraRig.drawShifted). */
  drawShifted(draw: () => void): void {
    this.rig.drawShifted(this.world, draw);
  }

  /** Workers the body pool replaced after they died. */
  mesherCrashes(): number {
    return this.mesher?.pool.crashes ?? 0;
  }

  /** Renders once more and measures the frame's pixels (tests and the debug overlay). */
  measure(options: { shadows?: boolean; keepLuma?: boolean } = {}): FrameMeasure {
    return this.capture.measure(options);
  }

  private resize(): void {
    const width = Math.max(1, this.container.clientWidth);
    const height = Math.max(1, this.container.clientHeight);
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, this.maxPixelRatio));
    this.renderer.setSize(width, height, false);
    this.rig.setAspect(width / height);
  }

  /** Changes the seed: a new history entry, so Back returns to the previous seed. */
  setSeed(seed: number): void {
    this.modes.setSeed(seed);
  }

  dispose(): void {
    this.disposed = true;
    this.renderer.setAnimationLoop(null);
    this.contextLoss.dispose();
    this.resizeObserver.disconnect();
    this.keys.dispose();
    this.flight.dispose();
    this.rig.dispose();
    this.controlsGui.dispose();
    this.modes.dispose();
    this.mesher?.dispose();
    this.sky.detach(this.scene);
    this.sky.dispose();
    this.output.dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
    this.uiLayer.dispose();
  }
}

const scratchSize = new Vector2();
