/**
 * Pictures of the view: screenshots at any size (screenshot.ts tiles and stitches them), named so
 * that their view code reproduces them, the screenshot button's download, and single frames
 * measured for tests and the debug overlay (frameMeasure.ts).
 */
import { Vector2 } from 'three';
import type { App } from './App';
import { measureFrame, type FrameMeasure } from './frameMeasure';
import { captureView, download, type CaptureResult } from './screenshot';
import { encodeView } from './urlState';

export class ViewCapture {
  /** Scene time held while a screenshot renders (see {@link ViewCapture.screenshot}); null otherwise. */
  heldTimeS: number | null = null;

  constructor(private readonly app: App) {}

  /**
   * Renders the current view at `width`×`height` (tiled past the GPU's limits) and returns
   * the PNG with its file name: `sr-<mode>-seed<seed>-<view code>-<w>x<h>.png`, where the
   * view code (camera + frozen time) reproduces the image through `?view=`.
   */
  async screenshot(width: number, height: number): Promise<CaptureResult & { name: string }> {
    const app = this.app;
    const time = app.sceneTime();
    // Freeze the scene at this instant while the tiles render. Not through `state.time`: that is
    // the URL's `t`, and a URL write during the capture would freeze time for whoever opens it.
    this.heldTimeS = time;
    try {
      app.field?.update(app.camera, app.renderer.getDrawingBufferSize(new Vector2()).y, 0, time);
      let capture: Promise<CaptureResult> | null = null;
      app.drawShifted(() => (capture = captureView(app.output, app.scene, app.renderCamera, width, height)));
      const result = await capture!;
      const view = encodeView(app.rig.state(), time);
      const mode = app.state.mode === 'screenshot' ? 'explore' : app.state.mode;
      return { ...result, name: `sr-${mode}-seed${app.state.seed}-${view}-${result.width}x${result.height}.png` };
    } finally {
      this.heldTimeS = null;
    }
  }

  /** The screenshot button and key P: the window size × the chosen scale, saved as a download. */
  async save(scale: number): Promise<void> {
    const size = this.app.renderer.getSize(new Vector2());
    try {
      const shot = await this.screenshot(size.x * scale, size.y * scale);
      if (shot.capped) this.app.notices.show('warning', `Screenshot: ${shot.capped}`, 'screenshot');
      download(shot.blob, shot.name);
    } catch (e) {
      this.app.notices.show('error', `Screenshot failed: ${e instanceof Error ? e.message : String(e)}`, 'screenshot');
    }
  }

  /** Renders once more and measures the frame's pixels (tests and the debug overlay). */
  measure(options: { shadows?: boolean; keepLuma?: boolean } = {}): FrameMeasure {
    const app = this.app;
    let result: FrameMeasure | null = null;
    app.drawShifted(() => (result = measureFrame(app.renderer, app.scene, app.renderCamera, options)));
    return result!;
  }
}
