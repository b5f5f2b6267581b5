/** When a planet's still seams are batched into one draw, and when the batch is dropped (src/render/seamBatch.ts). */
import { describe, expect, it } from 'vitest';
import { BufferAttribute, BufferGeometry, Mesh, Vector3 } from 'three';
import { mergeSeams, SeamBatchPolicy } from '../../src/render/seamBatch';

describe('SeamBatchPolicy', () => {
  it('batches a set once it has stayed the same for the settle time', () => {
    const p = new SeamBatchPolicy(400);
    expect(p.step([3, 1, 2], 0)).toBe('wait');
    expect(p.step([1, 2, 3], 200)).toBe('wait'); // same set, another order: still settling
    expect(p.step([1, 2, 3], 399)).toBe('wait');
    expect(p.step([2, 3, 1], 400)).toBe('build');
    expect(p.hasBatch).toBe(true);
    expect(p.step([1, 2, 3], 5000)).toBe('keep');
  });

  it('drops the batch the frame the set changes (a seam hidden, shown or swapped), and settles again', () => {
    const p = new SeamBatchPolicy(400);
    p.step([1, 2, 3], 0);
    expect(p.step([1, 2, 3], 400)).toBe('build');
    expect(p.step([1, 2], 500)).toBe('drop'); // one hidden or fading
    expect(p.hasBatch).toBe(false);
    expect(p.step([1, 2], 800)).toBe('wait');
    expect(p.step([1, 2], 900)).toBe('build');
    expect(p.step([1, 2, 4], 950)).toBe('drop'); // one more shown
    expect(p.step([1, 2, 5], 960)).toBe('wait'); // still changing: a new settle starts
    expect(p.step([1, 2, 5], 1300)).toBe('wait');
    expect(p.step([1, 2, 5], 1360)).toBe('build');
    expect(p.step([1, 5, 9], 1400)).toBe('drop'); // same size, another member
  });

  it('drops and rebuilds when the camera strays from the batch\'s origin; never batches fewer than two', () => {
    const p = new SeamBatchPolicy(400);
    p.step([1, 2], 0);
    expect(p.step([1, 2], 400)).toBe('build');
    expect(p.step([1, 2], 500, true)).toBe('drop');
    expect(p.step([1, 2], 900)).toBe('build');
    const q = new SeamBatchPolicy(400);
    q.step([7], 0);
    expect(q.step([7], 1000)).toBe('wait');
    expect(q.step([], 2000)).toBe('wait');
  });
});

describe('mergeSeams', () => {
  /** A one-triangle seam at `origin` (the planet's frame), with int16 normals and ground colours. */
  function seam(origin: [number, number, number], colour: number): Mesh {
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), 3));
    g.setAttribute('normal', new BufferAttribute(new Int16Array([0, 0, 0x7fff, 0, 0, 0x7fff, 0, 0, 0x7fff]), 3, true));
    g.setAttribute('groundColour', new BufferAttribute(new Uint8Array(12).fill(colour), 4, true));
    g.setIndex(new BufferAttribute(new Uint16Array([0, 1, 2]), 1));
    const m = new Mesh(g);
    m.position.set(...origin);
    return m;
  }

  it('one geometry: positions relative to the batch origin (exact in doubles, then float32), indices offset, attributes kept', () => {
    const a = seam([62_000.25, 10, -5], 10), b = seam([61_990.5, 12, -7], 20);
    const origin = new Vector3(61_952, 0, 0);
    const g = mergeSeams([a, b], origin);
    const p = g.attributes.position.array as Float32Array;
    expect(g.attributes.position.count).toBe(6);
    expect([...g.index!.array]).toEqual([0, 1, 2, 3, 4, 5]);
    expect(g.index!.array).toBeInstanceOf(Uint32Array);
    // Vertex 1 of `a` at 62,001.25 in the planet's frame: 49.25 from the origin.
    expect([p[3], p[4], p[5]]).toEqual([49.25, 10, -5]);
    expect([p[9], p[10], p[11]]).toEqual([38.5, 12, -7]);
    expect([...(g.attributes.groundColour.array as Uint8Array).slice(0, 4)]).toEqual([10, 10, 10, 10]);
    expect([...(g.attributes.groundColour.array as Uint8Array).slice(12, 16)]).toEqual([20, 20, 20, 20]);
    expect((g.attributes.normal as BufferAttribute).normalized).toBe(true);
    expect(g.boundingSphere!.radius).toBeGreaterThan(5);
  });
});
