/**
 * Meshes a FieldRecipe with the JS back end and writes OBJ or GLB.
 *
 *   npm run mesh -- --recipe assets/recipes/potato.json --resolution 64 --out potato.glb
 *     [--bounds x0,y0,z0,x1,y1,z1] [--simplify <error>] [--chunks <k>] [--mixed-levels <seed>]
 *
 *   npm run mesh -- --planet assets/recipes/tiny-planet.json --lod-config random --seed 7 --out planet.obj
 *   npm run mesh -- --planet <recipe.json> --lod-config camera --camera x,y,z --out planet.glb
 *     [--chunk-cells 8] [--levels 3] [--max-error-px 200] [--simplify <error>]
 *
 * --planet meshes the recipe as a cube-sphere planet: every chunk of one LOD configuration (a seeded
 * random one, or what selectChunks picks for a camera at body-local x,y,z metres) and every seam,
 * written as one welded mesh (src/lod/planetMesh.ts, docs/lod.md "Seams").
 *
 * With --chunks k the grid is split into k^3 chunks joined by seams; --mixed-levels <seed> makes a
 * seeded random half of them one level coarser. Prints counts and the validation report.
 * Bad arguments (and work it could not finish in reason: see the limits below): one line and the
 * usage, exit code 2, before any meshing. A mesh that fails validation (open where the grid holds
 * the whole body, non-manifold, misoriented, degenerate triangles) is still written, and the
 * command exits 1. `--help` prints the usage on stdout and exits 0.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileToJs, createRandom, parseRecipe, recipeBounds } from '../src/field/index.ts';
import {
  buildSeam, cartesianMapping, meshChunk, meshProblems, MesherInputError, sampleChunk, validateMesh, weldMeshes,
} from '../src/mesher/index.ts';
import type { BoundaryLeaves, ChunkMesh, CoarserNeighbour } from '../src/mesher/index.ts';
import {
  cameraLodConfiguration, checkLodConfiguration, CubeSphereSpace, levelHistogram, meshPlanet, planetMeshReport, planetShell,
  randomLodConfiguration, weldPlanet,
} from '../src/lod/index.ts';
import type { FieldRecipe } from '../src/field/index.ts';

const USAGE = `usage: npm run mesh -- --recipe <file.json> --resolution <N> --out <file.obj|file.glb>
       [--bounds x0,y0,z0,x1,y1,z1] [--simplify <error>] [--chunks <k>] [--mixed-levels <seed>]
   or: npm run mesh -- --planet <file.json> --lod-config random --seed <n> --out <file.obj|file.glb>
   or: npm run mesh -- --planet <file.json> --lod-config camera --camera x,y,z --out <file.obj|file.glb>
       [--chunk-cells <N, power of two, default 8>] [--levels <L, default 3>] [--max-error-px <px, default 200>]
       [--simplify <error>]`;

export class UsageError extends Error {}

/** Cells per chunk below this are refused: a 1-cell chunk is all seam, and k^3 of them take minutes. */
export const MIN_CHUNK_CELLS = 4;
/** Coordinates of --bounds beyond this (metres) are refused: past it the field's float math overflows. */
export const MAX_BOUNDS_M = 1e9;

/** Refuses an --out whose folder does not exist (found before the meshing, not after). */
function checkOutFolder(out: string): void {
  const dir = dirname(resolve(out));
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--out '${out}': folder '${dir}' does not exist`);
}

export interface Args {
  recipe: string; resolution: number; out: string;
  bounds?: number[]; simplify: number; chunks: number; mixedSeed?: number;
}

export interface PlanetArgs {
  planet: string; out: string; config: 'random' | 'camera'; seed: number; camera?: [number, number, number];
  chunkCells: number; levels: number; maxErrorPx: number; simplify: number;
}

const MESH_OPTIONS = ['recipe', 'resolution', 'out', 'bounds', 'simplify', 'chunks', 'mixed-levels'];

/** `--flag value` pairs, each flag one of `allowed`; `need(k)` fetches a required one. */
function readFlags(argv: string[], allowed: readonly string[], context: string): { map: Map<string, string>; need: (k: string) => string } {
  const map = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new UsageError(`unexpected argument '${a}'`);
    const key = a.slice(2);
    if (!allowed.includes(key)) throw new UsageError(`unknown option --${key}${context} (allowed: ${allowed.map((o) => `--${o}`).join(' ')})`);
    const v = argv[++i];
    if (v === undefined || v.startsWith('--')) throw new UsageError(`--${key} needs a value`);
    map.set(key, v);
  }
  const need = (k: string): string => {
    const v = map.get(k);
    if (v === undefined) throw new UsageError(`--${k} is required`);
    return v;
  };
  return { map, need };
}

const PLANET_OPTIONS = ['planet', 'lod-config', 'seed', 'camera', 'out', 'chunk-cells', 'levels', 'max-error-px', 'simplify'];

export function parsePlanetArgs(argv: string[]): PlanetArgs {
  const { map, need } = readFlags(argv, PLANET_OPTIONS, ' with --planet');
  const int = (k: string, v: string, min: number, max: number): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${k} must be an integer in [${min}, ${max}], got '${v}'`);
    return n;
  };
  const out = need('out');
  if (!/\.(obj|glb)$/i.test(out)) throw new UsageError(`--out must end in .obj or .glb, got '${out}'`);
  checkOutFolder(out);
  const config = need('lod-config');
  if (config !== 'random' && config !== 'camera') throw new UsageError(`--lod-config must be 'random' or 'camera', got '${config}'`);
  const chunkCells = int('chunk-cells', map.get('chunk-cells') ?? '8', 2, 64);
  if ((chunkCells & (chunkCells - 1)) !== 0) throw new UsageError(`--chunk-cells must be a power of two, got ${chunkCells}`);
  const args: PlanetArgs = {
    planet: need('planet'), out, config, seed: 0, chunkCells,
    levels: int('levels', map.get('levels') ?? '3', 0, 8), maxErrorPx: 200, simplify: 0,
  };
  if (config === 'random') {
    args.seed = int('seed', need('seed'), 0, 0xffffffff);
    if (map.has('camera')) throw new UsageError('--camera is only used with --lod-config camera');
  } else {
    const c = need('camera').split(',').map(Number);
    if (c.length !== 3 || c.some((x) => !Number.isFinite(x))) throw new UsageError(`--camera must be x,y,z in metres (body-local), got '${map.get('camera')}'`);
    args.camera = [c[0], c[1], c[2]];
    if (map.has('seed')) throw new UsageError('--seed is only used with --lod-config random');
  }
  if (map.has('max-error-px')) {
    const px = Number(map.get('max-error-px'));
    if (!(px > 0) || !Number.isFinite(px)) throw new UsageError(`--max-error-px must be a number > 0, got '${map.get('max-error-px')}'`);
    args.maxErrorPx = px;
  }
  if (map.has('simplify')) {
    const s = Number(map.get('simplify'));
    if (!Number.isFinite(s) || s < 0) throw new UsageError(`--simplify must be a number >= 0, got '${map.get('simplify')}'`);
    args.simplify = s;
  }
  return args;
}

export function parseArgs(argv: string[]): Args {
  const { map, need } = readFlags(argv, MESH_OPTIONS, '');
  const int = (k: string, v: string, min: number): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new UsageError(`--${k} must be an integer >= ${min}, got '${v}'`);
    return n;
  };
  const out = need('out');
  if (!/\.(obj|glb)$/i.test(out)) throw new UsageError(`--out must end in .obj or .glb, got '${out}'`);
  // The grid keeps one cell of margin on each side of the bounds: 4 cells leaves 2 across them.
  const args: Args = {
    recipe: need('recipe'), resolution: int('resolution', need('resolution'), 4), out,
    simplify: 0, chunks: int('chunks', map.get('chunks') ?? '1', 1),
  };
  if (args.resolution > 512) throw new UsageError(`--resolution ${args.resolution} is too large (max 512)`);
  if (map.has('simplify')) {
    const s = Number(map.get('simplify'));
    if (!Number.isFinite(s) || s < 0) throw new UsageError(`--simplify must be a number >= 0, got '${map.get('simplify')}'`);
    args.simplify = s;
  }
  if (map.has('bounds')) {
    const b = map.get('bounds')!.split(',').map(Number);
    if (b.length !== 6 || b.some((x) => !Number.isFinite(x)) || b[3] <= b[0] || b[4] <= b[1] || b[5] <= b[2]) {
      throw new UsageError(`--bounds must be x0,y0,z0,x1,y1,z1 with x1>x0, y1>y0, z1>z0, got '${map.get('bounds')}'`);
    }
    if (b.some((x) => Math.abs(x) > MAX_BOUNDS_M)) {
      throw new UsageError(`--bounds coordinates must be within ±${MAX_BOUNDS_M} m, got '${map.get('bounds')}'`);
    }
    args.bounds = b;
  }
  if (map.has('mixed-levels')) args.mixedSeed = int('mixed-levels', map.get('mixed-levels')!, 0);
  if (args.resolution % args.chunks !== 0) throw new UsageError(`--resolution ${args.resolution} must be divisible by --chunks ${args.chunks}`);
  if (args.chunks > 1 && args.resolution / args.chunks < MIN_CHUNK_CELLS) {
    throw new UsageError(`--chunks ${args.chunks} leaves ${args.resolution / args.chunks} cells per chunk at --resolution ${args.resolution}; use at least ${MIN_CHUNK_CELLS} (--chunks <= ${Math.floor(args.resolution / MIN_CHUNK_CELLS)})`);
  }
  checkOutFolder(out);
  if (args.mixedSeed !== undefined && (args.resolution / args.chunks) % 2 !== 0) {
    throw new UsageError('--mixed-levels needs an even number of cells per chunk (resolution / chunks)');
  }
  return args;
}


function writeObj(path: string, m: ChunkMesh): void {
  const lines: string[] = ['# space-renderer Dual Contouring mesh'];
  const V = m.positions.length / 3;
  for (let i = 0; i < V; i++) {
    lines.push(`v ${m.originWorld[0] + m.positions[3 * i]} ${m.originWorld[1] + m.positions[3 * i + 1]} ${m.originWorld[2] + m.positions[3 * i + 2]}`);
  }
  for (let i = 0; i < V; i++) lines.push(`vn ${m.normals[3 * i]} ${m.normals[3 * i + 1]} ${m.normals[3 * i + 2]}`);
  for (let t = 0; t < m.indices.length; t += 3) {
    const a = m.indices[t] + 1, b = m.indices[t + 1] + 1, c = m.indices[t + 2] + 1;
    lines.push(`f ${a}//${a} ${b}//${b} ${c}//${c}`);
  }
  writeFileSync(path, lines.join('\n') + '\n');
}

/** Minimal binary glTF 2.0: one mesh, POSITION + NORMAL + UNSIGNED_INT indices. */
function writeGlb(path: string, m: ChunkMesh): void {
  const V = m.positions.length / 3;
  const pos = new Float32Array(V * 3);
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < V * 3; i++) {
    pos[i] = m.originWorld[i % 3] + m.positions[i];
    min[i % 3] = Math.min(min[i % 3], pos[i]); max[i % 3] = Math.max(max[i % 3], pos[i]);
  }
  const posBytes = pos.byteLength, nrmBytes = m.normals.byteLength, idxBytes = m.indices.byteLength;
  const binLength = posBytes + nrmBytes + idxBytes; // all multiples of 4
  const json = {
    asset: { version: '2.0', generator: 'space-renderer scripts/mesh.ts' },
    scene: 0, scenes: [{ nodes: [0] }], nodes: [{ mesh: 0 }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0, NORMAL: 1 }, indices: 2, mode: 4 }] }],
    buffers: [{ byteLength: binLength }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: posBytes, target: 34962 },
      { buffer: 0, byteOffset: posBytes, byteLength: nrmBytes, target: 34962 },
      { buffer: 0, byteOffset: posBytes + nrmBytes, byteLength: idxBytes, target: 34963 },
    ],
    accessors: [
      { bufferView: 0, componentType: 5126, count: V, type: 'VEC3', min: V ? min : [0, 0, 0], max: V ? max : [0, 0, 0] },
      { bufferView: 1, componentType: 5126, count: V, type: 'VEC3' },
      { bufferView: 2, componentType: 5125, count: m.indices.length, type: 'SCALAR' },
    ],
  };
  let jsonBytes = Buffer.from(JSON.stringify(json), 'utf8');
  const pad = (4 - (jsonBytes.length % 4)) % 4;
  jsonBytes = Buffer.concat([jsonBytes, Buffer.alloc(pad, 0x20)]);
  const total = 12 + 8 + jsonBytes.length + 8 + binLength;
  const out = Buffer.alloc(total);
  out.writeUInt32LE(0x46546c67, 0); out.writeUInt32LE(2, 4); out.writeUInt32LE(total, 8);
  out.writeUInt32LE(jsonBytes.length, 12); out.writeUInt32LE(0x4e4f534a, 16);
  jsonBytes.copy(out, 20);
  let o = 20 + jsonBytes.length;
  out.writeUInt32LE(binLength, o); out.writeUInt32LE(0x004e4942, o + 4);
  o += 8;
  Buffer.from(pos.buffer, pos.byteOffset, posBytes).copy(out, o); o += posBytes;
  Buffer.from(m.normals.buffer, m.normals.byteOffset, nrmBytes).copy(out, o); o += nrmBytes;
  Buffer.from(m.indices.buffer, m.indices.byteOffset, idxBytes).copy(out, o);
  writeFileSync(path, out);
}

function usageExit(err: unknown): never {
  if (err instanceof UsageError) {
    console.error(`mesh: ${err.message}\n${USAGE}`);
    process.exit(2);
  }
  throw err;
}

/** --planet: one LOD configuration of a cube-sphere planet, all chunks and seams, one mesh file. */
function mainPlanet(argv: string[]): void {
  let args: PlanetArgs;
  try {
    args = parsePlanetArgs(argv);
  } catch (err) {
    usageExit(err);
  }
  let recipe: FieldRecipe;
  try {
    recipe = parseRecipe(JSON.parse(readFileSync(args.planet, 'utf8')));
  } catch (err) {
    console.error(`mesh: cannot read planet recipe '${args.planet}': ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  }
  const bounds = recipeBounds(recipe);
  if (!Number.isFinite(bounds.sphereRadiusM) || bounds.sphereCenter.some((c) => c !== 0)) {
    console.error(`mesh: '${args.planet}' is not a planet: it must be bounded and centered at the origin`);
    process.exit(2);
  }
  const shell = planetShell(bounds);
  const space = new CubeSphereSpace({ radiusM: bounds.sphereRadiusM - bounds.elevationM, chunkCells: args.chunkCells, levels: args.levels });
  const t0 = performance.now();
  const leaves = args.config === 'random'
    ? randomLodConfiguration(space, shell, args.seed)
    : cameraLodConfiguration(space, shell, args.camera!, { maxScreenErrorPx: args.maxErrorPx, horizonCulling: false });
  const problems = checkLodConfiguration(space, shell, leaves);
  if (problems.length > 0) throw new Error(`invalid LOD configuration: ${problems.slice(0, 5).join('; ')}`);
  const result = meshPlanet(recipe, space, leaves, { field: compileToJs(recipe), simplify: args.simplify });
  const mesh = weldPlanet(result.pieces);
  const ms = performance.now() - t0;
  if (/\.glb$/i.test(args.out)) writeGlb(args.out, mesh); else writeObj(args.out, mesh);
  const rep = planetMeshReport(result.pieces);
  const st = result.stats;
  const levels = Object.entries(levelHistogram(leaves)).map(([l, n]) => `L${l}:${n}`).join(' ');
  const source = args.config === 'random' ? `random LOD seed ${args.seed}` : `camera ${args.camera!.join(',')} (max error ${args.maxErrorPx} px)`;
  console.log(`mesh: planet ${args.planet}, radius ${(space.radiusM / 1e3).toFixed(2)} km, N ${space.chunkCells}, ${space.levels + 1} levels (level-0 cell ${space.cellSizeM(0).toFixed(1)} m), ${source}`);
  console.log(`  chunks ${st.chunks} (${levels}; ${st.emptyChunks} without surface), seams ${st.seams} (${result.pieces.filter((p) => p.kind === 'seam' && p.mesh.indices.length > 0).length} non-empty)`);
  console.log(`  triangles ${rep.triangles} (chunks ${st.chunkTriangles}, seams ${st.seamTriangles}), vertices ${rep.usedVertices}; mesh ${st.meshMs.toFixed(0)} ms, seams ${st.seamMs.toFixed(0)} ms, total ${ms.toFixed(0)} ms`);
  console.log(`  closed ${rep.closed} (boundary edges ${rep.boundaryEdges}), manifold ${rep.manifold} (non-manifold edges ${rep.nonManifoldEdges}), oriented ${rep.oriented}, duplicate triangles ${rep.duplicateTriangles}, degenerate ${rep.degenerateTriangles}`);
  console.log(`  components ${rep.components}, Euler ${rep.euler}, genus ${rep.genus}, volume ${rep.volume.toPrecision(6)} m³`);
  console.log(`  wrote ${args.out}`);
  const invalid = meshProblems(rep);
  if (rep.duplicateTriangles > 0) invalid.push(`${rep.duplicateTriangles} duplicate triangles`);
  verdict(invalid);
}

/** Ends the command with a one-line message (exit 2) for input the mesher refuses mid-way. */
function inputExit(err: unknown): never {
  if (err instanceof MesherInputError) {
    console.error(`mesh: ${err.message}`);
    process.exit(2);
  }
  throw err;
}

/** Prints the verdict of {@link meshProblems}; exits 1 when the written mesh is invalid. */
function verdict(problems: string[]): void {
  if (problems.length === 0) {
    console.log('  valid: closed 2-manifold, consistently wound, no degenerate triangles');
    return;
  }
  console.error(`mesh: invalid mesh: ${problems.join(', ')}`);
  process.exitCode = 1;
}

function main(): void {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  if (argv.includes('--planet')) {
    try {
      mainPlanet(argv);
    } catch (err) {
      inputExit(err);
    }
    return;
  }
  let args: Args;
  try {
    args = parseArgs(argv);
  } catch (err) {
    usageExit(err);
  }
  let recipeJson: unknown;
  try {
    recipeJson = JSON.parse(readFileSync(args.recipe, 'utf8'));
  } catch (err) {
    console.error(`mesh: cannot read recipe '${args.recipe}': ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  }
  let field: (x: number, y: number, z: number) => number;
  let bounds = args.bounds;
  try {
    const recipe = parseRecipe(recipeJson);
    field = compileToJs(recipe);
    if (!bounds) {
      const b = recipeBounds(recipe);
      if (![...b.boxMin, ...b.boxMax].every(Number.isFinite)) throw new Error('the recipe is unbounded; pass --bounds');
      bounds = [...b.boxMin, ...b.boxMax];
    }
  } catch (err) {
    console.error(`mesh: bad recipe '${args.recipe}': ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  }
  // A cube grid around the bounds with one cell of margin on each side, so a bounded body is closed.
  const N = args.resolution;
  const ext = Math.max(bounds[3] - bounds[0], bounds[4] - bounds[1], bounds[5] - bounds[2]);
  const unit = ext / (N - 2);
  const center = [0, 1, 2].map((i) => 0.5 * (bounds![i] + bounds![i + 3]));
  const originWorld = center.map((c) => c - (N / 2) * unit) as [number, number, number];
  const mapping = cartesianMapping(unit, originWorld);
  const k = args.chunks;
  const S = N / k;
  const rnd = createRandom(args.mixedSeed ?? 0);
  const t0 = performance.now();
  const meshes: ChunkMesh[] = [];
  const boundaries: BoundaryLeaves[] = [];
  let coarse = 0;
  const levels: number[] = [];
  for (let c = 0; c < k ** 3; c++) levels.push(args.mixedSeed !== undefined && rnd() < 0.5 ? 1 : 0);
  for (let z = 0; z < k; z++) for (let y = 0; y < k; y++) for (let x = 0; x < k; x++) {
    const level = levels[x + k * (y + k * z)];
    coarse += level;
    const spec = { originGrid: [x * S, y * S, z * S] as [number, number, number], level, cells: S >> level };
    // Seam contract for mixed levels: every coarser chunk touching this one (face, edge or corner).
    const coarserNeighbours: CoarserNeighbour[] = [];
    for (let dz = -1; dz <= 1; dz++) for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      const nx = x + dx, ny = y + dy, nz = z + dz;
      if (nx < 0 || ny < 0 || nz < 0 || nx >= k || ny >= k || nz >= k || levels[nx + k * (ny + k * nz)] !== level + 1) continue;
      coarserNeighbours.push({ boxGrid: [nx * S, ny * S, nz * S, (nx + 1) * S, (ny + 1) * S, (nz + 1) * S], level: level + 1 });
    }
    const values = sampleChunk(spec, field!, mapping);
    let r;
    try {
      r = meshChunk({ ...spec, values, mapping, field: field!, simplify: args.simplify, chunkId: meshes.length, coarserNeighbours });
    } catch (err) {
      inputExit(err);
    }
    meshes.push(r.mesh);
    boundaries.push(r.boundary);
  }
  const parts = k > 1 ? [...meshes, buildSeam(boundaries, { mapping, originGrid: [0, 0, 0] })] : meshes;
  const mesh = k > 1 ? weldMeshes(parts) : meshes[0];
  const ms = performance.now() - t0;
  if (/\.glb$/i.test(args.out)) writeGlb(args.out, mesh); else writeObj(args.out, mesh);
  const rep = validateMesh(mesh);
  console.log(`mesh: ${args.recipe} at ${N}^3 (${k}^3 chunks${args.mixedSeed !== undefined ? `, ${coarse} one level coarser` : ''}), simplify ${args.simplify}, ${ms.toFixed(0)} ms`);
  console.log(`  vertices ${rep.usedVertices}, triangles ${rep.triangles}, components ${rep.components}, Euler ${rep.euler}, genus ${rep.genus}`);
  console.log(`  closed ${rep.closed} (boundary edges ${rep.boundaryEdges}), manifold ${rep.manifold} (non-manifold edges ${rep.nonManifoldEdges}), oriented ${rep.oriented}, degenerate ${rep.degenerateTriangles}, volume ${rep.volume.toPrecision(6)}`);
  console.log(`  wrote ${args.out}`);
  // Bounds from the recipe hold the whole body with a cell of margin, so the mesh must be closed;
  // bounds given by hand may cut it open.
  verdict(meshProblems(rep, args.bounds ? { open: 'allowed' } : {}));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
