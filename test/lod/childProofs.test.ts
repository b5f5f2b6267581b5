/**
 * `childProofs` (culling.ts, issue 42): the eight children of a chunk proven empty or full from its
 * lattice — by child index (bit 0 +i, bit 1 +j, bit 2 +k), over each child's half of the lattice
 * with its ends, at the stride given. Soundness against the full field: test/jobs/bandProofs.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { childProofs, chunkKey, HomogeneousRecord } from '../../src/lod/index';

const P = 33;

/** A lattice of `f(i, j, k)`, i fastest. */
function lattice(f: (i: number, j: number, k: number) => number): Float32Array {
  const v = new Float32Array(P * P * P);
  for (let k = 0, p = 0; k < P; k++) for (let j = 0; j < P; j++) for (let i = 0; i < P; i++, p++) v[p] = f(i, j, k);
  return v;
}

describe('childProofs', () => {
  it('a level ground through the lower children: the upper four proven empty, the lower four not', () => {
    const v = lattice((_i, _j, k) => k - 10.5);
    // Upper children (k 16…32): 5.5 … 21.5, all over the bound of 1; lower: both signs.
    expect(childProofs(v, P, 1, 1)).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    // A bound over the upper children's least value proves nothing.
    expect(childProofs(v, P, 1, 6)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('rock along +i: the +i children full, the others cut by the surface', () => {
    const v = lattice((i) => 8.5 - i);
    // i 16…32: −7.5 … −23.5 (full); i 0…16: both signs.
    expect(childProofs(v, P, 1, 2)).toEqual([0, 2, 0, 2, 0, 2, 0, 2]);
  });

  it('a child shares its middle plane: a sign change there keeps both sides unproven', () => {
    const v = lattice((i) => (i === 16 ? -1 : 10));
    expect(childProofs(v, P, 1, 0.5)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('stride 2 reads only the even points; stride 1 sees the odd one that crosses zero', () => {
    const v = lattice(() => 10);
    v[17 + P * (17 + P * 17)] = -3;
    expect(childProofs(v, P, 2, 1)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(childProofs(v, P, 1, 1)).toEqual([1, 1, 1, 1, 1, 1, 1, 0]);
  });

  it('an unsampled (NaN) point proves nothing for its child', () => {
    const v = lattice(() => -10);
    v[2 + P * (30 + P * 2)] = Number.NaN;
    expect(childProofs(v, P, 2, 1)).toEqual([2, 2, 0, 2, 2, 2, 2, 2]);
  });

  it('a proof from the parent stays when the child\'s own job answers later without one', () => {
    const record = new HomogeneousRecord();
    const child = chunkKey(0, 2, 1, 0, 0), grandchild = { face: 0, level: 1, ci: 2, cj: 1, ck: 0 };
    record.mark(child, 'empty', true);
    record.mark(child, 'empty', false);
    // Still proven: everything under the child is covered.
    expect(record.provenAncestor(grandchild, 5)).toBe('empty');
    // An unproven mark first, then the proof: the proof is recorded.
    const other = new HomogeneousRecord();
    other.mark(child, 'full', false);
    expect(other.provenAncestor(grandchild, 5)).toBeUndefined();
    other.mark(child, 'full', true);
    expect(other.provenAncestor(grandchild, 5)).toBe('full');
  });
});
