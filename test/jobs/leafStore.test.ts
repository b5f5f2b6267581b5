/** The body worker's leaf store: copies, least recently used out past a budget scaled by the worker's share. */
import { afterEach, describe, expect, it } from 'vitest';
import type { BoundaryLeaves } from '../../src/mesher/index';
import { clearLeafStore, forgetLeaves, keepLeaves, keptLeaves, LEAF_STORE_BYTES, setLeafStoreShare } from './oneWorker';

/** Leaves of about `bytes` bytes (54 B a record). */
function leaves(bytes: number, tag: number): BoundaryLeaves {
  const n = Math.floor(bytes / 54);
  const cells = new Int32Array(4 * n).fill(tag);
  return {
    chunkId: tag, boxGrid: [0, 0, 0, 1, 1, 1], count: n, cells, corners: new Uint8Array(n), component: new Uint8Array(n),
    vertexGrid: new Float64Array(3 * n), normals: new Float32Array(3 * n),
  };
}

describe('leaf store', () => {
  afterEach(() => {
    clearLeafStore();
    setLeafStoreShare(1);
  });

  it('keeps a copy (the original is transferred away) and evicts the least recently used past its share', () => {
    setLeafStoreShare(1 / 8); // 12 MB
    const MB = 2 ** 20;
    const first = leaves(MB, 1);
    keepLeaves('a', first);
    first.cells.fill(99); // the caller's arrays are not the kept ones
    expect(keptLeaves('a')!.cells[0]).toBe(1);
    for (let i = 0; i < 10; i++) keepLeaves(`b${i}`, leaves(MB, 2));
    expect(keptLeaves('a')).toBeDefined(); // used again: now the most recent
    for (let i = 10; i < 20; i++) keepLeaves(`b${i}`, leaves(MB, 2));
    const held = ['a', ...Array.from({ length: 20 }, (_, i) => `b${i}`)].filter((id) => keptLeaves(id) !== undefined);
    expect(held.length * MB).toBeLessThanOrEqual(LEAF_STORE_BYTES / 8);
    expect(held).toContain('b19');
    expect(held).not.toContain('b0');
    forgetLeaves('b19');
    expect(keptLeaves('b19')).toBeUndefined();
  });
});
