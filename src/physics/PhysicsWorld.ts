/**
 * The physics of thrown probes (issue 19): a cannon-es world stepped at a fixed rate from the scene's
 * clock, probe spheres that collide with colliders built from the drawn meshes (meshCollider.ts),
 * and the bookkeeping users and tests see (resting, penetration).
 *
 * Policies, each for a limit cannon-es does not handle itself:
 * - Fixed steps of {@link STEP_S}, as many as the clock owes within 120 steps and a wall-clock budget
 *   an update, longer steps (up to 4 × STEP_S) when those do not fit (stepClock.ts): real time down to
 *   ~0.25 fps; a frame that falls further behind runs the world slower rather than spiralling (probes
 *   near a collider go with it over the time dropped: carry.ts); a frozen clock (`t=` in the URL)
 *   steps nothing.
 * - Judged in the frame of the surface under the probe (issue 45): a spinning asteroid's surface moves
 *   (ω × r), so impacts, the push cap, rolling resistance and rest all use the probe's velocity minus
 *   the surface's at the probe (impact.ts). cannon-es's own contacts never bounce (restitution 0: its
 *   restitution scales world-frame velocities and kicked a probe riding the surface up at each touch);
 *   an impact faster than {@link BOUNCE_MIN_SPEED} is settled by the impact model instead.
 * - No continuous collision detection in cannon-es, and its sphere-trimesh contact pushes a centre
 *   that crossed a surface out the far side: before each step a moving probe casts a ray along its
 *   motion (relative to the surface it is over) and bounces off the first surface it would reach (a
 *   swept test, with a restitution that falls with impact speed), so a fast throw neither tunnels
 *   through thin rock, sinks into a body, nor rebounds past escape speed. A fast impact the ray missed
 *   (the sphere's side met the rock first: a throw skimmed off explore 1's asteroid at 320 m/s) is
 *   settled from cannon-es's contact with the same model, the probe put back out of the rock.
 * - A collider's mesh changes with its level of detail: when a shape is replaced, probes the new
 *   surface would hold inside are lifted out along the line from the body's centre before the next
 *   step (a probe never drops through a level change).
 * - Rest: cannon-es has no rolling resistance and cannot sleep a probe on a spinning collider, so a
 *   touching probe is slowed (0.35 g and a viscous term), and one slow for 0.5 s is pinned to its
 *   collider's frame (it turns with it; a new shape unpins it).
 * - Contacts make no energy: a push out of the rock is capped at the probe's incoming speed over it.
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
import { readContacts, type ProbeContact } from './contacts';
import { isMoving, surfaceVelocity } from './impact';
import { AIR_GRACE_S, COLLIDER_GROUP, followPin, PROBE_GROUP, respondToContact, setMask, unpin, type Probe } from './probe';
import { liftProbeOut } from './liftOut';
import { StepClock, STEP_S } from './stepClock';
import { sweptImpact } from './sweptImpact';
import { waterAcceleration } from './water';

export type Vec3Tuple = [number, number, number];
export type QuatTuple = [number, number, number, number];

export { MAX_COARSE, MAX_STEPS, STEP_BUDGET_MS, STEP_S } from './stepClock';
export { REST_SPEED } from './probe';
/** Mass of every probe, kg (see throwProbe). */
const PROBE_MASS_KG = 10;

/** Where a collider is at a moment of scene time (a spinning asteroid turns under its probes). */
export interface ColliderPose {
  positionM: Vec3Tuple;
  quaternion: QuatTuple;
  /** Spin, rad/s in the world frame (contacts see the surface move). */
  angularVelocity?: Vec3Tuple;
  /** Velocity of its frame's origin, m/s (an orbiting body; default still). */
  velocityMS?: Vec3Tuple;
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
  /** Steps longer than STEP_S, taken when the fine ones did not fit an update's budget (stepClock.ts). */
  coarseSteps: number;
  /** Fast probes stopped by the swept test. */
  sweptStops: number;
  /** Fast impacts settled from cannon-es's contacts (the swept ray missed them). */
  contactImpacts: number;
  /** Probes lifted out of a replaced collider shape. */
  lifted: number;
  /** Contact pushes capped at the probe's incoming speed (see afterStep). */
  energyCapped: number;
}

export interface PhysicsWorldOptions {
  /** Gravity at a world point at scene time `timeS` (a spinning body's pull turns with it), m/s² (default none). */
  gravityAt?: (positionM: Vec3Tuple, timeS: number) => Vec3Tuple;
  /** How deep a world point is under a sea's surface, m (negative over it; default: no sea). water.ts says what water does. */
  waterDepthAt?: (positionM: Vec3Tuple) => number;
  maxProbes?: number;
  /** Bounciness of probe on rock at slow impacts (0 … 1; it falls with impact speed, impact.ts), default 0.2. */
  restitution?: number;
  friction?: number;
  /** The wall clock the step budget is measured on, ms (tests give a fake one; default performance.now). */
  nowMs?: () => number;
}

interface Collider {
  body: Body;
  centerLocal: Vec3;
}

const scratchA = new Vec3();
const scratchWater: Vec3Tuple = [0, 0, 0];
const NO_WATER: Vec3Tuple = [0, 0, 0];
const scratchU = new Vec3();

export class PhysicsWorld {
  readonly world = new World({ gravity: new Vec3(0, 0, 0), allowSleep: false });
  private readonly probes: Probe[] = [];
  private readonly colliders = new Map<string, Collider>();
  private readonly rock = new Material('rock');
  private readonly probeMaterial = new Material('probe');
  private readonly gravityAt: (p: Vec3Tuple, timeS: number) => Vec3Tuple;
  /** Scene time at the start of the step running (or last run), seconds. */
  private stepTimeS = 0;
  private readonly waterDepthAt: ((p: Vec3Tuple) => number) | null;
  private readonly maxProbes: number;
  readonly restitution: number;
  readonly friction: number;
  private nextId = 1;
  /** Scene time → fixed steps, within a step count and a wall-clock budget (stepClock.ts). */
  private readonly clock: StepClock;
  private maxPenetrationM = 0;
  private worstPenetrationM = 0;
  private readonly counters = { steps: 0, sweptStops: 0, contactImpacts: 0, lifted: 0, energyCapped: 0 };
  /** Each probe's contact after the last step (contacts.ts), and spare records. */
  private readonly contacts = new Map<Body, ProbeContact>();
  private readonly contactPool: ProbeContact[] = [];

  constructor(options: PhysicsWorldOptions = {}) {
    this.gravityAt = options.gravityAt ?? (() => [0, 0, 0]);
    this.waterDepthAt = options.waterDepthAt ?? null;
    this.maxProbes = options.maxProbes ?? 50;
    this.restitution = options.restitution ?? 0.2;
    this.friction = options.friction ?? 0.6;
    this.clock = new StepClock(options.nowMs);
    // cannon-es's contacts never bounce: its restitution scales world-frame velocities, so on a moving
    // surface it kicked a resting probe up at each touch. Bounces are impact.ts's, relative to the rock.
    this.world.addContactMaterial(new ContactMaterial(this.rock, this.probeMaterial, {
      friction: this.friction,
      restitution: 0,
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
    for (const p of this.probes) if (p.pinned?.collider === collider.body) unpin(p);
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
    this.probes.push({
      id, body, radiusM, previous: body.position.clone(), previousQuaternion: body.quaternion.clone(), slowS: 0, ghost: true,
      velocityBefore: new Vec3(), surface: null, airS: 0, gravity: 0, pinned: null,
    });
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
    this.clock.advance(timeS, this.probes.length === 0, (t, dtS) => {
      // Colliders at the step's start, where the probes are: cannon-es's contacts see both at one
      // moment, and its integration turns the colliders on to the step's end with the probes.
      this.stepTimeS = t - dtS;
      if (poseAt) {
        for (const [id, c] of this.colliders) {
          const pose = poseAt(id, t - dtS);
          if (pose) this.setPose(c.body, pose);
        }
      }
      this.step(dtS);
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
          if (p.pinned.collider === c.body) followPin(p);
        } else if (p.body.position.distanceTo(from) <= c.body.boundingRadius + p.radiusM + 1) {
          carryWith(p.body, from, turn, c.body);
          p.previous.copy(p.body.position);
          p.previousQuaternion.copy(p.body.quaternion);
        }
      }
    }
  }

  /** One step of `dtS` (STEP_S unless the clock coarsened it): gravity, the swept test, cannon's step, then contacts, rest and penetration. */
  step(dtS = STEP_S): void {
    for (const p of this.probes) {
      p.previous.copy(p.body.position);
      p.previousQuaternion.copy(p.body.quaternion);
      const g = this.gravityAt([p.body.position.x, p.body.position.y, p.body.position.z], this.stepTimeS);
      p.gravity = Math.hypot(g[0], g[1], g[2]);
      const w = this.waterDepthAt ? waterAcceleration(g, p.body.velocity, this.waterDepthAt([p.body.position.x, p.body.position.y, p.body.position.z]), p.radiusM, scratchWater) : NO_WATER;
      p.body.force.set((g[0] + w[0]) * p.body.mass, (g[1] + w[1]) * p.body.mass, (g[2] + w[2]) * p.body.mass);
      if (p.pinned) continue; // held by its pin: nothing to sweep
      // The sweep is relative to the surface the probe is over: a probe riding a spinning asteroid
      // moves at the surface's 8 m/s in the world, and swept into the rock ahead of it as if it stood still.
      const carrier = this.carrierOf(p, dtS);
      if (carrier) surfaceVelocity(carrier, p.body.position, scratchU);
      else scratchU.set(0, 0, 0);
      if (sweptImpact(this.world, p.body, p.radiusM, dtS, COLLIDER_GROUP, this, scratchU)) this.counters.sweptStops++;
    }
    for (const p of this.probes) {
      p.velocityBefore.copy(p.body.velocity);
      followPin(p);
    }
    this.world.step(dtS);
    this.counters.steps++;
    for (const p of this.probes) followPin(p);
    this.afterStep(dtS);
  }

  /**
   * The collider whose frame judges a probe's motion: the one it touched last step, else a moving
   * collider it is within reach of (null: the world frame, as every still collider's).
   */
  private carrierOf(p: Probe, dtS: number): Body | null {
    if (p.surface && isMoving(p.surface)) return p.surface;
    const reach = p.radiusM + p.body.velocity.length() * dtS + 1;
    for (const c of this.colliders.values()) {
      if (isMoving(c.body) && p.body.position.distanceTo(c.body.position) <= c.body.boundingRadius + reach) return c.body;
    }
    return null;
  }

  /** Probes to draw, interpolated between the last two steps. */
  views(): ProbeView[] {
    const alpha = Math.min(1, this.clock.accumulatorS / this.clock.lastStepS);
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
      coarseSteps: this.clock.coarseSteps,
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
    body.velocity.set(...(pose.velocityMS ?? [0, 0, 0]));
    body.aabbNeedsUpdate = true;
  }

  /**
   * After a shape change, or a new collider where another was (a planet chunk replacing its parent):
   * probes the new surface holds inside are put back a radius outside it (liftOut.ts).
   */
  private liftOut(c: Collider): void {
    const body = c.body;
    for (const p of this.probes) if (p.pinned?.collider === body) unpin(p);
    body.updateAABB();
    const center = body.pointToWorldFrame(c.centerLocal, new Vec3());
    for (const p of this.probes) {
      if (p.body.position.distanceTo(body.position) > body.boundingRadius + p.radiusM + 1e-3) continue;
      // Lifted: a pin elsewhere would put it back inside.
      if (liftProbeOut(body, center, p.body, p.radiusM, COLLIDER_GROUP)) {
        unpin(p);
        this.counters.lifted++;
      }
    }
  }

  /**
   * After cannon's step, per probe, in the frame of what it touches (its velocity minus the surface's
   * at the probe): a fast impact settled by the impact model, a push capped, rolling resistance, the
   * rest timer and pin; and the deepest contact of this step.
   */
  private afterStep(dtS: number): void {
    const deepest = readContacts(this.world.contacts, this.contacts, this.contactPool);
    this.maxPenetrationM = deepest;
    this.worstPenetrationM = Math.max(this.worstPenetrationM, deepest);
    for (const p of this.probes) {
      if (!p.ghost) continue;
      const clear = this.probes.every((q) => q === p || q.body.position.distanceTo(p.body.position) > q.radiusM + p.radiusM);
      if (clear) {
        p.ghost = false;
        setMask(p);
      }
    }
    for (const p of this.probes) {
      const contact = this.contacts.get(p.body);
      if (!contact) {
        // In the air: the rest timer waits a moment (AIR_GRACE_S) before it starts again.
        p.airS += dtS;
        if (p.airS > AIR_GRACE_S) {
          p.slowS = 0;
          p.surface = null;
        }
        continue;
      }
      respondToContact(p, contact, dtS, this, this.counters);
    }
  }
}
