/**
 * A planet chunk job's homogeneity proof (planetChunkJob.ts): a chunk found empty or full is
 * `proven` — no surface in it or in any chunk below it — when every band-limited sample is farther
 * from zero than the band's Lipschitz estimate × the lattice gap + what the band limit dropped.
 * Oracle: the FULL field (every octave, every shell) at the centres of the job's lattice cells,
 * over every proven chunk of a few columns through the surface band at coarse levels, must keep
 * the proven sign everywhere. And a planet whose band drops its arch shells (karst) proves nothing
 * there. The children a job proves from its own samples (culling.ts `childProofs`, issue 42) face
 * the same oracle over their half of the lattice, from JS samples (every other point) and from
 * simulated GPU samples (every point, each off by up to the tolerance the job is told). How many
 * jobs the rules save over a whole view: test/bench/planetSelection.bench.ts.
 */
import { describe, expect, it } from 'vitest';
import { bandLimitSummary, compileToJs, Prng, recipeBounds, type FieldRecipe } from '../../src/field/index';
import { CubeSphereSpace, levelMinWavelengthM, type ChunkAddress } from '../../src/lod/index';
import { planetRecipe } from '../../src/scene/index';
import { registerBody } from './oneWorker';
import { meshPlanetChunk } from './oneWorker';
import { simulatedEdgePass, simulatedGpuValues } from './simulatedGpu';

const spaceOptions = (recipe: FieldRecipe) => ({ radiusM: recipeBounds(recipe).sphereRadiusM, chunkCells: 32, finestCellM: 1 });

interface Tally { proven: number; checked: number; wrongSign: number; homogeneous: number; children: number }

/** Off by up to this much, the simulated GPU's samples (the job is told so), m. */
const GPU_ERROR_M = 0.05;

/**
 * Jobs over `columns` random columns at each of `levels`, every layer within `bandM` of the column's
 * surface; sampled in JS or (`gpu`) by the simulated GPU.
 */
function tally(id: string, recipe: FieldRecipe, levels: number[], columns: number, bandM: number, gpu = false): Tally {
  const options = spaceOptions(recipe);
  registerBody(id, { recipe, space: options });
  const space = new CubeSphereSpace(options);
  const bounds = recipeBounds(recipe);
  const full = compileToJs(recipe);
  const maxRadiusM = Math.hypot(...bounds.sphereCenter) + bounds.sphereRadiusM;
  const prng = new Prng(11);
  const out: Tally = { proven: 0, checked: 0, wrongSign: 0, homogeneous: 0, children: 0 };
  const w = new Float64Array(3);
  const N = space.chunkCells;
  // The oracle: the full field at the centres of a chunk's lattice cells in [lo, hi) of each axis
  // (the points farthest from its samples) never crosses zero.
  const check = (face: number, ci: number, cj: number, ck: number, U: number, lo: number[], hi: number[], inside: boolean): void => {
    const mapping = space.faceMapping(face);
    for (let k = lo[2]; k < hi[2]; k++) for (let j = lo[1]; j < hi[1]; j++) for (let i = lo[0]; i < hi[0]; i++) {
      mapping.toWorld(ci * U + ((i + 0.5) * U) / N, cj * U + ((j + 0.5) * U) / N, ck * U + ((k + 0.5) * U) / N, w);
      out.checked++;
      if ((full(w[0], w[1], w[2]) < 0) !== inside) out.wrongSign++;
    }
  };
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
        const a: ChunkAddress = { face, level, ci, cj, ck };
        let sampled = {};
        if (gpu) {
          const values = simulatedGpuValues(id, space, a, GPU_ERROR_M);
          sampled = { gpu: { values, hermite: simulatedEdgePass(id, space, a, values), toleranceM: GPU_ERROR_M } };
        }
        const r = meshPlanetChunk({ body: id, ...a, coarser: [], simplify: 0, ...sampled });
        // Each child proven from these samples: its half of the lattice, each way.
        r.childProofs?.forEach((p, c) => {
          if (p === 0) return;
          out.children++;
          const lo = [c & 1, (c >> 1) & 1, (c >> 2) & 1].map((b) => (b * N) / 2);
          check(face, ci, cj, ck, U, lo, lo.map((l) => l + N / 2), p === 2);
        });
        if (!r.homogeneous) continue;
        out.homogeneous++;
        if (!r.homogeneous.proven) continue;
        out.proven++;
        check(face, ci, cj, ck, U, [0, 0, 0], [N, N, N], r.homogeneous.state === 'full');
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
    console.log(`rough: ${t.homogeneous} homogeneous, ${t.proven} proven, ${t.children} children proven, ${t.checked} full-field samples, ${t.wrongSign} of the wrong sign`);
    expect(t.wrongSign).toBe(0);
    expect(t.homogeneous).toBeGreaterThan(t.proven);
  }, 300_000);

  it('planet 2 (ice, 2,181 km), levels 4–6, 600 m around the surface: every proven chunk keeps its sign under the full field', () => {
    const t = tally('test:proof-ice', planetRecipe(2), [4, 5, 6], 10, 600);
    console.log(`ice: ${t.homogeneous} homogeneous, ${t.proven} proven, ${t.children} children proven, ${t.checked} full-field samples, ${t.wrongSign} of the wrong sign`);
    expect(t.wrongSign).toBe(0);
    expect(t.proven, 'some chunks are proven (the oracle checks something)').toBeGreaterThan(0);
    expect(t.children, 'some children are proven by their parent').toBeGreaterThan(0);
  }, 300_000);

  it('planet 2 sampled by the (simulated) GPU, levels 4–5: every chunk and child proven keeps its sign under the full field', () => {
    const t = tally('test:proof-ice-gpu', planetRecipe(2), [4, 5], 6, 600, true);
    console.log(`ice, GPU samples: ${t.homogeneous} homogeneous, ${t.proven} proven, ${t.children} children proven, ${t.checked} full-field samples, ${t.wrongSign} of the wrong sign`);
    expect(t.wrongSign).toBe(0);
    expect(t.children, 'some children are proven by their parent').toBeGreaterThan(0);
  }, 300_000);

  it('planet 4 drawn as karst: no proof where the band drops its arch and cave shells; the rest holds', () => {
    const recipe = planetRecipe(4, 'karst');
    const t = tally('test:proof-karst', recipe, [5, 7], 2, 600);
    console.log(`karst: ${t.homogeneous} homogeneous, ${t.proven} proven, ${t.children} children proven, ${t.wrongSign} of the wrong sign`);
    expect(t.wrongSign).toBe(0);
    const options = spaceOptions(recipe);
    const space = new CubeSphereSpace(options);
    const dropped = [5, 7].every((l) => bandLimitSummary(recipe, levelMinWavelengthM(space, l), recipeBounds(recipe).lipschitz).shellsDropped);
    expect(dropped, 'karst drops its shells at levels 5 and 7').toBe(true);
    expect(t.proven).toBe(0);
    expect(t.children).toBe(0);
  }, 300_000);
});
