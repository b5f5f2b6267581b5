/** Lossless packing of boundary leaves and vertex cells (src/mesher/packing.ts), on real planet chunks and seams. */
import { describe, expect, it } from 'vitest';
import { compileToJs } from '../../src/field/index';
import { CubeSphereSpace, keyOf, planetLod } from '../../src/lod/index';
import { boundarySlot, boundarySlots, constantBoundaryLeaves, forEachBoundaryCell } from '../../src/mesher/boundary';
import { seamPartLeaves, seamRecordFilter } from '../../src/lod/planetSeams';
import { packBoundaryLeaves, packedLeavesBytes, packVertexCells, pieceDataBytes, unpackBoundaryLeaves, unpackVertexCells, type BoundaryLeaves } from '../../src/mesher/index';
import { boundaryLeavesBytes } from '../jobs/oneWorker';
import { planetGround, planetRecipe } from '../../src/scene/index';
import { meshPlanetChunk, planetChunkReply } from '../jobs/oneWorker';
import { buildPlanetSeamJob } from '../jobs/oneWorker';
import { surfaceChunks } from '../bench/planetChunk.bench';
import { registerBody } from '../jobs/oneWorker';
import { triangleSet } from './helpers';
import { groundPalette } from '../../src/field/groundColours';

/** The planet the jobs below name (registered with this thread's body registry, as a worker's would be). */
const PLANET = 'test:planet';

const recipe = planetRecipe(4);
const radiusM = planetGround(recipe).meanRadiusM;
const spaceOptions = { radiusM, chunkCells: 32, finestCellM: 1 };
registerBody(PLANET, { recipe, space: spaceOptions });
/** The same planet with a coloured ground (src/field/groundColours.ts). */
const GROUND = 'test:planet-ground';
registerBody(GROUND, { recipe, space: spaceOptions, ground: groundPalette({ seed: 4, meanRadiusM: radiusM, reliefM: 500 }) });
const space = new CubeSphereSpace(spaceOptions);

/** Equal element by element, NaN equal to NaN (Object.is, except that 0 and -0 are equal too). */
function expectSameArray(a: ArrayLike<number>, b: ArrayLike<number>): void {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) if (!(a[i] === b[i] || (Number.isNaN(a[i]) && Number.isNaN(b[i])))) expect([i, a[i]]).toEqual([i, b[i]]);
}

function expectSameLeaves(a: BoundaryLeaves, b: BoundaryLeaves): void {
  expect([a.chunkId, a.count, a.boxGrid]).toEqual([b.chunkId, b.count, b.boxGrid]);
  expectSameArray(a.cells.subarray(0, 4 * a.count), b.cells.subarray(0, 4 * b.count));
  for (const k of ['corners', 'component'] as const) expectSameArray(a[k].subarray(0, a.count), b[k].subarray(0, b.count));
  expectSameArray(a.vertexGrid.subarray(0, 3 * a.count), b.vertexGrid.subarray(0, 3 * b.count));
  expectSameArray(a.normals.subarray(0, 3 * a.count), b.normals.subarray(0, 3 * b.count));
}

describe('packing', () => {
  const chunks = surfaceChunks(space, compileToJs(recipe), [0, 6]).map((a) => ({
    a, r: meshPlanetChunk({ body: PLANET, ...a, coarser: [], simplify: 0.02 }),
  }));
  const params = { body: PLANET, level: 0 };

  it('boundary leaves round-trip exactly and shrink at least 20x', () => {
    for (const { r } of chunks) {
      const b = r.boundary!;
      const packed = packBoundaryLeaves(b);
      expectSameLeaves(unpackBoundaryLeaves(packed), b);
      expect(packed.unit).toBeGreaterThan(0);
      // The empty finest cells (most records) are 2 bits each: ~8-10 kB a 32³ chunk (was ~40 kB).
      expect(packed.slotCells).toBe(32);
      expect(packed.count - packed.corners.length).toBeGreaterThan(0.8 * packed.count);
      expect(packedLeavesBytes(packed)).toBeLessThan(boundaryLeavesBytes(b) / 20);
    }
  });

  it('a chunk reply transfers every buffer its piece holds, each once', () => {
    const { r } = chunks[0];
    const { reply, transfer } = planetChunkReply(r, params);
    const held = new Set<ArrayBufferLike>();
    const walk = (v: unknown): void => {
      if (ArrayBuffer.isView(v)) held.add(v.buffer);
      else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
    };
    walk(reply.piece);
    expect(held.size).toBeGreaterThan(8);
    expect(new Set(transfer)).toEqual(held);
    expect(transfer.length).toBe(held.size);
  });

  it('boundary slots number the cells in the order the mesher writes them', () => {
    for (const N of [1, 2, 3, 5, 32]) {
      let s = 0;
      const seen = new Set<string>();
      forEachBoundaryCell(N, (i, j, k) => {
        expect(boundarySlot(N, i, j, k)).toBe(s++);
        seen.add(`${i},${j},${k}`);
      });
      expect(s).toBe(boundarySlots(N));
      for (let k = 0; k < N; k++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
        if (!seen.has(`${i},${j},${k}`)) expect(boundarySlot(N, i, j, k)).toBe(-1);
      }
    }
  });

  it('records that only look empty stay explicit, in their place', () => {
    const b = chunks[0].r.boundary!;
    const plainAt = [...Array(b.count).keys()].filter((r) => Number.isNaN(b.vertexGrid[3 * r]) && b.cells[4 * r + 3] === 1);
    const odd: BoundaryLeaves = {
      ...b, cells: b.cells.slice(), corners: b.corners.slice(), normals: b.normals.slice(), component: b.component.slice(),
    };
    odd.normals[3 * plainAt[3]] = -0; // a normal of -0
    odd.corners[plainAt[5]] = 0x0f; // corners on both sides, no vertex
    odd.component[plainAt[7]] = 1;
    odd.cells.copyWithin(4 * plainAt[10], 4 * plainAt[9], 4 * plainAt[9] + 4); // a cell out of order (repeated)
    const packed = packBoundaryLeaves(odd);
    expect(packed.corners.length).toBe(packBoundaryLeaves(b).corners.length + 4);
    const back = unpackBoundaryLeaves(packed);
    expectSameLeaves(back, odd);
    expect(Object.is(back.normals[3 * plainAt[3]], -0)).toBe(true);
  });

  it('a chunk job\'s reply carries the piece as the renderer keeps it, in buffers of its own', () => {
    for (const { r } of chunks) {
      // The worker keeps the unpacked leaves (leafStore.ts): a reply must not transfer them away.
      const kept = new Set<ArrayBufferLike>([r.boundary!.cells.buffer, r.boundary!.vertexGrid.buffer, r.boundary!.normals.buffer]);
      const { reply, transfer } = planetChunkReply(r, params);
      const p = reply.piece!;
      expect(new Set(transfer).size).toBe(transfer.length);
      for (const t of transfer) expect(kept.has(t as ArrayBuffer)).toBe(false);
      expect(transfer).toContain(p.leaves!.cells.buffer);
      expectSameLeaves(unpackBoundaryLeaves(p.leaves!), r.boundary!);
      expectSameArray(unpackVertexCells(p.vertexCells), r.vertexCells);
      expect(p.indices).toBeInstanceOf(Uint16Array);
      // The same triangles, in vertex-cache order (vertexCache.ts).
      expect(triangleSet(p.indices)).toEqual(triangleSet(r.indices));
      for (let i = 0; i < r.normals.length; i++) expect(Math.abs(p.normals[i] / 0x7fff - r.normals[i])).toBeLessThan(1 / 0x7fff);
      expect(pieceDataBytes(p)).toBe(p.positions.byteLength + p.normals.byteLength + p.indices.byteLength + p.vertexCells.data.byteLength + packedLeavesBytes(p.leaves!));
      expect(reply).not.toHaveProperty('boundary');
      expect(p.colours).toBeNull();
    }
    // An empty or full chunk replies with no piece.
    expect(planetChunkReply({ ...chunks[0].r, homogeneous: { state: 'empty', proven: true } }, params).reply.piece).toBeNull();
  });

  it('a planet with a ground palette gets 4 colour bytes a vertex, transferred and counted', () => {
    for (const { a, r } of chunks) {
      const bare = pieceDataBytes(planetChunkReply(r, params).reply.piece!);
      const { reply, transfer } = planetChunkReply(r, { body: GROUND, level: a.level });
      const p = reply.piece!;
      expect(p.colours).toBeInstanceOf(Uint8Array);
      expect(p.colours!.length).toBe((4 * p.positions.length) / 3);
      expect(transfer).toContain(p.colours!.buffer);
      expect(pieceDataBytes(p)).toBe(bare + p.colours!.byteLength);
      // Real colours: the alpha byte is the roughness (0.55–0.95), the rgb the albedo's square root.
      for (let v = 0; v < p.colours!.length; v += 4) expect(p.colours![v + 3]).toBeGreaterThanOrEqual(Math.floor(0.55 * 255));
      expect(Math.max(...p.colours!.filter((_, i) => i % 4 === 0))).toBeGreaterThan(0);
    }
  });

  it('chunk vertex cells round-trip exactly in 4 bytes a vertex', () => {
    for (const { r } of chunks) {
      const p = packVertexCells(r.vertexCells);
      expect(p.unit).toBeGreaterThan(0);
      expect(p.data.byteLength).toBe(r.vertexCells.length);
      expectSameArray(unpackVertexCells(p), r.vertexCells);
    }
  });

  it('falls back to the original where a record does not fit (unaligned cells, large ranges)', () => {
    const b = chunks[0].r.boundary!;
    const odd: BoundaryLeaves = { ...b, cells: b.cells.slice(), count: b.count };
    odd.cells[0] += 1; // off the lattice
    expectSameLeaves(unpackBoundaryLeaves(packBoundaryLeaves(odd)), odd);
    const vc = new Int32Array([0, 0, 0, 1, 100000, 0, 0, 1]); // 100,000 units apart: no byte holds it
    const p = packVertexCells(vc);
    expect(p.unit).toBe(0);
    expectSameArray(unpackVertexCells(p), vc);
  });

  it('unpacking with a seam\'s record filter gives the records seamPartLeaves keeps, in order; so do constant leaves', () => {
    // Two level-0 surface chunks side by side: each part as the seam owned by b reads it.
    const a = chunks[0].a;
    const b = { ...a, ci: a.ci + 1 };
    const leaves = [a, b].map((c) => meshPlanetChunk({ body: PLANET, ...c, coarser: [], simplify: 0.02 }).boundary!);
    [a, b].forEach((part, i) => {
      const filter = seamRecordFilter(space, b, part);
      const kept = unpackBoundaryLeaves(packBoundaryLeaves(leaves[i]), filter);
      expect(kept.count).toBeGreaterThan(0);
      // The owner keeps the sides its owner box holds (about half); a face neighbour about a sixth.
      expect(kept.count).toBeLessThan(leaves[i].count * (part === b ? 0.6 : 0.3));
      expectSameLeaves(kept, seamPartLeaves(space, b, part, leaves[i]));
      const U = space.chunkUnits(part.level);
      const spec = { originGrid: [part.ci * U, part.cj * U, part.ck * U] as [number, number, number], level: part.level, cells: space.chunkCells };
      for (const inside of [false, true]) {
        expectSameLeaves(constantBoundaryLeaves(spec, inside, 0, filter), seamPartLeaves(space, b, part, constantBoundaryLeaves(spec, inside)));
      }
    });
  });

  it('a seam built from unpacked leaves is bit-identical to one built from the originals', () => {
    // Two level-0 surface chunks side by side: the +i one owns the seam between them.
    const a = chunks[0].a;
    const b = { ...a, ci: a.ci + 1 };
    const lod = planetLod(space, [a, b]);
    expect(lod.seamStitches.get(keyOf(b))).toContain(keyOf(a));
    const meshes = new Map([a, b].map((c) => [keyOf(c), meshPlanetChunk({ body: PLANET, ...c, coarser: [], simplify: 0.02 })]));
    const build = (pack: boolean) => buildPlanetSeamJob({
      body: PLANET, owner: keyOf(b), stitches: [...lod.seamStitches.get(keyOf(b))!],
      parts: [keyOf(b), ...lod.seamStitches.get(keyOf(b))!].map((key) => {
        const leaves = meshes.get(key)!.boundary!;
        return { key, leaves: pack ? unpackBoundaryLeaves(packBoundaryLeaves(leaves)) : leaves };
      }),
    });
    const direct = build(false);
    const viaPacking = build(true);
    expect(direct.indices.length).toBeGreaterThan(0);
    expectSameArray(viaPacking.positions, direct.positions);
    expectSameArray(viaPacking.indices, direct.indices);
    expectSameArray(viaPacking.vertexCells, direct.vertexCells);
  });
});
