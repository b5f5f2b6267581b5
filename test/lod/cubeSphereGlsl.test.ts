/** The GLSL mapping's arithmetic, emulated in float32 (chunkOffsetF32), against the float64 mapping. */
import { describe, expect, it } from 'vitest';
import { chunkOffsetF32, CubeSphereSpace, cubeSphereMapUniforms, splitFloat64 } from '../../src/lod/index';
import { Prng } from './helpers';

describe('sr_map_cubesphere precision (float32 emulation)', () => {
  for (const radiusM of [50e3, 6.0e6]) {
    it(`offsets within a chunk are exact to ~1e-6 of the chunk at R = ${radiusM / 1e3} km, every level`, () => {
      const space = new CubeSphereSpace({ radiusM });
      const r = new Prng(8);
      const p = new Float64Array(3), p0 = new Float64Array(3), off = new Float64Array(3);
      const rows: string[] = [];
      for (let level = 0; level <= space.levels; level += Math.max(1, Math.floor(space.levels / 5))) {
        const U = space.chunkUnits(level);
        const n = space.faceUnits / U;
        let worstRel = 0, worstPointM = 0;
        for (let t = 0; t < 200; t++) {
          const face = t % 6;
          const ci = Math.floor(r.next() * n), cj = Math.floor(r.next() * n);
          const ck = Math.floor(space.gkAtRadius(radiusM) / U);
          const u = cubeSphereMapUniforms(space, face, ci * U, cj * U, ck * U, level);
          space.toWorld(face, ci * U, cj * U, ck * U, p0);
          const li = r.next() * space.chunkCells, lj = r.next() * space.chunkCells, lk = r.next() * space.chunkCells;
          space.toWorld(face, ci * U + li * 2 ** level, cj * U + lj * 2 ** level, ck * U + lk * 2 ** level, p);
          chunkOffsetF32(u, li, lj, lk, off);
          const chunkM = space.cellSizeM(level) * space.chunkCells;
          for (let c = 0; c < 3; c++) {
            worstRel = Math.max(worstRel, Math.abs(off[c] - (p[c] - p0[c])) / chunkM);
            const point = Math.fround(u.sr_csOriginHighM[c] + Math.fround(u.sr_csOriginLowM[c] + off[c]));
            worstPointM = Math.max(worstPointM, Math.abs(point - p[c]));
          }
        }
        rows.push(`level ${level}: offset error ${worstRel.toExponential(1)} of the chunk, point error ${worstPointM.toExponential(1)} m (cell ${space.cellSizeM(level).toPrecision(3)} m)`);
        expect(worstRel).toBeLessThan(2e-6);
        // The absolute point is float32: half an ulp of the radius, plus the offset's error.
        expect(worstPointM).toBeLessThan(Math.fround(radiusM * 1.05) * 2 ** -23 + 2e-6 * space.cellSizeM(level) * space.chunkCells);
      }
      console.log(`R ${radiusM / 1e3} km:\n  ${rows.join('\n  ')}`);
    });
  }

  it('is more precise than evaluating the absolute mapping in float32 (measured for docs/lod.md)', () => {
    const space = new CubeSphereSpace({ radiusM: 6.0e6 });
    const f = Math.fround;
    const r = new Prng(9);
    const p = new Float64Array(3), p0 = new Float64Array(3), off = new Float64Array(3);
    let naiveOff = 0, oursOff = 0;
    const S = space.faceUnits;
    for (let t = 0; t < 500; t++) {
      const face = t % 6;
      const gi0 = Math.floor(r.next() * (S - 32)), gj0 = Math.floor(r.next() * (S - 32)), gk0 = Math.floor(space.gkAtRadius(space.radiusM));
      const li = r.next() * 32, lj = r.next() * 32, lk = r.next() * 32;
      space.toWorld(face, gi0, gj0, gk0, p0);
      space.toWorld(face, gi0 + li, gj0 + lj, gk0 + lk, p);
      const naive = (gi: number, gj: number, gk: number, out: number[]) => {
        const q = f(Math.PI / (2 * S));
        const X = f(Math.tan(f(f(f(gi) * q) - f(Math.PI / 4))));
        const Y = f(Math.tan(f(f(f(gj) * q) - f(Math.PI / 4))));
        const FB = cubeSphereMapUniforms(space, face, 0, 0, 0, 0).sr_csBasis;
        const c = [0, 1, 2].map((k) => f(FB[k] + f(f(X * FB[3 + k]) + f(Y * FB[6 + k]))));
        const len = f(Math.hypot(c[0], c[1], c[2]));
        const rad = f(f(space.innerRadiusM) + f(f(gk) * f(space.heightUnitM)));
        for (let k = 0; k < 3; k++) out[k] = f(rad * f(c[k] / len));
      };
      const a = [0, 0, 0], b0 = [0, 0, 0];
      naive(gi0 + li, gj0 + lj, gk0 + lk, a);
      naive(gi0, gj0, gk0, b0);
      const u = cubeSphereMapUniforms(space, face, gi0, gj0, gk0, 0);
      chunkOffsetF32(u, li, lj, lk, off);
      for (let c = 0; c < 3; c++) {
        naiveOff = Math.max(naiveOff, Math.abs(f(a[c] - b0[c]) - (p[c] - p0[c])));
        oursOff = Math.max(oursOff, Math.abs(off[c] - (p[c] - p0[c])));
      }
    }
    console.log(`6,000 km, level-0 chunk offsets: naive absolute float32 error ${naiveOff.toFixed(2)} m, relative scheme ${oursOff.toExponential(1)} m`);
    expect(oursOff * 1000).toBeLessThan(naiveOff);
  });

  it('splitFloat64 keeps ~48 bits', () => {
    const [h, l] = splitFloat64(6378137.123456789);
    expect(Math.abs(h + l - 6378137.123456789)).toBeLessThan(1e-7);
  });
});
