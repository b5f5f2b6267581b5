import { describe, expect, it } from 'vitest';
import { TriangleGrid } from '../../src/physics/triangleGrid';
import { meshFixture, mulberry32, torus } from '../mesher/fields';

describe('TriangleGrid', () => {
  it('returns every triangle whose box meets the query box, each once, and few others', () => {
    const { mesh } = meshFixture({ name: 'torus', f: torus(16, 16, 16, 9, 3), sdf: true, N: 32, origin: [0, 0, 0] }, 0.02);
    const { positions: v, indices: ix } = mesh;
    const grid = new TriangleGrid(v, ix);
    const random = mulberry32(7);
    let returned = 0;
    let needed = 0;
    for (let q = 0; q < 200; q++) {
      const c = [random() * 32, random() * 32, random() * 32];
      const h = 0.2 + random() * 3;
      const lo = { x: c[0] - h, y: c[1] - h, z: c[2] - h };
      const hi = { x: c[0] + h, y: c[1] + h, z: c[2] + h };
      const got = grid.trianglesIn(lo, hi, []);
      expect(new Set(got).size).toBe(got.length);
      const set = new Set(got);
      for (let t = 0; t < ix.length / 3; t++) {
        const xs = [0, 1, 2].map((k) => v[3 * ix[3 * t + k]]);
        const ys = [0, 1, 2].map((k) => v[3 * ix[3 * t + k] + 1]);
        const zs = [0, 1, 2].map((k) => v[3 * ix[3 * t + k] + 2]);
        const meets = Math.min(...xs) <= hi.x && Math.max(...xs) >= lo.x && Math.min(...ys) <= hi.y && Math.max(...ys) >= lo.y && Math.min(...zs) <= hi.z && Math.max(...zs) >= lo.z;
        if (meets) {
          needed++;
          expect(set.has(t)).toBe(true);
        }
      }
      returned += got.length;
    }
    expect(needed).toBeGreaterThan(100);
    // Candidates, not a flood: within a few times what the boxes truly meet.
    expect(returned).toBeLessThan(needed * 6);
  });
});
