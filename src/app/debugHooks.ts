import type { App } from './App';
import type { BrushResult, BrushTool } from './BrushTool';
import type { AsteroidStatus } from './AsteroidField';
import type { GpuCapabilities } from './capabilities';
import type { PlanetStats } from './PlanetView';
import { exportMeshBase64, type MeshFormat } from './exportMesh';
import { measureShadowFraction, type FrameMeasure } from './frameMeasure';
import { timeFramesGpu, timeFramesSerial, type GpuTiming } from './frameTiming';
import type { PickInfo, Picker } from './Picker';
import type { SamplingMeasurement } from '../jobs/samplingDecision';

/**
 * `window.__sr`: read-only introspection for browser tests, the headless screenshot CLI
 * and people poking at the console. Installed once at start-up (no import side effects).
 */
export interface DebugHooks {
  app: App | null;
  caps: GpuCapabilities;
  /** Why the app could not start, or null. */
  fatal: string | null;
  /** Frames rendered so far. */
  frames(): number;
  webgl2(): boolean;
  measure(): FrameMeasure | null;
  shadowFraction(): number;
  notices(): { key: string; level: string; text: string }[];
  /** The chosen sampling path, or null while probing. */
  samplingPath(): string | null;
  /** Why that path: the overlay's line and the measurement behind it (null before the probe answers). */
  samplingProbe(): { path: string; detail: string; cached: boolean; measurement: SamplingMeasurement | null; pending: boolean } | null;
  /** Per-asteroid level, hash, triangles and failures of the explore scene. */
  asteroids(): AsteroidStatus[];
  /** Every asteroid has its wanted mesh and nothing is in flight. */
  allGenerated(): boolean;
  /** The planet's LOD numbers (planet mode and explore), else null. */
  planet(): PlanetStats | null;
  /** Generated and done fading: safe to take a screenshot. */
  settled(): boolean;
  /** When the scene's start reached each stage, seconds since navigation (startupTimeline.ts). */
  startup(): Partial<Record<import('./startupTimeline').StartupStage, number>>;
  exportMesh(format: 'glb' | 'obj'): Promise<{ base64: string; name: string; triangles: number }>;
  gallery(): import('./Gallery').GalleryCellStatus[];
  /** Screenshot at a size: PNG as base64, with its file name (the CLI saves it). */
  capture(width: number, height: number): Promise<{ base64: string; name: string; width: number; height: number; capped: string | null }>;
  /** Field job counters: done, stale-cancelled, pending, worker crashes. */
  jobs(): { done: number; stale: number; pending: number; crashes: number };
  /** Frames whose render call compiled a shader program, and which (issue 16: there should be none). */
  frameCompiles(): import('./frameCompiles').FrameCompiles;
  /** The GL programs the page's renderer holds, by name (three's material programs). */
  programs(): { count: number; names: string };
  /** What is under canvas pixel (x, y) (CSS pixels): the overlay's pick, or null. */
  pick(xPx: number, yPx: number): PickInfo | null;
  /** Thrown probes' physics: bodies, resting, deepest contact, colliders (null where there are none). */
  physics(): import('./Probes').ProbeStats | null;
  /**
   * Throws a probe from the camera (speed m/s, default the key's), along the view or toward a world
   * point; its id, or null without probes.
   */
  throwProbe(speedMS?: number, toward?: [number, number, number]): number | null;
  /** Digs or builds a sphere on the body nearest `at` (world metres); resolves when the edit is drawn. */
  brush(params: { op: 'dig' | 'build'; at: [number, number, number]; radiusM: number }): Promise<BrushResult>;
  /** Undo / redo the newest edit; resolve when drawn (null: nothing to undo / redo). */
  undo(): Promise<BrushResult | null>;
  redo(): Promise<BrushResult | null>;
  /** The scene's edits in their URL form. */
  edits(): string;
  /**
   * `frames` renders of the current view, each finished on the GPU (a 1-pixel readback): ms each.
   * `moveM`: the camera steps that far to its right before each (the shadow maps follow as in
   * flight; the drawn set stays), and goes back after.
   */
  renderTiming(frames: number, moveM?: number): Promise<number[]>;
  /**
   * The still view's frames drawn back to back (ms a frame, finished once at the end), the CPU's
   * ms recording each, and each frame's GPU ms from timer queries (null without them): see
   * src/app/frameTiming.ts.
   */
  gpuTiming(frames: number): Promise<GpuTiming>;
  /**
   * The planet's atmosphere: `on` switches it (no recompile); returns whether the scene has one,
   * whether it is drawn, the daylight at the camera and the tables rendered.
   */
  atmosphere(on?: boolean): { present: boolean; enabled: boolean; daylight: number; tableRenders: number; skyViewRenders: number };
  /**
   * `on` false: frames keep updating the scene (streaming, physics, the camera) but draw nothing;
   * for tests that wait on meshes or physics, not pixels. Returns whether frames draw.
   */
  draw(on?: boolean): boolean;
  /** The GPU sampling worker's counters (program sets built, pass timings), or null off that path. */
  samplerStats(): Promise<import('../workers/protocol').GpuWorkerStats | null>;
}

declare global {
  interface Window {
    __sr?: DebugHooks;
  }
}

export function installDebugHooks(init: { app: App | null; caps: GpuCapabilities; fatal: string | null; picker?: Picker; brushes?: BrushTool }): void {
  const { app, picker, brushes } = init;
  window.__sr = {
    app: init.app,
    caps: init.caps,
    fatal: init.fatal,
    pick: (xPx, yPx) => picker?.pick(xPx, yPx) ?? null,
    frames: () => app?.stats.frames ?? 0,
    webgl2: () => app !== null && app.renderer.getContext() instanceof WebGL2RenderingContext,
    measure: () => (app ? app.measure() : null),
    shadowFraction: () => (app ? measureShadowFraction(app.renderer, app.scene, app.camera) : 0),
    notices: () => app?.notices.list() ?? [],
    samplingPath: () => app?.sampling?.path ?? null,
    samplingProbe: () => {
      const s = app?.sampling;
      // pending: a later answer is to come (the measurement, or the GPU taking over once settled).
      return s ? { path: s.path, detail: s.detail, cached: s.cached, measurement: s.measurement, pending: s.upgrade !== null } : null;
    },
    asteroids: () => app?.field?.status() ?? [],
    allGenerated: () => app?.field?.allGenerated() ?? false,
    settled: () => app?.modes.settled() ?? false,
    startup: () => app?.bodies?.startup.report() ?? {},
    exportMesh: (format: 'glb' | 'obj') => (app ? exportAsteroid(app, format) : Promise.reject(new Error('the app did not start'))),
    gallery: () => app?.modes.gallery?.status() ?? [],
    planet: () => app?.planet?.stats() ?? null,
    capture: async (width, height) => {
      if (!app) throw new Error('the app did not start');
      const shot = await app.screenshot(width, height);
      const bytes = new Uint8Array(await shot.blob.arrayBuffer());
      let bin = '';
      for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return { base64: btoa(bin), name: shot.name, width: shot.width, height: shot.height, capped: shot.capped };
    },
    physics: () => app?.bodies?.physics() ?? null,
    throwProbe: (speedMS, toward) => (app?.bodies ? app.bodies.throwProbe(app.camera, speedMS, toward) : null),
    brush: ({ op, at, radiusM }) => (brushes ? brushes.brushAt(op, at, radiusM) : Promise.reject(new Error('the app did not start'))),
    undo: () => brushes?.undo() ?? Promise.resolve(null),
    redo: () => brushes?.redo() ?? Promise.resolve(null),
    edits: () => brushes?.editsText() ?? '',
    frameCompiles: () => app?.frameCompiles.report ?? { frames: 0, programs: 0, names: [] },
    draw: (on) => {
      if (app && on !== undefined) app.drawPaused = !on;
      return app ? !app.drawPaused : false;
    },
    atmosphere: (on) => {
      const air = app?.bodies?.atmosphere ?? null;
      if (air && on !== undefined) air.enabled = on;
      return {
        present: !!air, enabled: air?.enabled ?? false, daylight: app?.bodies?.daylight ?? 0,
        tableRenders: air?.tableRenders ?? 0, skyViewRenders: air?.skyViewRenders ?? 0,
      };
    },
    renderTiming: (frames, moveM = 0) => (app ? timeFramesSerial(app, frames, moveM) : Promise.reject(new Error('the app did not start'))),
    gpuTiming: (frames) => (app ? timeFramesGpu(app, frames) : Promise.reject(new Error('the app did not start'))),
    samplerStats: () => app?.mesher?.gpuWorker?.stats() ?? Promise.resolve(null),
    programs: () => {
      const list = app?.renderer.info.programs ?? [];
      const byName = new Map<string, number>();
      for (const p of list) byName.set(p.name || '(unnamed)', (byName.get(p.name || '(unnamed)') ?? 0) + 1);
      return { count: list.length, names: [...byName].map(([n, c]) => `${n} ×${c}`).join(', ') };
    },
    jobs: () => ({
      done: app?.field?.jobsDone ?? 0,
      stale: app?.field?.staleCancelled ?? 0,
      pending: app?.field?.pending() ?? 0,
      crashes: app?.mesherCrashes() ?? 0,
    }),
  };
}

/** The asteroid in view (nearest the orbit target) as a mesh file, base64 (CLI, tests). */
async function exportAsteroid(app: App, format: MeshFormat): Promise<{ base64: string; name: string; triangles: number }> {
  if (!app.field) throw new Error('no asteroid in view');
  const near = app.field.nearest(app.controls.target);
  return exportMeshBase64(app.field.pivotOf(near.spec.index), format, `sr-asteroid-seed${near.spec.seed}`, { family: near.spec.family });
}
