/**
 * The page's UI over the canvas (`.sr-ui`, style.css): the stats overlay top-left, the progress bar
 * bottom-center with the notices above it. The Controls panel and the help overlay are placed in
 * its element by their owners; `ui=0` hides the whole layer.
 */
import type { WebGLRenderer } from 'three';
import type { Progress } from '../progress';
import { Notices } from './Notices';
import { ProgressBar } from './ProgressBar';
import { StatsOverlay } from './StatsOverlay';

export class UiLayer {
  readonly element: HTMLElement;
  readonly notices: Notices;
  readonly stats: StatsOverlay;
  private readonly progressBar: ProgressBar;

  /** The layer, appended to `container`; the stats read `renderer`'s counters, the bar shows `progress`. */
  constructor(container: HTMLElement, renderer: WebGLRenderer, progress: Progress) {
    this.element = document.createElement('div');
    this.element.className = 'sr-ui';
    container.appendChild(this.element);
    this.notices = new Notices(this.element);
    this.progressBar = new ProgressBar(this.element, progress);
    this.stats = new StatsOverlay(this.element, renderer);
  }

  dispose(): void {
    this.progressBar.dispose();
    this.element.remove();
  }
}
