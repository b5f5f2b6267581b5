/**
 * craterHeightIndexed (craters listed per cube-map cell of directions) must give bitwise
 * craterHeight's value for every direction: at random directions, near crater rims and ejecta
 * edges, on cell and cube-face boundaries, for dense and sparse fields and wide ejecta.
 */
import { describe, expect, it } from 'vitest';
import { CRATER_STRIDE, craterHeight, placeCraters, Prng, type CraterField } from '../../src/field/index';
import { craterHeightIndexed, indexCraters } from '../../src/field/craters';

function field(seed: number, count: number, ejectaFalloff: number, radiusMax: number): CraterField {
  return {
    seed, count, center: [0, 0, 0], sphereRadius: 1000, radiusMin: 5, radiusMax, sizeExponent: 2,
    depth: 0.2, rimHeight: 0.05, ejectaFalloff,
  };
}

function directions(craters: Float64Array, ejecta: number, seed: number): number[] {
  const r = new Prng(seed);
  const out: number[] = [];
  const d = [0, 0, 0];
  for (let i = 0; i < 3000; i++) { r.unitVector(d); out.push(d[0], d[1], d[2]); }
  // Around each crater: at the rim (x = 1) and at the ejecta edge (x = 1 + ejecta), ± a hair.
  for (let o = 0; o < craters.length; o += CRATER_STRIDE) {
    const c = [craters[o], craters[o + 1], craters[o + 2]];
    const chordPerX = 1 / Math.sqrt(craters[o + 3]);
    r.unitVector(d);
    // A tangent direction: d minus its component along c, normalised.
    const k = d[0] * c[0] + d[1] * c[1] + d[2] * c[2];
    let t = [d[0] - k * c[0], d[1] - k * c[1], d[2] - k * c[2]];
    const tl = Math.hypot(t[0], t[1], t[2]);
    t = t.map((v) => v / tl);
    for (const x of [1, 1 + ejecta]) {
      for (const eps of [-1e-12, 0, 1e-12, 1e-6]) {
        const chord = x * chordPerX * (1 + eps);
        const ang = 2 * Math.asin(Math.min(1, chord / 2));
        out.push(...[0, 1, 2].map((a) => Math.cos(ang) * c[a] + Math.sin(ang) * t[a]));
      }
    }
  }
  // Cube-map cell boundaries and face edges/corners (16 cells per face axis).
  for (let i = 0; i <= 16; i++) {
    const a = -1 + i / 8;
    for (const b of [-1, -0.37, 0, 0.5, 1]) {
      for (const v of [[1, a, b], [a, -1, b], [b, a, 1], [-1, b, a]]) {
        const l = Math.hypot(v[0], v[1], v[2]);
        out.push(v[0] / l, v[1] / l, v[2] / l);
      }
    }
  }
  out.push(0, 0, 0, NaN, 0, 0, 2, 0, 0, -0, -0, -1);
  return out;
}

describe('craterHeightIndexed', () => {
  it('is bitwise craterHeight for sparse, dense, huge-ejecta and whole-sphere crater fields', () => {
    const cases = [field(1, 31, 1, 50), field(2, 256, 1, 60), field(3, 90, 4, 30), field(4, 8, 1, 1500), field(5, 40, 0.3, 200)];
    for (const [i, f] of cases.entries()) {
      const data = placeCraters(f);
      const index = indexCraters(data, f.ejectaFalloff);
      const dirs = directions(data, f.ejectaFalloff, 10 + i);
      let bad = 0, nonzero = 0;
      for (let k = 0; k < dirs.length; k += 3) {
        const a = craterHeight(data, f.ejectaFalloff, dirs[k], dirs[k + 1], dirs[k + 2]);
        const b = craterHeightIndexed(index, dirs[k], dirs[k + 1], dirs[k + 2]);
        if (!Object.is(a, b)) bad++;
        if (a !== 0) nonzero++;
      }
      expect(bad, `case ${i}`).toBe(0);
      expect(nonzero, `case ${i}: directions inside craters`).toBeGreaterThan(20);
    }
  });
});
