/**
 * Probes in a planet's sea (issue 41). The sea is a level, not a volume of the field: a probe's
 * centre is `depthM` under it (negative: over it), measured by the caller along the pull of gravity.
 * A probe is rock (density {@link PROBE_DENSITY_RATIO} × water's): in water it is buoyed by the
 * weight of the water it displaces (the submerged share of its sphere) and slowed by a linear drag,
 * so a throw splashes down, slows, sinks and comes to rest on the sea floor, seen through the water.
 * docs/physics.md, "Water".
 */
import type { Vec3Tuple } from './PhysicsWorld';

/** Rock against water (basalt 2.9, granite 2.7, a porous probe a little less). */
export const PROBE_DENSITY_RATIO = 2.6;
/**
 * Linear drag of a fully submerged probe, per second: a splash loses 63 % of its speed in 0.25 s and
 * sinks at about g (1 − 1/2.6) / 4 (0.4 m/s under 2.6 m/s² of pull): water's quadratic drag on a
 * rock is stronger still at speed, this is its gentle, stable (explicit at 120 Hz) stand-in.
 */
export const WATER_DRAG_PER_S = 4;

/** Share of a sphere of `radiusM` whose centre is `depthM` under a flat surface that lies under it. */
export function submergedShare(depthM: number, radiusM: number): number {
  const h = Math.min(2 * radiusM, Math.max(0, depthM + radiusM));
  return (h * h * (3 * radiusM - h)) / (4 * radiusM * radiusM * radiusM);
}

/**
 * Water's acceleration on a probe (buoyancy against `gravity`, drag against `velocity`), m/s², into
 * `out`: zero when the probe is clear of the water.
 */
export function waterAcceleration(gravity: Vec3Tuple, velocity: { x: number; y: number; z: number }, depthM: number, radiusM: number, out: Vec3Tuple): Vec3Tuple {
  const share = depthM > -radiusM ? submergedShare(depthM, radiusM) : 0;
  const lift = -share / PROBE_DENSITY_RATIO;
  const drag = -share * WATER_DRAG_PER_S;
  out[0] = lift * gravity[0] + drag * velocity.x;
  out[1] = lift * gravity[1] + drag * velocity.y;
  out[2] = lift * gravity[2] + drag * velocity.z;
  return out;
}
