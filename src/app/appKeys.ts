/**
 * The explorer's own keys (the brush tool's are BrushTool's, flight's FlyControls'): F switches the
 * camera, P saves a screenshot, T throws a probe, `?` or H shows the help overlay (Escape closes
 * it); a released key in flight writes the URL.
 */
import type { App } from './App';
import { HelpOverlay } from './ui/HelpOverlay';

export class AppKeys {
  readonly help: HelpOverlay;

  constructor(private readonly app: App, ui: HTMLElement) {
    this.help = new HelpOverlay(ui);
    window.addEventListener('keydown', this.onKeyDown);
    window.addEventListener('keyup', this.onKeyUp);
  }

  dispose(): void {
    window.removeEventListener('keydown', this.onKeyDown);
    window.removeEventListener('keyup', this.onKeyUp);
    this.help.dispose();
  }

  private readonly onKeyDown = (e: KeyboardEvent): void => {
    if (e.target instanceof HTMLInputElement || e.ctrlKey || e.metaKey || e.altKey) return;
    const app = this.app;
    if (e.key === '?' || e.code === 'KeyH') this.help.show();
    if (e.key === 'Escape') this.help.show(false);
    if (e.code === 'KeyF') app.setCameraMode(app.fly.enabled ? 'orbit' : 'fly');
    if (e.code === 'KeyP') void app.capture.save(app.controlsGui.screenshotScale);
    if (e.code === 'KeyT') app.bodies?.throwProbe(app.camera);
  };

  private readonly onKeyUp = (): void => {
    if (this.app.fly.enabled) this.app.url.scheduleWrite();
  };
}
