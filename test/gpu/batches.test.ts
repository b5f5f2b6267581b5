import { describe, expect, it } from 'vitest';
import { gridAtlasLayout, SAMPLES_PER_TEXEL } from '../../src/gpu/atlas';
import { edgeBatchOffsets, gridBatchLayout, gridBatchReadback, gridBlockOrigin, groupIntoBatches, unpackGridBlock, MAX_BATCH_JOBS } from '../../src/gpu/batches';

describe('grid batches', () => {
  it('lays 32 chunks of 33³ out in one target that fits, blocks disjoint', () => {
    const atlas = gridAtlasLayout(33, 4096);
    const l = gridBatchLayout(atlas, 4096);
    expect(l.capacity).toBe(MAX_BATCH_JOBS);
    expect(l.width).toBeLessThanOrEqual(4096);
    expect(l.height).toBeLessThanOrEqual(4096);
    const seen = new Set<string>();
    for (let b = 0; b < l.capacity; b++) {
      const [x, y] = gridBlockOrigin(l, b);
      expect(x + atlas.width).toBeLessThanOrEqual(l.width);
      expect(y + atlas.height).toBeLessThanOrEqual(l.height);
      seen.add(`${x},${y}`);
    }
    expect(seen.size).toBe(l.capacity);
  });

  it('holds fewer chunks where the GPU allows a smaller target', () => {
    const atlas = gridAtlasLayout(65, 4096);
    const l = gridBatchLayout(atlas, Math.max(atlas.width, atlas.height) * 2);
    expect(l.capacity).toBe(4);
    expect(gridBatchLayout(atlas, Math.max(atlas.width, atlas.height)).capacity).toBe(1);
  });

  it('reads back only the block rows a batch used', () => {
    const l = gridBatchLayout(gridAtlasLayout(33, 4096), 4096);
    expect(gridBatchReadback(l, 1)).toEqual({ width: l.width, height: l.atlas.height });
    expect(gridBatchReadback(l, l.cols + 1)).toEqual({ width: l.width, height: 2 * l.atlas.height });
  });

  it('unpacks each chunk from its block exactly as the shader packs it (oracle: gpu_grid.frag.glsl in JS)', () => {
    const p = 9;
    const l = gridBatchLayout(gridAtlasLayout(p, 8192), 8192, 5);
    const jobs = 5;
    const read = gridBatchReadback(l, jobs);
    const texels = new Float32Array(read.width * read.height * SAMPLES_PER_TEXEL).fill(NaN);
    const value = (b: number, i: number, j: number, k: number): number => b * 1e6 + i + 100 * j + 10_000 * k;
    const a = l.atlas;
    for (let b = 0; b < jobs; b++) {
      const [ox, oy] = gridBlockOrigin(l, b);
      // The fragment shader at window pixel (ox + x, oy + y), with sr_atlasOrigin = (ox, oy).
      for (let y = 0; y < a.height; y++)
        for (let x = 0; x < a.width; x++) {
          const tx = Math.floor(x / a.tileWidth), ty = Math.floor(y / p);
          const z = ty * a.tilesX + tx;
          const x0 = (x - tx * a.tileWidth) * 4;
          const j = y - ty * p;
          for (let c = 0; c < 4; c++)
            texels[((oy + y) * read.width + ox + x) * 4 + c] = z < p && x0 + c < p ? value(b, x0 + c, j, z) : 0;
        }
    }
    for (let b = 0; b < jobs; b++) {
      const out = unpackGridBlock(l, b, texels, read.width);
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
