/**
 * The swept test of a fast probe (PhysicsWorld.ts runs it before each step): cannon-es has no
 * continuous collision detection, and its sphere-trimesh contact pushes a centre that crossed a
 * surface out the far side, so a throw at 400 m/s went through a 1 km asteroid. Here a probe casts a
 * ray along its motion relative to the surface it is over and settles an impact it would reach
 * within the step (impact.ts: in that surface's frame).
 */
import { RaycastResult, Vec3, type Body, type World } from 'cannon-es';
import { impactVelocity, type ImpactMaterial } from './impact';

/** Probes faster than this over the surface they are near, m/s, take the swept test each step. */
export const SWEEP_SPEED = 2;

const hitResult = new RaycastResult();
const scratchA = new Vec3();
const relative = new Vec3();
const dir = new Vec3();
const to = new Vec3();

/**
 * The swept test (`colliders`: the collision group rays test; `stepS`: the step's length;
 * `surfaceMS`: the velocity of the surface the probe is over, at the probe — zero away from moving
 * colliders). A probe moving faster than {@link SWEEP_SPEED} relative to that surface casts a ray
 * from its centre along that relative motion, its radius further; the colliders stand still for the
 * ray (a step turns explore's fastest asteroid by 10⁻⁴ rad). A hit stops it where its sphere meets
 * the hit plane and settles the impact (impact.ts); cannon-es's contacts then hold it.
 */
export function sweptImpact(world: World, body: Body, radiusM: number, stepS: number, colliders: number, material: ImpactMaterial, surfaceMS: Vec3): boolean {
  body.velocity.vsub(surfaceMS, relative);
  const speed = relative.length();
  if (speed < SWEEP_SPEED) return false;
  const travel = speed * stepS;
  const from = body.position;
  dir.copy(relative);
  dir.normalize();
  dir.scale(travel + radiusM, to);
  to.vadd(from, to);
  hitResult.reset();
  const hit = world.raycastClosest(from, to, { collisionFilterMask: colliders, skipBackfaces: true }, hitResult);
  if (!hit) return false;
  const n = hitResult.hitNormalWorld;
  if (relative.dot(n) >= 0) return false;
  // How far along the motion the sphere first touches the hit plane (its centre a radius off it).
  const along = Math.max(0, hitResult.distance - radiusM / Math.max(0.2, -dir.dot(n)));
  if (along > travel) return false;
  from.vadd(dir.scale(along, scratchA), from);
  impactVelocity(relative, n, material, relative);
  surfaceMS.vadd(relative, body.velocity);
  return true;
}
