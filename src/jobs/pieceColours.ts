/**
 * A planet piece's per-vertex ground colours, made in the body worker that meshed it (the ground's
 * value noise ran per vertex per frame in the shader before: src/field/groundColours.ts says why
 * not). Null where the planet was registered without a ground palette (a flat tone).
 */
import { groundVertexColours } from '../field/groundColours';
import type { MeshedPiece } from '../mesher/index';
import type { BodyRegistry } from './bodyRegistry';

/** The colours of `piece` of planet `body` (registered in `registry`), meshed with cells of `cellSizeM` (which bounds the noise octaves). */
export function pieceColours(registry: BodyRegistry, body: string, cellSizeM: number, piece: Pick<MeshedPiece, 'positions' | 'normals' | 'originM'>): Uint8Array | null {
  const ground = registry.planet(body).ground;
  return ground ? groundVertexColours(piece.positions, piece.normals, piece.originM, cellSizeM, ground) : null;
}
