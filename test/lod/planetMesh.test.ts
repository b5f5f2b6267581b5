/**
 * End to end in Node: planetRecipe(seed) → shell → selection from a camera → the JS field sampled
 * through the cube-sphere GridMapping → meshChunk. Checks each chunk mesh is valid (finite, vertices
 * inside their chunk, outward-facing winding and normals that agree with the field). Seams: issue 10.
 */
import { describe, expect, it } from 'vitest';
import { compileToJs, fieldGradient, recipeBounds } from '../../src/field/index';
import { meshChunk, sampleChunk, validateMesh } from '../../src/mesher/index';
import {
  chunkKey, chunkSampleGapM, CubeSphereSpace, EDGE_NEIGHBOUR_FACE, extendedFaceMapping, FACE_BASES, frameTransform,
  homogeneityFromSamples, HomogeneousRecord, planetShell, selectChunks, transformBoundaryLeaves,
} from '../../src/lod/index';
import { planetRecipe } from '../../src/scene/index';
import { lookAtView, scale, surfaceRadiusAlong } from './helpers';

const N = 16;

describe('planet chunks meshed through the cube-sphere mapping', () => {
  for (const seed of [7, 3]) {
    it(`planetRecipe(${seed}): selected chunks mesh into valid, outward, in-chunk geometry`, () => {
      const recipe = planetRecipe(seed);
      const bounds = recipeBounds(recipe);
      const field = compileToJs(recipe);
      const shell = planetShell(bounds);
      const radiusM = bounds.sphereRadiusM - bounds.elevationM;
      const space = new CubeSphereSpace({ radiusM, chunkCells: N, finestCellM: 20 });
      // The surface lies inside the shell (probe along a few hundred directions).
      for (let n = 0; n < 300; n++) {
        const z = 1 - (2 * n + 1) / 300, a = n * 2.399963, s = Math.sqrt(1 - z * z);
        const d = [s * Math.cos(a), s * Math.sin(a), z];
        expect(field(d[0] * shell.innerM, d[1] * shell.innerM, d[2] * shell.innerM)).toBeLessThan(0);
        expect(field(d[0] * shell.outerM, d[1] * shell.outerM, d[2] * shell.outerM)).toBeGreaterThan(0);
      }
      // Camera 3 km above a point near a face edge, looking along the surface.
      const dir = [0.7, 0.69, 0.19].map((v, _, a) => v / Math.hypot(...a)) as [number, number, number];
      // The surface radius under the camera (bisection between the shell's radii).
      const cam = scale(dir, surfaceRadiusAlong(field, dir, shell.innerM, shell.outerM) + 500);
      const sel = selectChunks(space, shell, lookAtView(cam, scale([dir[0], dir[1] + 0.05, dir[2]], radiusM)), { maxScreenErrorPx: 8 });
      const record = new HomogeneousRecord();
      // Nearest leaves first.
      const order = sel.leaves.map((a, i) => ({ a, key: sel.keys[i], d: sel.info.get(sel.keys[i])!.distanceM })).sort((x, y) => x.d - y.d || (x.key < y.key ? -1 : 1));
      let nonManifold = 0, meshed = 0, withSurface = 0, homogeneous = 0, proven = 0, triangles = 0, outward = 0, normalsAgree = 0, vertices = 0;
      const facesSeen = new Set<number>();
      const g = new Float64Array(3), w = new Float64Array(3);
      const dirC = new Float64Array(3);
      for (const { a, key } of order) {
        if (withSurface >= 12 || meshed >= 200) break;
        const U = space.chunkUnits(a.level);
        // Mesh chunks that the surface crosses along their center column, plus every 4th other one
        // (those exercise the empty/full record).
        space.direction(a.face, (a.ci + 0.5) * U, (a.cj + 0.5) * U, dirC);
        const r0 = space.radiusAt(a.ck * U), r1 = space.radiusAt((a.ck + 1) * U);
        const crosses = field(dirC[0] * r0, dirC[1] * r0, dirC[2] * r0) < 0 !== field(dirC[0] * r1, dirC[1] * r1, dirC[2] * r1) < 0;
        if (!crosses && order.indexOf(order.find((o) => o.key === key)!) % 4 !== 0) continue;
        const spec = { originGrid: [a.ci * U, a.cj * U, a.ck * U] as const, level: a.level, cells: N };
        const mapping = space.faceMapping(a.face);
        const values = sampleChunk(spec, field, mapping);
        meshed++;
        const h = homogeneityFromSamples(values, bounds.lipschitz, chunkSampleGapM(space, a.level, shell.outerM));
        if (h) {
          record.mark(key, h.state, h.proven);
          homogeneous++;
          if (h.proven) proven++;
          continue;
        }
        const { mesh } = meshChunk({ ...spec, values, mapping, field, chunkId: meshed });
        const report = validateMesh(mesh);
        // Topology is decided on the integer grid, so the mapping cannot change it: the same samples
        // meshed with the cartesian default mapping have the same non-manifold count.
        const plain = validateMesh(meshChunk({ ...spec, values }).mesh);
        nonManifold += report.nonManifoldEdges;
        expect(report.nonManifoldEdges).toBe(plain.nonManifoldEdges);
        expect(report.misorientedEdges).toBe(0);
        withSurface++;
        facesSeen.add(a.face);
        triangles += mesh.indices.length / 3;
        // Vertices: finite, inside the chunk (through the face's own inverse mapping), normals unit.
        const b = a.face * 9;
        const S = space.faceUnits;
        for (let v = 0; v < mesh.positions.length / 3; v++) {
          for (let c = 0; c < 3; c++) {
            expect(Number.isFinite(mesh.positions[3 * v + c])).toBe(true);
            w[c] = mesh.originWorld[c] + mesh.positions[3 * v + c];
          }
          const f = w[0] * FACE_BASES[b] + w[1] * FACE_BASES[b + 1] + w[2] * FACE_BASES[b + 2];
          const u = w[0] * FACE_BASES[b + 3] + w[1] * FACE_BASES[b + 4] + w[2] * FACE_BASES[b + 5];
          const vv = w[0] * FACE_BASES[b + 6] + w[1] * FACE_BASES[b + 7] + w[2] * FACE_BASES[b + 8];
          g[0] = S / 2 + (2 * S / Math.PI) * Math.atan(u / f);
          g[1] = S / 2 + (2 * S / Math.PI) * Math.atan(vv / f);
          g[2] = space.gkAtRadius(Math.hypot(w[0], w[1], w[2]));
          const tol = 1e-3 * 2 ** a.level;
          for (let c = 0; c < 3; c++) {
            expect(g[c]).toBeGreaterThanOrEqual(spec.originGrid[c] - tol);
            expect(g[c]).toBeLessThanOrEqual(spec.originGrid[c] + U + tol);
          }
          const nx = mesh.normals[3 * v], ny = mesh.normals[3 * v + 1], nz = mesh.normals[3 * v + 2];
          expect(Math.abs(Math.hypot(nx, ny, nz) - 1)).toBeLessThan(1e-3);
          const r = Math.hypot(w[0], w[1], w[2]);
          if ((nx * w[0] + ny * w[1] + nz * w[2]) / r > 0) outward++;
          fieldGradient(field, w[0], w[1], w[2], 1e-3 * space.cellSizeM(a.level), g);
          const gl = Math.hypot(g[0], g[1], g[2]);
          if ((nx * g[0] + ny * g[1] + nz * g[2]) / gl > 0.7) normalsAgree++;
          vertices++;
        }
        // Winding: area-weighted, triangles face outward (away from the planet center) — a flipped
        // mapping (det J < 0) would turn this negative.
        let up = 0, all = 0;
        const P = mesh.positions, I = mesh.indices;
        for (let t = 0; t < I.length; t += 3) {
          const i0 = 3 * I[t], i1 = 3 * I[t + 1], i2 = 3 * I[t + 2];
          const e1 = [P[i1] - P[i0], P[i1 + 1] - P[i0 + 1], P[i1 + 2] - P[i0 + 2]];
          const e2 = [P[i2] - P[i0], P[i2 + 1] - P[i0 + 1], P[i2 + 2] - P[i0 + 2]];
          const cx = e1[1] * e2[2] - e1[2] * e2[1], cy = e1[2] * e2[0] - e1[0] * e2[2], cz = e1[0] * e2[1] - e1[1] * e2[0];
          const o = mesh.originWorld, ro = Math.hypot(o[0], o[1], o[2]);
          const dotR = (cx * o[0] + cy * o[1] + cz * o[2]) / ro;
          if (dotR > 0) up += dotR;
          all += Math.abs(dotR);
        }
        expect(up / all).toBeGreaterThan(0.7);
      }
      console.log(
        `planet ${seed} (R ${(radiusM / 1e3).toFixed(0)} km, ${space.levels} levels, N ${N}): ${sel.leaves.length} leaves selected; meshed ${meshed} nearest: ` +
        `${withSurface} with surface (${triangles} triangles, faces ${[...facesSeen].join(',')}), ${homogeneous} homogeneous (${proven} proven); ` +
        `${nonManifold} non-manifold edges; outward normals ${(outward / vertices * 100).toFixed(1)}%, normals agree with ∇field ${(normalsAgree / vertices * 100).toFixed(1)}%`,
      );
      expect(withSurface).toBeGreaterThan(5);
      // Rough terrain (ridged mountains, craters, caves under ~20 m) at 20–300 m cells: vertex normals
      // average the crossings of their cell, so they follow ∇field only loosely; the smooth sphere
      // below is the exact check of mapping + normals.
      expect(outward / vertices).toBeGreaterThan(0.7);
      expect(normalsAgree / vertices).toBeGreaterThan(0.35);
      expect(record.size).toBe(homogeneous);
      void chunkKey;
    });
  }
});

describe('a smooth sphere through the cube-sphere mapping (exact oracle)', () => {
  it('vertices lie on the sphere and normals are radial, on chunks across a face edge and a cube corner', () => {
    const R = 80e3;
    const recipe = { version: 1, name: 'ball', root: { type: 'sphere', radius: R }, brushes: [] };
    const field = compileToJs(recipe);
    const space = new CubeSphereSpace({ radiusM: R, chunkCells: N, finestCellM: 10 });
    const S = space.faceUnits;
    const kR = space.gkAtRadius(R);
    let worstRadial = 0, worstNormal = 0, tris = 0;
    for (const level of [0, 2]) {
      const U = space.chunkUnits(level);
      const ck = Math.floor(kR / U);
      for (let face = 0; face < 6; face++) {
        // A chunk at a face corner (cube corner), one on an edge, one inside.
        for (const [ci, cj] of [[0, 0], [S / U - 1, 3], [5, 7]]) {
          const spec = { originGrid: [ci * U, cj * U, ck * U] as const, level, cells: N };
          const mapping = space.faceMapping(face);
          const values = sampleChunk(spec, field, mapping);
          const { mesh } = meshChunk({ ...spec, values, mapping, field });
          tris += mesh.indices.length / 3;
          for (let v = 0; v < mesh.positions.length / 3; v++) {
            const x = mesh.originWorld[0] + mesh.positions[3 * v], y = mesh.originWorld[1] + mesh.positions[3 * v + 1], z = mesh.originWorld[2] + mesh.positions[3 * v + 2];
            const r = Math.hypot(x, y, z);
            worstRadial = Math.max(worstRadial, Math.abs(r - R) / space.cellSizeM(level));
            worstNormal = Math.max(worstNormal, 1 - (mesh.normals[3 * v] * x + mesh.normals[3 * v + 1] * y + mesh.normals[3 * v + 2] * z) / r);
          }
          expect(validateMesh(mesh).nonManifoldEdges).toBe(0);
        }
      }
    }
    console.log(`sphere R 80 km: ${tris} triangles; worst |r − R| = ${worstRadial.toExponential(2)} cell, worst normal 1 − cos = ${worstNormal.toExponential(2)}`);
    expect(tris).toBeGreaterThan(1000);
    expect(worstRadial).toBeLessThan(0.02);
    expect(worstNormal).toBeLessThan(1e-4);
  });
});

describe('boundary leaves brought into a neighbour face frame (for issue 10 seams)', () => {
  it('vertices keep their world positions and corner masks keep their signs, across every face edge', () => {
    const R = 80e3;
    const recipe = { version: 1, name: 'ball', root: { type: 'sphere', radius: R }, brushes: [] };
    const field = compileToJs(recipe);
    const space = new CubeSphereSpace({ radiusM: R, chunkCells: 8, finestCellM: 40 });
    const S = space.faceUnits;
    const U = space.chunkUnits(0);
    const ck = Math.floor(space.gkAtRadius(R) / U);
    const a = new Float64Array(3), b = new Float64Array(3);
    let checkedVerts = 0, checkedCorners = 0;
    for (let from = 0; from < 6; from++) {
      // A chunk on each edge of `from` (not at a corner).
      for (const [ci, cj] of [[0, 2], [S / U - 1, 2], [2, 0], [2, S / U - 1]]) {
        const spec = { originGrid: [ci * U, cj * U, ck * U] as const, level: 0, cells: 8 };
        const mapping = space.faceMapping(from);
        const { boundary } = meshChunk({ ...spec, values: sampleChunk(spec, field, mapping), mapping, field });
        // The face across that edge.
        const edge = ci === 0 ? 0 : ci === S / U - 1 ? 1 : cj === 0 ? 2 : 3;
        const to = EDGE_NEIGHBOUR_FACE[from * 4 + edge];
        const m = frameTransform(S, from, to)!;
        const moved = transformBoundaryLeaves(boundary, m);
        const ext = extendedFaceMapping(space, to);
        for (let i = 0; i < boundary.count; i++) {
          if (!Number.isNaN(boundary.vertexGrid[3 * i])) {
            mapping.toWorld(boundary.vertexGrid[3 * i], boundary.vertexGrid[3 * i + 1], boundary.vertexGrid[3 * i + 2], a);
            ext.toWorld(moved.vertexGrid[3 * i], moved.vertexGrid[3 * i + 1], moved.vertexGrid[3 * i + 2], b);
            expect(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2])).toBeLessThan(1e-6);
            checkedVerts++;
          }
          const size = moved.cells[4 * i + 3];
          for (let c = 0; c < 8; c++) {
            ext.toWorld(moved.cells[4 * i] + (c & 1) * size, moved.cells[4 * i + 1] + ((c >> 1) & 1) * size, moved.cells[4 * i + 2] + ((c >> 2) & 1) * size, b);
            const inside = field(b[0], b[1], b[2]) < 0;
            expect(((moved.corners[i] >> c) & 1) === 1).toBe(inside);
            checkedCorners++;
          }
        }
        // The moved box lies beyond `to`'s edge, touching it.
        const [x0, y0, , x1, y1] = moved.boxGrid;
        expect(x0 >= S || x1 <= 0 || y0 >= S || y1 <= 0).toBe(true);
      }
    }
    expect(checkedVerts).toBeGreaterThan(100);
    expect(checkedCorners).toBeGreaterThan(1000);
  });
});
