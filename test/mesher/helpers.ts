/** Domain matchers for the mesher tests. */
import { expect } from 'vitest';
import { validateMesh } from '../../src/mesher/index.ts';
import type { ChunkMesh, MeshReport } from '../../src/mesher/index.ts';

export * from './fields.ts';

/** Expects a closed, consistently wound 2-manifold with no degenerate triangles; returns the report. */
export function expectClosedManifold(mesh: Pick<ChunkMesh, 'positions' | 'indices'>): MeshReport {
  const r = validateMesh(mesh);
  expect(r.triangles, 'mesh has triangles').toBeGreaterThan(0);
  expect(
    { boundary: r.boundaryEdges, nonManifold: r.nonManifoldEdges, misoriented: r.misorientedEdges, degenerate: r.degenerateTriangles },
    'closed 2-manifold, consistently wound, no degenerate triangles',
  ).toEqual({ boundary: 0, nonManifold: 0, misoriented: 0, degenerate: 0 });
  expect(r.usedVertices, 'no unreferenced vertices').toBe(r.vertices);
  return r;
}

/** Expects a closed manifold of the given genus (one component), wound outward (positive volume). */
export function expectGenus(mesh: ChunkMesh, genus: number, components = 1): MeshReport {
  const r = expectClosedManifold(mesh);
  expect(r.components, 'components').toBe(components);
  expect(r.euler, 'Euler characteristic').toBe(2 * components - 2 * genus);
  expect(r.volume, 'outward winding gives positive volume').toBeGreaterThan(0);
  return r;
}

export function expectVolumeClose(actual: number, expected: number, relTol: number): void {
  expect(Math.abs(actual - expected) / expected, `volume ${actual.toFixed(1)} vs ${expected.toFixed(1)}`).toBeLessThanOrEqual(relTol);
}

