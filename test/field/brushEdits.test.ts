import { describe, expect, it } from 'vitest';
import {
  asteroidEdit,
  brushesHash,
  compileToJs,
  decodeEdits,
  EditHistory,
  editsFromRecipe,
  editTargetName,
  encodeEdits,
  makeBrush,
  PLANET_EDIT,
  recipeBounds,
  type BrushEdit,
  type EditTarget,
  type FieldRecipe,
} from '../../src/field/index';
import { validateMesh } from '../../src/mesher/index';
import { asteroidGrid, asteroidRecipe } from '../../src/scene/index';
import { meshBody } from '../jobs/oneWorker';
import { registerBody } from '../jobs/oneWorker';

const dig = (target: EditTarget, c: number[], r: number): BrushEdit => ({ target, brush: makeBrush('dig', c, r) });
const build = (target: EditTarget, c: number[], r: number): BrushEdit => ({ target, brush: makeBrush('build', c, r) });

describe('EditHistory', () => {
  it('undoes and redoes in order, per body lists keep their order, a new edit drops the redo list', () => {
    const h = new EditHistory();
    h.push(dig(asteroidEdit(3), [1, 2, 3], 4));
    h.push(build(PLANET_EDIT, [10, 0, 0], 5));
    h.push(dig(asteroidEdit(3), [4, 5, 6], 2));
    expect(h.brushesFor(asteroidEdit(3)).map((b) => b.center)).toEqual([[1, 2, 3], [4, 5, 6]]);
    expect(h.undo()?.brush.center).toEqual([4, 5, 6]);
    expect(h.undo()?.target).toEqual(PLANET_EDIT);
    expect(h.canRedo).toBe(true);
    expect(h.redo()?.target).toEqual(PLANET_EDIT);
    expect(h.edits.length).toBe(2);
    h.push(dig(asteroidEdit(0), [0, 0, 0], 1));
    expect(h.canRedo).toBe(false);
    expect(h.redo()).toBeNull();
    h.undo();
    h.undo();
    h.undo();
    expect(h.undo()).toBeNull();
    expect(h.edits).toEqual([]);
  });
});

describe('edits in the URL', () => {
  it('round-trips exactly: brushes are made on the 1 cm grid the text holds', () => {
    const edits = [dig(asteroidEdit(12), [10.256, -3.5, 7.001], 4.123), build(PLANET_EDIT, [6_000_123.456, -2_000_000.004, 5.5], 120)];
    const text = encodeEdits(edits);
    expect(text).toBe('a12d10.26,-3.5,7,4.12;pb6000123.46,-2000000,5.5,120');
    expect(decodeEdits(text)).toEqual(edits);
    expect(encodeEdits(decodeEdits(text))).toBe(text);
    expect(decodeEdits('')).toEqual([]);
  });

  it('decodeEdits (strict) names the first bad entry', () => {
    expect(() => decodeEdits('a1d1,2,3,4;x9')).toThrow(/edit 2 \("x9"\)/);
    expect(() => decodeEdits('a1d1,2,3')).toThrow(/edit 1/);
    expect(() => decodeEdits('a1d1,2,3,0.1')).toThrow(/radius 0.1 m is outside/);
    expect(() => decodeEdits('pb1e9,0,0,4')).toThrow(/edit 1/);
    expect(() => decodeEdits('pb200000000,0,0,4')).toThrow(/beyond/);
  });

  it('a brush list hashes by content: the same brushes give the same hash, any change another', () => {
    const a = [makeBrush('dig', [1, 2, 3], 4)];
    expect(brushesHash(a)).toBe(brushesHash([makeBrush('dig', [1, 2, 3], 4)]));
    expect(brushesHash(a)).not.toBe(brushesHash([makeBrush('build', [1, 2, 3], 4)]));
    expect(brushesHash(a)).not.toBe(brushesHash([makeBrush('dig', [1, 2, 3.01], 4)]));
    expect(brushesHash([])).not.toBe(brushesHash(a));
  });
});

describe('import of an exported recipe', () => {
  const bases: Record<string, FieldRecipe> = { 'asteroid:0': asteroidRecipe(5), 'asteroid:1': asteroidRecipe(6) };
  const targets = [asteroidEdit(0), asteroidEdit(1)];
  it('finds the body by its root and makes its brushes that body\'s edits, keeping the others\'', () => {
    const current = [dig(asteroidEdit(0), [1, 1, 1], 2), dig(asteroidEdit(1), [0, 0, 0], 3)];
    const exported: FieldRecipe = { ...bases['asteroid:1'], brushes: [makeBrush('build', [5, 5, 5], 6), makeBrush('dig', [7, 7, 7], 1)] };
    const next = editsFromRecipe(current, JSON.parse(JSON.stringify(exported)), (t) => bases[editTargetName(t)], targets);
    expect(next).toEqual([current[0], build(asteroidEdit(1), [5, 5, 5], 6), dig(asteroidEdit(1), [7, 7, 7], 1)]);
  });

  it('refuses a recipe of no body in the scene', () => {
    expect(() => editsFromRecipe([], asteroidRecipe(7), (t) => bases[editTargetName(t)], targets)).toThrow(/not one of this scene's bodies/);
  });
});

describe('a brush on an asteroid', () => {
  const seed = 6;
  const base = asteroidRecipe(seed);
  const grid = asteroidGrid({ recipe: base });
  const b = recipeBounds(base);
  // A point on the surface: from the bounding-sphere centre along +x until the field turns positive.
  const f0 = compileToJs(base);
  const c = b.sphereCenter;
  let x = c[0];
  while (f0(x, c[1], c[2]) < 0) x += 0.25;
  const surface = [x, c[1], c[2]];
  const radius = 0.08 * b.sphereRadiusM;

  it('becomes recipe data the JS field obeys: empty inside a dig, solid inside a build', () => {
    const dug = compileToJs({ ...base, brushes: [makeBrush('dig', surface, radius)] });
    const built = compileToJs({ ...base, brushes: [makeBrush('build', [x + radius * 0.5, c[1], c[2]], radius)] });
    // Just under the surface, inside the dig's sphere: rock before, empty after.
    expect(f0(x - 0.3 * radius, c[1], c[2])).toBeLessThan(0);
    expect(dug(x - 0.3 * radius, c[1], c[2])).toBeGreaterThan(0);
    // Just above it, inside the build's sphere: empty before, rock after.
    expect(f0(x + 0.6 * radius, c[1], c[2])).toBeGreaterThan(0);
    expect(built(x + 0.6 * radius, c[1], c[2])).toBeLessThan(0);
    // Far from both, the field is the generated one.
    const far: [number, number, number] = [c[0] - 0.9 * (x - c[0]), c[1], c[2]];
    expect(dug(...far)).toBe(f0(...far));
    expect(built(...far)).toBe(f0(...far));
  });

  it('a dug crater and a built mound are meshed closed; undoing both gives the original mesh back', () => {
    const mesh = (brushes: ReturnType<typeof makeBrush>[]): ReturnType<typeof meshBody> => {
      const id = `asteroid:${seed}/test${brushesHash(brushes)}`;
      registerBody(id, { recipe: { ...base, brushes } });
      return meshBody({ body: id, cells: 40, originM: grid.originM, stepM: grid.extentM / 40, simplify: 0.05 });
    };
    const original = mesh([]);
    const crater = makeBrush('dig', surface, radius);
    const mound = makeBrush('build', [surface[0], surface[1] + radius, surface[2]], radius * 0.7);
    const dug = mesh([crater]);
    const both = mesh([crater, mound]);
    for (const m of [original, dug, both]) {
      const r = validateMesh({ positions: m.positions, indices: m.indices });
      expect({ boundary: r.boundaryEdges, nonManifold: r.nonManifoldEdges, degenerate: r.degenerateTriangles }).toEqual({ boundary: 0, nonManifold: 0, degenerate: 0 });
    }
    expect(dug.hash).not.toBe(original.hash);
    expect(both.hash).not.toBe(dug.hash);
    // The dig removed rock: the enclosed volume shrank.
    const volume = (m: typeof original): number => validateMesh({ positions: m.positions, indices: m.indices }).volume;
    expect(volume(dug)).toBeLessThan(volume(original));
    expect(volume(both)).toBeGreaterThan(volume(dug));
    expect(mesh([crater]).hash).toBe(dug.hash);
    expect(mesh([]).hash).toBe(original.hash);
  });
});
