/** Octree simplification: fewer triangles as the threshold grows, same topology, bounded error. */
import { describe, expect, it } from 'vitest';
import { asteroid, expectClosedManifold, maxSurfaceDistance, meshFixture, torus, union } from './helpers.ts';
import type { Fixture } from './helpers.ts';

const fixtures: Fixture[] = [
  { name: 'double torus', f: union(torus(-8.3, 0.2, 0.1, 8, 3.1), torus(8.4, -0.1, 0.1, 8, 3.1)), sdf: true, N: 48, origin: [-24, -24, -24] },
  { name: 'noisy asteroid seed 11', f: asteroid(11, 13, 1.5, 0.06), sdf: false, N: 40, origin: [-20, -20, -20] },
];

describe('octree simplification', () => {
  for (const fx of fixtures) {
    it(`${fx.name}: triangle count falls, closed manifold, same genus, error bounded`, () => {
      const base = expectClosedManifold(meshFixture(fx, 0).mesh);
      let prev = base.triangles;
      for (const threshold of [0.001, 0.01, 0.1, 0.5]) {
        const { mesh, stats } = meshFixture(fx, threshold);
        const r = expectClosedManifold(mesh);
        expect(r.euler, `threshold ${threshold}: same Euler characteristic`).toBe(base.euler);
        expect(r.components).toBe(base.components);
        expect(r.triangles, `threshold ${threshold}: triangles do not grow`).toBeLessThanOrEqual(prev);
        prev = r.triangles;
        expect(stats.collapsedNodes).toBeGreaterThan(0);
        // Every merged plane is within sqrt(threshold) of the vertex, and the vertex stays in its
        // cell: half a cell plus sqrt(threshold) bounds the distance on these smooth fields.
        const bound = 0.5 + Math.sqrt(threshold);
        expect(maxSurfaceDistance(mesh, fx.f, fx.sdf, bound), `threshold ${threshold}`).toBeLessThanOrEqual(bound);
      }
      expect(prev, 'simplification removed a good share of triangles at the largest threshold').toBeLessThan(base.triangles * 0.85);
    });
  }
});
