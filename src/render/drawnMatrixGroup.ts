/**
 * A group whose floating-origin passes recompute only the world matrices something draws.
 *
 * {@link drawShifted} recomputes every world matrix under the world twice a frame: shifted by
 * −camera for the draw, then back. Near a planet's ground its root holds ~2,800 pieces, of which
 * ~400 draw (the batches and the pieces drawn singly); the others are hidden (kept for reuse) or
 * batched (on a layer nothing draws). On the H100 machine those two passes were ~3 ms of the
 * frame's ~4 ms of main-thread time (a CPU profile of 80 frames at 20 m: `updateMatrixWorld` and
 * `multiplyMatrices` 28 % of all samples, the GL calls 2 %).
 *
 * Here the shift pass recomputes only the children that draw (visible, on a layer of
 * {@link DrawnMatrixGroup.drawnLayers}) and remembers them; the restore pass puts back exactly those,
 * whatever happened in between (a piece hidden while drawing gets its unshifted matrix back). A
 * child no draw has touched keeps the unshifted matrix a restore (or any pass outside
 * {@link drawShifted}, which updates every child as three does) left it: right as long as the
 * children do not move in the group's frame and the group stays put in the world between frames —
 * a planet's pieces and its root. Raycasts, which see the unshifted world, may then test any child.
 */
import { Group, Layers } from 'three';
import type { Object3D } from 'three';
import { shiftPhase } from './floatingOrigin';

export class DrawnMatrixGroup extends Group {
  /** The layers the frame's cameras draw (default: layer 0). */
  readonly drawnLayers = new Layers();
  /** Children the last shift pass moved: the restore pass moves them back. */
  private shifted: Object3D[] = [];

  override updateMatrixWorld(force = false): void {
    if (this.matrixAutoUpdate) this.updateMatrix();
    if (this.matrixWorldNeedsUpdate || force) {
      if (this.matrixWorldAutoUpdate) {
        if (this.parent === null) this.matrixWorld.copy(this.matrix);
        else this.matrixWorld.multiplyMatrices(this.parent.matrixWorld, this.matrix);
      }
      this.matrixWorldNeedsUpdate = false;
      force = true;
    }
    const phase = shiftPhase();
    if (phase === 'none') {
      for (const child of this.children) child.updateMatrixWorld(force);
      return;
    }
    if (phase === 'restore') {
      for (const child of this.shifted) if (child.parent === this) child.updateMatrixWorld(force);
      this.shifted = [];
      return;
    }
    const record = phase === 'shift';
    if (record) this.shifted = [];
    for (const child of this.children) {
      if (!child.visible || !child.layers.test(this.drawnLayers)) continue;
      child.updateMatrixWorld(force);
      if (record) this.shifted.push(child);
    }
  }
}
