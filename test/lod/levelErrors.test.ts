/**
 * Level errors (src/lod/levelErrors.ts): each level's geometric error from its band limit — half a
 * cell where it drops nothing, one cell where it drops anything; and the selection using them (fewer, coarser
 * chunks where the recipe is smooth, a whole cell where the user's brushes reach).
 */
import { describe, expect, it } from 'vitest';
import { bandLimitSummary, compileToJs, recipeBounds, type FieldRecipe } from '../../src/field/index';
import {
  CubeSphereSpace, levelErrorsM, levelMinWavelengthM, LEVEL_ERROR_FLOOR_CELLS, planetShell, selectChunks, type LodView,
} from '../../src/lod/index';
import { planetRecipe } from '../../src/scene/index';

const recipe = planetRecipe(4);
const bounds = recipeBounds(recipe);
const space = new CubeSphereSpace({ radiusM: bounds.sphereRadiusM, chunkCells: 32, finestCellM: 1 });

describe('levelErrorsM', () => {
  const errors = levelErrorsM(recipe, space, bounds.lipschitz);

  it('one per level, non-decreasing, between the floor and one cell', () => {
    expect(errors).toHaveLength(space.levels + 1);
    for (let l = 0; l <= space.levels; l++) {
      const cell = space.cellSizeM(l);
      expect(errors[l]).toBeGreaterThanOrEqual(LEVEL_ERROR_FLOOR_CELLS * cell - 1e-9);
      expect(errors[l]).toBeLessThanOrEqual(cell + 1e-9);
      if (l > 0) expect(errors[l]).toBeGreaterThanOrEqual(errors[l - 1]);
    }
  });

  it('half a cell where the band limit drops nothing, a whole cell from the first level that drops anything', () => {
    // Planet 4's finest features are a few metres long (its ladder's last band, issue 41): the finest
    // levels keep everything, every level from the first that drops an octave drops some.
    const firstDropping = [...Array(space.levels + 1).keys()].find((l) => bandLimitSummary(recipe, levelMinWavelengthM(space, l), bounds.lipschitz).changed)!;
    expect(firstDropping).toBeGreaterThanOrEqual(1);
    for (let l = 0; l <= space.levels; l++) {
      const full = !bandLimitSummary(recipe, levelMinWavelengthM(space, l), bounds.lipschitz).changed;
      expect(full).toBe(l < firstDropping);
      expect(errors[l]).toBeCloseTo((full ? LEVEL_ERROR_FLOOR_CELLS : 1) * space.cellSizeM(l), 9);
    }
  });

  it('a recipe with no noise: the floor at every level', () => {
    const sphere: FieldRecipe = { version: 1, root: { type: 'sphere', radius: 50_000 }, brushes: [] };
    const s = new CubeSphereSpace({ radiusM: 50_100, chunkCells: 32, finestCellM: 1 });
    const e = levelErrorsM(sphere, s, 1);
    e.forEach((v, l) => expect(v).toBeCloseTo(LEVEL_ERROR_FLOOR_CELLS * s.cellSizeM(l), 9));
  });
});

describe('selection with level errors', () => {
  const shell = planetShell(bounds);
  // 300 m over the ground (720 p, 45°), no frustum: a few thousand chunks.
  const field = compileToJs(recipe);
  const dir = [0.3, 0.55, 0.78].map((v, _, a) => v / Math.hypot(...a)) as [number, number, number];
  let r = space.radiusM;
  for (let i = 0; i < 12; i++) r -= field(dir[0] * r, dir[1] * r, dir[2] * r) - 300;
  const view: LodView = { cameraM: dir.map((v) => v * r) as [number, number, number], projectionFactor: 720 / (2 * Math.tan(Math.PI / 8)) };
  const leavesAt = (sel: ReturnType<typeof selectChunks>, level: number): number => sel.leaves.filter((a) => a.level === level).length;

  it('smooth levels split later: under a quarter of the level-0 leaves at 300 m, fewer leaves in all; brushes keep a whole cell', () => {
    const byCell = selectChunks(space, shell, view, { maxScreenErrorPx: 6 });
    const levelErrorM = levelErrorsM(recipe, space, bounds.lipschitz);
    const byLevel = selectChunks(space, shell, view, { maxScreenErrorPx: 6, levelErrorM });
    console.log(`level-0 leaves ${leavesAt(byCell, 0)} → ${leavesAt(byLevel, 0)}, all ${byCell.leaves.length} → ${byLevel.leaves.length}`);
    // Level 0 is left only for the chunks of the shell nearest the camera (no homogeneous record here).
    expect(leavesAt(byLevel, 0)).toBeLessThan(leavesAt(byCell, 0) / 4);
    expect(byLevel.leaves.length).toBeLessThan(byCell.leaves.length);
    // Where a brush reaches (here: everywhere), a whole cell again: the cell-size selection.
    const edited = selectChunks(space, shell, view, { maxScreenErrorPx: 6, levelErrorM, cellErrorAt: () => true });
    expect(edited.keys).toEqual(byCell.keys);
  });
});
