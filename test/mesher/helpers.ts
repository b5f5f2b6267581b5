/** Domain matchers for the mesher tests. */
import { expect } from 'vitest';
import { validateMesh } from '../../src/mesher/index.ts';
import type { ChunkMesh, ChunkSpec, FieldFn, HermiteEdges, MeshReport } from '../../src/mesher/index.ts';

export * from './fields.ts';

/** Each triangle as a string from its smallest index on (winding kept), sorted: the triangles whatever their order. */
export function triangleSet(indices: ArrayLike<number>): string[] {
  const out: string[] = [];
  for (let t = 0; t < indices.length; t += 3) {
    const tri = [indices[t], indices[t + 1], indices[t + 2]];
    const k = tri.indexOf(Math.min(...tri));
    out.push(`${tri[k]},${tri[(k + 1) % 3]},${tri[(k + 2) % 3]}`);
  }
  return out.sort();
}

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

/**
 * Hermite data as the GPU edge pass makes it: from the chunk's own samples, unaware of neighbours
 * (linear crossings, central-difference normals of the field at the crossing).
 */
export function edgePassHermite(spec: ChunkSpec, values: ArrayLike<number>, f: FieldFn): HermiteEdges {
  const P = spec.cells + 1, P3 = P ** 3, cs = 2 ** spec.level;
  const ids: number[] = [], ts: number[] = [], ns: number[] = [];
  for (let p = 0; p < P3; p++) {
    const c = [p % P, Math.floor(p / P) % P, Math.floor(p / P / P)];
    for (let a = 0; a < 3; a++) {
      if (c[a] === P - 1) continue;
      const q = p + [1, P, P * P][a];
      if ((values[p] < 0) === (values[q] < 0)) continue;
      const t = values[p] / (values[p] - values[q]);
      const x = spec.originGrid[0] + cs * (c[0] + (a === 0 ? t : 0));
      const y = spec.originGrid[1] + cs * (c[1] + (a === 1 ? t : 0));
      const z = spec.originGrid[2] + cs * (c[2] + (a === 2 ? t : 0));
      const h = 1e-3;
      ids.push(a * P3 + p);
      ts.push(t);
      ns.push(f(x + h, y, z) - f(x - h, y, z), f(x, y + h, z) - f(x, y - h, z), f(x, y, z + h) - f(x, y, z - h));
    }
  }
  return { count: ids.length, edgeIds: Uint32Array.from(ids), t: Float32Array.from(ts), normals: Float32Array.from(ns) };
}
