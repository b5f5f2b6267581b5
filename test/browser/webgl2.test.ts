import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { openBlankPage, type Served, useBrowser } from './harness';

let browser: Browser;
let server: Served;
useBrowser('dev', (b, s) => ([browser, server] = [b, s]));

describe('the test Chromium', () => {
  it('has WebGL2 with float colour buffers, and can import project modules from the dev server', async () => {
    const { page, log } = await openBlankPage(browser, server);
    const info = await page.evaluate(async () => {
      const gl = document.createElement('canvas').getContext('webgl2');
      if (!gl) return null;
      const dbg = gl.getExtension('WEBGL_debug_renderer_info');
      const m = await srImport('/src/field/glslInclude.ts');
      return {
        renderer: dbg ? gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER),
        floatTargets: gl.getExtension('EXT_color_buffer_float') !== null,
        maxTexture: gl.getParameter(gl.MAX_TEXTURE_SIZE) as number,
        include: (m.resolveIncludes as (s: string, c: Record<string, string>) => string)(
          '#include <sr_a>',
          { sr_a: 'ok' },
        ),
      };
    });
    expect(info, 'WebGL2 context').not.toBeNull();
    console.log(`WebGL2 renderer: ${info!.renderer}; max texture ${info!.maxTexture}`);
    expect(info!.floatTargets).toBe(true);
    expect(info!.include).toContain('ok');
    expect(log.errors).toEqual([]);
  });

  it('reports shader compile errors at the chunk and line where they are (#line survives includes)', async () => {
    const { page } = await openBlankPage(browser, server);
    const result = await page.evaluate(async () => {
      const inc = await srImport('/src/field/glslInclude.ts');
      const chunks = { sr_good: 'float good() { return 1.0; }', sr_bad: 'float ok() { return 1.0; }\nfloat bad() { return undefinedThing; }' };
      const src = [
        '#version 300 es',
        'precision highp float;',
        '#include <sr_good>',
        '#include <sr_bad>',
        'out vec4 c;',
        'void main() { c = vec4(good() + bad() + alsoUndefined); }',
      ].join('\n');
      const gl = document.createElement('canvas').getContext('webgl2')!;
      const shader = gl.createShader(gl.FRAGMENT_SHADER)!;
      gl.shaderSource(shader, inc.resolveIncludes(src, chunks, { sourceName: 'test.frag' }));
      gl.compileShader(shader);
      const log = gl.getShaderInfoLog(shader) ?? '';
      return { raw: log, annotated: inc.annotateGlslLog(log, chunks, 'test.frag') as string };
    });
    console.log(result.annotated);
    expect(result.annotated).toMatch(/sr_bad:2:.*undefinedThing/);
    expect(result.annotated).toMatch(/test\.frag:6:.*alsoUndefined/);
  });
});
