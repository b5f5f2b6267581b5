/**
 * `auto` does not measure a software rasteriser (samplingPath.ts): no GPU worker is started, no
 * probe runs, nothing is cached; `measure` and a real GPU's renderer string still go to the probe.
 * In Node there is no Worker, so a probe that starts ends at "no WebGL2 in workers": that it got
 * there is what tells the two apart.
 */
import { describe, expect, it } from 'vitest';
import { chooseSamplingPath, isSoftwareRenderer } from '../../src/workers/samplingPath';

const SWIFTSHADER = 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)';
const H200 = 'ANGLE (NVIDIA, Vulkan 1.4.312 (NVIDIA NVIDIA H200 (0x00002335)), NVIDIA)';
const gpu = (renderer: string) => ({ webgl2: true, floatRenderTargets: true, renderer });

function recordingStorage() {
  const writes: string[] = [];
  return { writes, storage: { getItem: () => null, setItem: (k: string) => void writes.push(k) } as unknown as Storage };
}

describe('the sampling choice on a software GPU', () => {
  it('names the software rasterisers and not a real GPU', () => {
    expect(isSoftwareRenderer(SWIFTSHADER)).toBe(true);
    expect(isSoftwareRenderer('llvmpipe (LLVM 15.0.6, 256 bits)')).toBe(true);
    expect(isSoftwareRenderer(H200)).toBe(false);
  });

  it('auto answers JS at once on SwiftShader, says why, and leaves nothing to measure later', async () => {
    const { writes, storage } = recordingStorage();
    const choice = await chooseSamplingPath(gpu(SWIFTSHADER), 'auto', {}, { measureInBackground: true, storage });
    expect(choice.path).toBe('js-worker');
    expect(choice.detail).toMatch(/^JS field in workers: a software GPU runs on the same CPU \(not measured; \?sampling=measure times it\)/);
    expect(choice.upgrade).toBeNull();
    expect(choice.measurement).toBeNull();
    expect(writes).toEqual([]);
  });

  it('measure still probes a software GPU, and auto a real one', async () => {
    for (const [renderer, prefer] of [[SWIFTSHADER, 'measure'], [H200, 'auto']] as const) {
      const background = await chooseSamplingPath(gpu(renderer), prefer, {}, { measureInBackground: true, storage: null });
      expect(background.detail).toMatch(/until the GPU is measured/);
      expect(background.upgrade).not.toBeNull();
      const measured = await background.upgrade!();
      expect(measured.detail).toMatch(/no WebGL2 in workers/);
    }
  });
});
