/**
 * The readback floor of this browser and GPU (issue 16's latency target): how long a trivial
 * pass's result takes to reach JS, by size and by route, with no field in the way. Runs on a
 * WebGL2 context in either a page or a worker (readbackFloor.worker.ts), so the sampler's own
 * context (an OffscreenCanvas worker) is measured too.
 *
 * Routes:
 * - `poll`: readPixels into a PIXEL_PACK buffer, fence, flush, ask the fence after every
 *   zero-delay yield, then getBufferSubData (what GpuFieldSampler's 'poll' does, without its timer);
 * - `sync-pbo`: readPixels into the buffer, then getBufferSubData at once (the sampler's 'sync');
 * - `readpixels`: readPixels straight into a typed array (one synchronous round trip).
 */

export type ReadbackRoute = 'poll' | 'sync-pbo' | 'readpixels';

/** One readback's figures (ms). `waitMs`: dispatch → fence seen (poll only); `readMs`: the read call. */
export interface ReadbackSample {
  totalMs: number;
  waitMs: number;
  readMs: number;
}

interface Target {
  bytes: number;
  width: number;
  height: number;
  framebuffer: WebGLFramebuffer;
  pbo: WebGLBuffer;
  out: Float32Array;
}

const yieldNow = (): Promise<void> =>
  new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(0);
  });

/** Measures readbacks of `bytes` (a whole number of RGBA32F texels) on one context. */
export class ReadbackFloor {
  private readonly targets = new Map<number, Target>();
  private frame = 0;

  constructor(private readonly gl: WebGL2RenderingContext) {
    if (!gl.getExtension('EXT_color_buffer_float')) throw new Error('no EXT_color_buffer_float: no float render targets');
  }

  private target(bytes: number): Target {
    const known = this.targets.get(bytes);
    if (known) return known;
    const gl = this.gl;
    const texels = Math.ceil(bytes / 16);
    const width = Math.ceil(Math.sqrt(texels));
    const height = Math.ceil(texels / width);
    const texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, width, height);
    const framebuffer = gl.createFramebuffer()!;
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
    const pbo = gl.createBuffer()!;
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, pbo);
    gl.bufferData(gl.PIXEL_PACK_BUFFER, width * height * 16, gl.STREAM_READ);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    const target = { bytes, width, height, framebuffer, pbo, out: new Float32Array(width * height * 4) };
    this.targets.set(bytes, target);
    return target;
  }

  /** One pass (a clear to a new value) and its readback by `route`; checks the value read. */
  async once(bytes: number, route: ReadbackRoute): Promise<ReadbackSample> {
    const gl = this.gl;
    const t = this.target(bytes);
    const value = ++this.frame;
    const t0 = performance.now();
    gl.bindFramebuffer(gl.FRAMEBUFFER, t.framebuffer);
    gl.viewport(0, 0, t.width, t.height);
    gl.clearBufferfv(gl.COLOR, 0, [value, 0, 0, 1]);
    let waitMs = 0;
    let read0: number;
    if (route === 'readpixels') {
      read0 = performance.now();
      gl.readPixels(0, 0, t.width, t.height, gl.RGBA, gl.FLOAT, t.out);
    } else {
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, t.pbo);
      gl.readPixels(0, 0, t.width, t.height, gl.RGBA, gl.FLOAT, 0);
      if (route === 'poll') {
        const fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0)!;
        gl.flush();
        const w0 = performance.now();
        while (gl.getSyncParameter(fence, gl.SYNC_STATUS) !== gl.SIGNALED) await yieldNow();
        waitMs = performance.now() - w0;
        gl.deleteSync(fence);
      }
      read0 = performance.now();
      gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, t.out);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    }
    const end = performance.now();
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    const last = t.out.length - 4;
    if (t.out[0] !== value || t.out[last] !== value) {
      throw new Error(`readback ${route} of ${bytes} B read ${t.out[0]}/${t.out[last]}, expected ${value}`);
    }
    return { totalMs: end - t0, waitMs, readMs: end - read0 };
  }
}

/** The sizes measured: a 65³ grid's values as 32-bit floats, as 16-bit, as 8-bit, and as sign bits. */
export const READBACK_SIZES: readonly { label: string; bytes: number }[] = [
  { label: 'f32', bytes: 65 ** 3 * 4 },
  { label: 'f16', bytes: 65 ** 3 * 2 },
  { label: 'u8', bytes: 65 ** 3 },
  { label: 'bits', bytes: Math.ceil(65 ** 3 / 8) },
];
