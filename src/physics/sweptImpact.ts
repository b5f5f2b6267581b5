/**
 * The swept test of a fast probe (PhysicsWorld.ts runs it before each step): cannon-es has no
 * continuous collision detection, and its sphere-trimesh contact pushes a centre that crossed a
 * surface out the far side, so a throw at 400 m/s went through a 1 km asteroid. Here a probe casts a
 * ray along its motion and settles an impact it would reach within the step.
 */
import { RaycastResult, Vec3, type Body, type World } from 'cannon-es';

/** Probes faster than this, m/s, take the swept test each step. */
export const SWEEP_SPEED = 2;
/** Impact speed at which the restitution has halved, m/s. */
const RESTITUTION_SPEED = 5;

const hitResult = new RaycastResult();
const scratchA = new Vec3();
const scratchB = new Vec3();
const scratchC = new Vec3();

/**
 * The swept test (`colliders`: the collision group rays test; `stepS`: the step's length): a probe faster than {@link SWEEP_SPEED} casts a ray from its centre along its
 * motion, its radius further. A hit stops it where its sphere meets the hit plane and settles the
 * impact here: the velocity into the surface reflected with a restitution that falls with impact
 * speed (regolith: e / (1 + vₙ / {@link RESTITUTION_SPEED}), so a 400 m/s throw does not rebound at
 * escape speed), the velocity along it cut by Coulomb friction and by the same factor (a hard
 * impact ploughs into regolith rather than skidding on). cannon-es's contacts then hold it.
 */
export function sweptImpact(
  world: World,
  body: Body,
  radiusM: number,
  stepS: number,
  colliders: number,
  material: { restitution: number; friction: number },
): boolean {
  const v = body.velocity;
  const speed = v.length();
  if (speed < SWEEP_SPEED) return false;
  const travel = speed * stepS;
  const from = body.position;
  const dir = scratchB.copy(v);
  dir.normalize();
  const to = scratchC.copy(dir);
  to.scale(travel + radiusM, to);
  to.vadd(from, to);
  hitResult.reset();
  const hit = world.raycastClosest(from, to, { collisionFilterMask: colliders, skipBackfaces: true }, hitResult);
  if (!hit) return false;
  const n = hitResult.hitNormalWorld;
  const into = v.dot(n);
  if (into >= 0) return false;
  // How far along the motion the sphere first touches the hit plane (its centre a radius off it).
  const along = Math.max(0, hitResult.distance - radiusM / Math.max(0.2, -dir.dot(n)));
  if (along > travel) return false;
  from.vadd(dir.scale(along, scratchA), from);
  const e = material.restitution / (1 - into / RESTITUTION_SPEED);
  v.vsub(n.scale((1 + e) * into, scratchA), v);
  // Friction: the tangential speed falls by μ × the normal impulse (per unit mass), not past zero.
  const vn = v.dot(n);
  const tangent = scratchC.copy(v);
  tangent.vsub(n.scale(vn, scratchA), tangent);
  const vt = tangent.length();
  if (vt > 0) {
    // Coulomb, and regolith's loss at speed: a hard impact ploughs in rather than skidding on.
    const keep = (Math.max(0, vt + material.friction * (1 + e) * into) / vt) / (1 - into / RESTITUTION_SPEED);
    v.copy(n.scale(vn, scratchA));
    v.vadd(tangent.scale(keep, tangent), v);
  }
  return true;
}
