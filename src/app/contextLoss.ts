/**
 * A lost WebGL context (driver reset, too many tabs): the app stops drawing, says so, and asks for
 * the context back; once restored, what died with it is made again (the host's `restored`) and the
 * user is told.
 */
import type { Notices } from './ui/Notices';

export interface ContextLossHost {
  notices: Notices;
  /** After the context is back: remake what lived in it (the sky's cube map, tables, shadow maps). */
  restored(): void;
}

export class ContextLossWatch {
  /** The context is lost: drawing stops until it is restored. */
  lost = false;

  constructor(private readonly canvas: HTMLCanvasElement, private readonly host: ContextLossHost) {
    canvas.addEventListener('webglcontextlost', this.onLost);
    canvas.addEventListener('webglcontextrestored', this.onRestored);
  }

  private readonly onLost = (event: Event): void => {
    event.preventDefault(); // tells the browser we want the context back
    this.lost = true;
    const why = 'The GPU context was lost (driver reset or too many tabs). Waiting for the browser to restore it…';
    this.host.notices.show('error', why, 'context');
  };

  private readonly onRestored = (): void => {
    this.lost = false;
    this.host.restored();
    this.host.notices.show('info', 'The GPU context was restored.', 'context');
  };

  dispose(): void {
    this.canvas.removeEventListener('webglcontextlost', this.onLost);
    this.canvas.removeEventListener('webglcontextrestored', this.onRestored);
  }
}
