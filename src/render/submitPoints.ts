/**
 * Hands the GPU a frame's scene in parts, so that it starts drawing while the rest is recorded.
 *
 * Chrome's WebGL on ANGLE's Vulkan backend records a frame's draws into a command buffer and
 * submits it only at a sync point — here, the end of the frame (a readback, or the compositor
 * taking the canvas): `gl.flush()` alone is deferred while a render pass is open. So the GPU sat
 * idle while three.js and the GPU process recorded the whole scene, and a frame cost their time
 * plus the GPU's. A fence (`fenceSync`) followed by a flush makes ANGLE end the render pass and
 * submit what it has. Measured on the H100 (ANGLE Vulkan, 16 cores, 1280×720 high, each frame
 * finished before the next, one page each): explore 7.2–7.7 → 6.5 ms, planet 4 at 20 m 8.5–9.1 →
 * 7.7; points every 8 to 32 draws all gained, within ±0.3 ms of one another.
 *
 * The price is a render pass split: its attachments stored and loaded again (the MSAA HDR target
 * and depth, ~30 MB at 1280×720: hundredths of a millisecond on a desktop GPU, more on a tiler),
 * so there are few points a frame: one every {@link SUBMIT_EVERY_DRAWS} draws, at most
 * {@link MAX_SUBMITS}.
 */
import type { WebGLRenderer } from 'three';

/** Draws between two submit points. */
export const SUBMIT_EVERY_DRAWS = 12;
/** Submit points a frame at most. */
export const MAX_SUBMITS = 3;

/** What a submit point needs of a context: WebGL2's fences. */
export interface FenceContext {
  readonly SYNC_GPU_COMMANDS_COMPLETE: number;
  fenceSync(condition: number, flags: number): WebGLSync | null;
  deleteSync(sync: WebGLSync | null): void;
  flush(): void;
}

/** Counts a frame's draws and submits at every {@link SUBMIT_EVERY_DRAWS}th, up to {@link MAX_SUBMITS} (pure: Node-tested). */
export class SubmitPoints {
  /** Submit points so far (tests, stats). */
  submits = 0;
  private draws = 0;
  private inFrame = 0;

  constructor(private readonly gl: FenceContext, private readonly every = SUBMIT_EVERY_DRAWS, private readonly max = MAX_SUBMITS) {}

  /** A new frame: counting starts again. */
  frameStart(): void {
    this.draws = 0;
    this.inFrame = 0;
  }

  /** After each draw of the frame. */
  afterDraw(): void {
    this.draws++;
    if (this.draws % this.every !== 0 || this.inFrame >= this.max) return;
    this.inFrame++;
    this.submits++;
    const gl = this.gl;
    const sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    gl.flush();
    gl.deleteSync(sync);
  }
}

/**
 * Runs `draw` (a `renderer.render` call) with `points` counting its draws (three's
 * renderBufferDirect, which the shadow maps' draws go through too); the renderer is as before
 * afterwards, also if `draw` throws.
 */
export function withSubmitPoints(renderer: WebGLRenderer, points: SubmitPoints, draw: () => void): void {
  const own = Object.prototype.hasOwnProperty.call(renderer, 'renderBufferDirect');
  const direct = renderer.renderBufferDirect;
  points.frameStart();
  renderer.renderBufferDirect = function (...args: Parameters<WebGLRenderer['renderBufferDirect']>): void {
    direct.apply(this, args);
    points.afterDraw();
  };
  try {
    draw();
  } finally {
    if (own) renderer.renderBufferDirect = direct;
    else delete (renderer as { renderBufferDirect?: unknown }).renderBufferDirect;
  }
}
