/**
 * The vertex-cache triangle order (src/mesher/vertexCache.ts): the same triangles with the same
 * winding, fewer vertex shader runs per triangle on a dual-contoured surface, deterministic; and
 * pieceData (what planet pieces are drawn from) uses it.
 */
import { describe, expect, it } from 'vitest';
import { meshChunk, pieceData, sampleChunk, type FieldFn } from '../../src/mesher/index.ts';
import { optimizeVertexCache } from '../../src/mesher/vertexCache.ts';
import { asteroid, triangleSet } from './helpers.ts';

/** Vertices shaded per triangle by a FIFO cache of `size` entries (ACMR). */
function fifoAcmr(indices: ArrayLike<number>, size: number): number {
  const fifo: number[] = [];
  let misses = 0;
  for (let i = 0; i < indices.length; i++) {
    if (fifo.includes(indices[i])) continue;
    misses++;
    fifo.push(indices[i]);
    if (fifo.length > size) fifo.shift();
  }
  return misses / (indices.length / 3);
}

/** Rolling terrain across a 40³ chunk: a planet chunk's kind of surface. */
const terrain: FieldFn = (x, y, z) => z - 20 - 4 * Math.sin(x * 0.31) * Math.cos(y * 0.23) - 1.5 * Math.sin(x * 0.9 + y * 1.3);

function dcMesh(f: FieldFn, cells: number) {
  const spec = { originGrid: [0, 0, 0] as [number, number, number], level: 0, cells };
  return meshChunk({ ...spec, values: sampleChunk(spec, f), field: f }).mesh;
}

describe('vertex-cache triangle order', () => {
  const cases: [string, FieldFn, number][] = [
    ['terrain', terrain, 40],
    ['asteroid', (x, y, z) => asteroid(7, 12, 1.2, 0.14)(x - 16, y - 16, z - 16), 32],
  ];
  for (const [name, f, cells] of cases) {
    it(`${name}: same triangles and windings, fewer vertices shaded per triangle`, () => {
      const mesh = dcMesh(f, cells);
      const vertices = mesh.positions.length / 3;
      expect(mesh.indices.length / 3).toBeGreaterThan(1000);
      const ordered = optimizeVertexCache(mesh.indices, vertices);
      expect(ordered).toBeInstanceOf(Uint32Array);
      expect(triangleSet(ordered)).toEqual(triangleSet(mesh.indices));
      const before = fifoAcmr(mesh.indices, 16), after = fifoAcmr(ordered, 16);
      // A closed grid-like surface has ~0.5 vertices a triangle: the ideal.
      expect(after).toBeLessThan(0.8);
      expect(after).toBeLessThan(0.8 * before);
      // Deterministic.
      expect(optimizeVertexCache(mesh.indices, vertices)).toEqual(ordered);
    });
  }

  it('keeps the index type; empty, single and degenerate inputs', () => {
    expect(optimizeVertexCache(new Uint16Array(0), 0)).toEqual(new Uint16Array(0));
    const one = optimizeVertexCache(Uint16Array.from([2, 0, 1]), 3);
    expect(one).toBeInstanceOf(Uint16Array);
    expect([...one]).toEqual([2, 0, 1]);
    // A triangle with a repeated vertex, and two sharing an edge.
    const odd = Uint32Array.from([0, 0, 1, 1, 2, 3, 3, 2, 4]);
    expect(triangleSet(optimizeVertexCache(odd, 5))).toEqual(triangleSet(odd));
  });

  it('pieceData draws the same triangles in cache order, 16-bit where it can', () => {
    const mesh = dcMesh(terrain, 24);
    const piece = pieceData({ ...mesh, originM: [0, 0, 0] }, null);
    expect(piece.indices).toBeInstanceOf(Uint16Array);
    expect(triangleSet(piece.indices)).toEqual(triangleSet(mesh.indices));
    expect(fifoAcmr(piece.indices, 16)).toBeLessThan(fifoAcmr(mesh.indices, 16));
  });
});
