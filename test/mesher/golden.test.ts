/**
 * Golden hashes (issue 18): every output array of `meshChunk` and `buildSeam` on a zoo of small
 * inputs, hashed bit-exactly (FNV-1a over the bytes of each typed array) against a literal table made
 * from the mesher as it was before it was split into stage files. A refactor of the mesher must keep
 * every hash; a change that means to alter the output regenerates the table
 * (`MESHER_GOLDEN_PRINT=1 npx vitest run --project unit test/mesher/golden` prints it) and says why.
 *
 * The zoo covers: grid-only and field-refined crossings, simplification (and `maxLeafCells`), supplied
 * hermite data, restriction to coarser neighbours (with the field and with supplied hermite data),
 * the hermite memo, faces on lattice planes (zero samples), ambiguous cells (gyroid, fine noise),
 * non-power-of-two chunks, level > 0, Float64 values, a scaled cartesian mapping and the cube-sphere
 * face mapping; seams at equal and mixed levels, with owner boxes, without restriction (synthesized
 * vertices), through the cube-sphere mapping and around a three-cell line.
 */
import { describe, expect, it } from 'vitest';
import { buildSeam, cartesianMapping, HermiteMemo, meshChunk, sampleChunk } from '../../src/mesher/index.ts';
import type {
  BoundaryLeaves, ChunkMesh, CoarserNeighbour, FieldFn, GridMapping, MeshChunkInput,
  MeshChunkResult, SeamOptions,
} from '../../src/mesher/index.ts';
import { CubeSphereSpace } from '../../src/lod/cubeSphere.ts';
import { asteroid, box, capsule, clippedGyroid, edgePassHermite, mulberry32, rotation, sphere, torus, union } from './helpers.ts';

type Box6 = [number, number, number, number, number, number];
type Bytes = Float32Array | Float64Array | Int32Array | Uint32Array | Uint8Array;

/** FNV-1a (32 bit) over the bytes of a typed array, as 8 hex digits. */
export function fnv1a(a: Bytes): string {
  const b = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  let h = 0x811c9dc5;
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i], 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

const tag = (a: Bytes): string => `${a.length}:${fnv1a(a)}`;

function meshHashes(m: ChunkMesh): string {
  return `p ${tag(m.positions)} n ${tag(m.normals)} i ${tag(m.indices)} vc ${tag(m.vertexCells)} o ${tag(Float64Array.from(m.originWorld))}`;
}

function chunkHashes(r: MeshChunkResult): string {
  const b = r.boundary, s = r.stats;
  const counts = [s.edges, s.activeCells, s.leaves, s.collapsedNodes, s.nonManifoldCells, s.vertices, s.triangles];
  return `${meshHashes(r.mesh)} | b ${b.chunkId} ${b.boxGrid.join(',')} #${b.count} c ${tag(b.cells)} k ${tag(b.corners)} ` +
    `m ${tag(b.component)} v ${tag(b.vertexGrid)} n ${tag(b.normals)} | s ${counts.join(',')}`;
}

// ---- meshChunk cases -----------------------------------------------------------------------------

interface ZooField { name: string; f: FieldFn; N: number; origin: [number, number, number] }

const zoo: ZooField[] = [
  { name: 'sphere', f: sphere(0.31, -0.17, 0.23, 6.3), N: 16, origin: [-8, -8, -8] },
  { name: 'torus', f: torus(0.2, -0.3, 0.1, 5.5, 2.1), N: 20, origin: [-10, -10, -10] },
  { name: 'box', f: box(5.3, 3.6, 2.4, undefined, [0.2, 0.1, -0.3]), N: 16, origin: [-8, -8, -8] },
  { name: 'rotated box', f: box(4.3, 3.1, 2.4, rotation(0.4, 0.7, 0.2)), N: 16, origin: [-8, -8, -8] },
  { name: 'lattice box', f: box(4, 3, 2, undefined, [0.5, 0, 0]), N: 16, origin: [-8, -8, -8] },
  { name: 'thin plate', f: box(6.2, 5.3, 0.7, rotation(0.05, 0.1, 0)), N: 16, origin: [-8, -8, -8] },
  {
    name: 'capsule chain',
    f: union(capsule([-7, -3, 0.3], [-3, 3, 0.6], 1.7), capsule([-3, 3, 0.6], [1, -3, -0.6], 1.7), capsule([1, -3, -0.6], [6.5, 2, 0.4], 1.7)),
    N: 20, origin: [-10, -10, -10],
  },
  { name: 'gyroid', f: clippedGyroid(7, 9.3, 0.3), N: 20, origin: [-10, -10, -10] },
  { name: 'asteroid', f: asteroid(7, 7, 1.2, 0.14), N: 18, origin: [-9, -9, -9] },
];

/** (name, input) pairs; inputs are built lazily so a throwing case names itself. */
function chunkCases(): [string, () => MeshChunkInput | MeshChunkResult][] {
  const cases: [string, () => MeshChunkInput | MeshChunkResult][] = [];
  for (const z of zoo) {
    const spec = { originGrid: z.origin, level: 0, cells: z.N } as const;
    const values = sampleChunk(spec, z.f);
    cases.push([`${z.name}/grid`, () => ({ ...spec, values })]);
    cases.push([`${z.name}/field`, () => ({ ...spec, values, field: z.f })]);
    cases.push([`${z.name}/field/simplify 0.02`, () => ({ ...spec, values, field: z.f, simplify: 0.02, chunkId: 3 })]);
    cases.push([`${z.name}/grid/simplify 0.2`, () => ({ ...spec, values, simplify: 0.2 })]);
    cases.push([`${z.name}/hermite`, () => ({ ...spec, values, hermite: edgePassHermite(spec, values, z.f) })]);
  }
  const s = sphere(0.31, -0.17, 0.23, 9.1);
  const specL1 = { originGrid: [-12, -12, -12] as [number, number, number], level: 1, cells: 12 };
  cases.push(['sphere/level 1/field/simplify 0.05', () => ({ ...specL1, values: sampleChunk(specL1, s), field: s, simplify: 0.05, chunkId: 9 })]);
  const spec24 = { originGrid: [-12, -12, -12] as [number, number, number], level: 0, cells: 24 };
  const v24 = sampleChunk(spec24, s);
  cases.push(['sphere/N 24/grid/simplify 0.5/maxLeaf 4', () => ({ ...spec24, values: v24, simplify: 0.5, maxLeafCells: 4 })]);
  cases.push(['sphere/N 24/grid/simplify 1e9', () => ({ ...spec24, values: v24, simplify: 1e9 })]);
  cases.push(['sphere/N 24/float64 values', () => ({ ...spec24, values: Float64Array.from(v24, (v) => v + 1e-9) })]);
  cases.push(['sphere/N 24/cut by the grid', () => {
    const spec = { originGrid: [-3, -12, -12] as [number, number, number], level: 0, cells: 16 };
    return { ...spec, values: sampleChunk(spec, s), field: s, simplify: 0.02 };
  }]);
  const scaled = cartesianMapping(0.37, [100.5, -20, 3]);
  const sw = sphere(100.5 + 0.37 * 0.4, -20 + 0.37 * 0.2, 3 - 0.37 * 0.1, 0.37 * 6.6);
  const spec16 = { originGrid: [-8, -8, -8] as [number, number, number], level: 0, cells: 16 };
  cases.push(['sphere/scaled cartesian/field/simplify 0.02', () => ({
    ...spec16, values: sampleChunk(spec16, sw, scaled), mapping: scaled, field: sw, simplify: 0.02,
  })]);
  cases.push(...cubeSphereCases());
  cases.push(...restrictionCases());
  cases.push(['asteroid/hermite memo, second mesh', () => {
    const f = asteroid(3, 7, 1.2, 0.1);
    const spec = { originGrid: [-9, -9, -9] as [number, number, number], level: 0, cells: 18 };
    const values = sampleChunk(spec, f);
    const hermiteMemo = new HermiteMemo();
    meshChunk({ ...spec, values, field: f, hermiteMemo });
    const r = meshChunk({ ...spec, values, field: f, hermiteMemo });
    expect(hermiteMemo.recalled).toBeGreaterThan(0);
    return r;
  }]);
  cases.push(['empty grid', () => ({ originGrid: [0, 0, 0], level: 0, cells: 6, values: new Float32Array(343).fill(1) })]);
  return cases;
}

/** A small planet's face 2 through its own face mapping (normals through normalToWorld). */
function cubeSphereCases(): [string, () => MeshChunkInput][] {
  const space = new CubeSphereSpace({ radiusM: 100, chunkCells: 8, levels: 1 });
  const mapping: GridMapping = space.faceMapping(2);
  const noise = asteroid(11, 100, 1.5, 0.08);
  const f: FieldFn = (x, y, z) => noise(x, y, z);
  const out: [string, () => MeshChunkInput][] = [];
  for (const [level, origin] of [[0, [8, 0, 0]], [1, [0, 0, 0]]] as const) {
    const spec = { originGrid: origin as unknown as [number, number, number], level, cells: 8 };
    const values = sampleChunk(spec, f, mapping);
    out.push([`cube-sphere/level ${level}/field`, () => ({ ...spec, values, mapping, field: f })]);
    out.push([`cube-sphere/level ${level}/grid/simplify 0.02/maxLeaf 4`, () => ({ ...spec, values, mapping, simplify: 0.02, maxLeafCells: 4 })]);
  }
  return out;
}

/** A level-0 chunk restricted to coarser neighbours across a face, an edge line and a corner. */
function restrictionCases(): [string, () => MeshChunkInput][] {
  const f = asteroid(5, 8.5, 1.3, 0.12, [6, 6, 6]);
  const spec = { originGrid: [0, 0, 0] as [number, number, number], level: 0, cells: 12 };
  const values = sampleChunk(spec, f);
  const coarserNeighbours: CoarserNeighbour[] = [
    { boxGrid: [12, 0, 0, 36, 24, 24], level: 1 }, // +x face
    { boxGrid: [-24, 12, 0, 0, 36, 24], level: 1 }, // -x +y edge line
    { boxGrid: [-24, -24, -24, 0, 0, 0], level: 1 }, // corner only
    { boxGrid: [0, 0, 40, 24, 24, 64], level: 1 }, // far: ignored
  ];
  return [
    ['restricted/field', () => ({ ...spec, values, field: f, coarserNeighbours })],
    ['restricted/grid/simplify 0.02', () => ({ ...spec, values, coarserNeighbours, simplify: 0.02 })],
    ['restricted/hermite', () => ({ ...spec, values, hermite: edgePassHermite(spec, values, f), coarserNeighbours })],
    // With both, supplied edges win and restricted edges are recomputed with grid normals, not the field.
    ['restricted/hermite+field', () => ({ ...spec, values, hermite: edgePassHermite(spec, values, f), field: f, coarserNeighbours })],
    ['restricted/hermite/simplify 0.02', () => ({ ...spec, values, hermite: edgePassHermite(spec, values, f), coarserNeighbours, simplify: 0.02 })],
  ];
}

// ---- seam cases ----------------------------------------------------------------------------------

interface Parts { boundaries: BoundaryLeaves[] }

/** k^3 chunks of `size` finest units from `lo` (as test/mesher/seams.test.ts splits them). */
function split(f: FieldFn, k: number, size: number, lo: number, levels: number[], simplify: number, restrict = true, supplied = false): Parts {
  const boundaries: BoundaryLeaves[] = [];
  const boxOf = (x: number, y: number, z: number): Box6 =>
    [lo + x * size, lo + y * size, lo + z * size, lo + (x + 1) * size, lo + (y + 1) * size, lo + (z + 1) * size];
  let id = 0;
  for (let z = 0; z < k; z++) for (let y = 0; y < k; y++) for (let x = 0; x < k; x++, id++) {
    const level = levels[id];
    const spec = { originGrid: [lo + x * size, lo + y * size, lo + z * size] as [number, number, number], level, cells: size >> level };
    const coarserNeighbours: CoarserNeighbour[] = [];
    for (let dz = -1; dz <= 1; dz++) for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      const nx = x + dx, ny = y + dy, nz = z + dz;
      if (nx < 0 || ny < 0 || nz < 0 || nx >= k || ny >= k || nz >= k) continue;
      const nl = levels[nx + k * (ny + k * nz)];
      if (restrict && nl === level + 1) coarserNeighbours.push({ boxGrid: boxOf(nx, ny, nz), level: nl });
    }
    const values = sampleChunk(spec, f);
    const hermite = supplied && id % 2 === 1 ? { hermite: edgePassHermite(spec, values, f) } : { field: f };
    boundaries.push(meshChunk({ ...spec, values, ...hermite, simplify, chunkId: id, coarserNeighbours }).boundary);
  }
  return { boundaries };
}

function seamCases(): [string, () => ChunkMesh[]][] {
  const s = sphere(0.37, -0.21, 0.13, 9.2);
  const a = asteroid(5, 9.5, 1.3, 0.1);
  const mixed = (seed: number, n: number): number[] => {
    const rnd = mulberry32(seed);
    return Array.from({ length: n }, () => (rnd() < 0.5 ? 1 : 0));
  };
  const all = (p: Parts, o: SeamOptions = {}): ChunkMesh[] => [buildSeam(p.boundaries, o)];
  const owned = (p: Parts): ChunkMesh[] => p.boundaries.map((b) => buildSeam(p.boundaries, { ownerBoxGrid: b.boxGrid }));
  return [
    ['sphere 2^3 equal level', () => all(split(s, 2, 12, -12, new Array(8).fill(0), 0))],
    ['sphere 2^3 equal level, owner boxes', () => owned(split(s, 2, 12, -12, new Array(8).fill(0), 0))],
    ['sphere 2^3 equal level, simplify 0.05, origin', () => all(split(s, 2, 12, -12, new Array(8).fill(0), 0.05), { originGrid: [1, 2, 3] })],
    ['asteroid 2^3 mixed seed 2', () => all(split(a, 2, 12, -12, mixed(2, 8), 0))],
    ['asteroid 2^3 mixed seed 2, owner boxes', () => owned(split(a, 2, 12, -12, mixed(2, 8), 0))],
    // Coarse cells with several surface pieces next to finer chunks (seam.ts, coarseComponent).
    ['asteroid 2^3 mixed seed 5, frequency 0.15', () => all(split(asteroid(5, 9.5, 1.3, 0.15), 2, 12, -12, mixed(5, 8), 0))],
    ['asteroid 2^3 mixed seed 5, simplify 0.02', () => all(split(a, 2, 12, -12, mixed(5, 8), 0.02))],
    ['asteroid 3^3 mixed seed 7, supplied hermite', () => all(split(asteroid(5, 12.5, 1.3, 0.12), 3, 8, -12, mixed(7, 27), 0, true, true))],
    ['asteroid 2^3 mixed seed 3, no restriction (synthesized vertices)', () => all(split(a, 2, 12, -12, mixed(3, 8), 0, false))],
    ['asteroid 2^3 mixed seed 4, no restriction, simplify 0.1', () => all(split(a, 2, 12, -12, mixed(4, 8), 0.1, false))],
    ['cube-sphere face 0, two chunks', () => {
      const space = new CubeSphereSpace({ radiusM: 100, chunkCells: 8, levels: 1 });
      const mapping = space.faceMapping(0);
      const f = asteroid(11, 100, 1.5, 0.08);
      const leaves = [[0, 0, 0], [8, 0, 0], [0, 8, 0]].map(([x, y, z], id) => {
        const spec = { originGrid: [x, y, z] as [number, number, number], level: 0, cells: 8 };
        return meshChunk({ ...spec, values: sampleChunk(spec, f, mapping), mapping, field: f, chunkId: id }).boundary;
      });
      return [buildSeam(leaves, { mapping }), buildSeam(leaves, { mapping, ownerBoxGrid: [0.25, 0.25, 0, 8.25, 16.25, 16] })];
    }],
    ['three-cell line (three of four quadrant chunks)', () => {
      // Chunks in three of the four quadrants around the z line x = y = 0; the (+x, +y) one is missing.
      const f = sphere(0.3, -0.2, 0.1, 6.4);
      const leaves = [[-8, -8], [0, -8], [-8, 0]].map(([x, y], id) => {
        const spec = { originGrid: [x, y, -8] as [number, number, number], level: 0, cells: 8 };
        return meshChunk({ ...spec, values: sampleChunk(spec, f), field: f, chunkId: id }).boundary;
      });
      return [buildSeam(leaves, { threeCellLines: [[0, 0, 1, 1]] }), buildSeam(leaves)];
    }],
  ];
}

// ---- expected ------------------------------------------------------------------------------------

const EXPECTED_CHUNKS: Record<string, string> = {
  'asteroid/field':
    'p 3546:84d17aa2 n 3546:35445d73 i 7080:3f5f4960 vc 4728:1dc0fdd7 o 3:218a46d7 | ' +
    'b 0 -9,-9,-9,9,9,9 #1737 c 6948:927b6c69 k 1737:c6a48eb7 m 1737:0b54b88e v 5211:ef54c9d3 n 5211:110f4225 | ' +
    's 1180,1182,1182,0,18,1182,2360',
  'asteroid/field/simplify 0.02':
    'p 3525:9b656519 n 3525:17b470f2 i 7038:f2d581b0 vc 4700:fd0e7578 o 3:218a46d7 | ' +
    'b 3 -9,-9,-9,9,9,9 #1596 c 6384:4bb9e2a7 k 1596:04e6e9eb m 1596:32f55c94 v 4788:7fe7707b n 4788:06f21742 | ' +
    's 1180,1182,1175,41,18,1175,2346',
  'asteroid/grid':
    'p 3546:e7340888 n 3546:afc324c4 i 7080:cd3b85dd vc 4728:7d5b53bf o 3:218a46d7 | ' +
    'b 0 -9,-9,-9,9,9,9 #1737 c 6948:927b6c69 k 1737:c6a48eb7 m 1737:0b54b88e v 5211:94bf81d0 n 5211:95af5153 | ' +
    's 1180,1182,1182,0,18,1182,2360',
  'asteroid/grid/simplify 0.2':
    'p 3243:ff228d8f n 3243:e9a12cfd i 6474:b274b0fd vc 4324:e7888bd1 o 3:218a46d7 | ' +
    'b 0 -9,-9,-9,9,9,9 #1524 c 6096:be8fa2c8 k 1524:e4affccd m 1524:410bd5e4 v 4572:aeda7999 n 4572:2c1afec6 | ' +
    's 1180,1182,1081,106,18,1081,2158',
  'asteroid/hermite':
    'p 3546:b3b8f0e7 n 3546:02cd1500 i 7080:9146997a vc 4728:b001d6af o 3:218a46d7 | ' +
    'b 0 -9,-9,-9,9,9,9 #1737 c 6948:927b6c69 k 1737:c6a48eb7 m 1737:0b54b88e v 5211:9538c62a n 5211:69868d94 | ' +
    's 1180,1182,1182,0,18,1182,2360',
  'asteroid/hermite memo, second mesh':
    'p 3186:64515a00 n 3186:b2898cee i 6360:1967466b vc 4248:e5906c22 o 3:218a46d7 | ' +
    'b 0 -9,-9,-9,9,9,9 #1736 c 6944:20497685 k 1736:8e3fb7fb m 1736:4d91f065 v 5208:c597cbfd n 5208:e80427bd | ' +
    's 1060,1062,1062,0,4,1062,2120',
  'box/field':
    'p 1008:6c36ae31 n 1008:0610b4fd i 2004:9f4b364b vc 1344:59ae6c85 o 3:e1fa51c5 | ' +
    'b 0 -8,-8,-8,8,8,8 #1352 c 5408:d2dac8a5 k 1352:a28a6265 m 1352:a28a6265 v 4056:1c974705 n 4056:0a70fd45 | ' +
    's 334,336,336,0,0,336,668',
  'box/field/simplify 0.02':
    'p 24:71d1a088 n 24:d8fb2485 i 36:07b9e6c5 vc 32:adf06cc5 o 3:e1fa51c5 | ' +
    'b 3 -8,-8,-8,8,8,8 #8 c 32:218b80c5 k 8:f19fc130 m 8:9be17165 v 24:8a487573 n 24:4f592785 | ' +
    's 334,336,8,104,0,8,12',
  'box/grid':
    'p 1008:459ec4c2 n 1008:becfd8b5 i 2004:24eeb82f vc 1344:7e73e225 o 3:e1fa51c5 | ' +
    'b 0 -8,-8,-8,8,8,8 #1352 c 5408:d2dac8a5 k 1352:a28a6265 m 1352:a28a6265 v 4056:1c974705 n 4056:0a70fd45 | ' +
    's 334,336,336,0,0,336,668',
  'box/grid/simplify 0.2':
    'p 381:474d9009 n 381:ebd460bc i 750:7e3ecec7 vc 508:efa6ede3 o 3:e1fa51c5 | ' +
    'b 0 -8,-8,-8,8,8,8 #1352 c 5408:d2dac8a5 k 1352:a28a6265 m 1352:a28a6265 v 4056:1c974705 n 4056:0a70fd45 | ' +
    's 334,336,127,67,0,127,250',
  'box/hermite':
    'p 1008:8a25fc98 n 1008:6d377ff5 i 2004:ba702932 vc 1344:d0973a65 o 3:e1fa51c5 | ' +
    'b 0 -8,-8,-8,8,8,8 #1352 c 5408:d2dac8a5 k 1352:a28a6265 m 1352:a28a6265 v 4056:1c974705 n 4056:0a70fd45 | ' +
    's 334,336,336,0,0,336,668',
  'capsule chain/field':
    'p 1212:a77ac892 n 1212:0bc2215c i 2412:0877cd64 vc 1616:c79fffbd o 3:02670da1 | ' +
    'b 0 -10,-10,-10,10,10,10 #2168 c 8672:c366b825 k 2168:26c11825 m 2168:26c11825 v 6504:55ded585 n 6504:87200245 | ' +
    's 402,404,404,0,2,404,804',
  'capsule chain/field/simplify 0.02':
    'p 1194:23a4c695 n 1194:bc2a0729 i 2376:15cc4ddf vc 1592:a8afa473 o 3:02670da1 | ' +
    'b 3 -10,-10,-10,10,10,10 #2126 c 8504:b84c51e0 k 2126:643fdd43 m 2126:179c633d v 6378:0e0e422c n 6378:b752ad38 | ' +
    's 402,404,398,33,2,398,792',
  'capsule chain/grid':
    'p 1212:d28854bf n 1212:5e0c65ee i 2412:d75aff73 vc 1616:987c1bfd o 3:02670da1 | ' +
    'b 0 -10,-10,-10,10,10,10 #2168 c 8672:c366b825 k 2168:26c11825 m 2168:26c11825 v 6504:55ded585 n 6504:87200245 | ' +
    's 402,404,404,0,2,404,804',
  'capsule chain/grid/simplify 0.2':
    'p 1122:d6fe2b5d n 1122:09a8e6cd i 2232:e7bafda6 vc 1496:369bd2a4 o 3:02670da1 | ' +
    'b 0 -10,-10,-10,10,10,10 #2099 c 8396:1f56c28c k 2099:efd214d5 m 2099:e653baf7 v 6297:e80142f0 n 6297:0e39699a | ' +
    's 402,404,374,54,2,374,744',
  'capsule chain/hermite':
    'p 1212:de62de49 n 1212:3f34d5ad i 2412:6045dbb3 vc 1616:c79fffbd o 3:02670da1 | ' +
    'b 0 -10,-10,-10,10,10,10 #2168 c 8672:c366b825 k 2168:26c11825 m 2168:26c11825 v 6504:55ded585 n 6504:87200245 | ' +
    's 402,404,404,0,2,404,804',
  'cube-sphere/level 0/field':
    'p 192:8247b75a n 192:f5acb709 i 294:6e9749de vc 256:c9f69005 o 3:ec798a6c | ' +
    'b 0 8,0,0,16,8,8 #296 c 1184:655a0065 k 296:7bedd6f9 m 296:e8c3bbe5 v 888:7ff5e34b n 888:3ae9bd6b | ' +
    's 81,64,64,0,0,64,98',
  'cube-sphere/level 0/grid/simplify 0.02/maxLeaf 4':
    'p 165:5e1100f1 n 165:36f77a55 i 249:50223d95 vc 220:4d1ddc09 o 3:ec798a6c | ' +
    'b 0 8,0,0,16,8,8 #288 c 1152:86383a20 k 288:da0bce31 m 288:cb5a1845 v 864:c2d65b64 n 864:f22e6545 | ' +
    's 81,64,55,3,0,55,83',
  'cube-sphere/level 1/field':
    'p 192:893ab8aa n 192:e0f7db18 i 294:6df3b217 vc 256:6bbed145 o 3:7b7d62c4 | ' +
    'b 0 0,0,0,16,16,16 #296 c 1184:f3e96e85 k 296:ba152e2d m 296:e8c3bbe5 v 888:6dd6b244 n 888:e379007e | ' +
    's 81,64,64,0,0,64,98',
  'cube-sphere/level 1/grid/simplify 0.02/maxLeaf 4':
    'p 111:f4b81b08 n 111:34772c6a i 162:d8560bc2 vc 148:2990c005 o 3:7b7d62c4 | ' +
    'b 0 0,0,0,16,16,16 #269 c 1076:8ddb088b k 269:eacde07d m 269:7c297eef v 807:6f65260f n 807:1686e82d | ' +
    's 81,64,37,9,0,37,54',
  'empty grid':
    'p 0:811c9dc5 n 0:811c9dc5 i 0:811c9dc5 vc 0:811c9dc5 o 3:e2ba14a5 | ' +
    'b 0 0,0,0,6,6,6 #152 c 608:9cd7fae5 k 152:1ab66ea5 m 152:1ab66ea5 v 456:519dea85 n 456:30055045 | ' +
    's 0,0,0,0,0,0,0',
  'gyroid/field':
    'p 8046:1514c86b n 8046:d1c2919e i 16308:55c91e8c vc 10728:fcfc66fa o 3:02670da1 | ' +
    'b 0 -10,-10,-10,10,10,10 #2168 c 8672:c366b825 k 2168:4f3588bc m 2168:26c11825 v 6504:0b0cf7c8 n 6504:f13a2429 | ' +
    's 2718,2682,2682,0,75,2682,5436',
  'gyroid/field/simplify 0.02':
    'p 7902:801db655 n 7902:378351fc i 16020:1f4fe45f vc 10536:14e9985b o 3:02670da1 | ' +
    'b 3 -10,-10,-10,10,10,10 #1862 c 7448:8dccd222 k 1862:18bc79bc m 1862:5adff89d v 5586:e6d389c7 n 5586:11525ff0 | ' +
    's 2718,2682,2634,101,75,2634,5340',
  'gyroid/grid':
    'p 8046:c9655160 n 8046:b86c6eb2 i 16308:6916c9d1 vc 10728:300efed2 o 3:02670da1 | ' +
    'b 0 -10,-10,-10,10,10,10 #2168 c 8672:c366b825 k 2168:4f3588bc m 2168:26c11825 v 6504:24290480 n 6504:485f2cd8 | ' +
    's 2718,2682,2682,0,75,2682,5436',
  'gyroid/grid/simplify 0.2':
    'p 7776:5aedbdef n 7776:d6b876fc i 15768:4de59a9a vc 10368:bcc381d4 o 3:02670da1 | ' +
    'b 0 -10,-10,-10,10,10,10 #1808 c 7232:ae1bb9c9 k 1808:7dab9442 m 1808:9b908505 v 5424:b84b2724 n 5424:7cb96587 | ' +
    's 2718,2682,2592,132,75,2592,5256',
  'gyroid/hermite':
    'p 8046:1fb02dad n 8046:f6e0ceaa i 16308:aa161723 vc 10728:394394da o 3:02670da1 | ' +
    'b 0 -10,-10,-10,10,10,10 #2168 c 8672:c366b825 k 2168:4f3588bc m 2168:26c11825 v 6504:3e5fbae6 n 6504:d6c549c4 | ' +
    's 2718,2682,2682,0,75,2682,5436',
  'lattice box/field':
    'p 480:57623005 n 480:589029dd i 948:8f32abd5 vc 640:2c345a35 o 3:e1fa51c5 | ' +
    'b 0 -8,-8,-8,8,8,8 #1352 c 5408:d2dac8a5 k 1352:a28a6265 m 1352:a28a6265 v 4056:1c974705 n 4056:0a70fd45 | ' +
    's 158,160,160,0,0,160,316',
  'lattice box/field/simplify 0.02':
    'p 24:ec549895 n 24:c92b651d i 36:7a36f215 vc 32:809642c5 o 3:e1fa51c5 | ' +
    'b 3 -8,-8,-8,8,8,8 #8 c 32:218b80c5 k 8:f19fc130 m 8:9be17165 v 24:c21efac5 n 24:762cb6d5 | ' +
    's 158,160,8,60,0,8,12',
  'lattice box/grid':
    'p 480:6ad493bd n 480:33cb9a0d i 948:7bce6da5 vc 640:66ce6735 o 3:e1fa51c5 | ' +
    'b 0 -8,-8,-8,8,8,8 #1352 c 5408:d2dac8a5 k 1352:a28a6265 m 1352:a28a6265 v 4056:1c974705 n 4056:0a70fd45 | ' +
    's 158,160,160,0,0,160,316',
  'lattice box/grid/simplify 0.2':
    'p 180:089fc75d n 180:2057dffd i 348:8a924ac2 vc 240:1eb63bf5 o 3:e1fa51c5 | ' +
    'b 0 -8,-8,-8,8,8,8 #1292 c 5168:d24ebab5 k 1292:97a97310 m 1292:9f9726b5 v 3876:fc2bc108 n 3876:6396a5bd | ' +
    's 158,160,60,36,0,60,116',
  'lattice box/hermite':
    'p 480:57623005 n 480:589029dd i 948:8f32abd5 vc 640:2c345a35 o 3:e1fa51c5 | ' +
    'b 0 -8,-8,-8,8,8,8 #1352 c 5408:d2dac8a5 k 1352:a28a6265 m 1352:a28a6265 v 4056:1c974705 n 4056:0a70fd45 | ' +
    's 158,160,160,0,0,160,316',
  'restricted/field':
    'p 597:29fe3ac7 n 597:2d6536fd i 624:f1df32e7 vc 796:4da3d24a o 3:e2ba14a5 | ' +
    'b 0 0,0,0,12,12,12 #728 c 2912:2088b265 k 728:f334609c m 728:aa8583a5 v 2184:b47f807a n 2184:91136b73 | ' +
    's 374,232,232,0,4,199,208',
  'restricted/grid/simplify 0.02':
    'p 582:51844d6c n 582:ba605407 i 609:1d3c2a86 vc 776:53a71642 o 3:e2ba14a5 | ' +
    'b 0 0,0,0,12,12,12 #665 c 2660:18d6cf08 k 665:f1bf889e m 665:5e8ee5bf v 1995:547dd376 n 1995:eb56e059 | ' +
    's 374,232,223,15,4,194,203',
  'restricted/hermite':
    'p 597:103999bf n 597:17dc293e i 624:f81c1bc0 vc 796:ec0bac6a o 3:e2ba14a5 | ' +
    'b 0 0,0,0,12,12,12 #728 c 2912:2088b265 k 728:f334609c m 728:aa8583a5 v 2184:b0fbc02b n 2184:55a94a26 | ' +
    's 374,232,232,0,4,199,208',
  'restricted/hermite+field':
    'p 597:103999bf n 597:17dc293e i 624:f81c1bc0 vc 796:ec0bac6a o 3:e2ba14a5 | ' +
    'b 0 0,0,0,12,12,12 #728 c 2912:2088b265 k 728:f334609c m 728:aa8583a5 v 2184:b0fbc02b n 2184:55a94a26 | ' +
    's 374,232,232,0,4,199,208',
  'restricted/hermite/simplify 0.02':
    'p 594:34d7d933 n 594:9092828a i 621:18fc089b vc 792:c45c7608 o 3:e2ba14a5 | ' +
    'b 0 0,0,0,12,12,12 #677 c 2708:44ad46c6 k 677:e83b6c41 m 677:af51898f v 2031:45a3ca2a n 2031:8a3eaa06 | ' +
    's 374,232,230,8,4,198,207',
  'rotated box/field':
    'p 1068:3f08f5cd n 1068:0ef54089 i 2124:43cae4c9 vc 1424:311c5675 o 3:e1fa51c5 | ' +
    'b 0 -8,-8,-8,8,8,8 #1352 c 5408:d2dac8a5 k 1352:a28a6265 m 1352:a28a6265 v 4056:1c974705 n 4056:0a70fd45 | ' +
    's 354,356,356,0,0,356,708',
  'rotated box/field/simplify 0.02':
    'p 426:9d153ee4 n 426:a07a11ba i 840:f73c5f67 vc 568:ba359b58 o 3:e1fa51c5 | ' +
    'b 3 -8,-8,-8,8,8,8 #1352 c 5408:d2dac8a5 k 1352:a28a6265 m 1352:a28a6265 v 4056:1c974705 n 4056:0a70fd45 | ' +
    's 354,356,142,78,0,142,280',
  'rotated box/grid':
    'p 1068:b187b7f0 n 1068:9e1e10b1 i 2124:d0dbf340 vc 1424:0ba24c75 o 3:e1fa51c5 | ' +
    'b 0 -8,-8,-8,8,8,8 #1352 c 5408:d2dac8a5 k 1352:a28a6265 m 1352:a28a6265 v 4056:1c974705 n 4056:0a70fd45 | ' +
    's 354,356,356,0,0,356,708',
  'rotated box/grid/simplify 0.2':
    'p 816:8fa54769 n 816:7414c45d i 1620:d7610df6 vc 1088:ed3785ec o 3:e1fa51c5 | ' +
    'b 0 -8,-8,-8,8,8,8 #1352 c 5408:d2dac8a5 k 1352:a28a6265 m 1352:a28a6265 v 4056:1c974705 n 4056:0a70fd45 | ' +
    's 354,356,272,50,0,272,540',
  'rotated box/hermite':
    'p 1068:231db3de n 1068:441ac599 i 2124:a769b87a vc 1424:a25e3815 o 3:e1fa51c5 | ' +
    'b 0 -8,-8,-8,8,8,8 #1352 c 5408:d2dac8a5 k 1352:a28a6265 m 1352:a28a6265 v 4056:1c974705 n 4056:0a70fd45 | ' +
    's 354,356,356,0,0,356,708',
  'sphere/N 24/cut by the grid':
    'p 1215:b5a6926d n 1215:325a96d0 i 2223:735b1678 vc 1620:f93ba93d o 3:735ea55d | ' +
    'b 0 -3,-12,-12,13,4,4 #1206 c 4824:8ecf71ac k 1206:945a7d73 m 1206:7ad9755d v 3618:7f4ee379 n 3618:75136c70 | ' +
    's 523,484,406,62,0,405,741',
  'sphere/N 24/float64 values':
    'p 4662:8b96e3fc n 4662:fcb3a663 i 9312:42664c8d vc 6216:ef11c848 o 3:b6f4d07d | ' +
    'b 0 -12,-12,-12,12,12,12 #3176 c 12704:193b1f05 k 3176:364f64e5 m 3176:364f64e5 v 9528:32943405 n 9528:4048db45 | ' +
    's 1552,1554,1554,0,0,1554,3104',
  'sphere/N 24/grid/simplify 0.5/maxLeaf 4':
    'p 1026:27e4a0f8 n 1026:b4308b67 i 2040:d99243dd vc 1368:0c88de85 o 3:b6f4d07d | ' +
    'b 0 -12,-12,-12,12,12,12 #2636 c 10544:8839172a k 2636:cdb4ef5d m 2636:525227b5 v 7908:c4a7add1 n 7908:40ad54ed | ' +
    's 1552,1554,342,457,0,342,680',
  'sphere/N 24/grid/simplify 1e9':
    'p 60:57863596 n 60:77cbb0b2 i 108:f1c441f3 vc 80:dfb160b6 o 3:b6f4d07d | ' +
    'b 0 -12,-12,-12,12,12,12 #20 c 80:89107496 k 20:38f8ad6a m 20:b9fee455 v 60:e016ba2b n 60:45b083d6 | ' +
    's 1552,1554,20,539,0,20,36',
  'sphere/field':
    'p 2244:04a1a540 n 2244:b3b3b67e i 4476:2848d197 vc 2992:957a8303 o 3:e1fa51c5 | ' +
    'b 0 -8,-8,-8,8,8,8 #1352 c 5408:d2dac8a5 k 1352:a28a6265 m 1352:a28a6265 v 4056:1c974705 n 4056:0a70fd45 | ' +
    's 746,748,748,0,0,748,1492',
  'sphere/field/simplify 0.02':
    'p 2043:e2704bff n 2043:c202b9c7 i 4074:5a41f476 vc 2724:0b05c3c0 o 3:e1fa51c5 | ' +
    'b 3 -8,-8,-8,8,8,8 #1142 c 4568:ca9c832a k 1142:856377ec m 1142:c437505d v 3426:98ddcfd9 n 3426:e20a7f71 | ' +
    's 746,748,681,98,0,681,1358',
  'sphere/grid':
    'p 2244:361dc61e n 2244:e21b32d0 i 4476:0db96275 vc 2992:957a8303 o 3:e1fa51c5 | ' +
    'b 0 -8,-8,-8,8,8,8 #1352 c 5408:d2dac8a5 k 1352:a28a6265 m 1352:a28a6265 v 4056:1c974705 n 4056:0a70fd45 | ' +
    's 746,748,748,0,0,748,1492',
  'sphere/grid/simplify 0.2':
    'p 540:6b023043 n 540:b69e1c85 i 1068:3932a8bc vc 720:2eb24df2 o 3:e1fa51c5 | ' +
    'b 0 -8,-8,-8,8,8,8 #701 c 2804:c35f740e k 701:12b98222 m 701:f676462f v 2103:3d8dbc36 n 2103:4cd362ef | ' +
    's 746,748,180,222,0,180,356',
  'sphere/hermite':
    'p 2244:70f8679f n 2244:29bd5fbd i 4476:57d5b75c vc 2992:957a8303 o 3:e1fa51c5 | ' +
    'b 0 -8,-8,-8,8,8,8 #1352 c 5408:d2dac8a5 k 1352:a28a6265 m 1352:a28a6265 v 4056:1c974705 n 4056:0a70fd45 | ' +
    's 746,748,748,0,0,748,1492',
  'sphere/level 1/field/simplify 0.05':
    'p 1062:40828af6 n 1062:419097c1 i 2112:99fa01a1 vc 1416:8f930c90 o 3:b6f4d07d | ' +
    'b 9 -12,-12,-12,12,12,12 #416 c 1664:2ca98623 k 416:a2b83a33 m 416:4eefb245 v 1248:e98321f0 n 1248:337070bd | ' +
    's 398,400,354,58,0,354,704',
  'sphere/scaled cartesian/field/simplify 0.02':
    'p 2226:4ca780e1 n 2226:ac67ef71 i 4440:341008d2 vc 2968:b26f2758 o 3:67fcb721 | ' +
    'b 0 -8,-8,-8,8,8,8 #1211 c 4844:26893196 k 1211:e47f15dd m 1211:e0dc30d7 v 3633:a3dca5d4 n 3633:d4e10626 | ' +
    's 814,816,742,89,0,742,1480',
  'thin plate/field':
    'p 1212:778bb876 n 1212:5cdb374d i 2412:181d9de4 vc 1616:6ae96e55 o 3:e1fa51c5 | ' +
    'b 0 -8,-8,-8,8,8,8 #1352 c 5408:d2dac8a5 k 1352:a28a6265 m 1352:a28a6265 v 4056:1c974705 n 4056:0a70fd45 | ' +
    's 402,404,404,0,0,404,804',
  'thin plate/field/simplify 0.02':
    'p 264:03648380 n 264:6a8b636d i 516:43e27622 vc 352:ea0ea04f o 3:e1fa51c5 | ' +
    'b 3 -8,-8,-8,8,8,8 #998 c 3992:0f4abd3a k 998:52ec6e95 m 998:bc51051d v 2994:666baa84 n 2994:685e178d | ' +
    's 402,404,88,110,0,88,172',
  'thin plate/grid':
    'p 1212:43daf124 n 1212:3e59c6a1 i 2412:1e870ee5 vc 1616:0d0b5c15 o 3:e1fa51c5 | ' +
    'b 0 -8,-8,-8,8,8,8 #1352 c 5408:d2dac8a5 k 1352:a28a6265 m 1352:a28a6265 v 4056:1c974705 n 4056:0a70fd45 | ' +
    's 402,404,404,0,0,404,804',
  'thin plate/grid/simplify 0.2':
    'p 642:84ff5193 n 642:18687d89 i 1272:0607f68d vc 856:21cc8cfa o 3:e1fa51c5 | ' +
    'b 0 -8,-8,-8,8,8,8 #1214 c 4856:e8b71cb8 k 1214:d8fc0cc8 m 1214:c9d2a3fd v 3642:09a9f7f3 n 3642:42e4a989 | ' +
    's 402,404,214,68,0,214,424',
  'thin plate/hermite':
    'p 1212:2cc19b3d n 1212:1a7132b5 i 2412:d3256af1 vc 1616:6abe3ab5 o 3:e1fa51c5 | ' +
    'b 0 -8,-8,-8,8,8,8 #1352 c 5408:d2dac8a5 k 1352:a28a6265 m 1352:a28a6265 v 4056:1c974705 n 4056:0a70fd45 | ' +
    's 402,404,404,0,0,404,804',
  'torus/field':
    'p 1926:e8d59256 n 1926:ae9c9472 i 3852:b7bacc4b vc 2568:76f6c282 o 3:02670da1 | ' +
    'b 0 -10,-10,-10,10,10,10 #2168 c 8672:c366b825 k 2168:26c11825 m 2168:26c11825 v 6504:55ded585 n 6504:87200245 | ' +
    's 642,642,642,0,0,642,1284',
  'torus/field/simplify 0.02':
    'p 1881:bf4d563c n 1881:58d159aa i 3762:52ca3d5a vc 2508:37a7e21b o 3:02670da1 | ' +
    'b 3 -10,-10,-10,10,10,10 #2108 c 8432:be7a7d9d k 2108:d65d8fc4 m 2108:da2bb875 v 6324:2557896b n 6324:850668ae | ' +
    's 642,642,627,31,0,627,1254',
  'torus/grid':
    'p 1926:af520d22 n 1926:06d396c9 i 3852:dc94dcf0 vc 2568:76f6c282 o 3:02670da1 | ' +
    'b 0 -10,-10,-10,10,10,10 #2168 c 8672:c366b825 k 2168:26c11825 m 2168:26c11825 v 6504:55ded585 n 6504:87200245 | ' +
    's 642,642,642,0,0,642,1284',
  'torus/grid/simplify 0.2':
    'p 1656:c3959bfe n 1656:45a4a90a i 3312:62e60421 vc 2208:8d40b31d o 3:02670da1 | ' +
    'b 0 -10,-10,-10,10,10,10 #2078 c 8312:dcd45d7e k 2078:1e1da24b m 2078:1caae77d v 6234:cdf9a0ee n 6234:cbb59af3 | ' +
    's 642,642,552,65,0,552,1104',
  'torus/hermite':
    'p 1926:42a731ef n 1926:2af14790 i 3852:e1251867 vc 2568:76f6c282 o 3:02670da1 | ' +
    'b 0 -10,-10,-10,10,10,10 #2168 c 8672:c366b825 k 2168:26c11825 m 2168:26c11825 v 6504:55ded585 n 6504:87200245 | ' +
    's 642,642,642,0,0,642,1284',
};

const EXPECTED_SEAMS: Record<string, string> = {
  'asteroid 2^3 mixed seed 2':
    'p 981:6c86869f n 981:587618f3 i 1026:55ebaf4d vc 1308:0789085f o 3:b6f4d07d',
  'asteroid 2^3 mixed seed 2, owner boxes':
    'p 0:811c9dc5 n 0:811c9dc5 i 0:811c9dc5 vc 0:811c9dc5 o 3:b6f4d07d || ' +
    'p 90:6d4c977d n 90:2c5aa505 i 84:707e283b vc 120:1883b209 o 3:b6f4d07d || ' +
    'p 90:b9db7c56 n 90:9d2fff0c i 84:7e6ad406 vc 120:f9021439 o 3:b6f4d07d || ' +
    'p 183:4da6648d n 183:370d4f26 i 177:3a1b4834 vc 244:d161ddae o 3:b6f4d07d || ' +
    'p 114:3d6e10f8 n 114:e2b27973 i 108:20d60ce7 vc 152:0c083531 o 3:b6f4d07d || ' +
    'p 204:5de2ddf8 n 204:76da93c2 i 198:48f00c94 vc 272:43f85df3 o 3:b6f4d07d || ' +
    'p 150:2780b7e1 n 150:79545bb0 i 144:df9216a9 vc 200:eac96872 o 3:b6f4d07d || ' +
    'p 228:80226f31 n 228:67165c64 i 231:bd8512e4 vc 304:cb242726 o 3:b6f4d07d',
  'asteroid 2^3 mixed seed 3, no restriction (synthesized vertices)':
    'p 834:de3b53ce n 834:0f7fd49f i 888:b79f1680 vc 1112:5b4f790e o 3:b6f4d07d',
  'asteroid 2^3 mixed seed 4, no restriction, simplify 0.1':
    'p 912:426fa729 n 912:d5a94584 i 957:f47a5d3b vc 1216:83d69b9d o 3:b6f4d07d',
  'asteroid 2^3 mixed seed 5, frequency 0.15':
    'p 1092:a0e2bfa8 n 1092:108cb131 i 1128:e5125fe8 vc 1456:b0bec201 o 3:b6f4d07d',
  'asteroid 2^3 mixed seed 5, simplify 0.02':
    'p 1119:ea9d3d0a n 1119:5ba0379a i 1158:4924cfbf vc 1492:787b7aff o 3:b6f4d07d',
  'asteroid 3^3 mixed seed 7, supplied hermite':
    'p 1833:70443db4 n 1833:5e7a0489 i 1890:22d88e30 vc 2444:9d9d263f o 3:b6f4d07d',
  'cube-sphere face 0, two chunks':
    'p 93:36a61b2b n 93:5ac38faa i 84:ed12f6c5 vc 124:c39d7361 o 3:b6b88744 || ' +
    'p 93:36a61b2b n 93:5ac38faa i 84:ed12f6c5 vc 124:c39d7361 o 3:b6b88744',
  'sphere 2^3 equal level':
    'p 1245:d6c0e538 n 1245:17b9fbe6 i 1284:96478d2d vc 1660:497ee9b4 o 3:b6f4d07d',
  'sphere 2^3 equal level, owner boxes':
    'p 0:811c9dc5 n 0:811c9dc5 i 0:811c9dc5 vc 0:811c9dc5 o 3:b6f4d07d || ' +
    'p 114:764e67f0 n 114:8a4d4813 i 108:500d24f5 vc 152:2eb6b5d9 o 3:b6f4d07d || ' +
    'p 108:7ac74a30 n 108:811e6989 i 102:14e0fe80 vc 144:4b8173cd o 3:b6f4d07d || ' +
    'p 222:61e545bf n 222:cd5c0156 i 216:f8673f88 vc 296:e3c8b201 o 3:b6f4d07d || ' +
    'p 108:a6c1c4e2 n 108:e95241e4 i 102:3a13ab00 vc 144:af567acd o 3:b6f4d07d || ' +
    'p 228:6f5b0306 n 228:3313f8ca i 222:5318391a vc 304:c7cf3125 o 3:b6f4d07d || ' +
    'p 210:d834ff9d n 210:cf939f1a i 204:f1874a42 vc 280:2a23d7b9 o 3:b6f4d07d || ' +
    'p 330:59e0dfba n 330:99563de6 i 330:a35ac014 vc 440:bfa932e1 o 3:b6f4d07d',
  'sphere 2^3 equal level, simplify 0.05, origin':
    'p 672:8cc0854e n 672:0ab0e2e0 i 708:5e48555d vc 896:5f45e269 o 3:3d41ab30',
  'three-cell line (three of four quadrant chunks)':
    'p 153:ce86e3d4 n 153:3158c607 i 147:6a2c6a90 vc 204:4130ad26 o 3:e1fa51c5 || ' +
    'p 153:ce86e3d4 n 153:3158c607 i 144:552be6bd vc 204:4130ad26 o 3:e1fa51c5',
};

// ---- tests ---------------------------------------------------------------------------------------

const PRINT = !!process.env.MESHER_GOLDEN_PRINT;

describe('golden hashes: meshChunk and buildSeam output is bit-identical to the table', () => {
  it('fnv1a sees one flipped bit', () => {
    const a = new Float32Array([1, 2, 3, 4]);
    const h = fnv1a(a);
    expect(h).toBe(fnv1a(Float32Array.from(a)));
    new Uint8Array(a.buffer)[5] ^= 1;
    expect(fnv1a(a)).not.toBe(h);
    expect(fnv1a(new Uint8Array(0))).toBe('811c9dc5');
  });

  it('meshChunk on the zoo', () => {
    const got: Record<string, string> = {};
    for (const [name, make] of chunkCases()) {
      const input = make();
      got[name] = chunkHashes('mesh' in input ? input : meshChunk(input));
    }
    if (PRINT) console.log(`GOLDEN ${JSON.stringify(got)}`);
    expect(Object.keys(got).length).toBeGreaterThan(50);
    expect(got).toEqual(EXPECTED_CHUNKS);
  });

  it('meshChunk on the zoo in reverse order (no state carried between calls in the scratch buffers)', () => {
    const cases = chunkCases().reverse();
    for (const [name, make] of cases) {
      const input = make();
      expect(chunkHashes('mesh' in input ? input : meshChunk(input)), name).toBe(EXPECTED_CHUNKS[name]);
    }
  });

  it('buildSeam on equal, mixed, cube-sphere and three-cell-line layouts', () => {
    const got: Record<string, string> = {};
    for (const [name, make] of seamCases()) {
      const seams = make();
      expect(seams.some((m) => m.indices.length > 0), `${name}: seam has triangles`).toBe(true);
      got[name] = seams.map(meshHashes).join(' || ');
    }
    if (PRINT) console.log(`GOLDEN ${JSON.stringify(got)}`);
    expect(got).toEqual(EXPECTED_SEAMS);
  });
});
