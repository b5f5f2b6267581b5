/**
 * Thrown probes in the explorer (issue 19): the physics world (src/physics/PhysicsWorld.ts) fed with
 * colliders from the meshes the asteroids and the planet draw, and the probes drawn as shadowed
 * spheres.
 *
 * Colliders exist only where a probe is or will be within {@link LOOKAHEAD_S} (Oxford 2021's rule, docs/design.md "Physics"): an
 * asteroid's from the mesh it draws now, rebuilt when that mesh changes level; the planet's from
 * each drawn chunk and seam piece near a probe. When the planet's pieces change (a transaction of
 * finer chunks under a probe), the old pieces' colliders stay until every new piece near a probe
 * has its own, so the ground never has a gap; the physics world lifts probes a new surface would
 * hold inside. A few builds an update (BUILDS_PER_UPDATE) keep a swarm of probes from stalling a
 * frame.
 *
 * Gravity: toward the planet's centre near the planet ({@link PLANET_G} at its surface, as 1/r²);
 * among asteroids, the nearest one's within three radii, {@link ASTEROID_G} at its bounding radius,
 * from its shape (src/physics/massGravity.ts: toward its bounding sphere's centre, a contact binary's
 * inner flanks were 45–70° slopes a probe rolled down for minutes; issue 45). Real asteroids of this size pull ~10⁻⁴ m/s²: a probe would take hours to come back from
 * its first bounce, so that pull is a game's, not nature's. A probe farther than {@link LOST_M}
 * from every surface and moving away is removed.
 */
import {
  Color, IcosahedronGeometry, InstancedMesh, MathUtils, Matrix4, MeshStandardMaterial, Quaternion, Vector3, type Group, type Mesh, type PerspectiveCamera,
} from 'three';
import { compileToJs } from '../field/index';
import { massGravity, massModel, type MassModel } from '../physics/massGravity';
import { meshCollider } from '../physics/meshCollider';
import { PhysicsWorld, type ColliderPose, type PhysicsStats, type ProbeView, type Vec3Tuple } from '../physics/PhysicsWorld';
import type { AsteroidField } from './AsteroidField';
import type { PlanetView } from './PlanetView';

/** Probes alive at once; a new throw removes the oldest. */
export const MAX_PROBES = 50;
/**
 * A throw scales with the distance d from the camera to the nearest surface, as flight speed scales
 * with altitude: speed d / {@link THROW_TIME_S} (a probe arrives in a few seconds, from 20 m or
 * 3 km), radius d / 100 (a few pixels wide), each clamped.
 */
const THROW_TIME_S = 2.5;
export const THROW_SPEED_MS: readonly [number, number] = [5, 400];
export const PROBE_RADIUS_M: readonly [number, number] = [0.5, 25];
/** A collider exists while a probe is this close to its body's bounds (plus a second of travel), metres. */
const NEAR_M = 40;
/** Surface pull of an asteroid, m/s² (see the header). */
export const ASTEROID_G = 1;
/** Surface pull of the planet, m/s² (a moon's). */
export const PLANET_G = 1.62;
/** Removed when this far from every surface and moving away, metres. */
const LOST_M = 5000;
const BUILDS_PER_UPDATE = 4;
/** Colliders are built for where probes will be this soon, seconds. */
const LOOKAHEAD_S = 1;

export interface ProbeStats extends PhysicsStats {
  /** Collider builds so far, and the slowest, ms (main thread). */
  colliderBuilds: number;
  slowestBuildMs: number;
  /** The planet's piece colliders alive now. */
  planetColliders: number;
}

const axis = new Vector3();
const spin = new Quaternion();
const matrix = new Matrix4();
const position = new Vector3();
const rotation = new Quaternion();
const scale = new Vector3();
const IDENTITY: [number, number, number, number] = [0, 0, 0, 1];
const local = new Vector3();
const pull: [number, number, number] = [0, 0, 0];

export class Probes {
  readonly physics: PhysicsWorld;
  private readonly mesh: InstancedMesh;
  /** Asteroid colliders built: asteroid index → its mesh key. */
  private readonly built = new Map<number, string>();
  /** Planet piece colliders built, by piece mesh. */
  private readonly planetBuilt = new Map<Mesh, string>();
  /** Each asteroid's mass model (massGravity.ts), made when a probe first comes near it. */
  private readonly masses = new Map<number, MassModel>();
  private builds = 0;
  private slowestBuildMs = 0;
  /** Probes drawn last update, and whether any was in flight (not resting): what they cast into shadow maps. */
  drawnCount = 0;
  anyMoving = false;

  /** `seaRadiusM`: the planet's sea level from its centre (issue 41), or null: probes sink in it (physics/water.ts). */
  constructor(private readonly field: AsteroidField | null, private readonly planet: PlanetView | null, world: Group, private readonly seaRadiusM: number | null = null) {
    this.physics = new PhysicsWorld({
      gravityAt: (p, t) => this.gravityAt(p, t),
      waterDepthAt: seaRadiusM !== null && planet ? (p) => this.waterDepthAt(p) : undefined,
      maxProbes: MAX_PROBES,
    });
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
    const d = Math.max(0, this.surfaceDistance(camera.position, true));
    const radius = MathUtils.clamp(d / 100, ...PROBE_RADIUS_M);
    const speed = speedMS ?? MathUtils.clamp(d / THROW_TIME_S, ...THROW_SPEED_MS);
    const from = camera.position.clone().addScaledVector(ahead, 2 + radius);
    return this.physics.throwProbe(from.toArray() as Vec3Tuple, ahead.multiplyScalar(speed).toArray() as Vec3Tuple, radius);
  }

  /** Colliders for the probes' neighbourhood, the world stepped to `timeS`, the instances drawn. */
  update(timeS: number): void {
    // Explore's frames without probes: no colliders to keep, so no walk over every asteroid and
    // planet piece; the world only keeps its clock.
    if (this.physics.probeCount === 0 && this.built.size === 0 && this.planetBuilt.size === 0) {
      this.physics.update(timeS);
      this.mesh.count = 0;
      this.drawnCount = 0;
      this.anyMoving = false;
      return;
    }
    const probes = this.physics.views();
    const velocities = this.physics.velocities();
    this.dropLost(probes, velocities);
    let budget = BUILDS_PER_UPDATE;
    if (this.field) budget = this.syncAsteroids(probes, velocities, timeS, budget);
    if (this.planet) this.syncPlanet(probes, velocities, budget);
    this.physics.update(timeS, (id, t) => (id.startsWith('asteroid:') ? this.poseAt(Number(id.slice(9)), t) : null));
    const drawn = this.physics.views();
    drawn.forEach((v, i) => {
      matrix.compose(position.fromArray(v.positionM), rotation.fromArray(v.quaternion), scale.setScalar(v.radiusM));
      this.mesh.setMatrixAt(i, matrix);
    });
    this.mesh.count = drawn.length;
    this.mesh.instanceMatrix.needsUpdate = true;
    this.drawnCount = drawn.length;
    this.anyMoving = drawn.some((v) => v.restingOn === null);
  }

  stats(): ProbeStats {
    return { ...this.physics.stats(), colliderBuilds: this.builds, slowestBuildMs: this.slowestBuildMs, planetColliders: this.planetBuilt.size };
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
   * Distance from a point to the nearest body's bounding sphere, metres (cheap: asked per probe and
   * step; `exact` asks the planet's field instead, once a throw).
   */
  private surfaceDistance(p: Vector3, exact = false): number {
    const asteroid = this.field ? this.field.nearest(p).distanceM : Infinity;
    return Math.min(asteroid, this.planetDistance(p, exact));
  }

  private planetDistance(p: Vector3, exact = false): number {
    if (!this.planet) return Infinity;
    return exact ? this.planet.altitude(p) : p.distanceTo(this.planet.root.position) - this.planet.radiusM;
  }

  /** Removes probes far from every surface and moving away from the nearest body. */
  private dropLost(probes: ProbeView[], velocities: Vec3Tuple[]): void {
    probes.forEach((p, i) => {
      const at = position.fromArray(p.positionM);
      if (this.surfaceDistance(at) < LOST_M) return;
      const center = this.nearestCenter(at);
      const v = velocities[i];
      const away = (p.positionM[0] - center[0]) * v[0] + (p.positionM[1] - center[1]) * v[1] + (p.positionM[2] - center[2]) * v[2];
      if (away > 0) this.physics.removeProbe(p.id);
    });
  }

  /** Asteroid colliders: built where a probe is near or will be within LOOKAHEAD_S, dropped elsewhere. */
  private syncAsteroids(probes: ProbeView[], velocities: Vec3Tuple[], timeS: number, budget: number): number {
    const field = this.field!;
    const near = new Set<number>();
    field.spec.asteroids.forEach((a, i) => {
      if (probes.some((p, n) => reaches(p, velocities[n], a.positionM, a.radiusM))) near.add(i);
    });
    for (const i of [...this.built.keys()]) {
      if (near.has(i)) continue;
      this.physics.removeCollider(`asteroid:${i}`);
      this.built.delete(i);
    }
    for (const i of near) {
      const drawn = field.drawnMesh(i);
      if (!drawn || this.built.get(i) === drawn.key || budget <= 0) continue;
      budget--;
      this.timedBuild(() => this.physics.setCollider(`asteroid:${i}`, meshCollider(drawn, drawn.offsetM), this.poseAt(i, timeS)));
      this.built.set(i, drawn.key);
    }
    return budget;
  }

  /**
   * Planet colliders: one per drawn piece near a probe. Pieces that left the drawing (or the probes)
   * keep their colliders until every near piece has one (no gap under a probe mid-transaction).
   */
  private syncPlanet(probes: ProbeView[], velocities: Vec3Tuple[], budget: number): void {
    const planet = this.planet!;
    const c = planet.root.position;
    const near: Mesh[] = [];
    for (const child of planet.root.children) {
      const mesh = child as Mesh;
      if (!mesh.isMesh || !mesh.visible || !mesh.geometry.index) continue;
      const sphere = mesh.geometry.boundingSphere;
      if (!sphere) continue;
      const centerM: Vec3Tuple = [c.x + mesh.position.x + sphere.center.x, c.y + mesh.position.y + sphere.center.y, c.z + mesh.position.z + sphere.center.z];
      if (probes.some((p, n) => reaches(p, velocities[n], centerM, sphere.radius))) near.push(mesh);
    }
    let pending = 0;
    for (const mesh of near) {
      if (this.planetBuilt.has(mesh)) continue;
      if (budget <= 0) {
        pending++;
        continue;
      }
      budget--;
      const positions = mesh.geometry.getAttribute('position').array as Float32Array;
      const indices = mesh.geometry.index!.array as Uint32Array | Uint16Array;
      const origin: Vec3Tuple = [c.x + mesh.position.x, c.y + mesh.position.y, c.z + mesh.position.z];
      const id = `planet:${mesh.uuid}`;
      // Lifted away from the planet's centre, in the piece's frame.
      this.timedBuild(() => this.physics.setCollider(id, meshCollider({ positions, indices }), { positionM: origin, quaternion: IDENTITY }, [c.x - origin[0], c.y - origin[1], c.z - origin[2]]));
      this.planetBuilt.set(mesh, id);
    }
    if (pending > 0) return;
    const keep = new Set(near);
    for (const [mesh, id] of [...this.planetBuilt]) {
      if (keep.has(mesh)) continue;
      this.physics.removeCollider(id);
      this.planetBuilt.delete(mesh);
    }
  }

  private timedBuild(build: () => void): void {
    const t0 = performance.now();
    build();
    this.builds++;
    this.slowestBuildMs = Math.max(this.slowestBuildMs, performance.now() - t0);
  }

  /** Asteroid `index`'s spinning frame at scene time `timeS` (as AsteroidField turns its pivot). */
  private poseAt(index: number, timeS: number): ColliderPose {
    const a = this.field!.spec.asteroids[index];
    axis.set(...a.spinAxis);
    spin.setFromAxisAngle(axis, a.phaseRad + a.spinRadPerS * timeS);
    return {
      positionM: [...a.positionM],
      quaternion: [spin.x, spin.y, spin.z, spin.w],
      angularVelocity: [axis.x * a.spinRadPerS, axis.y * a.spinRadPerS, axis.z * a.spinRadPerS],
    };
  }

  /**
   * Asteroid `index`'s pull at `p` from its shape, turned with it to scene time `timeS`. The spec's
   * recipe (a user's edits do not move its mass). Its model is made once, ~4,000 field samples.
   */
  private asteroidPull(index: number, p: Vec3Tuple, timeS: number): Vec3Tuple {
    const a = this.field!.spec.asteroids[index];
    let model = this.masses.get(index);
    if (!model) {
      model = massModel(compileToJs(a.recipe), a.bodyCenterM, a.radiusM, ASTEROID_G);
      this.masses.set(index, model);
    }
    axis.set(...a.spinAxis);
    spin.setFromAxisAngle(axis, a.phaseRad + a.spinRadPerS * timeS);
    local.set(p[0] - a.positionM[0], p[1] - a.positionM[1], p[2] - a.positionM[2]).applyQuaternion(spin.invert());
    massGravity(model, local.x, local.y, local.z, pull);
    local.fromArray(pull).applyQuaternion(spin.invert());
    return [local.x, local.y, local.z];
  }

  /** Whether the planet, rather than an asteroid, is the body nearest `p` (`asteroidM`: the nearest asteroid's distance). */
  private atPlanet(p: Vector3, asteroidM = this.field ? this.field.nearest(p).distanceM : Infinity): boolean {
    return this.planet !== null && this.planetDistance(p) < asteroidM;
  }

  private nearestCenter(p: Vector3): Vec3Tuple {
    if (this.atPlanet(p)) return this.planet!.root.position.toArray() as Vec3Tuple;
    return [...this.field!.nearest(p).spec.positionM];
  }

  /** How deep `p` is under the planet's sea, m (negative over it). */
  private waterDepthAt(p: Vec3Tuple): number {
    const c = this.planet!.root.position;
    return this.seaRadiusM! - Math.hypot(p[0] - c.x, p[1] - c.y, p[2] - c.z);
  }

  /** The pull at `p` at scene time `timeS` (see the header). */
  private gravityAt(p: Vec3Tuple, timeS: number): Vec3Tuple {
    const at = position.fromArray(p);
    // The nearest asteroid once a step per probe (it walks every asteroid).
    const near = this.field?.nearest(at) ?? null;
    let c: Vec3Tuple;
    let g: number;
    if (this.atPlanet(at, near?.distanceM ?? Infinity)) {
      c = this.planet!.root.position.toArray() as Vec3Tuple;
      const r = Math.hypot(p[0] - c[0], p[1] - c[1], p[2] - c[2]);
      g = PLANET_G * (this.planet!.radiusM / Math.max(r, 0.5 * this.planet!.radiusM)) ** 2;
    } else if (near) {
      const R = near.spec.radiusM;
      const r = near.distanceM + R;
      if (r > 3 * R) return [0, 0, 0];
      return this.asteroidPull(near.spec.index, p, timeS);
    } else {
      return [0, 0, 0];
    }
    const r = Math.hypot(p[0] - c[0], p[1] - c[1], p[2] - c[2]);
    if (r === 0) return [0, 0, 0];
    return [((c[0] - p[0]) / r) * g, ((c[1] - p[1]) / r) * g, ((c[2] - p[2]) / r) * g];
  }
}

/** Whether probe `p` is within NEAR_M of a sphere, or will be within LOOKAHEAD_S at its speed. */
function reaches(p: ProbeView, v: Vec3Tuple, centerM: readonly number[], radiusM: number): boolean {
  const reach = radiusM + NEAR_M + p.radiusM + Math.hypot(v[0], v[1], v[2]) * LOOKAHEAD_S;
  return Math.hypot(p.positionM[0] - centerM[0], p.positionM[1] - centerM[1], p.positionM[2] - centerM[2]) < reach;
}
