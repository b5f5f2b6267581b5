/**
 * Time the world did not simulate (stepClock.ts drops it past an update's budget, or over a stall of
 * the page) still turns the asteroids: their colliders jump to the clock's pose. A probe sliding or
 * bouncing on one would meet the surface metres away from where it was (0.5 s of a 0.01 rad/s spin is
 * 2 m at 450 m out): pushed inside, or launched. So a probe near a collider goes with it — carried
 * rigidly from the collider's old pose to its new one, position, orientation and velocity — as if it
 * had been pinned to it for the time dropped (measured here: a probe in explore at a software GPU's
 * ~2 fps slid at 1–3 m/s for 10 s of simulated time, then ended 69 m inside its asteroid after a stall).
 */
import { Quaternion, Vec3, type Body } from 'cannon-es';

const local = new Vec3();
const delta = new Quaternion();
const inverse = new Quaternion();

/** Moves `probe` with a collider that went from (`fromPosition`, `fromQuaternion`) to `collider`'s pose now. */
export function carryWith(probe: Body, fromPosition: Vec3, fromQuaternion: Quaternion, collider: Body): void {
  // The probe in the collider's old frame, put back in its new frame.
  fromQuaternion.conjugate(inverse);
  probe.position.vsub(fromPosition, local);
  inverse.vmult(local, local);
  collider.quaternion.vmult(local, local);
  local.vadd(collider.position, probe.position);
  // Orientation and velocity turn by the same rotation.
  collider.quaternion.mult(inverse, delta);
  delta.mult(probe.quaternion, probe.quaternion);
  delta.vmult(probe.velocity, probe.velocity);
  delta.vmult(probe.angularVelocity, probe.angularVelocity);
}
