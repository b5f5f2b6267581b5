/**
 * Frame timings for the bench and the console (`window.__sr.renderTiming` / `gpuTiming`): the app's
 * current view drawn again, outside its own frame loop.
 *
 * Three figures, because a frame's cost splits between the CPU (three.js and the browser's command
 * stream: per draw call) and the GPU (per triangle and pixel), and a browser's frame loop overlaps
 * the two (the CPU records frame n + 1 while the GPU draws frame n):
 * - serial ({@link timeFramesSerial}): each frame finished on the GPU before the next starts
 *   (a 1-pixel readback), so CPU and GPU time add up — the figure the bench has always reported;
 * - pipelined: frames drawn back to back with one readback at the end, per frame — what a frame
 *   loop sustains, the larger of the CPU's and the GPU's share;
 * - GPU: each frame's GPU time from EXT_disjoint_timer_query_webgl2 (null where the context has
 *   no timer queries; SwiftShader has them, where the GPU is the whole frame).
 *
 * Each frame runs in its own task, as the app's frames do (a query's answer — bloom's gate reads
 * them — arrives only in a later task), with the app's own frames paused meanwhile.
 */
import { Vector3 } from 'three';
import type { App } from './App';

export interface GpuTiming {
  /** GPU ms of each frame (timer queries), or null without EXT_disjoint_timer_query_webgl2. */
  gpuMs: number[] | null;
  /** Wall ms a frame over `frames` frames drawn back to back, finished on the GPU once at the end. */
  pipelinedMs: number;
  /** Wall ms the CPU spent recording each frame of the pipelined run (until the call returned). */
  cpuMs: number[];
}

/** One frame of the current view, as the app's loop draws it (shadow fit included). */
function drawFrame(app: App): void {
  const bodies = app.bodies;
  // The shadow fit a frame makes (staggered cascades re-render their maps in turn, as in the app's own frames).
  if (bodies?.planet && bodies.atPlanet(app.camera.position)) bodies.fitPlanetShadows(app.camera, app.sceneTime());
  app.drawShifted(() => app.output.render(app.scene, app.renderCamera, true));
}

function finish(gl: WebGL2RenderingContext | WebGLRenderingContext, px: Uint8Array): void {
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
}

/**
 * `frames` renders, each finished on the GPU: ms each. `moveM`: the camera steps that far to its
 * right before each (the shadow maps follow as in flight; the drawn set stays), and goes back after.
 * Each frame is its own task, as the app's frames are (a query's answer, such as bloom's gate
 * reads, arrives only in a later task); the app's own frames are paused meanwhile.
 */
export async function timeFramesSerial(app: App, frames: number, moveM = 0): Promise<number[]> {
  const gl = app.renderer.getContext();
  const px = new Uint8Array(4);
  const ms: number[] = [];
  const start = app.camera.position.clone();
  const right = new Vector3().setFromMatrixColumn(app.camera.matrixWorld, 0).multiplyScalar(moveM);
  const paused = app.framesPaused;
  app.framesPaused = true;
  try {
    for (let i = 0; i < frames; i++) {
      app.camera.position.add(right);
      app.camera.updateMatrixWorld();
      const t0 = performance.now();
      drawFrame(app);
      finish(gl, px);
      ms.push(performance.now() - t0);
      await nextTask();
    }
  } finally {
    app.camera.position.copy(start);
    app.camera.updateMatrixWorld();
    app.framesPaused = paused;
  }
  return ms;
}

/** Resolves in a later task (a message, not a timer: no 4 ms clamp). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** The pipelined and GPU figures (see the module comment) for `frames` frames of the still view. */
export async function timeFramesGpu(app: App, frames: number): Promise<GpuTiming> {
  const gl = app.renderer.getContext();
  const px = new Uint8Array(4);
  const paused = app.framesPaused;
  app.framesPaused = true;
  try {
    drawFrame(app);
    finish(gl, px);
    await nextTask();
    const cpuMs: number[] = [];
    const t0 = performance.now();
    for (let i = 0; i < frames; i++) {
      const t = performance.now();
      drawFrame(app);
      cpuMs.push(performance.now() - t);
      await nextTask();
    }
    finish(gl, px);
    const pipelinedMs = (performance.now() - t0) / frames;
    return { gpuMs: await gpuFrameTimes(app, frames), pipelinedMs, cpuMs };
  } finally {
    app.framesPaused = paused;
  }
}

/** Each frame's GPU time from timer queries (results arrive only after returning to the event loop). */
async function gpuFrameTimes(app: App, frames: number): Promise<number[] | null> {
  const gl = app.renderer.getContext();
  if (!(gl instanceof WebGL2RenderingContext)) return null;
  const ext = gl.getExtension('EXT_disjoint_timer_query_webgl2') as { TIME_ELAPSED_EXT: number; GPU_DISJOINT_EXT: number } | null;
  if (!ext) return null;
  const px = new Uint8Array(4);
  const queries: WebGLQuery[] = [];
  for (let i = 0; i < frames; i++) {
    const q = gl.createQuery();
    gl.beginQuery(ext.TIME_ELAPSED_EXT, q);
    drawFrame(app);
    gl.endQuery(ext.TIME_ELAPSED_EXT);
    queries.push(q);
    // One frame at a time on the GPU, as in the serial figure: no overlap between queries' work.
    finish(gl, px);
    await nextTask();
  }
  const ms: number[] = [];
  try {
    for (const q of queries) {
      for (let wait = 0; !gl.getQueryParameter(q, gl.QUERY_RESULT_AVAILABLE); wait++) {
        if (wait > 250) return null;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // A disjoint event (clock change, GPU reset) makes every pending result meaningless.
      if (gl.getParameter(ext.GPU_DISJOINT_EXT)) return null;
      ms.push((gl.getQueryParameter(q, gl.QUERY_RESULT) as number) / 1e6);
    }
  } finally {
    for (const q of queries) gl.deleteQuery(q);
  }
  return ms;
}
