/**
 * Where a big planet's chunks go (issue 42): the production selector (`PlanetLodSelector`, τ 6 px,
 * 720 p, 45°, as PlanetView asks; test/lod/selectionSim.ts) run to convergence over a 400 m view of planet 2 (2,181 km),
 * each request (48 a round, in priority order) answered by a simulated chunk job: the level's
 * band-limited field on a 9³ lattice for the sign, and for the proof the production lattice's gap
 * (chunkSampleGapM) with the minimum over the coarser lattice standing in for the 33³ one.
 *
 * Rows: `planet/selection/400m/jobs` (the proofs of planetChunkJob.ts: band Lipschitz × gap +
 * dropped octaves, over the chunk and over each child's half of its lattice), `…/jobs-own-proofs-only`
 * (no child proven by its parent's samples), `…/jobs-full-lipschitz` (own proofs by the full field's
 * Lipschitz), same run; `…/select-ms` (each LOD answer's time in the first run); `…/leaves` and `…/surface-leaves` (leaves holding a surface: the picture,
 * the same under every rule). Notes: the leaves per level (leaves/visible/surface/empty/full). docs/lod.md
 * "Where the chunks go" has the table.
 */
import type { Benchmark, BenchRow } from './harness';
import { rowFrom } from './harness';
import { SIM_ALTITUDE_M as ALTITUDE_M, SIM_SEED as SEED, simulateSelection, type SimOutcome as Outcome } from '../lod/selectionSim';

const simulate = (useBand: boolean, children: boolean): Outcome => simulateSelection({ useBand, children });

let band: Outcome | null = null;
let own: Outcome | null = null;
let full: Outcome | null = null;

export const benchmarks: Benchmark[] = [{
  name: `planet/selection/${ALTITUDE_M}m/jobs`,
  unit: 'jobs',
  runs: 1,
  warmup: 0,
  run: () => {
    band = simulate(true, true);
    own = simulate(true, false);
    full = simulate(false, false);
  },
  toValue: () => band!.jobs,
  notes: () => `planet ${SEED} (2,181 km), ${ALTITUDE_M} m up, tau 6 px at 720p, 45 deg; simulated jobs (9^3 band-limited lattice, production gap, children proven from their parent's samples); drawn leaves per level (leaves/surface/empty/full): ${band!.perLevel}`,
  extraRows: (): BenchRow[] => [
    rowFrom(`planet/selection/${ALTITUDE_M}m/jobs-own-proofs-only`, 'jobs', [own!.jobs], `no child proven from its parent's samples (the rule before); ${(own!.jobs / band!.jobs).toFixed(2)}x the jobs`),
    rowFrom(`planet/selection/${ALTITUDE_M}m/jobs-full-lipschitz`, 'jobs', [full!.jobs], `own proofs with the full field's Lipschitz (the rule before that); ${(full!.jobs / band!.jobs).toFixed(2)}x the jobs`),
    rowFrom(`planet/selection/${ALTITUDE_M}m/select-ms`, 'ms', band!.selectMs, `one LOD answer (PlanetLodSelector.select: selection, requests, drawn set, balance, check, seam index), each round of the first run; ${band!.selectMs.length} rounds, ${band!.leaves} leaves at the end`),
    rowFrom(`planet/selection/${ALTITUDE_M}m/leaves`, 'leaves', [band!.leaves], `own proofs only: ${own!.leaves}; full-Lipschitz: ${full!.leaves}`),
    rowFrom(`planet/selection/${ALTITUDE_M}m/surface-leaves`, 'leaves', [band!.surface], `own proofs only: ${own!.surface}; full-Lipschitz: ${full!.surface} (the picture)`),
  ],
}];
