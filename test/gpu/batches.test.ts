import { describe, expect, it } from 'vitest';
import { gridAtlasLayout, SAMPLES_PER_TEXEL } from '../../src/gpu/atlas';
import { edgeBatchOffsets, gridBatchLayout, gridBatchReadback, gridBlockValues, groupIntoBatches, MAX_BATCH_JOBS } from '../../src/gpu/batches';
import { shaderSample } from './gridShaderOracle';

describe('grid batches', () => {
  it('stacks 32 chunks of 33³ in one target that fits (fewer where textures are smaller)', () => {
    const atlas = gridAtlasLayout(33, 16384);
    const l = gridBatchLayout(atlas, 16384);
    expect(l.capacity).toBe(MAX_BATCH_JOBS);
    expect(l.width).toBe(atlas.width);
    expect(l.height).toBe(MAX_BATCH_JOBS * atlas.height);
    expect(l.height).toBeLessThanOrEqual(16384);
    expect(gridBatchLayout(atlas, 8192).capacity).toBe(Math.floor(8192 / atlas.height));
  });

  it('holds fewer chunks where the GPU allows a smaller target', () => {
    const atlas = gridAtlasLayout(65, 4096);
    expect(gridBatchLayout(atlas, atlas.height * 4 + 3).capacity).toBe(4);
    expect(gridBatchLayout(atlas, atlas.height).capacity).toBe(1);
  });

  it('reads back only the rows of the chunks a batch holds', () => {
    const l = gridBatchLayout(gridAtlasLayout(65, 16384), 16384);
    expect(gridBatchReadback(l, 1)).toEqual({ width: l.width, height: l.atlas.height });
    expect(gridBatchReadback(l, 5)).toEqual({ width: l.width, height: 5 * l.atlas.height });
    // One 65³ chunk: its own values' bytes, within a row (the tiled layout read six blocks, 8.5 MB).
    expect(l.width * l.atlas.height * 16 - 65 ** 3 * 4).toBeLessThan(l.width * 16);
  });

  it('gives each chunk its own values from a batch readback (oracle: gpu_grid.frag.glsl in JS)', () => {
    const p = 9;
    const l = gridBatchLayout(gridAtlasLayout(p, 8192), 8192, 5);
    const jobs = 4;
    const read = gridBatchReadback(l, jobs);
    const texels = new Float32Array(read.width * read.height * SAMPLES_PER_TEXEL).fill(NaN);
    const value = (b: number, i: number, j: number, k: number): number => b * 1e6 + i + 100 * j + 10_000 * k;
    for (let y = 0; y < read.height; y++)
      for (let x = 0; x < read.width; x++)
        for (let c = 0; c < 4; c++) {
          const s = shaderSample(l.atlas, x, y, c);
          texels[(y * read.width + x) * 4 + c] = s ? value(...s) : 0;
        }
    for (let b = 0; b < jobs; b++) {
      const out = gridBlockValues(l, b, texels);
      for (let k = 0; k < p; k++)
        for (let j = 0; j < p; j++)
          for (let i = 0; i < p; i++) expect(out[i + p * (j + p * k)]).toBe(value(b, i, j, k));
    }
  });
});

describe('edge batches and grouping', () => {
  it('offsets each job after the edges of the ones before', () => {
    expect(edgeBatchOffsets([3, 0, 5])).toEqual({ offsets: [0, 3, 3], total: 8 });
    expect(edgeBatchOffsets([])).toEqual({ offsets: [], total: 0 });
  });

  it('groups by key in arrival order, at most maxJobs a batch', () => {
    const jobs = ['a1', 'b1', 'a2', 'a3', 'b2', 'a4', 'a5'];
    expect(groupIntoBatches(jobs, (j) => j[0], 2)).toEqual([['a1', 'a2'], ['a3', 'a4'], ['a5'], ['b1', 'b2']]);
  });
});
