/**
 * The camera never ends a frame inside a body (issue 45): a spinning asteroid sweeps its surface over
 * a camera that stands still, and a move can end inside where no drawn mesh stopped it (before the
 * body's first mesh, or a mesh coarser than the field). After the bodies have moved for the frame the
 * camera is pushed out along the field's gradient (Newton steps on the body's signed field, roughly a
 * distance) until it is `marginM` outside; where the gradient says nothing, straight away from the
 * body's centre.
 */
import { Vector3 } from 'three';

const g = new Vector3();
const q = new Vector3();

/** Steps before giving up on the gradient and leaving along the line from the centre. */
const NEWTON_STEPS = 12;

/**
 * Moves `point` (in place) until `field(point) ≥ marginM`; returns whether it moved. `centre`: the
 * body's centre, the way out when the gradient is flat; `reachM`: how far from it the body can reach.
 */
export function pushOutside(point: Vector3, field: (p: Vector3) => number, marginM: number, centre: Vector3, reachM: number): boolean {
  let f = field(point);
  if (!(f < marginM)) return false; // outside (or NaN: nothing to go by)
  for (let i = 0; i < NEWTON_STEPS && f < marginM; i++) {
    const h = Math.min(5, 0.05 + 0.02 * Math.abs(f));
    g.set(
      field(q.copy(point).setX(point.x + h)) - field(q.copy(point).setX(point.x - h)),
      field(q.copy(point).setY(point.y + h)) - field(q.copy(point).setY(point.y - h)),
      field(q.copy(point).setZ(point.z + h)) - field(q.copy(point).setZ(point.z - h)),
    ).divideScalar(2 * h);
    const len = g.length();
    if (!(len > 1e-3)) break;
    // Newton on f along its gradient, a little past the margin; never a step longer than the body's reach.
    const step = Math.min(reachM, (1.02 * marginM - f) / Math.max(len, 0.3));
    point.addScaledVector(g.divideScalar(len), step);
    f = field(point);
  }
  if (f < marginM) {
    // The gradient did not lead out: leave along the line from the centre to the body's reach.
    g.copy(point).sub(centre);
    if (g.lengthSq() === 0) g.set(0, 1, 0);
    point.copy(centre).addScaledVector(g.normalize(), reachM + marginM);
  }
  return true;
}
