/**
 * Resolves once the GPU has finished everything the context issued so far (a fence, asked every few
 * milliseconds, never waited on), or after `capMs`. The sampling probe waits for it after pausing
 * the page's frames: a frame already queued, or the pipeline a heavy material builds at its first
 * draw (ANGLE on Vulkan), would otherwise run inside the probe's compile and timed batches.
 */
export function whenGpuDrained(gl: WebGL2RenderingContext, capMs: number): Promise<void> {
  const fence = gl.isContextLost() ? null : gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
  if (!fence) return Promise.resolve();
  gl.flush();
  const until = performance.now() + capMs;
  return new Promise((resolve) => {
    const ask = (): void => {
      const done = gl.isContextLost() || gl.getSyncParameter(fence, gl.SYNC_STATUS) === gl.SIGNALED;
      if (!done && performance.now() < until) {
        setTimeout(ask, 5);
        return;
      }
      if (!gl.isContextLost()) gl.deleteSync(fence);
      resolve();
    };
    ask();
  });
}
