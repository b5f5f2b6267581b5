/**
 * The planet gallery's job (src/app/planetThumbs.ts): a whole planet as one coarse mesh, for a
 * thumbnail seen from orbit. The six cube faces as root chunks of a cube-sphere space with no finer
 * level (`meshPlanet`, src/lod/planetMesh.ts: chunks and the seams between faces), sampled in JS
 * with the field band-limited to that lattice (what a planet's root level draws), welded, with the
 * ground's colours per vertex where the planet was registered with a palette (pieceColours.ts's
 * path). One job per planet, nothing kept between jobs: a gallery page interleaves planets, which
 * the chunk jobs' one-planet caches (planetChunkJob.ts) would thrash.
 *
 * The body is registered without a chunk space (so the GPU sampling worker compiles nothing for it).
 */
import { compileToJs } from '../field/index';
import { groundVertexColours } from '../field/groundColours';
import { CubeSphereSpace, FACE_COUNT, levelMinWavelengthM, meshPlanet, weldPlanet, type ChunkAddress } from '../lod/index';
import type { BodyRegistry } from './bodyRegistry';

export interface PlanetThumbParams {
  /** The planet's id, registered with its recipe (and ground palette) but no chunk space. */
  body: string;
  /** The radius the cube-sphere space is laid out for (the recipe's bounding radius), metres. */
  radiusM: number;
  /** Cells per face along each axis: a power of two (32: ~1 M samples per planet). */
  cells: number;
}

export interface PlanetThumbResult {
  /** Relative to `originM`, body-local metres. */
  positions: Float32Array;
  normals: Float32Array;
  indices: Uint32Array;
  /** RGBA bytes per vertex (groundColours.ts: sqrt albedo, roughness), or null without a palette. */
  colours: Uint8Array | null;
  originM: [number, number, number];
  ms: number;
}

/** The thumbnail mesh of planet `params.body`, registered in `registry`. */
export function meshPlanetThumb(registry: BodyRegistry, params: PlanetThumbParams): PlanetThumbResult {
  const t0 = performance.now();
  const body = registry.body(params.body);
  const space = new CubeSphereSpace({ radiusM: params.radiusM, chunkCells: params.cells, levels: 0 });
  const field = compileToJs(body.recipe, { minWavelengthM: levelMinWavelengthM(space, 0) });
  const roots: ChunkAddress[] = [];
  for (let face = 0; face < FACE_COUNT; face++) roots.push({ face, level: 0, ci: 0, cj: 0, ck: 0 });
  const mesh = weldPlanet(meshPlanet(body.recipe, space, roots, { field }).pieces);
  const originM: [number, number, number] = [mesh.originWorld[0], mesh.originWorld[1], mesh.originWorld[2]];
  const colours = body.ground ? groundVertexColours(mesh.positions, mesh.normals, originM, space.cellSizeM(0), body.ground) : null;
  return { positions: mesh.positions, normals: mesh.normals, indices: mesh.indices, colours, originM, ms: performance.now() - t0 };
}

/** The buffers to transfer with a result (the main thread owns them afterwards). */
export function planetThumbTransfer(r: PlanetThumbResult): Transferable[] {
  const t: Transferable[] = [r.positions.buffer as ArrayBuffer, r.normals.buffer as ArrayBuffer, r.indices.buffer as ArrayBuffer];
  if (r.colours) t.push(r.colours.buffer as ArrayBuffer);
  return t;
}
