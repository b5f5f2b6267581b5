/**
 * A probe's own state and what touching does to it (PhysicsWorld's afterStep calls
 * {@link respondToContact} after each cannon-es step), judged in the frame of the surface it touches
 * (issue 45): its velocity minus the surface's at the probe (impact.ts). A fast impact is settled by
 * the impact model, a slow contact's push capped, rolling resistance slows its motion and spin over
 * the surface, and one slow long enough is pinned to the collider's frame (it turns with it).
 */
import { Body, Vec3, type Quaternion } from 'cannon-es';
import type { ProbeContact } from './contacts';
import { BOUNCE_MIN_SPEED, impactVelocity, surfaceVelocity, type ImpactMaterial } from './impact';

/**
 * Relative speed under which a touching probe counts as at rest, m/s: 5 cm/s, or 1% of its radius a
 * second for a large one (cannon-es's contact solver leaves a big probe that much jitter).
 */
export const REST_SPEED = 0.05;
const REST_SPEED_PER_M = 0.01;
/** Damping of a touching probe's spin and of its speed over the surface, 1/s. */
const ROLLING_DAMPING = 1;
/**
 * Rolling resistance of regolith: a touching probe's speed over the surface falls by this × g, so it
 * stops on slopes gentler than atan(0.6) = 31°, regolith's angle of repose (0.35, 19°, left probes
 * rolling for minutes on explore 1's asteroid 0; issue 45).
 */
const ROLLING_RESISTANCE = 0.6;
/** What a contact may add to a probe's speed over the surface in a step, m/s per second of step: two steps of gravity up to 10 m/s². */
const PUSH_SLACK_MS2 = 2 * 10;
/** Overlap a fast impact leaves for cannon-es's contact to hold, metres (the rest is pushed out at once). */
const IMPACT_SLOP_M = 0.005;
/** How long a probe must stay that slow to rest (pinned to its collider), seconds. */
const REST_TIME_S = 0.5;
/**
 * How long a slow probe may lose its contact without its rest timer starting again, seconds: on a
 * turning body gravity less the centrifugal pull is weak (a fifth of it in the Node test's sphere), and
 * cannon-es's solver leaves a probe there touching every other step or so.
 */
export const AIR_GRACE_S = 0.25;

export const PROBE_GROUP = 1;
export const COLLIDER_GROUP = 2;

/** A probe of the world. */
export interface Probe {
  id: number;
  body: Body;
  radiusM: number;
  previous: Vec3;
  previousQuaternion: Quaternion;
  slowS: number;
  /** Not yet colliding with other probes (see setMask). */
  ghost: boolean;
  /** Velocity before this step's contacts, m/s (world frame). */
  velocityBefore: Vec3;
  /** The collider it touched last (its frame judges the next step's motion; kept AIR_GRACE_S), or null. */
  surface: Body | null;
  /** Time since it last touched anything, seconds. */
  airS: number;
  /** Gravity's magnitude at the probe this step, m/s². */
  gravity: number;
  /** At rest and pinned to a collider's frame (see pin), or null. */
  pinned: { collider: Body; position: Vec3; quaternion: Quaternion; penetrationM: number } | null;
}

/** What the response counts (PhysicsWorld's stats). */
export interface ResponseCounters {
  contactImpacts: number;
  energyCapped: number;
}

const scratchA = new Vec3();
const scratchB = new Vec3();
const scratchC = new Vec3();
const scratchU = new Vec3();
const scratchW = new Vec3();

/**
 * What a probe collides with: other probes once clear of them (a new throw starts inside the last
 * ones, and cannon-es separated them at hundreds of m/s), the rock unless pinned (held by its pin,
 * a resting probe needs no contacts with it: they were most of a resting world's step; moving
 * probes still bounce off it).
 */
export function setMask(p: Probe): void {
  p.body.collisionFilterMask = (p.ghost ? 0 : PROBE_GROUP) | (p.pinned ? 0 : COLLIDER_GROUP);
}

/**
 * Pins a probe at rest to the collider it rests on: cannon-es leaves a resting sphere a few cm/s of
 * solver jitter (it never sleeps here: its colliders spin), and on a slope that creeps. Pinned, it
 * turns with its asteroid and other probes bounce off it, until its collider's mesh changes.
 */
export function pin(p: Probe, collider: Body, penetrationM: number): void {
  const position = collider.pointToLocalFrame(p.body.position, new Vec3());
  const quaternion = collider.quaternion.conjugate().mult(p.body.quaternion);
  p.pinned = { collider, position, quaternion, penetrationM };
  setMask(p);
  followPin(p);
}

/** Frees a pinned probe (its collider's mesh changed, or the collider went). */
export function unpin(p: Probe): void {
  if (!p.pinned) return;
  p.pinned = null;
  p.slowS = 0;
  setMask(p);
}

/** A pinned probe where its collider's frame holds it, moving with the surface under it. */
export function followPin(p: Probe): void {
  const pin = p.pinned;
  if (!pin) return;
  const c = pin.collider;
  c.pointToWorldFrame(pin.position, p.body.position);
  c.quaternion.mult(pin.quaternion, p.body.quaternion);
  p.body.position.vsub(c.position, scratchA);
  c.angularVelocity.cross(scratchA, p.body.velocity);
  p.body.velocity.vadd(c.velocity, p.body.velocity);
  p.body.angularVelocity.copy(c.angularVelocity);
}

/**
 * A probe that touches `contact` after a step of `dtS`, in the touched surface's frame: a fast impact
 * or a capped push (rock only), the rest timer and pin, then rolling resistance.
 */
export function respondToContact(p: Probe, contact: ProbeContact, dtS: number, material: ImpactMaterial, counters: ResponseCounters): void {
  const rock = contact.surface.type !== Body.DYNAMIC ? contact.surface : null;
  p.surface = rock;
  p.airS = 0;
  if (p.pinned) return;
  const surface = contact.surface;
  if (rock) settleContact(p, rock, contact, dtS, material, counters);
  const u = surfaceVelocity(surface, p.body.position, scratchU);
  // Relative to the surface from here on: v = u + relative.
  const relative = scratchC;
  p.body.velocity.vsub(u, relative);
  const speed = relative.length();
  p.slowS = speed < Math.max(REST_SPEED, REST_SPEED_PER_M * p.radiusM) ? p.slowS + dtS : 0;
  if (p.slowS >= REST_TIME_S && rock) {
    pin(p, rock, Math.max(0, contact.depthM));
    return;
  }
  // Rolling resistance (regolith): cannon-es has none, so a sphere rolling on a sphere under
  // central gravity never stops, and a viscous damping alone let probes creep down every slope.
  // A constant deceleration (μ_roll × g) and a viscous part slow the motion over the surface
  // while touching, and its spin relative to the surface's; a probe stops on slopes gentler than
  // ~atan(μ_roll). (Its spin damped towards zero instead, a probe on a turning asteroid slipped.)
  if (speed > 0) {
    const slowed = Math.max(0, speed - (ROLLING_RESISTANCE * p.gravity + ROLLING_DAMPING * speed) * dtS);
    const keep = slowed / speed;
    u.vadd(relative.scale(keep, relative), p.body.velocity);
    p.body.angularVelocity.vsub(surface.angularVelocity, scratchW);
    surface.angularVelocity.vadd(scratchW.scale(keep, scratchW), p.body.angularVelocity);
  }
}

/**
 * A probe touching rock after cannon's step, judged relative to the rock under it. An impact
 * faster than BOUNCE_MIN_SPEED (the swept ray missed it: the sphere's side met the rock first) is
 * settled by the impact model from the velocity before the step, and the probe put back out of the
 * rock; a slower contact keeps cannon-es's inelastic answer, but may not push the probe off faster
 * than it came in: cannon-es pushes a probe out of the rock by velocity, and a probe the swept test
 * set down against one facet but overlapping the next left at up to 200 m/s.
 */
function settleContact(p: Probe, rock: Body, contact: ProbeContact, dtS: number, material: ImpactMaterial, counters: ResponseCounters): void {
  const before = scratchB;
  p.velocityBefore.vsub(surfaceVelocity(rock, p.previous, scratchA), before);
  const u = surfaceVelocity(rock, p.body.position, scratchA);
  if (contact.depthM > 0 && -before.dot(contact.normal) > BOUNCE_MIN_SPEED) {
    impactVelocity(before, contact.normal, material, before);
    u.vadd(before, p.body.velocity);
    const out = Math.max(0, contact.depthM - IMPACT_SLOP_M);
    p.body.position.vadd(contact.normal.scale(out, scratchC), p.body.position);
    counters.contactImpacts++;
    return;
  }
  const relative = scratchC;
  p.body.velocity.vsub(u, relative);
  const speed = relative.length();
  const cap = before.length() + PUSH_SLACK_MS2 * dtS;
  if (speed > cap) {
    u.vadd(relative.scale(cap / speed, relative), p.body.velocity);
    counters.energyCapped++;
  }
}
