/**
 * A planet piece's per-vertex ground colours, made in the body worker that meshed it (the ground's
 * value noise ran per vertex per frame in the shader before: src/field/groundColours.ts says why
 * not). Null where the planet was registered without a ground palette (a flat tone).
 */
import { CubeSphereSpace } from '../lod/index';
import { groundVertexColours } from '../field/groundColours';
import type { MeshedPiece } from '../mesher/index';
import { derived, registeredPlanet } from './bodyRegistry';

/** The colours of `piece`, meshed at `level` (its cell size bounds the noise octaves) for planet `body`. */
export function pieceColours(body: string, level: number, piece: Pick<MeshedPiece, 'positions' | 'normals' | 'originM'>): Uint8Array | null {
  const planet = registeredPlanet(body);
  if (!planet.ground) return null;
  const space = derived(planet, 'pieceColours.space', () => new CubeSphereSpace(planet.space));
  return groundVertexColours(piece.positions, piece.normals, piece.originM, space.cellSizeM(level), planet.ground);
}
