/**
 * A planet chunk job's homogeneity proof (planetChunkJob.ts): a chunk found empty or full is
 * `proven` — no surface in it or in any chunk below it — when every band-limited sample is farther
 * from zero than the band's Lipschitz estimate × the lattice gap + what the band limit dropped.
 * Oracle: the FULL field (every octave, every shell) at the centres of the job's lattice cells,
 * over every proven chunk of a few columns through the surface band at coarse levels, must keep
 * the proven sign everywhere. And a planet whose band drops its arch shells (karst) proves nothing
 * there. How many jobs the rule saves over a whole view: test/bench/planetSelection.bench.ts.
 */
import { describe, expect, it } from 'vitest';
import { bandLimitSummary, compileToJs, Prng, recipeBounds, type FieldRecipe } from '../../src/field/index';
import { CubeSphereSpace, levelMinWavelengthM } from '../../src/lod/index';
import { planetRecipe } from '../../src/scene/index';
import { registerBody } from './oneWorker';
import { meshPlanetChunk } from './oneWorker';

const spaceOptions = (recipe: FieldRecipe) => ({ radiusM: recipeBounds(recipe).sphereRadiusM, chunkCells: 32, finestCellM: 1 });

interface Tally { proven: number; checked: number; wrongSign: number; homogeneous: number }

/** Jobs over `columns` random columns at each of `levels`, every layer within `bandM` of the column's surface. */
function tally(id: string, recipe: FieldRecipe, levels: number[], columns: number, bandM: number): Tally {
  const options = spaceOptions(recipe);
  registerBody(id, { recipe, space: options });
  const space = new CubeSphereSpace(options);
  const bounds = recipeBounds(recipe);
  const full = compileToJs(recipe);
  const maxRadiusM = Math.hypot(...bounds.sphereCenter) + bounds.sphereRadiusM;
  const prng = new Prng(11);
  const out: Tally = { proven: 0, checked: 0, wrongSign: 0, homogeneous: 0 };
  const w = new Float64Array(3);
  for (const level of levels) {
    const U = space.chunkUnits(level);
    const n = space.faceUnits / U;
    for (let c = 0; c < columns; c++) {
      const face = prng.int(6), ci = prng.int(n), cj = prng.int(n);
      // The layers within `bandM` of the column's surface (where the proof's threshold matters).
      space.faceMapping(face).toWorld((ci + 0.5) * U, (cj + 0.5) * U, 0, w);
      const d = Math.hypot(w[0], w[1], w[2]);
      let rLo = 0, rHi = maxRadiusM;
      for (let i = 0; i < 50; i++) {
        const mid = (rLo + rHi) / 2;
        if (full((w[0] / d) * mid, (w[1] / d) * mid, (w[2] / d) * mid) < 0) rLo = mid;
        else rHi = mid;
      }
      const lo = Math.floor(space.gkAtRadius(rLo - bandM) / U);
      const hi = Math.floor(space.gkAtRadius(rLo + bandM) / U);
      for (let ck = Math.max(0, lo); ck <= hi; ck++) {
        const r = meshPlanetChunk({ body: id, face, level, ci, cj, ck, coarser: [], simplify: 0 });
        if (!r.homogeneous) continue;
        out.homogeneous++;
        if (!r.homogeneous.proven) continue;
        out.proven++;
        const mapping = space.faceMapping(face);
        const N = space.chunkCells;
        // The oracle: the full field at the centres of the job's lattice cells (the points farthest
        // from its samples) never crosses zero.
        const inside = r.homogeneous.state === 'full';
        for (let k = 0; k < N; k++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
          mapping.toWorld(ci * U + ((i + 0.5) * U) / N, cj * U + ((j + 0.5) * U) / N, ck * U + ((k + 0.5) * U) / N, w);
          const v = full(w[0], w[1], w[2]);
          out.checked++;
          if ((v < 0) !== inside) out.wrongSign++;
        }
      }
    }
  }
  return out;
}

/** A moon whose fine octaves are strong: where the band limit drops them, they reach through coarse chunks' samples. */
const ROUGH: FieldRecipe = {
  version: 1, name: 'rough moon', brushes: [],
  root: { type: 'sphere', radius: 60_000, noise: [{ kind: 'fbm', seed: 5, frequency: 1 / 3000, octaves: 9, lacunarity: 2, gain: 0.7, amplitude: 300 }] },
} as FieldRecipe;

describe('band-limited homogeneity proofs', () => {
  it('a moon with strong fine octaves, levels 3–5: every proven chunk keeps its sign under the full field', () => {
    const t = tally('test:proof-rough', ROUGH, [3, 4, 5], 12, 500);
    console.log(`rough: ${t.homogeneous} homogeneous, ${t.proven} proven, ${t.checked} full-field samples, ${t.wrongSign} of the wrong sign`);
    expect(t.wrongSign).toBe(0);
    expect(t.homogeneous).toBeGreaterThan(t.proven);
  }, 300_000);

  it('planet 2 (ice, 2,181 km), levels 4–6, 600 m around the surface: every proven chunk keeps its sign under the full field', () => {
    const t = tally('test:proof-ice', planetRecipe(2), [4, 5, 6], 10, 600);
    console.log(`ice: ${t.homogeneous} homogeneous, ${t.proven} proven, ${t.checked} full-field samples, ${t.wrongSign} of the wrong sign`);
    expect(t.wrongSign).toBe(0);
    expect(t.proven, 'some chunks are proven (the oracle checks something)').toBeGreaterThan(0);
  }, 300_000);

  it('planet 4 drawn as karst: no proof where the band drops its arch and cave shells; the rest holds', () => {
    const recipe = planetRecipe(4, 'karst');
    const t = tally('test:proof-karst', recipe, [5, 7], 2, 600);
    console.log(`karst: ${t.homogeneous} homogeneous, ${t.proven} proven, ${t.wrongSign} of the wrong sign`);
    expect(t.wrongSign).toBe(0);
    const options = spaceOptions(recipe);
    const space = new CubeSphereSpace(options);
    const dropped = [5, 7].every((l) => bandLimitSummary(recipe, levelMinWavelengthM(space, l), recipeBounds(recipe).lipschitz).shellsDropped);
    expect(dropped, 'karst drops its shells at levels 5 and 7').toBe(true);
    expect(t.proven).toBe(0);
  }, 300_000);
});
