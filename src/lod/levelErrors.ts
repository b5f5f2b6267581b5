/**
 * The geometric error of each level of a planet's chunk tree, metres: what the selection's
 * screen-space error measures (selection.ts `levelErrorM`) instead of one cell size everywhere.
 *
 * Each level's field is band-limited (src/field/bandLimit.ts: noise octaves, warp octaves and
 * shells under two cells are dropped). Where a level drops nothing, its field is the full field and
 * its mesh differs from the finest only by how coarsely Dual Contouring samples features at least
 * two cells long: half a cell is taken for that. Where it drops anything, one cell, as before — a
 * dropped octave's amplitude bound is no measure of what it does: planet 4's 7 m cave shell losing
 * its 7.5 m noise octave (1.8 m) broke through the dunes as black pits from a few hundred metres.
 * So smooth ground (planet 4: nothing shorter than 7.5 m) is drawn with a few cells where every near
 * chunk was the finest, and every level that changes the field keeps today's distances.
 */
import { bandLimitSummary, type FieldRecipe } from '../field/index';
import type { CubeSphereSpace } from './cubeSphere.ts';

/** Dual Contouring's own error where a level's field is the full field, in cells (docs/lod.md "Level errors"). */
export const LEVEL_ERROR_FLOOR_CELLS = 0.5;

/**
 * A level's band limit: features under two cells are left out of its field (noise octaves, warp
 * octaves, shells thinner than a cell; src/field/bandLimit.ts). Sampled anyway they alias — the
 * planet's 7 m cave shell sampled every 30 m left pockets under the surface, black specks from
 * orbit and black splotches from a few km.
 */
export function levelMinWavelengthM(space: CubeSphereSpace, level: number): number {
  return 2 * space.cellSizeM(level);
}

/**
 * Per level 0 … space.levels: floor × cell where the level's field is the full field, else one cell;
 * non-decreasing with the level (the top-down split relies on a coarser level never being nearer
 * the surface than a finer one).
 */
export function levelErrorsM(recipe: FieldRecipe, space: CubeSphereSpace, lipschitz: number, floorCells = LEVEL_ERROR_FLOOR_CELLS): number[] {
  const out: number[] = [];
  for (let l = 0; l <= space.levels; l++) {
    const cell = space.cellSizeM(l);
    const full = !bandLimitSummary(recipe, levelMinWavelengthM(space, l), lipschitz).changed;
    out.push(Math.max(full ? floorCells * cell : cell, l > 0 ? out[l - 1] : 0));
  }
  return out;
}
