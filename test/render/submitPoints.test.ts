/** Submit points (src/render/submitPoints.ts): where a frame's scene is handed to the GPU, and the renderer left as it was. */
import { describe, expect, it } from 'vitest';
import type { WebGLRenderer } from 'three';
import { MAX_SUBMITS, SUBMIT_EVERY_DRAWS, SubmitPoints, withSubmitPoints, type FenceContext } from '../../src/render/submitPoints';

/** A context that logs fences, flushes and deletions in order. */
function fenceLog() {
  const log: string[] = [];
  let n = 0;
  const gl: FenceContext = {
    SYNC_GPU_COMMANDS_COMPLETE: 0x9117,
    fenceSync: (condition) => {
      log.push(`fence ${condition.toString(16)}`);
      return { id: ++n } as unknown as WebGLSync;
    },
    flush: () => void log.push('flush'),
    deleteSync: (sync) => void log.push(`delete ${(sync as unknown as { id: number }).id}`),
  };
  return { gl, log };
}

describe('SubmitPoints', () => {
  it('a fence and a flush every so many draws, at most so many a frame, counted again each frame', () => {
    const { gl, log } = fenceLog();
    const points = new SubmitPoints(gl, 3, 2);
    points.frameStart();
    for (let i = 0; i < 2; i++) points.afterDraw();
    expect(log).toEqual([]);
    points.afterDraw();
    expect(log).toEqual(['fence 9117', 'flush', 'delete 1']);
    for (let i = 0; i < 10; i++) points.afterDraw();
    expect(points.submits, 'at draws 3 and 6 only').toBe(2);
    points.frameStart();
    for (let i = 0; i < 3; i++) points.afterDraw();
    expect(points.submits).toBe(3);
    expect(log.filter((l) => l === 'flush').length).toBe(3);
  });

  it('defaults: a few points for a frame of ~100 draws', () => {
    const { gl } = fenceLog();
    const points = new SubmitPoints(gl);
    points.frameStart();
    for (let i = 0; i < 100; i++) points.afterDraw();
    expect(points.submits).toBe(Math.min(MAX_SUBMITS, Math.floor(100 / SUBMIT_EVERY_DRAWS)));
  });
});

describe('withSubmitPoints', () => {
  /** A renderer whose renderBufferDirect is its own property, as three's is. */
  function renderer() {
    const drawn: string[] = [];
    const r = { renderBufferDirect: (_c: unknown, _s: unknown, _g: unknown, _m: unknown, object: { name: string }) => void drawn.push(object.name) };
    return { r: r as unknown as WebGLRenderer, own: r.renderBufferDirect, drawn };
  }

  it('counts the draws made inside, and puts renderBufferDirect back, also when the frame throws', () => {
    const { gl } = fenceLog();
    const points = new SubmitPoints(gl, 2, 5);
    const { r, own, drawn } = renderer();
    const draw = (name: string) => r.renderBufferDirect(null as never, null as never, null as never, null as never, { name } as never, null as never);
    withSubmitPoints(r, points, () => ['a', 'b', 'c', 'd', 'e'].forEach(draw));
    expect(drawn).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(points.submits).toBe(2);
    expect(r.renderBufferDirect).toBe(own);
    draw('after');
    expect(points.submits, 'draws outside are not counted').toBe(2);
    expect(() => withSubmitPoints(r, points, () => {
      draw('x');
      throw new Error('lost context');
    })).toThrow('lost context');
    expect(r.renderBufferDirect).toBe(own);
  });
});
