/** The planet gallery's sea (src/app/planetThumbs.ts, floodSea): vertices under the sea lifted to its level, made water. */
import { describe, expect, it } from 'vitest';
import { floodSea } from '../../src/app/planetThumbs';

describe('floodSea', () => {
  it('lifts vertices under sea level to it with radial normals and water roughness; leaves land alone', () => {
    const originM: [number, number, number] = [1000, 0, 0];
    // Relative to the origin: one vertex at r = 900 (under a 950 m sea), one at r = 1100 (land).
    const positions = new Float32Array([-100, 0, 0, -1000, 1100, 0]); // (900, 0, 0) and (0, 1100, 0) in the body frame
    const normals = new Float32Array([0, 0, 1, 0, 0, 1]);
    const colours = new Uint8Array([10, 20, 30, 240, 40, 50, 60, 250]);
    floodSea({ positions, normals, colours, originM }, { radiusM: 950 });
    expect(originM[0] + positions[0]).toBeCloseTo(950, 3);
    expect([positions[1], positions[2]]).toEqual([0, 0]);
    expect([...normals.slice(0, 3)]).toEqual([1, 0, 0]);
    expect([...colours.slice(0, 3)]).toEqual([10, 20, 30]); // the palette's colour: it fades the floor with depth
    expect(colours[3]).toBeLessThan(128);
    expect([...positions.slice(3)]).toEqual([-1000, 1100, 0]);
    expect([...normals.slice(3)]).toEqual([0, 0, 1]);
    expect([...colours.slice(4)]).toEqual([40, 50, 60, 250]);
  });
});
