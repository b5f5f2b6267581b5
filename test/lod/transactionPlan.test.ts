/**
 * Planning a transaction in slices (transactionPlan.ts, frameSlices.ts): the plan one slice at a time is
 * the plan in one go, on mixed-level configurations of a real planet, from nothing and from a
 * configuration drawn before.
 */
import { describe, expect, it } from 'vitest';
import { recipeBounds } from '../../src/field/index';
import {
  CubeSphereSpace, finishSteps, planetLod, planetShell, planTransaction, randomLodConfiguration, runSteps,
  type ChunkAddress, type ChunkKey, type Configuration, type LodSnapshot, type Transaction,
} from '../../src/lod/index';
import { planetRecipe } from '../../src/scene/index';

const bounds = recipeBounds(planetRecipe(4));
const space = new CubeSphereSpace({ radiusM: bounds.sphereRadiusM, chunkCells: 8, finestCellM: bounds.sphereRadiusM / 200 });
const shell = planetShell(bounds);

function snapshotOf(leaves: ChunkAddress[]): LodSnapshot {
  const lod = planetLod(space, leaves);
  return {
    keys: lod.keys.slice(),
    coarser: lod.keys.map((k) => lod.touching.get(k)!.filter((t) => lod.byKey.get(t)!.level === lod.byKey.get(k)!.level + 1)),
    stitches: lod.keys.map((k) => lod.seamStitches.get(k)!.slice()),
    homogeneous: lod.keys.map(() => null),
  };
}

/** What a plan decided: each chunk's and seam's piece, and what it waits for. */
function summary(tx: Transaction): string {
  return JSON.stringify({
    chunks: [...tx.chunkIds], seams: [...tx.seamIds], waitingChunks: [...tx.waitingChunks], waitingSeams: [...tx.waitingSeams],
    index: [...tx.index],
  });
}

describe('planTransaction', () => {
  it('one slice at a time gives the plan made in one go, from nothing and from a drawn configuration', () => {
    const first = snapshotOf(randomLodConfiguration(space, shell, 3));
    const second = snapshotOf(randomLodConfiguration(space, shell, 4));
    const cached = new Set(first.keys.filter((_, i) => i % 3 === 0).map((k, i) => `c:${k}|${first.coarser[i].join(',')}`));
    const homogeneous = new Map<ChunkKey, 'empty' | 'full'>([[second.keys[1], 'empty']]);
    const inputs = (snapshot: LodSnapshot, before: Configuration | null) => ({
      space, before, snapshot, addresses: new Map(), homogeneous, cached: (id: string) => cached.has(id),
    });
    const whole = finishSteps(planTransaction(inputs(first, null), Infinity));
    let slices = 0;
    const steps = planTransaction(inputs(first, null), 1);
    let sliced: { value: Transaction } | undefined;
    while (!(sliced = runSteps(steps, () => true))) slices++;
    expect(slices).toBeGreaterThan(first.keys.length);
    expect(summary(sliced.value)).toBe(summary(whole));
    expect(whole.waitingSeams.size).toBe(first.keys.length);

    // From `first` drawn to `second`: pieces that stay are kept, the rest are waited for.
    const before: Configuration = { lod: whole.lod, snapshot: first, chunkIds: whole.chunkIds, seamIds: whole.seamIds };
    const next = finishSteps(planTransaction(inputs(second, before), Infinity));
    const nextSliced = finishSteps(planTransaction(inputs(second, before), 7));
    expect(summary(nextSliced)).toBe(summary(next));
    expect(next.chunkIds.get(second.keys[1])).toBeNull(); // known empty: no piece, nothing to wait for
    const kept = second.keys.filter((k) => first.keys.includes(k) && next.chunkIds.get(k) === whole.chunkIds.get(k));
    expect(kept.length).toBeGreaterThan(0);
    for (const k of kept) expect(next.waitingChunks.has(k)).toBe(whole.waitingChunks.has(k));
  });

  it('reads the cache in its last slice: a piece that arrived between slices is not waited for', () => {
    const snap = snapshotOf(randomLodConfiguration(space, shell, 5));
    const cached = new Set<string>();
    const steps = planTransaction({ space, before: null, snapshot: snap, addresses: new Map(), homogeneous: new Map(), cached: (id) => cached.has(id) }, 4);
    steps.next();
    for (let i = 0; i < snap.keys.length; i++) cached.add(`c:${snap.keys[i]}|${snap.coarser[i].join(',')}`);
    const tx = finishSteps(steps);
    expect(tx.waitingChunks.size).toBe(0);
  });
});
