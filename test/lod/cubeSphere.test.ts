/** Cube-sphere chunk space: mapping, inverse, Jacobian, face-edge frames, neighbours (oracle: world geometry). */
import { describe, expect, it } from 'vitest';
import { Prng } from '../../src/field/index';
import {
  CubeSphereSpace, EDGE_NEIGHBOUR_FACE, edgeTransform, extendedFaceMapping, FACE_BASES, frameTransform, neighbourBox,
  touchingChunks, transformCell, transformPoint,
} from '../../src/lod/index';

const TAU = 2 * Math.PI;

function randomDirection(r: Prng): [number, number, number] {
  const z = 2 * r.next() - 1, a = TAU * r.next(), s = Math.sqrt(1 - z * z);
  return [s * Math.cos(a), s * Math.sin(a), z];
}

function dist(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

describe('face mapping', () => {
  const space = new CubeSphereSpace({ radiusM: 6.0e6 });

  it('chooses levels so finest cells are about 1 m at 6,000 km', () => {
    expect(space.levels).toBe(19);
    expect(space.faceUnits).toBe(2 ** 24);
    expect(space.heightUnitM).toBeGreaterThan(0.5);
    expect(space.heightUnitM).toBeLessThanOrEqual(1);
    expect(space.innerRadiusM).toBeGreaterThan(0);
    expect(space.gkAtRadius(space.radiusM)).toBeCloseTo(space.faceUnits / 3, 6);
  });

  it('face bases are right-handed (U × V = F)', () => {
    for (let f = 0; f < 6; f++) {
      const b = FACE_BASES.subarray(9 * f, 9 * f + 9);
      const cx = b[4] * b[8] - b[5] * b[7], cy = b[5] * b[6] - b[3] * b[8], cz = b[3] * b[7] - b[4] * b[6];
      expect([cx, cy, cz]).toEqual([b[0], b[1], b[2]]);
    }
  });

  it('round-trips direction → face/gi/gj/gk → direction (seed 1, 20,000 points)', () => {
    const r = new Prng(1);
    const g = new Float64Array(4), p = new Float64Array(3);
    let worst = 0;
    for (let n = 0; n < 20000; n++) {
      const d = randomDirection(r);
      const radius = space.radiusM * (0.9 + 0.2 * r.next());
      const face = space.fromWorld(d[0] * radius, d[1] * radius, d[2] * radius, g);
      expect(g[1]).toBeGreaterThanOrEqual(0);
      expect(g[1]).toBeLessThanOrEqual(space.faceUnits);
      expect(g[2]).toBeGreaterThanOrEqual(0);
      expect(g[2]).toBeLessThanOrEqual(space.faceUnits);
      space.toWorld(face, g[1], g[2], g[3], p);
      worst = Math.max(worst, dist(p, [d[0] * radius, d[1] * radius, d[2] * radius]));
    }
    expect(worst).toBeLessThan(1e-6); // metres, at 6,000 km
  });

  it('round-trips grid → world → grid on every face', () => {
    const r = new Prng(2);
    const g = new Float64Array(4), p = new Float64Array(3);
    for (let n = 0; n < 6000; n++) {
      const face = n % 6;
      const gi = r.next() * space.faceUnits, gj = r.next() * space.faceUnits, gk = r.next() * space.faceUnits;
      space.toWorld(face, gi, gj, gk, p);
      space.fromWorld(p[0], p[1], p[2], g);
      // On an edge the inverse may pick the other face; away from edges it must be this one.
      if (Math.min(gi, gj, space.faceUnits - gi, space.faceUnits - gj) > 1) {
        expect(g[0]).toBe(face);
        expect(Math.abs(g[1] - gi) + Math.abs(g[2] - gj) + Math.abs(g[3] - gk)).toBeLessThan(1e-4);
      }
    }
  });

  it('the Jacobian matches finite differences and cells are near-cubic at the surface', () => {
    const small = new CubeSphereSpace({ radiusM: 50e3, chunkCells: 32 });
    const r = new Prng(3);
    const J = new Float64Array(9), a = new Float64Array(3), b = new Float64Array(3);
    const k0 = small.gkAtRadius(small.radiusM);
    let minLen = Infinity, maxLen = 0;
    for (let n = 0; n < 500; n++) {
      const face = n % 6;
      const gi = r.next() * small.faceUnits, gj = r.next() * small.faceUnits, gk = k0;
      small.jacobian(face, gi, gj, gk, J);
      const h = 1e-3;
      for (let axis = 0; axis < 3; axis++) {
        small.toWorld(face, gi + (axis === 0 ? h : 0), gj + (axis === 1 ? h : 0), gk + (axis === 2 ? h : 0), a);
        small.toWorld(face, gi - (axis === 0 ? h : 0), gj - (axis === 1 ? h : 0), gk - (axis === 2 ? h : 0), b);
        for (let c = 0; c < 3; c++) expect((a[c] - b[c]) / (2 * h)).toBeCloseTo(J[3 * axis + c], 5);
        const len = Math.hypot(J[3 * axis], J[3 * axis + 1], J[3 * axis + 2]);
        if (axis < 2) {
          minLen = Math.min(minLen, len);
          maxLen = Math.max(maxLen, len);
        }
      }
    }
    // Lateral cell edges between h / √2 and h (equi-angular warp, measured 0.707 … 1.000 h at the
    // surface); radial size is h.
    expect(minLen / small.heightUnitM).toBeGreaterThan(0.7);
    expect(maxLen / small.heightUnitM).toBeLessThan(1.0 + 1e-9);
  });

  it('normalToWorld recovers the world gradient of random linear fields from grid gradients (seed 6)', () => {
    const r = new Prng(6);
    const q = new Float64Array(3), n = new Float64Array(3);
    let worst = 0;
    for (let c = 0; c < 600; c++) {
      const face = c % 6;
      const a = randomDirection(r);
      const gi = r.next() * space.faceUnits, gj = r.next() * space.faceUnits, gk = space.faceUnits * (0.2 + 0.6 * r.next());
      const f = (i: number, j: number, k: number) => {
        space.toWorld(face, i, j, k, q);
        return a[0] * q[0] + a[1] * q[1] + a[2] * q[2];
      };
      const h = 1e-2;
      n[0] = f(gi + h, gj, gk) - f(gi - h, gj, gk);
      n[1] = f(gi, gj + h, gk) - f(gi, gj - h, gk);
      n[2] = f(gi, gj, gk + h) - f(gi, gj, gk - h);
      space.normalToWorld(face, gi, gj, gk, n);
      worst = Math.max(worst, 1 - (n[0] * a[0] + n[1] * a[1] + n[2] * a[2]));
    }
    expect(worst).toBeLessThan(1e-6);
  });

  it('normalToWorld turns the grid gradient of |p| − R into the radial direction', () => {
    const r = new Prng(4);
    const p = new Float64Array(3), n = new Float64Array(3), q = new Float64Array(3);
    for (let c = 0; c < 300; c++) {
      const face = c % 6;
      const gi = r.next() * space.faceUnits, gj = r.next() * space.faceUnits, gk = space.faceUnits / 3 + 100 * r.next();
      const h = 1e-2;
      const f = (i: number, j: number, k: number) => {
        space.toWorld(face, i, j, k, q);
        return Math.hypot(q[0], q[1], q[2]) - space.radiusM;
      };
      n[0] = f(gi + h, gj, gk) - f(gi - h, gj, gk);
      n[1] = f(gi, gj + h, gk) - f(gi, gj - h, gk);
      n[2] = f(gi, gj, gk + h) - f(gi, gj, gk - h);
      space.normalToWorld(face, gi, gj, gk, n);
      space.toWorld(face, gi, gj, gk, p);
      const len = Math.hypot(p[0], p[1], p[2]);
      expect(n[0] * p[0] / len + n[1] * p[1] / len + n[2] * p[2] / len).toBeGreaterThan(1 - 1e-6);
    }
  });
});

describe('face-edge frames', () => {
  const space = new CubeSphereSpace({ radiusM: 1.0e6, chunkCells: 16 });
  const S = space.faceUnits;

  it('every edge has a neighbour face that is neither the face nor its opposite, and the map is symmetric', () => {
    for (let f = 0; f < 6; f++) {
      const seen = new Set<number>();
      for (let e = 0; e < 4; e++) {
        const g = EDGE_NEIGHBOUR_FACE[f * 4 + e];
        expect(g).not.toBe(f);
        expect(g >> 1).not.toBe(f >> 1);
        seen.add(g);
        // The neighbour's transform back is the inverse.
        const m = edgeTransform(S, f, e);
        const back = frameTransform(S, f, g)!;
        const pt = [123, 456, 7], out = [0, 0, 0], back2 = [0, 0, 0];
        transformPoint(m, S + pt[0], pt[1] % S, pt[2], out);
        const mInv = frameTransform(S, g, f)!;
        transformPoint(mInv, out[0], out[1], out[2], back2);
        expect(back.toFace).toBe(g);
        expect(mInv.toFace).toBe(f);
      }
      expect(seen.size).toBe(4);
      expect(frameTransform(S, f, f ^ 1)).toBeNull();
    }
  });

  it('lattice points on every shared edge map to identical world positions (frameTransform)', () => {
    const r = new Prng(5);
    const a = new Float64Array(3), b = new Float64Array(3), q = new Float64Array(3);
    for (let from = 0; from < 6; from++) {
      for (let to = 0; to < 6; to++) {
        const m = frameTransform(S, from, to);
        if (!m || from === to) continue;
        let checked = 0;
        for (let n = 0; n < 400; n++) {
          // A lattice point on one of `from`'s edges (or corners), any radius.
          const along = Math.floor(r.next() * (S + 1)), gk = Math.floor(r.next() * (S + 1));
          const e = n % 4;
          const gi = e === 0 ? 0 : e === 1 ? S : along;
          const gj = e === 2 ? 0 : e === 3 ? S : along;
          transformPoint(m, gi, gj, gk, q);
          if (q[0] < 0 || q[0] > S || q[1] < 0 || q[1] > S) continue; // not on the shared edge
          space.toWorld(from, gi, gj, gk, a);
          space.toWorld(to, q[0], q[1], q[2], b);
          expect(dist(a, b)).toBeLessThan(1e-6);
          checked++;
        }
        expect(checked).toBeGreaterThan(50);
      }
    }
  });

  it('a cell d units past an edge is d units into the neighbour face, and its corners shared with the edge coincide', () => {
    const a = new Float64Array(3), b = new Float64Array(3), c = new Int32Array(3);
    for (let f = 0; f < 6; f++) {
      for (let e = 0; e < 4; e++) {
        const m = edgeTransform(S, f, e);
        const size = 4, along = 40, gk = 100;
        // The cell just outside edge e, in f's extended frame.
        const gi = e === 0 ? -size : e === 1 ? S : along;
        const gj = e === 2 ? -size : e === 3 ? S : along;
        transformCell(m, gi, gj, gk, size, c);
        expect(c[0]).toBeGreaterThanOrEqual(0);
        expect(c[1]).toBeGreaterThanOrEqual(0);
        expect(c[0] + size).toBeLessThanOrEqual(S);
        expect(c[1] + size).toBeLessThanOrEqual(S);
        // Its corners on the edge line: world positions agree through either frame.
        const onEdge: [number, number][] = e < 2 ? [[e === 0 ? 0 : S, along], [e === 0 ? 0 : S, along + size]] : [[along, e === 2 ? 0 : S], [along + size, e === 2 ? 0 : S]];
        const q = [0, 0, 0];
        for (const [pi, pj] of onEdge) {
          transformPoint(m, pi, pj, gk, q);
          space.toWorld(f, pi, pj, gk, a);
          space.toWorld(m.toFace, q[0], q[1], q[2], b);
          expect(dist(a, b)).toBeLessThan(1e-6);
          // And the transformed point is a corner of the transformed cell.
          const isCorner = (q[0] === c[0] || q[0] === c[0] + size) && (q[1] === c[1] || q[1] === c[1] + size);
          expect(isCorner).toBe(true);
        }
      }
    }
  });

  it('extendedFaceMapping is continuous across every edge', () => {
    const a = new Float64Array(3), b = new Float64Array(3);
    for (let f = 0; f < 6; f++) {
      const map = extendedFaceMapping(space, f);
      for (let e = 0; e < 4; e++) {
        const along = 0.37 * S, gk = S / 3;
        const eps = 1e-6;
        const at = (d: number): [number, number] => (e === 0 ? [-d, along] : e === 1 ? [S + d, along] : e === 2 ? [along, -d] : [along, S + d]);
        const [i0, j0] = at(-eps), [i1, j1] = at(eps);
        map.toWorld(i0, j0, gk, a);
        map.toWorld(i1, j1, gk, b);
        expect(dist(a, b)).toBeLessThan(1e-3);
        // One unit past the edge is about one cell away.
        const [i2, j2] = at(1);
        map.toWorld(i2, j2, gk, b);
        expect(dist(a, b) / space.heightUnitM).toBeGreaterThan(0.5);
        expect(dist(a, b) / space.heightUnitM).toBeLessThan(1.5);
      }
    }
  });
});

describe('neighbour lookup agrees with geometry (brute-force oracle over every cell of a small space)', () => {
  // S = 2 · 2^2 = 8 finest units per face; level-l boxes of 2·2^l units.
  const space = new CubeSphereSpace({ radiusM: 1000, chunkCells: 2, levels: 2 });
  const S = space.faceUnits;

  function corners(face: number, gi: number, gj: number, gk: number, size: number): Float64Array[] {
    const out: Float64Array[] = [];
    for (let c = 0; c < 8; c++) {
      const p = new Float64Array(3);
      space.toWorld(face, gi + (c & 1) * size, gj + ((c >> 1) & 1) * size, gk + ((c >> 2) & 1) * size, p);
      out.push(p);
    }
    return out;
  }
  function sharedCorners(a: Float64Array[], b: Float64Array[]): number {
    let n = 0;
    for (const p of a) if (b.some((q) => dist(p, q) < 1e-9)) n++;
    return n;
  }

  for (const level of [0, 1]) {
    it(`level ${level}: touchingChunks = all boxes sharing a world corner point; face/edge/corner contacts share 4/2/1 corners`, () => {
      const U = space.chunkUnits(level);
      const n = S / U;
      const all: { face: number; ci: number; cj: number; ck: number; c: Float64Array[] }[] = [];
      for (let face = 0; face < 6; face++)
        for (let ck = 0; ck < n; ck++)
          for (let cj = 0; cj < n; cj++)
            for (let ci = 0; ci < n; ci++) all.push({ face, ci, cj, ck, c: corners(face, ci * U, cj * U, ck * U, U) });
      let cornerLines = 0;
      for (const a of all) {
        const found = touchingChunks(space, { face: a.face, level, ci: a.ci, cj: a.cj, ck: a.ck });
        const foundKeys = new Set(found.map((b) => `${b.face}/${b.ci}/${b.cj}/${b.ck}`));
        const oracle = new Set<string>();
        for (const b of all) {
          if (b === a) continue;
          if (sharedCorners(a.c, b.c) > 0) oracle.add(`${b.face}/${b.ci}/${b.cj}/${b.ck}`);
        }
        expect([...foundKeys].sort()).toEqual([...oracle].sort());
        // Face neighbours (single-axis steps) share exactly 4 corners.
        const box = new Float64Array(4);
        for (const [di, dj, dk] of [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]]) {
          if (!neighbourBox(space, a.face, a.ci * U, a.cj * U, a.ck * U, U, di, dj, dk, box)) {
            expect(dk !== 0).toBe(true); // only the radial ends have no face neighbour
            continue;
          }
          expect(sharedCorners(a.c, corners(box[0], box[1], box[2], box[3], U))).toBe(4);
        }
        // At a cube corner, the radial corner line has 3 cells around it: the box and 2 face neighbours
        // that also share that line (2 corners each), no fourth.
        const atCorner = (a.ci === 0 || a.ci === n - 1) && (a.cj === 0 || a.cj === n - 1);
        if (atCorner) {
          cornerLines++;
          const ci = a.ci === 0 ? 0 : S, cj = a.cj === 0 ? 0 : S;
          const p0 = new Float64Array(3), p1 = new Float64Array(3);
          space.toWorld(a.face, ci, cj, a.ck * U, p0);
          space.toWorld(a.face, ci, cj, a.ck * U + U, p1);
          const around = all.filter((b) => b.face !== a.face && b.ck === a.ck && b.c.some((q) => dist(q, p0) < 1e-9) && b.c.some((q) => dist(q, p1) < 1e-9));
          expect(around.length).toBe(2);
        }
      }
      expect(cornerLines).toBe(6 * 4 * n);
    });
  }
});
