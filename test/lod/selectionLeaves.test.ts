/**
 * How many chunks a 400 m view of a 2,000 km planet needs (issue 42; docs/lod.md "Where the chunks
 * go"): the production selector run to convergence over planet 2 (2,181 km) with simulated chunk
 * jobs (selectionSim.ts, the bench's simulation with more requests a round). The bounds are the
 * measurement's with a little room: 3,765 leaves of which 1,262 hold a surface, where proofs by
 * the full field's Lipschitz (the rule before band proofs) needed 4,191 leaves. And no drawn leaf
 * that holds a surface — in view, not known empty or full — has a screen-space error above the
 * split threshold, recomputed here from the leaf's bounding sphere.
 */
import { describe, expect, it } from 'vitest';
import { chunkBoundingSphere, parseChunkKey, sphereBelowHorizon, sphereOutsideFrustum } from '../../src/lod/index';
import { SIM_TAU_PX, simulateSelection } from './selectionSim';

const MAX_LEAVES = 3_900;
const MAX_SURFACE_LEAVES = 1_320;
/** The selector's default hysteresis: a leaf splits above τ(1 + h). */
const HYSTERESIS = 0.25;

describe('planet 2 (2,181 km), 400 m up: the selection', () => {
  it(`needs at most ${MAX_LEAVES} leaves, and none in view above the error threshold`, { timeout: 120_000 }, () => {
    const sim = simulateSelection({ useBand: true, children: true, lattice: 8, perRound: 200 });
    console.log(`planet 2, 400 m: ${sim.jobs} jobs, ${sim.leaves} leaves, ${sim.surface} with a surface (${sim.perLevel})`);
    expect(sim.leaves).toBeLessThanOrEqual(MAX_LEAVES);
    expect(sim.surface).toBeLessThanOrEqual(MAX_SURFACE_LEAVES);
    // Close to the ground the view needs the finest levels (the selection did converge, not stop early).
    expect(Math.min(...sim.drawn.map((k) => parseChunkKey(k).level))).toBeLessThanOrEqual(2);

    const { space, shell, view } = sim;
    const [camX, camY, camZ] = view.cameraM;
    const s = new Float64Array(4);
    const over: string[] = [];
    let checked = 0;
    for (const key of sim.drawn) {
      const a = parseChunkKey(key);
      if (a.level === 0) continue;
      chunkBoundingSphere(space, a, s);
      const [cx, cy, cz, r] = s;
      if (sphereOutsideFrustum(view.frustumPlanes!, cx, cy, cz, r) || sphereBelowHorizon(camX, camY, camZ, shell.innerM, cx, cy, cz, r)) continue;
      // Known empty or full: no surface in it to draw, so no geometric error to bound.
      if (sim.homogeneous(key)) continue;
      checked++;
      const distanceM = Math.max(Math.hypot(cx - camX, cy - camY, cz - camZ) - r, 1e-3);
      const sse = (sim.levelErrorM[a.level] * view.projectionFactor) / distanceM;
      if (sse > SIM_TAU_PX * (1 + HYSTERESIS)) over.push(`${key} ${sse.toFixed(1)} px`);
    }
    expect(checked, 'leaves in view that hold a surface').toBeGreaterThan(500);
    expect(over, 'leaves in view with an error above the threshold').toEqual([]);
  });
});
