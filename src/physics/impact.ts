/**
 * A probe's impact on rock, judged in the frame of the surface it meets (issue 45): the surface of a
 * spinning asteroid moves (ω × r, ~8 m/s at explore 1's asteroid 0), so what bounces is the probe's
 * velocity relative to the rock under it, never its world velocity. Judged in the world frame, a
 * probe riding the surface (at rest on it) had an "impact" of the surface's own speed at each touch,
 * and cannon-es's restitution (which scales the bodies' linear velocities only, not the kinematic
 * collider's ω × r) kicked it up again at each one: it hopped for minutes.
 *
 * Regolith, not a hard ball: the restitution falls with the impact speed, e / (1 + vₙ / {@link RESTITUTION_SPEED}),
 * and is zero below {@link BOUNCE_MIN_SPEED} (the last hops of a settling probe are not bounces: under
 * 1 m/s² each would last a third of a second and the probe would never stay in contact long enough to
 * rest); the velocity along the surface loses μ × the normal impulse and the same factor (a hard
 * impact ploughs in rather than skidding on).
 *
 * Pure: cannon-es's Vec3 only.
 */
import { Vec3, type Body } from 'cannon-es';

/** Impact speed at which the restitution has halved, m/s. */
export const RESTITUTION_SPEED = 5;
/** Relative speed into the surface under which a contact does not bounce at all, m/s. */
export const BOUNCE_MIN_SPEED = 1;

const scratchN = new Vec3();
const scratchT = new Vec3();

/** What the impact model needs of the contact material. */
export interface ImpactMaterial {
  /** Restitution of a slow impact (it falls with speed; zero under BOUNCE_MIN_SPEED). */
  restitution: number;
  friction: number;
}

/**
 * The velocity after an impact, relative to the surface, from `relative` (the probe's velocity minus
 * the surface's at the contact) and the surface's unit normal `n` (out of the rock). Writes `out`
 * (may be `relative`) and returns the impact speed into the surface, m/s (0 when it moves away:
 * `out` is then `relative`).
 */
export function impactVelocity(relative: Vec3, n: Vec3, material: ImpactMaterial, out: Vec3): number {
  const into = relative.dot(n);
  if (into >= 0) {
    out.copy(relative);
    return 0;
  }
  const speed = -into;
  const e = speed < BOUNCE_MIN_SPEED ? 0 : material.restitution / (1 + speed / RESTITUTION_SPEED);
  // Tangential part, then Coulomb (μ × the normal impulse per unit mass, not past zero) and the plough.
  const tangent = scratchT.copy(relative);
  tangent.vsub(n.scale(into, scratchN), tangent);
  const vt = tangent.length();
  const keep = vt > 0 ? Math.max(0, vt - material.friction * (1 + e) * speed) / vt / (1 + speed / RESTITUTION_SPEED) : 0;
  tangent.scale(keep, out);
  out.vadd(n.scale(e * speed, scratchN), out);
  return speed;
}

/** The velocity of `body`'s material at world point `p`: its velocity plus ω × (p − its position). */
export function surfaceVelocity(body: Body, p: Vec3, out: Vec3): Vec3 {
  p.vsub(body.position, scratchN);
  body.angularVelocity.cross(scratchN, out);
  out.vadd(body.velocity, out);
  return out;
}

/** Whether `body` moves at all (a spinning or orbiting collider; planet pieces stand still). */
export function isMoving(body: Body): boolean {
  return body.velocity.lengthSquared() > 0 || body.angularVelocity.lengthSquared() > 0;
}
