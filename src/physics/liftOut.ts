/**
 * What a collider's shape change does to a probe it now holds inside (PhysicsWorld's liftOut): a
 * ray from outside the shape down to the probe's centre, along the line from the collider's centre,
 * meets the new surface first when the probe is inside (or sunk past half its radius); the probe is
 * then put back a radius (× 1.01) outside that surface and its speed into the surface dropped.
 */
import { Ray, RaycastResult, Vec3, type Body } from 'cannon-es';

const out = new Vec3();
const far = new Vec3();
const scratch = new Vec3();

/** Lifts `probe` out of `collider`'s surface when it is inside; true when it was. */
export function liftProbeOut(collider: Body, centerWorld: Vec3, probe: Body, radiusM: number, colliderGroup: number): boolean {
  const pos = probe.position;
  pos.vsub(centerWorld, out);
  const d = out.length();
  if (d === 0) return false;
  out.normalize();
  // From outside the shape (twice its bounding radius out along the line from the centre) down to the probe.
  pos.vadd(out.scale(2 * (collider.boundingRadius + radiusM), far), far);
  const result = new RaycastResult();
  const ray = new Ray(far.clone(), pos.clone());
  ray.skipBackfaces = true;
  ray.mode = Ray.CLOSEST;
  ray.collisionFilterMask = colliderGroup;
  ray.intersectBody(collider, result);
  if (!result.hasHit) return false;
  result.hitPointWorld.vsub(centerWorld, scratch);
  const above = scratch.length();
  if (d >= above + radiusM * 0.5) return false;
  centerWorld.vadd(out.scale(above + radiusM * 1.01, scratch), pos);
  const into = probe.velocity.dot(out);
  if (into < 0) probe.velocity.vsub(out.scale(into, scratch), probe.velocity);
  return true;
}
