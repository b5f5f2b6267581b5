import { describe, expect, it } from 'vitest';
import { meshChunk } from '../../src/mesher/dualContour';
import { constantBoundaryLeaves } from '../../src/mesher/boundary';

describe('constantBoundaryLeaves: a chunk with no surface without meshing it', () => {
  const cases: { name: string; cells: number; level: number; origin: [number, number, number]; coarser: { boxGrid: [number, number, number, number, number, number]; level: number }[] }[] = [
    { name: '32³ level 3, no neighbours', cells: 32, level: 3, origin: [256, -512, 1024], coarser: [] },
    { name: '8³ level 0, a coarser neighbour on +x', cells: 8, level: 0, origin: [0, 0, 0], coarser: [{ boxGrid: [8, 0, 0, 24, 16, 16], level: 1 }] },
    { name: '4³ level 2, coarser neighbours on -y and a corner', cells: 4, level: 2, origin: [16, 16, 16], coarser: [{ boxGrid: [16, 0, 16, 48, 16, 48], level: 3 }, { boxGrid: [32, 32, 32, 64, 64, 64], level: 3 }] },
    { name: '1³', cells: 1, level: 0, origin: [5, 6, 7], coarser: [] },
  ];
  for (const c of cases) {
    for (const inside of [false, true]) {
      it(`${c.name}, ${inside ? 'full' : 'empty'}: the mesher's records, bit for bit`, () => {
        const P = c.cells + 1;
        const meshed = meshChunk({
          originGrid: c.origin, level: c.level, cells: c.cells, values: new Float32Array(P * P * P).fill(inside ? -1 : 1),
          coarserNeighbours: c.coarser,
        }).boundary;
        const made = constantBoundaryLeaves({ originGrid: c.origin, level: c.level, cells: c.cells }, inside);
        expect(made.count).toBe(meshed.count);
        expect(made.boxGrid).toEqual(meshed.boxGrid);
        expect(made.chunkId).toBe(meshed.chunkId);
        expect(made.cells).toEqual(meshed.cells);
        expect(made.corners).toEqual(meshed.corners);
        expect(made.component).toEqual(meshed.component);
        expect(new Uint8Array(made.vertexGrid.buffer)).toEqual(new Uint8Array(meshed.vertexGrid.buffer));
        expect(made.normals).toEqual(meshed.normals);
      });
    }
  }
});
