/**
 * The chunk mesher's stages one at a time (src/mesher/hermite.ts, leaves.ts, octree.ts, contour.ts,
 * boundary.ts; issue 18), each against a brute-force or analytic oracle: the hermite stage lists
 * exactly the sign-changing edges, the QEF stage keeps every vertex in its cell, simplification
 * collapses a plane, the contour of a sphere inside the chunk is a closed 2-manifold, and the
 * boundary leaves cover each boundary cell exactly once.
 */
import { describe, expect, it } from 'vitest';
import { boundaryLeaves } from '../../src/mesher/boundary.ts';
import { contourMesh, leafVertices } from '../../src/mesher/contour.ts';
import { meshChunk, sampleChunk } from '../../src/mesher/dualContour.ts';
import { computedEdges, signGrid } from '../../src/mesher/hermite.ts';
import type { ChunkGrid, SignEdges } from '../../src/mesher/hermite.ts';
import { suppliedEdges } from '../../src/mesher/hermiteInput.ts';
import { qefLeaves } from '../../src/mesher/leaves.ts';
import type { ActiveCells } from '../../src/mesher/leaves.ts';
import { IDENTITY_MAPPING } from '../../src/mesher/mapping.ts';
import { buildOctree, countLeaves, nodeLevel, topologySafe } from '../../src/mesher/octree.ts';
import type { Octree } from '../../src/mesher/octree.ts';
import { VERTEX_INSET_CELLS } from '../../src/mesher/qef.ts';
import { grow, scratchI32 } from '../../src/mesher/scratch.ts';
import { COMPONENT_COUNT } from '../../src/mesher/tables.ts';
import type { FieldFn, MeshChunkInput } from '../../src/mesher/types.ts';
import { box, clippedGyroid, expectClosedManifold, rotation, sphere } from './helpers.ts';

/** A plane through (0.2, −0.3, 0.1) with unit normal along (0.3, 0.5, 0.81). */
const PLANE_N = ((): number[] => { const l = Math.hypot(0.3, 0.5, 0.81); return [0.3 / l, 0.5 / l, 0.81 / l]; })();
const plane: FieldFn = (x, y, z) => PLANE_N[0] * (x - 0.2) + PLANE_N[1] * (y + 0.3) + PLANE_N[2] * (z - 0.1);

function chunkInput(f: FieldFn, N: number, origin: number, extra: Partial<MeshChunkInput> = {}): MeshChunkInput {
  const spec = { originGrid: [origin, origin, origin] as [number, number, number], level: 0, cells: N };
  return { ...spec, values: sampleChunk(spec, f), ...extra };
}

/** Every stage up to `stage`, as meshChunk runs them. */
function stages(input: MeshChunkInput): { grid: ChunkGrid; edges: SignEdges; active: ActiveCells; tree: Octree } {
  const grid = signGrid(input);
  const edges = input.hermite ? suppliedEdges(input, grid) : computedEdges(input, grid);
  const active = qefLeaves(grid.N, grid.signs, edges);
  const tree = buildOctree(grid, active, input.simplify ?? 0, input.maxLeafCells ?? grid.N);
  return { grid, edges, active, tree };
}

/** Brute force: the sign-changing edges of the input's grid as "p*3+axis" codes, in point order. */
function bruteEdges(values: ArrayLike<number>, N: number): number[] {
  const P = N + 1, codes: number[] = [];
  for (let k = 0, p = 0; k < P; k++) for (let j = 0; j < P; j++) for (let i = 0; i < P; i++, p++) {
    const c = [i, j, k], step = [1, P, P * P];
    for (let a = 0; a < 3; a++) {
      if (c[a] < N && (values[p] < 0) !== (values[p + step[a]] < 0)) codes.push(p * 3 + a);
    }
  }
  return codes;
}

describe('hermite stage', () => {
  const N = 16;
  const s = sphere(0.31, -0.17, 0.23, 5.7);
  for (const refined of [false, true]) {
    it(`sphere, ${refined ? 'refined with the field' : 'from the grid'}: exactly the sign-changing edges, t in [0, 1], unit normals`, () => {
      const input = chunkInput(s, N, -8, refined ? { field: s } : {});
      const { edges } = stages(input);
      const brute = bruteEdges(input.values, N);
      expect(brute.length).toBeGreaterThan(100);
      expect(Array.from(edges.codes.subarray(0, edges.count))).toEqual(brute);
      const P = N + 1;
      for (let e = 0; e < edges.count; e++) {
        const axis = edges.codes[e] % 3, p = (edges.codes[e] - axis) / 3;
        expect(Array.from(edges.coords.subarray(3 * e, 3 * e + 3))).toEqual([p % P, Math.floor(p / P) % P, Math.floor(p / (P * P))]);
        const t = edges.t[e];
        expect(t >= 0 && t <= 1, `t ${t}`).toBe(true);
        const n = [edges.normals[3 * e], edges.normals[3 * e + 1], edges.normals[3 * e + 2]];
        expect(Math.abs(Math.hypot(n[0], n[1], n[2]) - 1)).toBeLessThan(1e-6);
        // The crossing lies near the sphere and its normal points outward along the radius.
        const x = [-8 + edges.coords[3 * e], -8 + edges.coords[3 * e + 1], -8 + edges.coords[3 * e + 2]];
        x[axis] += t;
        expect(Math.abs(s(x[0], x[1], x[2])), 'crossing on the surface, cells').toBeLessThan(refined ? 1e-2 : 0.05);
        const r = [x[0] - 0.31, x[1] + 0.17, x[2] - 0.23], rl = Math.hypot(r[0], r[1], r[2]);
        expect((n[0] * r[0] + n[1] * r[1] + n[2] * r[2]) / rl, 'normal along the radius').toBeGreaterThan(refined ? 0.999 : 0.98);
      }
    });
  }

  it('supplied hermite data gives the same edge list; a wrong count throws', () => {
    const input = chunkInput(s, N, -8);
    const { edges } = stages(input);
    const codes = Array.from(edges.codes.subarray(0, edges.count)), ts = Array.from(edges.t.subarray(0, edges.count));
    const P3 = (N + 1) ** 3;
    const hermite = {
      count: codes.length,
      edgeIds: Uint32Array.from(codes, (c) => (c % 3) * P3 + (c - (c % 3)) / 3),
      t: Float32Array.from(ts),
      normals: Float32Array.from(edges.normals.subarray(0, 3 * edges.count), (v) => 2 * v),
    };
    const supplied = stages({ ...input, hermite }).edges;
    expect(Array.from(supplied.codes.subarray(0, supplied.count))).toEqual(codes);
    expect(() => stages({ ...input, hermite: { ...hermite, count: hermite.count - 1 } })).toThrowError(/hermite input/);
  });

  it('restriction marks exactly the odd points of the face and the edge line shared with coarser neighbours', () => {
    const coarserNeighbours = [
      { boxGrid: [8, 0, 0, 24, 16, 16], level: 1 }, // +x face
      { boxGrid: [0, -16, -16, 16, 0, 0], level: 1 }, // the x line at y = z = 0 only
    ] as const;
    const input = chunkInput(s, 8, 0, { coarserNeighbours });
    const grid = signGrid(input);
    const P = 9;
    for (let k = 0, p = 0; k < P; k++) for (let j = 0; j < P; j++) for (let i = 0; i < P; i++, p++) {
      const expected = (i === 8 && (j % 2 === 1 || k % 2 === 1)) || (j === 0 && k === 0 && i % 2 === 1) ? 1 : 0;
      expect(grid.restricted![p], `point ${i},${j},${k}`).toBe(expected);
      expect(grid.signs[p]).toBe(grid.values[p] < 0 ? 1 : 0);
    }
  });
});

describe('QEF leaf stage', () => {
  const fields: [string, FieldFn][] = [
    ['plane', plane], ['sphere', sphere(0.31, -0.17, 0.23, 5.7)],
    // Sharp corners put QEF minimisers outside their cells (clamped); the gyroid has cells with
    // several surface pieces (one entry each).
    ['rotated box', box(4.3, 3.1, 2.4, rotation(0.4, 0.7, 0.2))], ['gyroid', clippedGyroid(7, 9.3, 0.3)],
  ];
  for (const [name, f] of fields) {
    it(`${name}: one entry per surface piece of each active cell, every vertex inside its cell`, () => {
      const N = 16;
      const input = chunkInput(f, N, -8, { field: f });
      const { grid, edges, active } = stages(input);
      // Brute force: the cells around each sign-changing edge.
      const cells = new Set<number>();
      for (let e = 0; e < edges.count; e++) {
        const axis = edges.codes[e] % 3, c = [edges.coords[3 * e], edges.coords[3 * e + 1], edges.coords[3 * e + 2]];
        const u = (axis + 1) % 3, v = (axis + 2) % 3;
        for (const [du, dv] of [[-1, -1], [0, -1], [0, 0], [-1, 0]]) {
          const d = [...c]; d[u] += du; d[v] += dv;
          if (d.every((x) => x >= 0 && x < N)) cells.add(d[0] + N * (d[1] + N * d[2]));
        }
      }
      let entries = 0, pieces = 0;
      for (const cell of cells) {
        entries += COMPONENT_COUNT[active.mask[active.cellToActive[cell]]];
        pieces += COMPONENT_COUNT[active.mask[active.cellToActive[cell]]] - 1;
      }
      expect(active.count).toBe(entries);
      if (name === 'gyroid') expect(pieces, 'cells with several surface pieces').toBeGreaterThan(0);
      expect(grid.N).toBe(N);
      const eps = 1e-9;
      for (let a = 0; a < active.count; a++) {
        const cell = active.cellToActive.indexOf(a - active.comp[a]);
        expect([cell % N, Math.floor(cell / N) % N, Math.floor(cell / (N * N))]).toEqual(Array.from(active.coords.subarray(3 * a, 3 * a + 3)));
        for (let c = 0; c < 3; c++) {
          const v = active.vert[3 * a + c], lo = active.coords[3 * a + c];
          expect(v >= lo + VERTEX_INSET_CELLS - eps && v <= lo + 1 - VERTEX_INSET_CELLS + eps, `entry ${a} axis ${c}: ${v} in cell ${lo}`).toBe(true);
        }
        if (name === 'plane') {
          const x = active.vert.subarray(3 * a, 3 * a + 3);
          // On the plane, up to the snap into the box VERTEX_INSET_CELLS inside the cell.
          expect(Math.abs(plane(x[0] - 8, x[1] - 8, x[2] - 8)), 'vertex on the plane').toBeLessThan(2 * VERTEX_INSET_CELLS);
        }
      }
    });
  }
});

describe('octree stage', () => {
  it('simplification collapses a plane into far fewer leaves, each vertex inside its node', () => {
    const input = chunkInput(plane, 16, -8, { field: plane, simplify: 0.01 });
    const { active, tree } = stages(input);
    const leaves = countLeaves(tree, active.count);
    expect(tree.collapsedNodes).toBeGreaterThan(0);
    expect(leaves).toBeLessThan(active.count / 4);
    const vert = leafVertices(tree);
    for (let a = 0; a < active.count; a++) {
      const id = tree.activeLeaf[a], l = nodeLevel(tree, id), idx = id - tree.base[l], size = 1 << l;
      expect(l === 0 ? id === a : tree.ok[l][idx] === 1).toBe(true);
      for (let c = 0; c < 3; c++) {
        const lo = tree.coords[l][3 * idx + c] * size;
        expect(active.coords[3 * a + c] >= lo && active.coords[3 * a + c] < lo + size, 'entry inside its leaf').toBe(true);
        expect(vert[3 * id + c] > lo && vert[3 * id + c] < lo + size, 'leaf vertex inside its node').toBe(true);
      }
    }
    const plain = stages({ ...input, simplify: 0 });
    expect(plain.tree.levels).toBe(1);
    expect(countLeaves(plain.tree, plain.active.count)).toBe(plain.active.count);
  });

  it('topologySafe: a plane is safe, a sign change between a node\'s corners is not', () => {
    const P = 3;
    const signs = new Uint8Array(27);
    for (let k = 0; k < P; k++) for (let j = 0; j < P; j++) for (let i = 0; i < P; i++) signs[i + P * (j + P * k)] = i + j < 2 ? 1 : 0;
    expect(topologySafe(signs, P, 0, 0, 0, 2)).toBe(true);
    // The cube center inside while all 8 corners are outside: a bubble the collapsed node would lose.
    const bubble = new Uint8Array(27);
    bubble[13] = 1;
    expect(topologySafe(bubble, P, 0, 0, 0, 2)).toBe(false);
    // An edge midpoint outside between two inside corners (the rest outside): a tunnel through the edge.
    const cut = new Uint8Array(27);
    cut[0] = 1; cut[2] = 1;
    expect(topologySafe(cut, P, 0, 0, 0, 2)).toBe(false);
  });
});

describe('contour stage', () => {
  for (const simplify of [0, 0.02]) {
    it(`sphere wholly inside the chunk, simplify ${simplify}: a closed 2-manifold of genus 0, as meshChunk makes it`, () => {
      const s = sphere(0.31, -0.17, 0.23, 6.2);
      const input = chunkInput(s, 16, -8, { field: s, simplify });
      const { grid, edges, active, tree } = stages(input);
      const mesh = contourMesh(grid, edges, active, tree, leafVertices(tree), IDENTITY_MAPPING);
      const r = expectClosedManifold(mesh);
      expect(r.euler).toBe(2);
      expect(r.volume).toBeGreaterThan(0);
      expect(r.vertices).toBe(countLeaves(tree, active.count));
      const whole = meshChunk(input).mesh;
      expect(whole.indices).toEqual(mesh.indices);
      expect(whole.positions).toEqual(mesh.positions);
    });
  }
});

describe('boundary stage', () => {
  for (const simplify of [0, 0.05]) {
    it(`sphere cut by the chunk, simplify ${simplify}: the leaves cover every boundary cell exactly once`, () => {
      const N = 12, o = -2;
      const s = sphere(0.31, -0.17, 0.23, 6.2);
      const input = chunkInput(s, N, o, { field: s, simplify, chunkId: 7 });
      const { grid, active, tree } = stages(input);
      const b = boundaryLeaves(grid, active, tree, leafVertices(tree), IDENTITY_MAPPING, 7);
      expect(b.chunkId).toBe(7);
      expect(b.boxGrid).toEqual([o, o, o, o + N, o + N, o + N]);
      const covered = new Map<number, number>();
      for (let r = 0; r < b.count; r++) {
        if (b.component[r] > 0) continue; // further pieces of the same cell
        const [x, y, z, size] = b.cells.subarray(4 * r, 4 * r + 4);
        let touches = false;
        for (let k = z; k < z + size; k++) for (let j = y; j < y + size; j++) for (let i = x; i < x + size; i++) {
          const c = [i - o, j - o, k - o];
          if (!c.some((v) => v === 0 || v === N - 1)) continue;
          touches = true;
          const key = c[0] + N * (c[1] + N * c[2]);
          covered.set(key, (covered.get(key) ?? 0) + 1);
        }
        expect(touches, `record ${r} touches the boundary`).toBe(true);
        const v = b.vertexGrid.subarray(3 * r, 3 * r + 3);
        if (Number.isNaN(v[0])) {
          expect(b.corners[r] === 0 || b.corners[r] === 255, 'an empty cell has no sign change').toBe(true);
        } else {
          for (let c = 0; c < 3; c++) expect(v[c] > [x, y, z][c] && v[c] < [x, y, z][c] + size).toBe(true);
        }
      }
      expect(covered.size).toBe(N ** 3 - (N - 2) ** 3);
      expect([...covered.values()].every((n) => n === 1)).toBe(true);
      if (simplify > 0) expect(b.count).toBeLessThan(N ** 3 - (N - 2) ** 3);
      expect(b).toEqual(meshChunk(input).boundary);
    });
  }
});

describe('scratch buffers', () => {
  it('grow doubles and keeps contents; scratchOf reuses a long enough buffer and keeps contents on request', () => {
    const a = Int32Array.from([1, 2, 3]) as Int32Array<ArrayBuffer>;
    expect(grow(a, 2)).toBe(a);
    const b = grow(a, 4);
    expect(b.length).toBe(6);
    expect(Array.from(b.subarray(0, 3))).toEqual([1, 2, 3]);
    const s = scratchI32('test:stages', 4);
    s.set([5, 6, 7, 8]);
    expect(scratchI32('test:stages', 3)).toBe(s);
    const t = scratchI32('test:stages', 5, true);
    expect(t.length).toBe(8);
    expect(Array.from(t.subarray(0, 4))).toEqual([5, 6, 7, 8]);
  });
});
