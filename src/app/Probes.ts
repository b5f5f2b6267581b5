/**
 * Thrown probes in the explorer (issue 19): the physics world (src/physics/PhysicsWorld.ts) fed with
 * colliders from the asteroids' drawn meshes, and the probes drawn as shadowed spheres.
 *
 * Colliders exist only where a probe is near (seed 000's rule): an asteroid gets one when a probe
 * comes within {@link NEAR_M} of its bounding sphere, built from the mesh it draws now, rebuilt when
 * that mesh changes level (the physics world lifts probes the new surface would hold inside), and
 * dropped once no probe is near. At most {@link BUILDS_PER_UPDATE} builds an update keep a swarm of
 * probes from stalling a frame; a probe whose collider is still waiting is held back by the swept
 * test as soon as the collider lands.
 *
 * Gravity: each asteroid pulls probes within three radii toward its centre with {@link ASTEROID_G}
 * at its surface, falling as 1/r². Real asteroids of this size pull ~10⁻⁴ m/s²: a probe would take
 * hours to come back from its first bounce, so the pull is a game's, not nature's. A probe that
 * leaves every body's reach by {@link LOST_M} is removed.
 */
import {
  Color, IcosahedronGeometry, InstancedMesh, Matrix4, MeshStandardMaterial, Quaternion, Vector3, type Group, type PerspectiveCamera,
} from 'three';
import { meshCollider } from '../physics/meshCollider';
import { PhysicsWorld, type ColliderPose, type PhysicsStats, type Vec3Tuple } from '../physics/PhysicsWorld';
import type { AsteroidField } from './AsteroidField';

/** Probes alive at once; a new throw removes the oldest. */
export const MAX_PROBES = 50;
/**
 * A throw scales with the distance d from the camera to the nearest asteroid's surface, as flight
 * speed scales with altitude: speed d / {@link THROW_TIME_S} (a probe arrives in a few seconds,
 * from 20 m or 3 km), radius d / 100 (a few pixels wide), each clamped.
 */
const THROW_TIME_S = 2.5;
export const THROW_SPEED_MS: readonly [number, number] = [5, 400];
export const PROBE_RADIUS_M: readonly [number, number] = [0.5, 25];
/** A collider exists while a probe is this close to the asteroid's bounding sphere, metres. */
const NEAR_M = 40;
/** Surface pull of an asteroid, m/s² (see the header). */
export const ASTEROID_G = 1;
/** Removed when this far from every asteroid's bounding sphere, metres. */
const LOST_M = 5000;
const BUILDS_PER_UPDATE = 1;
/** Colliders are built for where probes will be this soon, seconds. */
const LOOKAHEAD_S = 1;

export interface ProbeStats extends PhysicsStats {
  /** Collider builds so far, and the slowest, ms (main thread). */
  colliderBuilds: number;
  slowestBuildMs: number;
}

const axis = new Vector3();
const spin = new Quaternion();
const matrix = new Matrix4();
const position = new Vector3();
const rotation = new Quaternion();
const scale = new Vector3();

export class Probes {
  readonly physics: PhysicsWorld;
  private readonly mesh: InstancedMesh;
  /** Collider key (asteroid index → its mesh key) of each built collider. */
  private readonly built = new Map<number, string>();
  private builds = 0;
  private slowestBuildMs = 0;

  constructor(private readonly field: AsteroidField, world: Group) {
    this.physics = new PhysicsWorld({ gravityAt: (p) => this.gravityAt(p), maxProbes: MAX_PROBES });
    const material = new MeshStandardMaterial({ color: new Color(0xff8a2a), roughness: 0.45, metalness: 0.6, emissive: new Color(0x331100) });
    this.mesh = new InstancedMesh(new IcosahedronGeometry(1, 3), material, MAX_PROBES);
    this.mesh.name = 'probes';
    this.mesh.castShadow = this.mesh.receiveShadow = true;
    this.mesh.count = 0;
    this.mesh.frustumCulled = false;
    world.add(this.mesh);
  }

  /**
   * Throws a probe from the camera along its view (2 m ahead of it), or along `toward` (a world
   * point) when given. Returns its id.
   */
  throwFrom(camera: PerspectiveCamera, speedMS?: number, toward?: Vec3Tuple): number {
    const ahead = toward ? new Vector3(...toward).sub(camera.position).normalize() : camera.getWorldDirection(new Vector3());
    const d = Math.max(0, this.field.nearest(camera.position).distanceM);
    const clamp = (x: number, [lo, hi]: readonly [number, number]) => Math.min(hi, Math.max(lo, x));
    const radius = clamp(d / 100, PROBE_RADIUS_M);
    const speed = speedMS ?? clamp(d / THROW_TIME_S, THROW_SPEED_MS);
    const from = camera.position.clone().addScaledVector(ahead, 2 + radius);
    return this.physics.throwProbe(from.toArray() as Vec3Tuple, ahead.multiplyScalar(speed).toArray() as Vec3Tuple, radius);
  }

  /** Colliders for the probes' neighbourhood, the world stepped to `timeS`, the instances drawn. */
  update(timeS: number): void {
    this.syncColliders(timeS);
    this.physics.update(timeS, (id, t) => this.poseAt(Number(id), t));
    const views = this.physics.views();
    for (const v of views) {
      const far = this.field.nearest(position.fromArray(v.positionM)).distanceM;
      if (far > LOST_M) this.physics.removeProbe(v.id);
    }
    const drawn = this.physics.views();
    drawn.forEach((v, i) => {
      matrix.compose(position.fromArray(v.positionM), rotation.fromArray(v.quaternion), scale.setScalar(v.radiusM));
      this.mesh.setMatrixAt(i, matrix);
    });
    this.mesh.count = drawn.length;
    this.mesh.instanceMatrix.needsUpdate = true;
  }

  stats(): ProbeStats {
    return { ...this.physics.stats(), colliderBuilds: this.builds, slowestBuildMs: this.slowestBuildMs };
  }

  clear(): void {
    this.physics.clearProbes();
  }

  dispose(): void {
    this.physics.dispose();
    this.mesh.removeFromParent();
    this.mesh.geometry.dispose();
    (this.mesh.material as MeshStandardMaterial).dispose();
    this.mesh.dispose();
  }

  /**
   * Builds, rebuilds and drops colliders by which asteroids a probe is near or will reach within
   * {@link LOOKAHEAD_S} (a fast probe's collider is ready before it arrives).
   */
  private syncColliders(timeS: number): void {
    const probes = this.physics.views();
    const velocities = this.physics.velocities();
    const near = new Set<number>();
    this.field.spec.asteroids.forEach((a, i) => {
      const c = a.positionM;
      probes.forEach((p, n) => {
        const v = velocities[n];
        const reach = a.radiusM + NEAR_M + p.radiusM + Math.hypot(v[0], v[1], v[2]) * LOOKAHEAD_S;
        if (Math.hypot(p.positionM[0] - c[0], p.positionM[1] - c[1], p.positionM[2] - c[2]) < reach) near.add(i);
      });
    });
    for (const i of [...this.built.keys()]) {
      if (near.has(i)) continue;
      this.physics.removeCollider(String(i));
      this.built.delete(i);
    }
    let budget = BUILDS_PER_UPDATE;
    for (const i of near) {
      const drawn = this.field.drawnMesh(i);
      if (!drawn || this.built.get(i) === drawn.key || budget <= 0) continue;
      budget--;
      const t0 = performance.now();
      const shape = meshCollider(drawn, drawn.offsetM);
      this.physics.setCollider(String(i), shape, this.poseAt(i, timeS));
      this.built.set(i, drawn.key);
      this.builds++;
      this.slowestBuildMs = Math.max(this.slowestBuildMs, performance.now() - t0);
    }
  }

  /** Asteroid `index`'s spinning frame at scene time `timeS` (as AsteroidField turns its pivot). */
  private poseAt(index: number, timeS: number): ColliderPose {
    const a = this.field.spec.asteroids[index];
    axis.set(...a.spinAxis);
    spin.setFromAxisAngle(axis, a.phaseRad + a.spinRadPerS * timeS);
    return {
      positionM: [...a.positionM],
      quaternion: [spin.x, spin.y, spin.z, spin.w],
      angularVelocity: [axis.x * a.spinRadPerS, axis.y * a.spinRadPerS, axis.z * a.spinRadPerS],
    };
  }

  /** The nearest asteroid's pull within three radii (see the header). */
  private gravityAt(p: Vec3Tuple): Vec3Tuple {
    const near = this.field.nearest(position.fromArray(p));
    const r = near.distanceM + near.spec.radiusM;
    const R = near.spec.radiusM;
    if (r > 3 * R || r === 0) return [0, 0, 0];
    const g = ASTEROID_G * (R / Math.max(r, 0.5 * R)) ** 2;
    const c = near.spec.positionM;
    return [((c[0] - p[0]) / r) * g, ((c[1] - p[1]) / r) * g, ((c[2] - p[2]) / r) * g];
  }
}
