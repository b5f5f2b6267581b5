/**
 * Oracle tests on a zoo of analytic fields: every unsimplified mesh is a closed 2-manifold of the
 * right genus, wound outward, with the right volume and vertices within half a cell of the surface.
 */
import { describe, expect, it } from 'vitest';
import {
  asteroid, box, capsule, clippedGyroid, cubicalEuler, expectClosedManifold, expectGenus, expectVolumeClose,
  maxSurfaceDistance, meshFixture, monteCarloVolume, rotation, sphere, torus, union,
} from './helpers.ts';
import type { Fixture } from './helpers.ts';

const zoo: Fixture[] = [
  { name: 'sphere', f: sphere(0.31, -0.17, 0.23, 14), genus: 0, volume: (4 / 3) * Math.PI * 14 ** 3, sdf: true, N: 36, origin: [-18, -18, -18] },
  { name: 'torus (genus 1)', f: torus(0.2, -0.3, 0.1, 11, 4.3), genus: 1, volume: 2 * Math.PI ** 2 * 11 * 4.3 ** 2, sdf: true, N: 40, origin: [-20, -20, -20] },
  {
    name: 'double torus (genus 2)',
    f: union(torus(-8.3, 0.2, 0.1, 8, 3.1), torus(8.4, -0.1, 0.1, 8, 3.1)),
    genus: 2, sdf: true, N: 48, origin: [-24, -24, -24],
  },
  { name: 'box', f: box(10.3, 7.6, 5.4, undefined, [0.2, 0.1, -0.3]), genus: 0, volume: 8 * 10.3 * 7.6 * 5.4, sdf: true, N: 32, origin: [-16, -16, -16] },
  { name: 'rotated box', f: box(9.3, 6.6, 5.4, rotation(0.4, 0.7, 0.2)), genus: 0, volume: 8 * 9.3 * 6.6 * 5.4, sdf: true, N: 32, origin: [-16, -16, -16] },
  { name: 'thin plate', f: box(12.2, 11.3, 1.3, rotation(0.05, 0.1, 0)), genus: 0, volume: 8 * 12.2 * 11.3 * 1.3, sdf: true, N: 32, origin: [-16, -16, -16] },
  {
    name: 'capsule chain',
    f: union(
      capsule([-14, -6, 0.3], [-6, 6, 1.1], 3.2), capsule([-6, 6, 1.1], [2, -6, -1.2], 3.2),
      capsule([2, -6, -1.2], [10, 6, 0.4], 3.2), capsule([10, 6, 0.4], [14.5, -3, 2.1], 3.2),
    ),
    genus: 0, sdf: true, N: 40, origin: [-20, -20, -20],
  },
  { name: 'gyroid clipped by a ball', f: clippedGyroid(14, 17.5, 0.3), sdf: false, N: 40, origin: [-20, -20, -20] },
  { name: 'noisy asteroid seed 7', f: asteroid(7, 13, 1.5, 0.06), sdf: false, N: 40, origin: [-20, -20, -20] },
];

describe('Dual Contouring on the analytic zoo (unsimplified)', () => {
  for (const fx of zoo) {
    it(fx.name, () => {
      const { mesh, values } = meshFixture(fx);
      const report = expectClosedManifold(mesh);
      // Topology: analytic genus when known, and always the independent cubical-complex oracle.
      const oracleEuler = 2 * cubicalEuler(values, fx.N);
      expect(report.euler, 'Euler characteristic matches the sampled solid').toBe(oracleEuler);
      if (fx.genus !== undefined) expectGenus(mesh, fx.genus);
      expect(report.volume, 'wound outward').toBeGreaterThan(0);
      const lo = fx.origin, hi = fx.origin.map((o) => o + fx.N);
      const volume = fx.volume ?? monteCarloVolume(fx.f, lo, hi, 300_000, 1234);
      expectVolumeClose(report.volume, volume, 0.02);
      expect(maxSurfaceDistance(mesh, fx.f, fx.sdf), 'max distance to the surface, cells').toBeLessThanOrEqual(0.5);
    });
  }

  it('gyroid clipped by a ball has many handles', () => {
    const fx = zoo.find((z) => z.name.startsWith('gyroid'))!;
    const { mesh } = meshFixture(fx);
    const r = expectClosedManifold(mesh);
    // Cut by the ball, the network falls into several pieces; together they carry many handles.
    expect(r.components).toBeGreaterThan(1);
    expect(r.genus).toBeGreaterThanOrEqual(10);
  });

  for (const fx of zoo.filter((z) => z.name.includes('box'))) {
    it(`${fx.name}: sharp corners land within 2% of a cell`, () => {
      const { mesh } = meshFixture(fx);
      const [hx, hy, hz] = fx.name === 'box' ? [10.3, 7.6, 5.4] : [9.3, 6.6, 5.4];
      const rot = fx.name === 'box' ? [1, 0, 0, 0, 1, 0, 0, 0, 1] : rotation(0.4, 0.7, 0.2);
      const c = fx.name === 'box' ? [0.2, 0.1, -0.3] : [0, 0, 0];
      // DC can only place a vertex at a corner whose own cell has a crossing edge; a corner tip that
      // pokes into a cell between its samples is lost by any sampled mesher. Count those apart.
      let placed = 0;
      let sharp = 0;
      for (let s = 0; s < 8; s++) {
        const b = [(s & 1 ? 1 : -1) * hx, (s & 2 ? 1 : -1) * hy, (s & 4 ? 1 : -1) * hz];
        // Box → world is the transpose of the world → box rotation.
        const corner = [0, 1, 2].map((i) => c[i] + rot[i] * b[0] + rot[3 + i] * b[1] + rot[6 + i] * b[2]);
        const cell = corner.map(Math.floor);
        let cellHasCrossing = false;
        const inside0 = fx.f(cell[0], cell[1], cell[2]) < 0;
        for (let k = 1; k < 8; k++) {
          if ((fx.f(cell[0] + (k & 1), cell[1] + ((k >> 1) & 1), cell[2] + ((k >> 2) & 1)) < 0) !== inside0) cellHasCrossing = true;
        }
        if (!cellHasCrossing) continue;
        placed++;
        let best = Infinity;
        for (let v = 0; v < mesh.positions.length / 3; v++) {
          const d = Math.hypot(
            mesh.originWorld[0] + mesh.positions[3 * v] - corner[0],
            mesh.originWorld[1] + mesh.positions[3 * v + 1] - corner[1],
            mesh.originWorld[2] + mesh.positions[3 * v + 2] - corner[2],
          );
          best = Math.min(best, d);
        }
        // A corner cell whose edges cross only two of the three faces carries no plane of the third,
        // so its vertex sits on the crease nearest the mass point; allow those 0.1 cell.
        expect(best, `corner ${s} at ${corner.map((x) => x.toFixed(2))}`).toBeLessThanOrEqual(0.1);
        if (best <= 0.02) sharp++;
      }
      expect(placed, 'corners whose cell has a crossing').toBeGreaterThanOrEqual(fx.name === 'box' ? 8 : 6);
      expect(sharp, 'corners within 2% of a cell').toBeGreaterThanOrEqual(placed - (fx.name === 'box' ? 0 : 2));
    });
  }
});
