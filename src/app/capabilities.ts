/**
 * What the browser's WebGL2 can do, probed once at start-up on a throwaway canvas so the
 * app can explain what is missing instead of showing a blank page.
 */

export interface GpuCapabilities {
  webgl2: boolean;
  /** EXT_color_buffer_float: float render targets for field sampling. */
  floatRenderTargets: boolean;
  /** OES_texture_float_linear. */
  floatLinear: boolean;
  maxTextureSize: number;
  maxRenderbufferSize: number;
  /** Unmasked renderer string when the browser shares it (e.g. SwiftShader, ANGLE/Metal). */
  renderer: string;
}

export function detectGpu(doc: Document = document): GpuCapabilities {
  const canvas = doc.createElement('canvas');
  const gl = canvas.getContext('webgl2');
  if (!gl) {
    return {
      webgl2: false,
      floatRenderTargets: false,
      floatLinear: false,
      maxTextureSize: 0,
      maxRenderbufferSize: 0,
      renderer: '',
    };
  }
  const debug = gl.getExtension('WEBGL_debug_renderer_info');
  const caps: GpuCapabilities = {
    webgl2: true,
    floatRenderTargets: gl.getExtension('EXT_color_buffer_float') !== null,
    floatLinear: gl.getExtension('OES_texture_float_linear') !== null,
    maxTextureSize: gl.getParameter(gl.MAX_TEXTURE_SIZE) as number,
    maxRenderbufferSize: gl.getParameter(gl.MAX_RENDERBUFFER_SIZE) as number,
    renderer: String(debug ? gl.getParameter(debug.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER)),
  };
  // Free the probe context now rather than waiting for GC: browsers cap live contexts.
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return caps;
}

/** Why this browser cannot run the app, or null when it can. */
export function missingCapability(caps: GpuCapabilities): string | null {
  if (!caps.webgl2) {
    return (
      'This app needs WebGL2, and this browser did not give a WebGL2 context. ' +
      'Use a current Chrome, Edge, Firefox or Safari, check that hardware acceleration is on ' +
      '(chrome://settings/system, about:support), and that the GPU is not blocklisted (chrome://gpu).'
    );
  }
  if (!caps.floatRenderTargets) {
    return (
      'This app samples its terrain on the GPU into float render targets, and this browser’s WebGL2 ' +
      'lacks EXT_color_buffer_float. Try another browser or GPU driver.'
    );
  }
  return null;
}
