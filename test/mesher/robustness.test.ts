/** Robustness: empty grids, non-finite values, surfaces cut by the grid boundary, bad input. */
import { describe, expect, it } from 'vitest';
import { meshChunk, MesherInputError, sampleChunk, validateMesh } from '../../src/mesher/index.ts';
import { sphere } from './helpers.ts';

const spec = { originGrid: [-8, -8, -8] as [number, number, number], level: 0, cells: 16 };

describe('robustness', () => {
  it('all-inside and all-outside grids give empty meshes', () => {
    for (const v of [-1, 1]) {
      const r = meshChunk({ ...spec, values: new Float32Array(17 ** 3).fill(v) });
      expect(r.mesh.indices.length).toBe(0);
      expect(r.mesh.positions.length).toBe(0);
    }
  });

  it('NaN and infinite values throw a clear error naming the corner', () => {
    for (const bad of [NaN, Infinity, -Infinity]) {
      const values = sampleChunk(spec, sphere(0, 0, 0, 5));
      values[5 + 17 * (6 + 17 * 7)] = bad;
      expect(() => meshChunk({ ...spec, values })).toThrowError(MesherInputError);
      expect(() => meshChunk({ ...spec, values })).toThrowError(/chunk corner \(5,6,7\).*global grid \(-3,-2,-1\)/);
    }
  });

  it('coarser neighbours: wrong level, misaligned or overlapping boxes are rejected; far boxes are ignored', () => {
    const values = sampleChunk(spec, sphere(0, 0, 0, 5));
    const at = (x0: number, s: number): [number, number, number, number, number, number] => [x0, -8, -8, x0 + s, -8 + s, -8 + s];
    expect(() => meshChunk({ ...spec, values, coarserNeighbours: [{ boxGrid: at(8, 16), level: 2 }] })).toThrowError(/one level apart/);
    expect(() => meshChunk({ ...spec, values, coarserNeighbours: [{ boxGrid: at(9, 16), level: 1 }] })).toThrowError(/not aligned/);
    expect(() => meshChunk({ ...spec, values, coarserNeighbours: [{ boxGrid: at(0, 16), level: 1 }] })).toThrowError(/overlaps/);
    const plain = meshChunk({ ...spec, values });
    const far = meshChunk({ ...spec, values, coarserNeighbours: [{ boxGrid: at(40, 16), level: 1 }] });
    expect(far.mesh.indices).toEqual(plain.mesh.indices);
  });

  it('wrong value count and bad chunk specs are rejected', () => {
    expect(() => meshChunk({ ...spec, values: new Float32Array(10) })).toThrowError(/expected \(N\+1\)\^3/);
    expect(() => meshChunk({ ...spec, cells: 0, values: new Float32Array(1) })).toThrowError(/positive integer/);
  });

  it('a surface cut by the grid boundary has open edges exactly on the boundary', () => {
    // Sphere centered on the grid's +x face: half of it is outside the chunk.
    const f = sphere(8, 0.3, -0.2, 5.5);
    const r = meshChunk({ ...spec, values: sampleChunk(spec, f), field: f });
    const rep = validateMesh(r.mesh);
    expect(rep.boundaryEdges).toBeGreaterThan(0);
    expect(rep.nonManifoldEdges).toBe(0);
    // Open edges join vertices of cells in the last layer, and the open loop lies in the outermost
    // layer of cells: every boundary-edge vertex belongs to a cell touching the grid's +x face.
    const count = new Map<string, number>();
    const idx = r.mesh.indices;
    for (let t = 0; t < idx.length; t += 3) {
      for (let e = 0; e < 3; e++) {
        const a = idx[t + e], b = idx[t + (e + 1) % 3];
        const key = a < b ? `${a},${b}` : `${b},${a}`;
        count.set(key, (count.get(key) ?? 0) + 1);
      }
    }
    for (const [key, n] of count) {
      if (n !== 1) continue;
      for (const v of key.split(',').map(Number)) {
        const cellX = r.mesh.vertexCells[4 * v];
        expect(cellX, 'open edge vertex lies in the boundary layer').toBe(spec.originGrid[0] + spec.cells - 1);
      }
    }
  });

  it('supplied hermite data gives the same mesh as computed hermite data', () => {
    const f = sphere(0.2, 0.1, -0.3, 5.2);
    const values = sampleChunk(spec, f);
    const P = 17, P3 = P ** 3;
    const ids: number[] = [], ts: number[] = [], ns: number[] = [];
    for (let p = 0; p < P3; p++) {
      const c = [p % P, Math.floor(p / P) % P, Math.floor(p / P / P)];
      for (let a = 0; a < 3; a++) {
        if (c[a] === P - 1) continue;
        const q = p + [1, P, P * P][a];
        if ((values[p] < 0) === (values[q] < 0)) continue;
        ids.push(a * P3 + p);
        const t = values[p] / (values[p] - values[q]);
        ts.push(t);
        const x = spec.originGrid[0] + c[0] + (a === 0 ? t : 0) - 0.2, y = spec.originGrid[1] + c[1] + (a === 1 ? t : 0) - 0.1, z = spec.originGrid[2] + c[2] + (a === 2 ? t : 0) + 0.3;
        ns.push(x, y, z);
      }
    }
    const hermite = { count: ids.length, edgeIds: Uint32Array.from(ids), t: Float32Array.from(ts), normals: Float32Array.from(ns) };
    const r = meshChunk({ ...spec, values, hermite });
    const rep = validateMesh(r.mesh);
    expect(rep.closed && rep.manifold && rep.oriented).toBe(true);
    expect(rep.euler).toBe(2);
    expect(() => meshChunk({ ...spec, values, hermite: { ...hermite, count: hermite.count - 1 } })).toThrowError(/hermite input/);
  });
});
