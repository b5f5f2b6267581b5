import { describe, expect, it } from 'vitest';
import { gridAtlasLayout, gridValuesAt, SAMPLES_PER_TEXEL } from '../../src/gpu/atlas';
import { shaderSample } from './gridShaderOracle';
import { signChangingEdges } from '../../src/gpu/edgeList';
import { describeShaderLog } from '../../src/gpu/glProgram';

describe('grid atlas layout', () => {
  it.each([2, 9, 17, 33, 65, 129])('P = %i: rows of P texels (four x-rows of the grid), at most one row partly spare', (p) => {
    const l = gridAtlasLayout(p, 8192);
    const texels = Math.ceil(p ** 3 / SAMPLES_PER_TEXEL);
    expect(l.width).toBe(p);
    expect(l.width * l.height).toBeGreaterThanOrEqual(texels);
    expect(l.width * (l.height - 1)).toBeLessThan(texels);
  });

  it('a 65³ grid reads back its own 1.1 MB, not the 1.4 MB of the tiled layout it replaced', () => {
    const l = gridAtlasLayout(65, 16384);
    expect(l.width * l.height * 16).toBeLessThan(65 ** 3 * 4 * 1.01);
  });

  it('refuses grids that do not fit the GPU, and nonsense sizes', () => {
    expect(() => gridAtlasLayout(129, 4096)).toThrow(/over this GPU's 4096/);
    expect(() => gridAtlasLayout(1, 8192)).toThrow(RangeError);
    expect(() => gridAtlasLayout(2.5, 8192)).toThrow(RangeError);
  });

  it('a readback is the values in their own order (oracle: the shader layout rewritten in JS)', () => {
    const p = 13;
    const l = gridAtlasLayout(p, 8192);
    const texels = new Float32Array(l.width * l.height * SAMPLES_PER_TEXEL).fill(NaN);
    const value = (i: number, j: number, k: number): number => i + 100 * j + 10_000 * k;
    for (let y = 0; y < l.height; y++)
      for (let x = 0; x < l.width; x++)
        for (let c = 0; c < 4; c++) {
          const s = shaderSample(l, x, y, c);
          texels[(y * l.width + x) * 4 + c] = s ? value(s[1], s[2], s[3]) : 0;
        }
    const out = gridValuesAt(l, texels);
    expect(out.length).toBe(p ** 3);
    for (let k = 0; k < p; k++)
      for (let j = 0; j < p; j++)
        for (let i = 0; i < p; i++) expect(out[i + p * (j + p * k)]).toBe(value(i, j, k));
  });
});

describe('signChangingEdges', () => {
  it('lists every sign-changing edge once, in the mesher id layout (brute-force oracle)', () => {
    const p = 9;
    const values = new Float32Array(p * p * p);
    for (let k = 0; k < p; k++)
      for (let j = 0; j < p; j++)
        for (let i = 0; i < p; i++) values[i + p * (j + p * k)] = Math.hypot(i - 4.2, j - 3.9, k - 4.1) - 2.7;
    const ids = signChangingEdges(values, p).ids;
    const expected: number[] = [];
    for (let axis = 0; axis < 3; axis++)
      for (let k = 0; k < p; k++)
        for (let j = 0; j < p; j++)
          for (let i = 0; i < p; i++) {
            const n = [i + (axis === 0 ? 1 : 0), j + (axis === 1 ? 1 : 0), k + (axis === 2 ? 1 : 0)];
            if (n.some((c) => c >= p)) continue;
            const a = values[i + p * (j + p * k)] < 0;
            const b = values[n[0] + p * (n[1] + p * n[2])] < 0;
            if (a !== b) expected.push(axis * p ** 3 + i + p * (j + p * k));
          }
    expect([...ids].sort((x, y) => x - y)).toEqual(expected.sort((x, y) => x - y));
    expect(ids.length).toBeGreaterThan(50);
  });

  it('empty and full grids have no edges; wrong sizes throw', () => {
    expect(signChangingEdges(new Float32Array(27).fill(1), 3).ids.length).toBe(0);
    expect(signChangingEdges(new Float32Array(27).fill(-1), 3).ids.length).toBe(0);
    expect(() => signChangingEdges(new Float32Array(26), 3)).toThrow(RangeError);
  });

  it('skipping rows of one sign lists the same edges in the same order as visiting every point, with their end values (spheres, noise, slabs, empty)', () => {
    const p = 17;
    let seed = 7;
    const rand = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) - 0.5;
    const grids: Float32Array[] = [
      Float32Array.from({ length: p ** 3 }, (_, n) => Math.hypot((n % p) - 8.3, (Math.floor(n / p) % p) - 7.9, Math.floor(n / p / p) - 8.1) - 5.2),
      Float32Array.from({ length: p ** 3 }, () => rand()),
      Float32Array.from({ length: p ** 3 }, (_, n) => Math.floor(n / p / p) - 9.5), // a z slab: only z edges
      Float32Array.from({ length: p ** 3 }, (_, n) => (Math.floor(n / p) % p) - 3.5), // a y slab
      new Float32Array(p ** 3).fill(2),
    ];
    for (const values of grids) {
      const { ids, ends } = signChangingEdges(values, p);
      // Oracle: every point in order, its x, y and z edges.
      const refIds: number[] = [], refEnds: number[] = [];
      for (let k = 0; k < p; k++) for (let j = 0; j < p; j++) for (let i = 0; i < p; i++) {
        const idx = i + p * (j + p * k);
        const v = values[idx];
        const steps: [boolean, number][] = [[i + 1 < p, 1], [j + 1 < p, p], [k + 1 < p, p * p]];
        steps.forEach(([inside, step], axis) => {
          if (inside && (v < 0) !== (values[idx + step] < 0)) {
            refIds.push(axis * p ** 3 + idx);
            refEnds.push(v, values[idx + step]);
          }
        });
      }
      expect([...ids]).toEqual(refIds);
      expect([...ends]).toEqual(refEnds.map((x) => Math.fround(x)));
    }
  });
});

describe('describeShaderLog', () => {
  it('names chunks and quotes the offending top-level line', () => {
    const chunks = { sr_a: 'x', sr_b: 'y' };
    const source = ['#version 300 es', '#line 1 1', 'x', '#line 3 0', 'float bad = oops;'].join('\n');
    const log = "ERROR: 0:3: 'oops' : undeclared identifier\nERROR: 2:1: 'y' : syntax error";
    expect(describeShaderLog(log, chunks, 'grid.frag', source)).toBe(
      "ERROR: grid.frag:3: 'oops' : undeclared identifier\nERROR: sr_b:1: 'y' : syntax error\n  > float bad = oops;",
    );
  });
});
