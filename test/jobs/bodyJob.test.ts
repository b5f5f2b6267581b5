import { describe, expect, it } from 'vitest';
import { BufferAttribute, BufferGeometry, Mesh, MeshBasicMaterial, Ray, Raycaster, Vector3 } from 'three';
import { MeshBVH, type SerializedBVH } from 'three-mesh-bvh';
import { recipeBounds } from '../../src/field/index';
import { validateMesh } from '../../src/mesher/index';
import { asteroidRecipe } from '../../src/scene/index';
import { meshBody, type BodyMeshParams } from './oneWorker';
import { registerBody } from './oneWorker';

function params(seed: number, cells: number): BodyMeshParams {
  const recipe = asteroidRecipe(seed);
  const b = recipeBounds(recipe);
  const extent = Math.max(...[0, 1, 2].map((a) => b.boxMax[a] - b.boxMin[a])) * 1.02;
  const stepM = extent / cells;
  const c = [0, 1, 2].map((a) => 0.5 * (b.boxMin[a] + b.boxMax[a]));
  // Registered as a worker's registry would hold it; the job names it.
  registerBody(`asteroid:${seed}`, { recipe });
  return { body: `asteroid:${seed}`, cells, stepM, originM: [c[0] - extent / 2, c[1] - extent / 2, c[2] - extent / 2], simplify: 0.05 };
}

describe('meshBody', () => {
  it.each([1, 2, 3])('seed %i: same params → same hash, a closed mesh and a usable BVH', (seed) => {
    const a = meshBody(params(seed, 24));
    const b = meshBody(params(seed, 24));
    expect(a.hash).toBe(b.hash);
    expect(a.indices.length).toBeGreaterThan(300);
    expect(a.sampledBy).toBe('js');
    const report = validateMesh({ positions: a.positions, indices: a.indices });
    expect(report.boundaryEdges).toBe(0);
    expect(report.nonManifoldEdges).toBe(0);

    // The BVH (its index order) answers raycasts on the transferred buffers.
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(a.positions, 3));
    geometry.setIndex(new BufferAttribute(a.indices, 1));
    const bvh = MeshBVH.deserialize({ roots: a.bvhRoots!, index: a.indices, indirectBuffer: null, version: 1 } as SerializedBVH, geometry);
    const mesh = new Mesh(geometry, new MeshBasicMaterial());
    const center = new Vector3(...a.originM).negate(); // body origin in mesh space (inside the rock)
    const hit = bvh.raycastFirst(new Ray(center.clone().add(new Vector3(0, 0, 1e5)), new Vector3(0, 0, -1)), 0);
    const brute = new Raycaster(center.clone().add(new Vector3(0, 0, 1e5)), new Vector3(0, 0, -1)).intersectObject(mesh)[0];
    expect(hit).not.toBeNull();
    expect(hit!.distance).toBeCloseTo(brute.distance, 3);
  });

  it('different seeds give different hashes; resolution changes the mesh', () => {
    expect(meshBody(params(1, 16)).hash).not.toBe(meshBody(params(2, 16)).hash);
    expect(meshBody(params(1, 16)).hash).not.toBe(meshBody(params(1, 20)).hash);
  });

  it('a failing job throws a plain error with its message', () => {
    expect(() => meshBody({ ...params(1, 8), debugThrow: true })).toThrow(/debugThrow/);
  });
});
