/** The floating origin's passes recompute only the world matrices something draws (src/render/drawnMatrixGroup.ts). */
import { describe, expect, it } from 'vitest';
import { Group, Mesh, PerspectiveCamera, Vector3 } from 'three';
import { DrawnMatrixGroup } from '../../src/render/drawnMatrixGroup';
import { drawShifted } from '../../src/render/floatingOrigin';

/** A world with a planet root at x = 60 km holding a drawn piece, a batched one (layer 1) and a hidden one. */
function scene() {
  const world = new Group();
  const root = new DrawnMatrixGroup();
  root.position.set(60_000, 0, 0);
  world.add(root);
  const piece = (x: number) => {
    const m = new Mesh();
    m.position.set(x, 5, 0);
    root.add(m);
    return m;
  };
  const drawn = piece(1), batched = piece(2), hidden = piece(3);
  batched.layers.set(1);
  hidden.visible = false;
  world.updateMatrixWorld(true);
  const camera = new PerspectiveCamera();
  camera.position.set(60_000, 0, 0);
  camera.updateMatrixWorld();
  return { world, root, drawn, batched, hidden, camera, renderCamera: new PerspectiveCamera() };
}

const worldX = (m: Mesh) => new Vector3().setFromMatrixPosition(m.matrixWorld).x;

describe('DrawnMatrixGroup', () => {
  it('outside a shifted draw: every child, as three does', () => {
    const s = scene();
    expect([worldX(s.drawn), worldX(s.batched), worldX(s.hidden)]).toEqual([60_001, 60_002, 60_003]);
  });

  it('shifts only the children that draw, and puts back exactly those', () => {
    const s = scene();
    let during: number[] = [];
    drawShifted(s.world, s.camera, s.renderCamera, () => {
      during = [worldX(s.drawn), worldX(s.batched), worldX(s.hidden)];
    });
    // The drawn piece sits relative to the camera; the others keep the unshifted world (raycasts' world).
    expect(during).toEqual([1, 60_002, 60_003]);
    expect([worldX(s.drawn), worldX(s.batched), worldX(s.hidden)]).toEqual([60_001, 60_002, 60_003]);
  });

  it('a child hidden while drawing gets its unshifted matrix back; one shown while drawing was never moved', () => {
    const s = scene();
    drawShifted(s.world, s.camera, s.renderCamera, () => {
      s.drawn.visible = false;
      s.hidden.visible = true;
    });
    expect([worldX(s.drawn), worldX(s.hidden)]).toEqual([60_001, 60_003]);
    // The next frame draws the newly shown one shifted, and leaves the newly hidden one alone.
    let during: number[] = [];
    drawShifted(s.world, s.camera, s.renderCamera, () => {
      during = [worldX(s.drawn), worldX(s.hidden)];
    });
    expect(during).toEqual([60_001, 3]);
    expect([worldX(s.drawn), worldX(s.hidden)]).toEqual([60_001, 60_003]);
  });

  it('the control: a plain group shifts every child', () => {
    const s = scene();
    const plain = new Group();
    plain.position.copy(s.root.position);
    for (const c of [...s.root.children]) plain.add(c);
    s.world.add(plain);
    let during: number[] = [];
    drawShifted(s.world, s.camera, s.renderCamera, () => {
      during = [worldX(s.drawn), worldX(s.batched), worldX(s.hidden)];
    });
    expect(during).toEqual([1, 2, 3]);
  });
});
