import { describe, expect, it } from 'vitest';
import { buildPermutationTable } from 'simplex-noise';
import { createRandom, noisePermutation, Prng, seededNoise3D, simplex3 } from '../../src/field/index';
import { permutationLayers, PERMUTATION_LAYER_ROWS } from '../../src/field/noise';

describe('the one PRNG', () => {
  it('is deterministic and seeds differ', () => {
    const a = new Prng(42), b = new Prng(42), c = new Prng(43);
    const sa = Array.from({ length: 8 }, () => a.nextUint32());
    expect(Array.from({ length: 8 }, () => b.nextUint32())).toEqual(sa);
    expect(Array.from({ length: 8 }, () => c.nextUint32())).not.toEqual(sa);
  });

  it('pins its first outputs (a change here changes every seeded scene)', () => {
    const p = new Prng(1);
    expect([p.nextUint32(), p.nextUint32(), p.nextUint32()]).toMatchInlineSnapshot(`
      [
        1828152527,
        3394835397,
        2967886022,
      ]
    `);
  });

  it('next() is in [0, 1) with a sane mean', () => {
    const p = new Prng(7);
    let sum = 0;
    for (let i = 0; i < 20000; i++) {
      const v = p.next();
      expect(v >= 0 && v < 1).toBe(true);
      sum += v;
    }
    expect(sum / 20000).toBeCloseTo(0.5, 1);
  });
});

describe('noise: our table and port equal simplex-noise', () => {
  for (const seed of [0, 1, 12345, 0xffffffff]) {
    it(`seed ${seed}: permutation equals the package's buildPermutationTable`, () => {
      const ours = noisePermutation(seed);
      const theirs = buildPermutationTable(createRandom(seed));
      expect(Array.from(ours)).toEqual(Array.from(theirs.subarray(0, 256)));
      expect(Array.from(theirs.subarray(256))).toEqual(Array.from(ours)); // the package doubles it
    });

    it(`seed ${seed}: table-driven simplex3 equals the package's noise3D bit for bit`, () => {
      const perm = noisePermutation(seed);
      const pkg = seededNoise3D(seed);
      const p = new Prng(seed ^ 0x5bd1e995);
      for (let i = 0; i < 5000; i++) {
        // Spread over small, negative and large coordinates (the & 255 wrap).
        const s = i % 3 === 0 ? 3 : i % 3 === 1 ? 300 : 1e5;
        const x = (p.next() * 2 - 1) * s, y = (p.next() * 2 - 1) * s, z = (p.next() * 2 - 1) * s;
        expect(simplex3(perm, x, y, z)).toBe(pkg(x, y, z));
      }
      // Lattice points and exact ties of the rank ordering.
      for (const [x, y, z] of [[0, 0, 0], [1, 1, 1], [-1, 2, -3], [0.5, 0.5, 0.5], [256, -256, 512]]) {
        expect(simplex3(perm, x, y, z)).toBe(pkg(x, y, z));
      }
    });
  }
});

describe('permutation layers: the GPU pair table', () => {
  it("row z holds perm[(y + perm[z]) & 255] at column y, the last row the table, for each table in order", () => {
    const tables = new Uint8Array([...noisePermutation(7), ...noisePermutation(8)]);
    const layers = permutationLayers(tables);
    expect(layers.length).toBe(2 * 256 * PERMUTATION_LAYER_ROWS);
    for (let t = 0; t < 2; t++) {
      const perm = tables.subarray(256 * t, 256 * t + 256);
      const layer = layers.subarray(256 * PERMUTATION_LAYER_ROWS * t, 256 * PERMUTATION_LAYER_ROWS * (t + 1));
      expect(Array.from(layer.subarray(256 * 256))).toEqual(Array.from(perm));
      for (let z = 0; z < 256; z += 7) {
        for (let y = 0; y < 256; y += 5) expect(layer[256 * z + y]).toBe(perm[(y + perm[z]) & 255]);
      }
    }
  });
});
