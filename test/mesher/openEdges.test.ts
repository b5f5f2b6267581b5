/**
 * openEdgeTriangles / nonManifoldEdgeTriangles: where a mesh that should be a closed 2-manifold is
 * open, or overlaps itself (the planet crack report names the pieces).
 */
import { describe, expect, it } from 'vitest';
import { nonManifoldEdgeTriangles, openEdgeTriangles } from '../../src/mesher/index';

describe('openEdgeTriangles', () => {
  // A tetrahedron: 4 triangles, every edge shared by two.
  const tetra = [0, 2, 1, 0, 1, 3, 1, 2, 3, 2, 0, 3];

  it('finds none on a closed mesh', () => {
    expect(openEdgeTriangles(tetra)).toEqual([]);
  });

  it('finds the triangles beside a hole, once each', () => {
    // Without its third face the three faces left each have one edge on the hole's rim.
    const open = [...tetra.slice(0, 6), ...tetra.slice(9)];
    expect(openEdgeTriangles(open)).toEqual([0, 1, 2]);
  });

  it('an edge shared by four triangles is not open (that is non-manifold: validateMesh counts it)', () => {
    expect(openEdgeTriangles([...tetra, 0, 1, 4, 0, 4, 1])).toEqual([]);
  });
});

describe('nonManifoldEdgeTriangles', () => {
  const tetra = [0, 2, 1, 0, 1, 3, 1, 2, 3, 2, 0, 3];

  it('finds none on a closed manifold, nor at a hole', () => {
    expect(nonManifoldEdgeTriangles(tetra)).toEqual([]);
    expect(nonManifoldEdgeTriangles([...tetra.slice(0, 6), ...tetra.slice(9)])).toEqual([]);
  });

  it('finds every triangle at an edge shared by more than two (a fin, a repeated face)', () => {
    // Edge 0-1 is used by triangles 0 and 1 of the tetrahedron and by the fin's two.
    expect(nonManifoldEdgeTriangles([...tetra, 0, 1, 4, 0, 4, 1])).toEqual([0, 1, 4, 5]);
    // A face drawn twice (two pieces owning the same edge): all three of its edges are used 3 times.
    expect(nonManifoldEdgeTriangles([...tetra, 0, 2, 1])).toEqual([0, 1, 2, 3, 4]);
  });
});
