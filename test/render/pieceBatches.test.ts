/** When a group of a planet's still pieces is batched into one draw, and when the batch is dropped (src/render/pieceBatches.ts). */
import { describe, expect, it } from 'vitest';
import { BufferAttribute, BufferGeometry, Group, Mesh, OrthographicCamera, PerspectiveCamera, Vector3 } from 'three';
import { BATCHED_LAYER, BatchPolicy, batchOrder, GROUP_LEVELS, mergePieces, PieceBatches } from '../../src/render/pieceBatches';

describe('BatchPolicy', () => {
  it('batches a set once it has stayed the same for the settle time', () => {
    const p = new BatchPolicy(400);
    expect(p.step([3, 1, 2], 0)).toBe('wait');
    expect(p.step([1, 2, 3], 200)).toBe('wait'); // same set, another order: still settling
    expect(p.step([1, 2, 3], 399)).toBe('wait');
    expect(p.step([2, 3, 1], 400)).toBe('build');
    expect(p.hasBatch).toBe(true);
    expect(p.step([1, 2, 3], 5000)).toBe('keep');
  });

  it('where a batch cannot skip pieces: drops it the frame the set changes (a seam hidden, shown or swapped), and settles again', () => {
    const p = new BatchPolicy(400);
    const step = (ids: number[], t: number) => p.step(ids, t, true, false);
    step([1, 2, 3], 0);
    expect(step([1, 2, 3], 400)).toBe('build');
    expect(step([1, 2], 500)).toBe('drop'); // one hidden or fading
    expect(p.hasBatch).toBe(false);
    expect(p.drawn).toBeNull();
    expect(step([1, 2], 800)).toBe('wait');
    expect(step([1, 2], 900)).toBe('build');
    expect(step([1, 2, 4], 950)).toBe('drop'); // one more shown
    expect(step([1, 2, 5], 960)).toBe('wait'); // still changing: a new settle starts
    expect(step([1, 2, 5], 1300)).toBe('wait');
    expect(step([1, 2, 5], 1360)).toBe('build');
    expect(step([1, 5, 9], 1400)).toBe('drop'); // same size, another member
  });

  it('shrinks the batch to its pieces still drawn whole while the set changes, rebuilds once it settles', () => {
    const p = new BatchPolicy(400);
    p.step([1, 2, 3], 0);
    expect(p.step([1, 2, 3], 400)).toBe('build');
    expect([...p.drawn!]).toEqual([1, 2, 3]);
    expect(p.step([1, 2], 500)).toBe('shrink'); // 3 hidden or fading: the batch skips it
    expect([...p.drawn!].sort()).toEqual([1, 2]);
    expect(p.step([1, 2, 4], 600)).toBe('shrink'); // 4 shown: drawn singly meanwhile
    expect([...p.drawn!].sort()).toEqual([1, 2]);
    expect(p.step([1, 2, 4], 999)).toBe('shrink');
    expect(p.step([1, 2, 4], 1000)).toBe('build'); // settled since 600
    expect([...p.drawn!].sort()).toEqual([1, 2, 4]);
    expect(p.step([4, 2, 1], 1100)).toBe('keep');
    // Back to the batched set after a shrink: kept whole, and the next change settles afresh.
    expect(p.step([1, 2], 1200)).toBe('shrink');
    expect(p.step([1, 2, 4], 1300)).toBe('keep');
    expect(p.drawn!.size).toBe(3);
    expect(p.step([1, 2], 1400)).toBe('shrink');
    expect(p.step([1, 2], 1799)).toBe('shrink');
    expect(p.step([1, 2], 1800)).toBe('build');
    // Fewer than two of its pieces left: dropped.
    expect(p.step([2, 7, 8], 1900)).toBe('drop');
    expect(p.hasBatch).toBe(false);
    // No time to build: shrunk until there is.
    const q = new BatchPolicy(400);
    q.step([1, 2, 3], 0);
    q.step([1, 2, 3], 400);
    expect(q.step([1, 2, 5], 500)).toBe('shrink');
    expect(q.step([1, 2, 5], 900, false)).toBe('shrink');
    expect(q.step([1, 2, 5], 950)).toBe('build');
  });

  it('waits for a frame with time to build; never batches fewer than two', () => {
    const p = new BatchPolicy(400);
    p.step([1, 2], 0);
    expect(p.step([1, 2], 400, false)).toBe('wait');
    expect(p.hasBatch).toBe(false);
    expect(p.step([1, 2], 420)).toBe('build');
    const q = new BatchPolicy(400);
    q.step([7], 0);
    expect(q.step([7], 1000)).toBe('wait');
    expect(q.step([], 2000)).toBe('wait');
  });
});

describe('mergePieces', () => {
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
    const g = mergePieces([a, b], origin);
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

/** A clock that never moves for PieceBatches: its merge budget never runs out (a loaded CI once built one group of two). */
const STILL = (): number => 0;

describe('PieceBatches', () => {
  /** A one-triangle chunk at `x` (the planet's frame), chunk (x, 0, 0) of face 0, level 0. */
  function piece(x: number): Mesh {
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), 3));
    g.setAttribute('normal', new BufferAttribute(new Int16Array(9), 3, true));
    g.setIndex(new BufferAttribute(new Uint16Array([0, 1, 2]), 1));
    const m = new Mesh(g);
    m.position.set(x, 0, 0);
    m.userData.key = `0/0/${x}/0/0`;
    m.userData.kind = 'chunk';
    return m;
  }

  it('a group batched once settled, its pieces moved off the drawn layer; a change drops it that frame; groups apart', () => {
    const root = new Group();
    const batches = new PieceBatches(root, () => new Mesh().material as never, STILL);
    const a = [piece(0), piece(1), piece(2)], b = [piece(100), piece(101)];
    const whole = (...groups: [string, Mesh[]][]) => groups.flatMap(([group, ms]) => ms.map((mesh) => ({ mesh, group })));
    batches.update(whole(['a', a], ['b', b]), 0);
    expect(batches.batches).toBe(0);
    batches.update(whole(['a', a], ['b', b]), 500);
    expect([batches.batches, batches.size]).toEqual([2, 5]);
    expect(root.children.length).toBe(2);
    for (const m of [...a, ...b]) expect(m.layers.isEnabled(BATCHED_LAYER) && !m.layers.isEnabled(0)).toBe(true);
    expect(batches.bytes).toBeGreaterThan(0);
    // One piece of `a` hidden: `a` is drawn singly again at once, `b` stays batched.
    batches.update(whole(['a', a.slice(1)], ['b', b]), 600);
    expect([batches.batches, batches.size]).toEqual([1, 2]);
    for (const m of a) expect(m.layers.isEnabled(0)).toBe(true);
    // A group that is gone takes its batch with it.
    batches.update(whole(['a', a.slice(1)]), 700);
    expect(batches.batches).toBe(0);
    for (const m of b) expect(m.layers.isEnabled(0)).toBe(true);
    expect(root.children.length).toBe(0);
    batches.update(whole(['a', a.slice(1)]), 1200);
    expect(batches.batches).toBe(1);
    batches.enabled = false;
    batches.update(whole(['a', a.slice(1)]), 1300);
    expect([batches.batches, root.children.length]).toEqual([0, 0]);
  });

  it('never holds more than maxBytes: a group that would pass the cap draws singly until room is made', () => {
    const root = new Group();
    const batches = new PieceBatches(root, () => new Mesh().material as never, STILL);
    const a = [piece(0), piece(1)], b = [piece(100), piece(101)];
    const whole = (...groups: [string, Mesh[]][]) => groups.flatMap(([group, ms]) => ms.map((mesh) => ({ mesh, group })));
    // One group's batch: 6 vertices × (12 + 6) bytes + 6 indices × 4 = 132 bytes.
    batches.maxBytes = 200;
    batches.update(whole(['a', a], ['b', b]), 0);
    batches.update(whole(['a', a], ['b', b]), 500);
    expect([batches.batches, batches.bytes]).toEqual([1, 132]);
    batches.update(whole(['a', a], ['b', b]), 600);
    expect(batches.batches).toBe(1);
    // `a` changes and is dropped: room for `b`.
    batches.update(whole(['a', a.slice(1)], ['b', b]), 700);
    expect(batches.bytes).toBeLessThanOrEqual(200);
    batches.update(whole(['a', a.slice(1)], ['b', b]), 800);
    expect(batches.batches).toBe(1);
    expect(root.children[0].name).toMatch(/^batch b/);
    for (const m of b) expect(m.layers.isEnabled(BATCHED_LAYER)).toBe(true);
  });
});

describe('a batch in view', () => {
  /** A chunk (ci, cj, ck) of face 0, level 0, `kind`: one triangle of 1 m at x = 40 ci (the planet's frame). */
  function chunk(ci: number, cj: number, ck: number, kind: 'chunk' | 'seam' = 'chunk'): Mesh {
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), 3));
    g.setAttribute('normal', new BufferAttribute(new Int16Array(9), 3, true));
    g.setIndex(new BufferAttribute(new Uint16Array([0, 1, 2]), 1));
    const m = new Mesh(g);
    m.position.set(40 * ci, 0, 0);
    m.userData.key = `0/0/${ci}/${cj}/${ck}`;
    m.userData.kind = kind;
    return m;
  }

  it('lays a group out column by column, a seam right after its chunk', () => {
    const order = (m: Mesh) => batchOrder(m);
    // The two radial layers of a column are neighbours; a seam follows its chunk.
    expect(order(chunk(2, 4, 6))).toBeLessThan(order(chunk(2, 4, 6, 'seam')));
    expect(order(chunk(2, 4, 6, 'seam'))).toBeLessThan(order(chunk(2, 4, 7)));
    expect(order(chunk(2, 4, 7))).toBeLessThan(order(chunk(3, 4, 6)));
    // The last chunk under the ancestor has the last place: 2 per chunk, (2^GROUP_LEVELS)³ chunks.
    const last = (1 << GROUP_LEVELS) - 1;
    expect(order(chunk(last, last, last, 'seam'))).toBe(2 * (1 << (3 * GROUP_LEVELS)) - 1);
    // Only the position under the group's ancestor counts.
    const g = 1 << GROUP_LEVELS;
    expect(order(chunk(2 + g, 4 + g, 6 + g))).toBe(order(chunk(2, 4, 6)));
  });

  /** What a batch's callbacks use of a renderer: WEBGL_multi_draw or not, its calls recorded. */
  function fakeRenderer(multiDraw: boolean) {
    const calls: { counts: number[]; offsets: number[]; drawCount: number }[] = [];
    const info = { triangles: 0, update: (count: number) => void (info.triangles += count / 3) };
    const ext = {
      multiDrawElementsWEBGL: (_mode: number, counts: Int32Array, countsOffset: number, _type: number, offsets: Int32Array, offsetsOffset: number, drawCount: number) => {
        calls.push({ counts: [...counts.subarray(countsOffset, countsOffset + drawCount)], offsets: [...offsets.subarray(offsetsOffset, offsetsOffset + drawCount)], drawCount });
      },
    };
    const renderer = {
      extensions: { has: () => multiDraw, get: () => ext },
      getContext: () => ({ TRIANGLES: 4, UNSIGNED_INT: 5125 }),
      info,
    };
    return { renderer: renderer as never, calls, info };
  }

  /** Four one-triangle pieces batched; `camera` looks down −z from `distance` at x. */
  function batchOf(pieces: Mesh[]) {
    const root = new Group();
    const batches = new PieceBatches(root, () => new Mesh().material as never, STILL);
    const whole = pieces.map((mesh) => ({ mesh, group: 'g' }));
    batches.update(whole, 0);
    batches.update(whole, 500);
    const batch = root.children[0] as Mesh;
    root.updateMatrixWorld(true);
    const camera = new PerspectiveCamera(60, 1, 0.1, 1000);
    const look = (x: number, distance = 10) => {
      camera.position.set(x, 0.5, distance);
      camera.lookAt(x, 0.5, 0);
      camera.updateMatrixWorld();
    };
    return { batch, camera, look };
  }

  it('draws only the run of pieces from the first in view to the last', () => {
    const { renderer } = fakeRenderer(false);
    // Four chunks 40 m apart along x (in batch order: ci 0, 0 seam, 1, … ), the camera looks down −z from 10 m (or `distance`) at x.
    const pieces = [chunk(1, 0, 0), chunk(0, 0, 0), chunk(0, 0, 0, 'seam'), chunk(1, 1, 0)];
    pieces[3].position.set(200, 0, 0);
    const { batch, camera, look } = batchOf(pieces);
    const draw = (x: number, distance = 10) => {
      look(x, distance);
      batch.onBeforeRender(renderer, null as never, camera, batch.geometry, batch.material as never, null as never);
      return { ...batch.geometry.drawRange };
    };
    // Batch order: chunk (0,0,0), its seam, (1,0,0), (1,1,0): indices 0-2, 3-5, 6-8, 9-11.
    expect(draw(40)).toEqual({ start: 6, count: 3 }); // (1,0,0) alone (its sphere: 40 … 41 m)
    expect(draw(0)).toEqual({ start: 0, count: 6 }); // the chunk at 0 and its seam
    expect(draw(20, 40)).toEqual({ start: 0, count: 9 }); // −3 … 43 m: the first three
    expect(draw(120)).toEqual({ start: 0, count: 0 }); // nothing in view
    expect(draw(200)).toEqual({ start: 9, count: 3 });
    batch.onAfterRender(renderer, null as never, camera, batch.geometry, batch.material as never, null as never);
    expect(batch.geometry.drawRange).toEqual({ start: 0, count: Infinity });
  });

  it('with WEBGL_multi_draw draws exactly the pieces in view: the first run as the draw range, the others in one multi-draw after it', () => {
    const { renderer, calls, info } = fakeRenderer(true);
    // Batch order: chunk (0,0,0) at x 0, its seam, (1,0,0) at 40, (1,1,0) moved to x −5: indices 0-2, 3-5, 6-8, 9-11.
    const pieces = [chunk(1, 0, 0), chunk(0, 0, 0), chunk(0, 0, 0, 'seam'), chunk(1, 1, 0)];
    pieces[3].position.set(-5, 0, 0);
    const { batch, camera, look } = batchOf(pieces);
    const frame = (x: number, distance = 10) => {
      look(x, distance);
      batch.onBeforeRender(renderer, null as never, camera, batch.geometry, batch.material as never, null as never);
      const range = { ...batch.geometry.drawRange };
      batch.onAfterRender(renderer, null as never, camera, batch.geometry, batch.material as never, null as never);
      return range;
    };
    // From x 0 at 10 m (±5.8 m in view): the chunk at 0, its seam, and the one at −5; not the one at 40.
    expect(frame(0)).toEqual({ start: 0, count: 6 });
    expect(calls).toEqual([{ counts: [3], offsets: [9 * 4], drawCount: 1 }]);
    expect(info.triangles, 'the multi-draw is counted').toBe(1);
    // The first-to-last range would have drawn the piece at 40 too.
    expect(frame(40)).toEqual({ start: 6, count: 3 });
    expect(calls.length, 'one run: no multi-draw').toBe(1);
    expect(frame(400)).toEqual({ start: 0, count: 0 });
    expect(calls.length).toBe(1);
    expect(batch.geometry.drawRange, 'reset after each draw').toEqual({ start: 0, count: Infinity });
  });

  it('a change shrinks the batch: the piece that left draws singly (its span skipped), a new one singly, the rest in the batch', () => {
    const { renderer, calls } = fakeRenderer(true);
    // Indices 0-5 the chunk at x 0 and its seam, 6-8 the chunk at 40, 9-11 the chunk at −5.
    const pieces = [chunk(1, 0, 0), chunk(0, 0, 0), chunk(0, 0, 0, 'seam'), chunk(1, 1, 0)];
    pieces[3].position.set(-5, 0, 0);
    const root = new Group();
    const batches = new PieceBatches(root, () => new Mesh().material as never, STILL);
    const whole = (ms: Mesh[]) => ms.map((mesh) => ({ mesh, group: 'g' }));
    batches.update(whole(pieces), 0);
    batches.update(whole(pieces), 500);
    const batch = root.children[0] as Mesh;
    root.updateMatrixWorld(true);
    const camera = new PerspectiveCamera(60, 1, 0.1, 1000);
    camera.position.set(-3, 0.5, 20);
    camera.lookAt(-3, 0.5, 0);
    camera.updateMatrixWorld();
    const frame = () => {
      batch.onBeforeRender(renderer, null as never, camera, batch.geometry, batch.material as never, null as never);
      const range = { ...batch.geometry.drawRange };
      batch.onAfterRender(renderer, null as never, camera, batch.geometry, batch.material as never, null as never);
      return range;
    };
    // In view (−14.5 … 8.5 m): the chunk at −5 (nearest), then the run at 0.
    expect(frame()).toEqual({ start: 9, count: 3 });
    expect(calls.at(-1)).toEqual({ counts: [6], offsets: [0], drawCount: 1 });
    // The seam hidden (or fading) and a new piece shown: the batch stays, without the seam.
    const newcomer = chunk(0, 1, 0);
    batches.update(whole([pieces[0], pieces[1], pieces[3], newcomer]), 600);
    expect([batches.batches, batches.size]).toEqual([1, 3]);
    expect(root.children[0]).toBe(batch);
    expect(pieces[2].layers.isEnabled(0)).toBe(true);
    for (const m of [pieces[0], pieces[1], pieces[3]]) expect(m.layers.isEnabled(BATCHED_LAYER) && !m.layers.isEnabled(0)).toBe(true);
    expect(newcomer.layers.isEnabled(0)).toBe(true);
    expect(frame()).toEqual({ start: 9, count: 3 });
    expect(calls.at(-1)).toEqual({ counts: [3], offsets: [0], drawCount: 1 }); // the chunk at 0 without its seam
    // Settled: rebuilt with the newcomer.
    batches.update(whole([pieces[0], pieces[1], pieces[3], newcomer]), 1000);
    expect([batches.batches, batches.size]).toEqual([1, 4]);
    expect(root.children[0]).not.toBe(batch);
    expect(newcomer.layers.isEnabled(BATCHED_LAYER)).toBe(true);
    expect(pieces[2].layers.isEnabled(0)).toBe(true);
  });

  it('draws the nearest run first, and culls by piece into the shadow maps too', () => {
    const { renderer, calls } = fakeRenderer(true);
    // As above: indices 0-5 the chunk at x 0 and its seam, 6-8 the chunk at 40, 9-11 the chunk at −5.
    const pieces = [chunk(1, 0, 0), chunk(0, 0, 0), chunk(0, 0, 0, 'seam'), chunk(1, 1, 0)];
    pieces[3].position.set(-5, 0, 0);
    const { batch, camera, look } = batchOf(pieces);
    // Above x −5 (±5.8 m in view): the chunk at −5 is nearer than the run at 0, so it goes first.
    look(-5);
    batch.onBeforeRender(renderer, null as never, camera, batch.geometry, batch.material as never, null as never);
    expect(batch.geometry.drawRange).toEqual({ start: 9, count: 3 });
    batch.onAfterRender(renderer, null as never, camera, batch.geometry, batch.material as never, null as never);
    expect(calls).toEqual([{ counts: [6], offsets: [0], drawCount: 1 }]);

    // A cascade's camera that sees x 35 … 45 only (looking down −z): the piece at 40 alone.
    const shadowCamera = new OrthographicCamera(-5, 5, 5, -5, 0.1, 100);
    shadowCamera.position.set(40, 0.5, 50);
    shadowCamera.lookAt(40, 0.5, 0);
    shadowCamera.updateMatrixWorld();
    batch.onBeforeShadow(renderer, null as never, camera, shadowCamera, batch.geometry, batch.material as never, null as never);
    expect(batch.geometry.drawRange).toEqual({ start: 6, count: 3 });
    batch.onAfterShadow(renderer, null as never, camera, shadowCamera, batch.geometry, batch.material as never, null as never);
    expect(calls.length, 'one run: no multi-draw').toBe(1);
    expect(batch.geometry.drawRange).toEqual({ start: 0, count: Infinity });
  });
});
