/**
 * The explorer's control panel (lil-gui): seed, camera mode, look (exposure, detail, sky seed,
 * chunk levels), sun direction, shadow quality, thrown probes and screenshots. It holds the panel's values and
 * turns edits into calls on its host (App); the host tells it when the state changed elsewhere
 * (URL, keys) with {@link ControlsGui.sync}.
 */
import GUI, { type Controller } from 'lil-gui';
import type { Vector3, WebGLRenderer, Scene } from 'three';
import type { Sun } from '../../render/Sun';
import { parseSeed, type AppState } from '../urlState';
import type { Notices } from './Notices';

/** What the panel changes: the app behind it. */
export interface ControlsHost {
  readonly renderer: WebGLRenderer;
  readonly scene: Scene;
  readonly notices: Notices;
  /** The state the panel edits (seed, quality). */
  state(): AppState;
  setSeed(seed: number): void;
  setCameraMode(mode: 'orbit' | 'fly'): void;
  /** Applies a new detail quality (the scene is rebuilt, the camera kept). */
  setQuality(quality: AppState['quality']): void;
  setSkySeed(seed: number): void;
  /** The sun of the scene shown now (null in the gallery). */
  sun(): Sun | null;
  /** Colours planet chunks by level (debug view). */
  setChunkLevels(on: boolean): void;
  saveScreenshot(scale: number): void;
  /** Throws a probe from the camera (scenes with asteroids). */
  throwProbe(): void;
  /** Writes the URL of the view shown now (the copy-link button copies it then). */
  writeUrl(): void;
  /** Shows or hides the help overlay (the keys). */
  toggleHelp(): void;
  /** The bodies of the scene a flight can go to, by name (`planet`, `asteroid 3`). */
  bodyNames(): string[];
  /** Flies the camera to a body named by {@link bodyNames}. */
  goTo(name: string): void;
}

/** The *go to* list's entry that goes nowhere. */
const NOWHERE = '—';

export class ControlsGui {
  readonly gui: GUI;
  private goTo: Controller | null = null;
  private readonly params = {
    exposure: 1,
    shadows: true,
    shadowRadius: 3,
    shadowMapSize: 2048,
    shadowBiasTexels: -1,
    seed: '',
    quality: 'auto' as AppState['quality'],
    camera: 'orbit' as 'orbit' | 'fly',
    goTo: NOWHERE,
    screenshotScale: 2,
    skySeed: 1,
    sunAzimuthDeg: 0,
    sunElevationDeg: 30,
  };

  constructor(container: HTMLElement, private readonly host: ControlsHost) {
    this.gui = new GUI({ container, title: 'Controls' });
    this.addTop();
    this.addLook();
    this.addSun();
    this.addShadows();
    this.gui.addFolder('Probes').add({ throw: () => this.host.throwProbe() }, 'throw').name('throw a probe (T)');
    const shot = this.gui.addFolder('Screenshot');
    shot.add(this.params, 'screenshotScale', { '1× window': 1, '2× window': 2, '4× window': 4 }).name('size');
    shot.add({ save: () => this.host.saveScreenshot(this.params.screenshotScale) }, 'save').name('save PNG (P)');
  }

  /** The screenshot size the panel asks for, as a multiple of the window. */
  get screenshotScale(): number {
    return this.params.screenshotScale;
  }

  /** Shows the values of a new state (and the sun of its scene). */
  sync(state: AppState, sunDirection: Vector3 | null): void {
    const p = this.params;
    p.seed = String(state.seed);
    p.quality = state.quality;
    p.skySeed = state.seed;
    this.goTo?.options([NOWHERE, ...this.host.bodyNames()]); // lil-gui 0.21's option controller: in place
    if (sunDirection) {
      p.sunAzimuthDeg = Math.round((Math.atan2(sunDirection.x, sunDirection.z) * 180) / Math.PI);
      p.sunElevationDeg = Math.round((Math.asin(Math.max(-1, Math.min(1, sunDirection.y))) * 180) / Math.PI);
    }
    this.refresh();
  }

  /** Shows a camera mode chosen elsewhere (key F). */
  syncCameraMode(mode: 'orbit' | 'fly'): void {
    this.params.camera = mode;
    this.refresh();
  }

  show(visible: boolean): void {
    if (visible) this.gui.show();
    else this.gui.hide();
  }

  dispose(): void {
    this.gui.destroy();
  }

  private refresh(): void {
    this.gui.controllersRecursive().forEach((c) => c.updateDisplay());
  }

  private addTop(): void {
    const p = this.params;
    this.gui
      .add(p, 'seed')
      .name('seed')
      .onFinishChange((value: string) => {
        const seed = parseSeed(value);
        if (seed === null) {
          this.host.notices.show('warning', `seed “${value}” is not a whole number from 0 to 4294967295`, 'gui-seed');
          p.seed = String(this.host.state().seed);
          this.refresh();
          return;
        }
        this.host.notices.dismiss('gui-seed');
        this.host.setSeed(seed);
      });
    this.gui.add({ random: () => this.host.setSeed(crypto.getRandomValues(new Uint32Array(1))[0]) }, 'random').name('random seed');
    this.gui.add({ copy: () => void this.copyLink() }, 'copy').name('copy link');
    this.gui.add({ help: () => this.host.toggleHelp() }, 'help').name('help: keys (? or H)');
    this.goTo = this.gui.add(p, 'goTo', [NOWHERE]).name('go to (or click it)').onChange((name: string) => this.onGoTo(name));
    this.gui
      .add(p, 'camera', ['orbit', 'fly'])
      .name('camera (F)')
      .onChange((mode: 'orbit' | 'fly') => this.host.setCameraMode(mode));
  }

  private onGoTo(name: string): void {
    if (name !== NOWHERE) this.host.goTo(name);
    this.params.goTo = NOWHERE;
    this.refresh();
  }

  /** The link of this view to the clipboard (a notice says so, or shows the link where the browser refuses). */
  private async copyLink(): Promise<void> {
    this.host.writeUrl();
    const link = location.href;
    try {
      await navigator.clipboard.writeText(link);
      this.host.notices.show('info', 'Link copied: it opens this view.', 'copy-link');
    } catch {
      this.host.notices.show('info', `This browser did not let the page copy; the link is ${link}`, 'copy-link');
    }
  }

  private addLook(): void {
    const p = this.params;
    const look = this.gui.addFolder('Look');
    look.add(p, 'exposure', 0.1, 4, 0.01).onChange((v: number) => (this.host.renderer.toneMappingExposure = v));
    // Bound to the panel's values, not the host's state: lil-gui writes the value before
    // onChange, and the host's rebuild test would then see no change.
    look
      .add(p, 'quality', ['auto', 'low', 'high'])
      .name('detail')
      .onChange((quality: AppState['quality']) => this.host.setQuality(quality));
    look
      .add(p, 'skySeed', 0, 4294967295, 1)
      .name('sky seed')
      .onFinishChange((v: number) => this.host.setSkySeed(Math.round(v) >>> 0));
    look.add({ chunkLevels: false }, 'chunkLevels').name('chunk levels (planet)').onChange((v: boolean) => this.host.setChunkLevels(v));
  }

  private addSun(): void {
    const p = this.params;
    const light = this.gui.addFolder('Sun');
    const aimSun = (): void => {
      const az = (p.sunAzimuthDeg * Math.PI) / 180;
      const el = (p.sunElevationDeg * Math.PI) / 180;
      this.host.sun()?.setDirection({ x: Math.cos(el) * Math.sin(az), y: Math.sin(el), z: Math.cos(el) * Math.cos(az) });
    };
    light.add(p, 'sunAzimuthDeg', -180, 180, 1).name('azimuth °').onChange(aimSun);
    light.add(p, 'sunElevationDeg', -89, 89, 1).name('elevation °').onChange(aimSun);
    light.close();
  }

  private addShadows(): void {
    const p = this.params;
    const shadows = this.gui.addFolder('Shadows');
    shadows.add(p, 'shadows').onChange((v: boolean) => {
      this.host.renderer.shadowMap.enabled = v;
      this.host.scene.traverse((o) => {
        const m = (o as { material?: { needsUpdate: boolean } }).material;
        if (m) m.needsUpdate = true;
      });
    });
    shadows
      .add(p, 'shadowRadius', 0, 8, 0.5)
      .name('PCF radius')
      .onChange((v: number) => this.host.sun()?.setShadowQuality({ radius: v }));
    shadows
      .add(p, 'shadowMapSize', [512, 1024, 2048, 4096])
      .name('map size')
      .onChange((v: number) => this.host.sun()?.setShadowQuality({ mapSize: v }));
    shadows
      .add(p, 'shadowBiasTexels', -4, 1, 0.1)
      .name('bias (texels)')
      .onChange((v: number) => this.host.sun()?.setShadowQuality({ biasTexels: v }));
    shadows.close();
  }
}
