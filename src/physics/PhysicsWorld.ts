/**
 * The physics of thrown probes (issue 19): a cannon-es world stepped at a fixed rate from the scene's
 * clock, probe spheres that collide with colliders built from the drawn meshes (meshCollider.ts),
 * and the bookkeeping users and tests see (resting, penetration).
 *
 * Policies, each for a limit cannon-es does not handle itself:
 * - Fixed steps of {@link STEP_S}, as many as the clock owes within 1 s of scene time and a wall-clock
 *   budget an update (stepClock.ts): real time down to ~1 fps; a frame that falls further behind runs
 *   the world slower rather than spiralling (probes near a collider go with it over the time dropped:
 *   carry.ts); a frozen clock (`t=` in the URL) steps nothing.
 * - No continuous collision detection in cannon-es, and its sphere-trimesh contact pushes a centre
 *   that crossed a surface out the far side: before each step a moving probe casts a ray along its
 *   motion and bounces off the first surface it would reach (a swept test, with a restitution that
 *   falls with impact speed), so a fast throw neither tunnels through thin rock, sinks into a body,
 *   nor rebounds past escape speed.
 * - A collider's mesh changes with its level of detail: when a shape is replaced, probes the new
 *   surface would hold inside are lifted out along the line from the body's centre before the next
 *   step (a probe never drops through a level change).
 * - Rest: cannon-es has no rolling resistance and cannot sleep a probe on a spinning collider, so a
 *   touching probe is slowed (0.35 g and a viscous term), and one slow for 0.5 s is pinned to its
 *   collider's frame (it turns with it; a new shape unpins it).
 * - Contacts make no energy: a push out of the rock is capped at the probe's incoming speed.
 * - Throws in quick succession start inside each other: a new probe passes through other probes
 *   until clear of them (setMask).
 * - At most `maxProbes` alive: a new throw removes the oldest.
 * - Gravity comes from the caller's `gravityAt` (the scene knows its bodies): toward a planet's centre
 *   near it, toward an asteroid's among asteroids; a sea's buoyancy and drag from `waterDepthAt` (water.ts).
 * docs/physics.md gives the numbers behind each.
 *
 * No three.js here: positions are plain arrays in the scene's world frame (metres).
 */
import { Body, ContactMaterial, Material, Quaternion, Sphere, Vec3, World, type Trimesh } from 'cannon-es';
import { carryWith } from './carry';
import { liftProbeOut } from './liftOut';
import { StepClock, STEP_S } from './stepClock';
import { sweptImpact } from './sweptImpact';
import { waterAcceleration } from './water';

export type Vec3Tuple = [number, number, number];
export type QuatTuple = [number, number, number, number];

export { MAX_STEPS, STEP_BUDGET_MS, STEP_S } from './stepClock';
/**
 * Relative speed under which a touching probe counts as at rest, m/s: 5 cm/s, or 1% of its radius a
 * second for a large one (cannon-es's contact solver leaves a big probe that much jitter).
 */
export const REST_SPEED = 0.05;
const REST_SPEED_PER_M = 0.01;
/** Mass of every probe, kg (see throwProbe). */
const PROBE_MASS_KG = 10;
/** Damping of a touching probe's spin and of its speed over the surface, 1/s. */
const ROLLING_DAMPING = 1;
/** Rolling resistance of regolith: a touching probe's speed over the surface falls by this × g. */
const ROLLING_RESISTANCE = 0.35;
/** What a contact may add to a probe's speed in a step, m/s: two steps of gravity up to 10 m/s². */
const PUSH_SLACK_MS = 2 * STEP_S * 10;
/** How long a probe must stay that slow to rest (pinned to its collider), seconds. */
const REST_TIME_S = 0.5;

const PROBE_GROUP = 1;
const COLLIDER_GROUP = 2;

/** Where a collider is at a moment of scene time (a spinning asteroid turns under its probes). */
export interface ColliderPose {
  positionM: Vec3Tuple;
  quaternion: QuatTuple;
  /** Spin, rad/s in the world frame (contacts see the surface move). */
  angularVelocity?: Vec3Tuple;
}

export interface ProbeView {
  id: number;
  radiusM: number;
  /** Interpolated between the last two steps, for drawing. */
  positionM: Vec3Tuple;
  quaternion: QuatTuple;
  resting: boolean;
  /** The id of the collider it rests on (pinned to), or null. */
  restingOn: string | null;
}

export interface PhysicsStats {
  /** Probes alive. */
  bodies: number;
  resting: number;
  /** Deepest probe-on-surface contact of the last step, metres. */
  maxPenetrationM: number;
  /** Deepest probe contact of any step since the probes were last cleared, metres. */
  worstPenetrationM: number;
  /** Deepest contact of the resting probes when they came to rest (they are then held), metres. */
  restingPenetrationM: number;
  colliders: number;
  /** Triangles over every collider. */
  colliderTriangles: number;
  steps: number;
  /** Scene time the world did not simulate (an update past MAX_STEPS or its wall-clock budget), seconds. */
  droppedS: number;
  /** Fast probes stopped by the swept test. */
  sweptStops: number;
  /** Probes lifted out of a replaced collider shape. */
  lifted: number;
  /** Contact pushes capped at the probe's incoming speed (see afterStep). */
  energyCapped: number;
}

export interface PhysicsWorldOptions {
  /** Gravity at a world point, m/s² (default none). */
  gravityAt?: (positionM: Vec3Tuple) => Vec3Tuple;
  /** How deep a world point is under a sea's surface, m (negative over it; default: no sea). water.ts says what water does. */
  waterDepthAt?: (positionM: Vec3Tuple) => number;
  maxProbes?: number;
  /** Bounciness of probe on rock (0 … 1), default 0.2. */
  restitution?: number;
  friction?: number;
}

interface Probe {
  id: number;
  body: Body;
  radiusM: number;
  previous: Vec3;
  previousQuaternion: Quaternion;
  slowS: number;
  /** Not yet colliding with other probes (see setMask). */
  ghost: boolean;
  /** Speed before this step's contacts, m/s. */
  speedBefore: number;
  /** Gravity's magnitude at the probe this step, m/s². */
  gravity: number;
  /** At rest and pinned to a collider's frame (see pin), or null. */
  pinned: { collider: Body; position: Vec3; quaternion: Quaternion; penetrationM: number } | null;
}

interface Collider {
  body: Body;
  centerLocal: Vec3;
}

const scratchA = new Vec3();
const scratchB = new Vec3();
const scratchWater: Vec3Tuple = [0, 0, 0];
const NO_WATER: Vec3Tuple = [0, 0, 0];
const scratchC = new Vec3();

/**
 * What a probe collides with: other probes once clear of them (a new throw starts inside the last
 * ones, and cannon-es separated them at hundreds of m/s), the rock unless pinned (held by its pin,
 * a resting probe needs no contacts with it: they were most of a resting world's step; moving
 * probes still bounce off it).
 */
function setMask(p: Probe): void {
  p.body.collisionFilterMask = (p.ghost ? 0 : PROBE_GROUP) | (p.pinned ? 0 : COLLIDER_GROUP);
}

export class PhysicsWorld {
  readonly world = new World({ gravity: new Vec3(0, 0, 0), allowSleep: false });
  private readonly probes: Probe[] = [];
  private readonly colliders = new Map<string, Collider>();
  private readonly rock = new Material('rock');
  private readonly probeMaterial = new Material('probe');
  private readonly gravityAt: (p: Vec3Tuple) => Vec3Tuple;
  private readonly waterDepthAt: ((p: Vec3Tuple) => number) | null;
  private readonly maxProbes: number;
  readonly restitution: number;
  readonly friction: number;
  private nextId = 1;
  /** Scene time → fixed steps, within a step count and a wall-clock budget (stepClock.ts). */
  private readonly clock = new StepClock();
  private maxPenetrationM = 0;
  private worstPenetrationM = 0;
  private readonly counters = { steps: 0, sweptStops: 0, lifted: 0, energyCapped: 0 };

  constructor(options: PhysicsWorldOptions = {}) {
    this.gravityAt = options.gravityAt ?? (() => [0, 0, 0]);
    this.waterDepthAt = options.waterDepthAt ?? null;
    this.maxProbes = options.maxProbes ?? 50;
    this.restitution = options.restitution ?? 0.2;
    this.friction = options.friction ?? 0.6;
    this.world.addContactMaterial(new ContactMaterial(this.rock, this.probeMaterial, {
      friction: this.friction,
      restitution: this.restitution,
      contactEquationStiffness: 1e8,
      contactEquationRelaxation: 3,
    }));
    this.world.addContactMaterial(new ContactMaterial(this.probeMaterial, this.probeMaterial, { friction: 0.4, restitution: 0.3 }));
  }

  /**
   * Adds or replaces collider `id` (its shape in the body's own frame; `centerLocal`, in that frame,
   * is where replaced shapes lift probes away from). Replacing keeps the body: probes touching it
   * keep touching the new surface.
   */
  setCollider(id: string, shape: Trimesh, pose: ColliderPose, centerLocal: Vec3Tuple = [0, 0, 0]): void {
    let collider = this.colliders.get(id);
    if (!collider) {
      const body = new Body({ type: Body.KINEMATIC, material: this.rock, collisionFilterGroup: COLLIDER_GROUP, collisionFilterMask: PROBE_GROUP });
      collider = { body, centerLocal: new Vec3(...centerLocal) };
      this.colliders.set(id, collider);
      this.world.addBody(body);
    } else {
      while (collider.body.shapes.length > 0) collider.body.removeShape(collider.body.shapes[0]);
      collider.centerLocal.set(...centerLocal);
    }
    this.setPose(collider.body, pose);
    collider.body.addShape(shape);
    this.liftOut(collider);
  }

  removeCollider(id: string): void {
    const collider = this.colliders.get(id);
    if (!collider) return;
    for (const p of this.probes) if (p.pinned?.collider === collider.body) this.unpin(p);
    this.world.removeBody(collider.body);
    this.colliders.delete(id);
  }

  private colliderId(body: Body): string | null {
    for (const [id, c] of this.colliders) if (c.body === body) return id;
    return null;
  }

  /** Throws a probe of `radiusM` from `fromM` at `velocityMS`; returns its id. The oldest goes past `maxProbes`. */
  throwProbe(fromM: Vec3Tuple, velocityMS: Vec3Tuple, radiusM = 1): number {
    if (![...fromM, ...velocityMS, radiusM].every(Number.isFinite) || radiusM <= 0) {
      throw new RangeError(`throwProbe: position, velocity and radius must be finite (radius > 0)`);
    }
    while (this.probes.length >= this.maxProbes) this.removeProbe(this.probes[0].id);
    // One mass for every probe: gravity is an acceleration, and cannon-es's contact stiffness is in
    // N/m, so a probe's mass by its volume (a 25 m rock: 1.6e8 kg) sank it metres into the rock.
    const mass = PROBE_MASS_KG;
    // A ghost (setMask) until clear of the other probes.
    const body = new Body({
      mass, material: this.probeMaterial, shape: new Sphere(radiusM), linearDamping: 0, angularDamping: 0.01,
      collisionFilterGroup: PROBE_GROUP, collisionFilterMask: COLLIDER_GROUP,
    });
    body.position.set(...fromM);
    body.velocity.set(...velocityMS);
    this.world.addBody(body);
    const id = this.nextId++;
    this.probes.push({ id, body, radiusM, previous: body.position.clone(), previousQuaternion: body.quaternion.clone(), slowS: 0, ghost: true, speedBefore: 0, gravity: 0, pinned: null });
    return id;
  }

  removeProbe(id: number): void {
    const i = this.probes.findIndex((p) => p.id === id);
    if (i < 0) return;
    this.world.removeBody(this.probes[i].body);
    this.probes.splice(i, 1);
  }

  clearProbes(): void {
    for (const p of [...this.probes]) this.removeProbe(p.id);
    this.worstPenetrationM = 0;
  }

  /**
   * Advances the world to scene time `timeS` in fixed steps (`poseAt` gives each collider's pose at a
   * step's time). A clock that went backwards or jumped resynchronises without stepping.
   */
  update(timeS: number, poseAt?: (id: string, timeS: number) => ColliderPose | null): void {
    const dropped = this.clock.droppedS;
    // Nothing moves without probes: keep the clock, step nothing (explore's frames pay nothing).
    this.clock.advance(timeS, this.probes.length === 0, (t) => {
      if (poseAt) {
        for (const [id, c] of this.colliders) {
          const pose = poseAt(id, t);
          if (pose) this.setPose(c.body, pose);
        }
      }
      this.step();
    });
    if (poseAt && this.clock.droppedS > dropped) this.carry(poseAt, timeS - this.clock.accumulatorS);
  }

  /** Time was dropped: colliders jump to the clock's pose and take the probes near them along (carry.ts). */
  private carry(poseAt: (id: string, timeS: number) => ColliderPose | null, timeS: number): void {
    for (const [id, c] of this.colliders) {
      const pose = poseAt(id, timeS);
      if (!pose) continue;
      const from = c.body.position.clone();
      const turn = c.body.quaternion.clone();
      this.setPose(c.body, pose);
      for (const p of this.probes) {
        if (p.pinned) {
          if (p.pinned.collider === c.body) this.followPin(p);
        } else if (p.body.position.distanceTo(from) <= c.body.boundingRadius + p.radiusM + 1) {
          carryWith(p.body, from, turn, c.body);
          p.previous.copy(p.body.position);
          p.previousQuaternion.copy(p.body.quaternion);
        }
      }
    }
  }

  /** One fixed step: gravity, the swept test, cannon's step, then rest and penetration. */
  step(): void {
    for (const p of this.probes) {
      p.previous.copy(p.body.position);
      p.previousQuaternion.copy(p.body.quaternion);
      const g = this.gravityAt([p.body.position.x, p.body.position.y, p.body.position.z]);
      p.gravity = Math.hypot(g[0], g[1], g[2]);
      const w = this.waterDepthAt ? waterAcceleration(g, p.body.velocity, this.waterDepthAt([p.body.position.x, p.body.position.y, p.body.position.z]), p.radiusM, scratchWater) : NO_WATER;
      p.body.force.set((g[0] + w[0]) * p.body.mass, (g[1] + w[1]) * p.body.mass, (g[2] + w[2]) * p.body.mass);
      if (sweptImpact(this.world, p.body, p.radiusM, STEP_S, COLLIDER_GROUP, this)) this.counters.sweptStops++;
    }
    for (const p of this.probes) {
      p.speedBefore = p.body.velocity.length();
      this.followPin(p);
    }
    this.world.step(STEP_S);
    this.counters.steps++;
    for (const p of this.probes) this.followPin(p);
    this.afterStep();
  }

  /** Probes to draw, interpolated between the last two steps. */
  views(): ProbeView[] {
    const alpha = Math.min(1, this.clock.accumulatorS / STEP_S);
    return this.probes.map((p) => {
      p.previous.lerp(p.body.position, alpha, scratchA);
      const q = new Quaternion();
      p.previousQuaternion.slerp(p.body.quaternion, alpha, q);
      return {
        id: p.id, radiusM: p.radiusM, positionM: [scratchA.x, scratchA.y, scratchA.z],
        quaternion: [q.x, q.y, q.z, q.w], resting: p.pinned !== null, restingOn: p.pinned ? this.colliderId(p.pinned.collider) : null,
      };
    });
  }

  /** Probes alive. */
  get probeCount(): number {
    return this.probes.length;
  }

  /** Probes' velocities, m/s, in `views()` order. */
  velocities(): Vec3Tuple[] {
    return this.probes.map((p) => [p.body.velocity.x, p.body.velocity.y, p.body.velocity.z]);
  }

  stats(): PhysicsStats {
    let triangles = 0;
    for (const c of this.colliders.values()) for (const s of c.body.shapes) triangles += (s as Trimesh).indices.length / 3;
    return {
      bodies: this.probes.length,
      resting: this.probes.filter((p) => p.pinned !== null).length,
      maxPenetrationM: this.maxPenetrationM,
      worstPenetrationM: this.worstPenetrationM,
      restingPenetrationM: this.probes.reduce((m, p) => Math.max(m, p.pinned?.penetrationM ?? 0), 0),
      colliders: this.colliders.size,
      colliderTriangles: triangles,
      ...this.counters,
      droppedS: this.clock.droppedS,
    };
  }

  dispose(): void {
    this.clearProbes();
    for (const id of [...this.colliders.keys()]) this.removeCollider(id);
  }

  private setPose(body: Body, pose: ColliderPose): void {
    body.position.set(...pose.positionM);
    body.quaternion.set(...pose.quaternion);
    body.angularVelocity.set(...(pose.angularVelocity ?? [0, 0, 0]));
    body.aabbNeedsUpdate = true;
  }

  /**
   * After a shape change, or a new collider where another was (a planet chunk replacing its parent):
   * probes the new surface holds inside are put back a radius outside it (liftOut.ts).
   */
  private liftOut(c: Collider): void {
    const body = c.body;
    for (const p of this.probes) if (p.pinned?.collider === body) this.unpin(p);
    body.updateAABB();
    const center = body.pointToWorldFrame(c.centerLocal, new Vec3());
    for (const p of this.probes) {
      if (p.body.position.distanceTo(body.position) > body.boundingRadius + p.radiusM + 1e-3) continue;
      // Lifted: a pin elsewhere would put it back inside.
      if (liftProbeOut(body, center, p.body, p.radiusM, COLLIDER_GROUP)) {
        this.unpin(p);
        this.counters.lifted++;
      }
    }
  }

  /**
   * Pins a probe at rest to the collider it rests on: cannon-es leaves a resting sphere a few cm/s of
   * solver jitter (it never sleeps here: its colliders spin), and on a slope that creeps. Pinned, it
   * turns with its asteroid and other probes bounce off it, until its collider's mesh changes.
   */
  private pin(p: Probe, collider: Body, penetrationM: number): void {
    const position = collider.pointToLocalFrame(p.body.position, new Vec3());
    const quaternion = collider.quaternion.conjugate().mult(p.body.quaternion);
    p.pinned = { collider, position, quaternion, penetrationM };
    setMask(p);
    this.followPin(p);
  }

  /** Frees a pinned probe (its collider's mesh changed, or the collider went). */
  private unpin(p: Probe): void {
    if (!p.pinned) return;
    p.pinned = null;
    p.slowS = 0;
    setMask(p);
  }

  /** A pinned probe where its collider's frame holds it, moving with the surface under it. */
  private followPin(p: Probe): void {
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

  /** Rest timers (speed relative to the touched surface) and the deepest contact of this step. */
  private afterStep(): void {
    const touching = new Map<Body, Body>();
    const depth = new Map<Body, number>();
    let deepest = 0;
    for (const c of this.world.contacts) {
      // g < 0 is overlap: (xj + rj) − (xi + ri) along the normal from i to j.
      c.bi.position.vadd(c.ri, scratchA);
      c.bj.position.vadd(c.rj, scratchB);
      scratchB.vsub(scratchA, scratchC);
      const g = scratchC.dot(c.ni);
      // Into a surface only: probes thrown from one spot overlap each other for a step or two.
      if (c.bi.type !== Body.DYNAMIC || c.bj.type !== Body.DYNAMIC) {
        deepest = Math.max(deepest, -g);
        const probe = c.bi.type === Body.DYNAMIC ? c.bi : c.bj;
        depth.set(probe, Math.max(depth.get(probe) ?? 0, -g));
      }
      // What each probe rests on: a collider before another probe.
      for (const [a, b] of [[c.bi, c.bj], [c.bj, c.bi]]) {
        if (a.type === Body.DYNAMIC && (b.type !== Body.DYNAMIC || !touching.has(a))) touching.set(a, b);
      }
    }
    this.maxPenetrationM = deepest;
    for (const p of this.probes) {
      if (!p.ghost) continue;
      const clear = this.probes.every((q) => q === p || q.body.position.distanceTo(p.body.position) > q.radiusM + p.radiusM);
      if (clear) {
        p.ghost = false;
        setMask(p);
      }
    }
    this.worstPenetrationM = Math.max(this.worstPenetrationM, deepest);
    for (const p of this.probes) {
      const surface = touching.get(p.body);
      if (!surface) {
        p.slowS = 0;
        continue;
      }
      // Velocity of the surface under the probe: v + ω × r.
      p.body.position.vsub(surface.position, scratchA);
      surface.angularVelocity.cross(scratchA, scratchB);
      scratchB.vadd(surface.velocity, scratchB);
      p.body.velocity.vsub(scratchB, scratchC);
      const relative = scratchC.length();
      p.slowS = relative < Math.max(REST_SPEED, REST_SPEED_PER_M * p.radiusM) ? p.slowS + STEP_S : 0;
      if (p.slowS >= REST_TIME_S && !p.pinned && surface.type === Body.KINEMATIC) this.pin(p, surface, Math.max(0, depth.get(p.body) ?? 0));
      // Contacts make no energy: cannon-es pushes a probe out of the rock by velocity, and a probe
      // the swept test set down against one facet but overlapping the next left at up to 200 m/s.
      // Such a push is capped at the speed the probe came in with (the rock still pushes it out).
      const speed = p.body.velocity.length();
      const cap = p.speedBefore + PUSH_SLACK_MS;
      if (speed > cap) {
        p.body.velocity.scale(cap / speed, p.body.velocity);
        this.counters.energyCapped++;
      }
      // Rolling resistance (regolith): cannon-es has none, so a sphere rolling on a sphere under
      // central gravity never stops, and a viscous damping alone let probes creep down every slope.
      // A constant deceleration (μ_roll × g) and a viscous part slow the motion over the surface
      // while touching; a probe stops on slopes gentler than ~atan(μ_roll).
      scratchC.copy(p.body.velocity);
      scratchC.vsub(scratchB, scratchC);
      const relative2 = scratchC.length();
      if (relative2 > 0) {
        const slowed = Math.max(0, relative2 - (ROLLING_RESISTANCE * p.gravity + ROLLING_DAMPING * relative2) * STEP_S);
        const keep = slowed / relative2;
        p.body.angularVelocity.scale(keep, p.body.angularVelocity);
        scratchB.vadd(scratchC.scale(keep, scratchC), p.body.velocity);
      }
    }
  }
}
