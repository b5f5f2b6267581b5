/**
 * Go to what you see (issue 45): a camera flight to a body, planned once and then sampled by time.
 *
 * The camera moves around the body's centre: its direction from the centre turns along a great circle
 * (slerp) while its height over a reference sphere (the clicked ground's distance from the centre, or
 * an asteroid's bounding radius) shrinks geometrically — log-height interpolation, so a flight from
 * 1,168 km away covers the first thousand kilometres in a blink and slows to metres a frame near the
 * end, and never dips under the reference sphere on the way. The height follows an ease-in-out curve;
 * the direction and the look target an ease-out one (the camera turns while high, where sideways is
 * cheap, and faces where it goes).
 *
 * Pure geometry on three.js vectors (no scene, no DOM): Node-tested (test/interact/flyTo.test.ts).
 */
import { Quaternion, Vector3 } from 'three';

export interface FlightEnd {
  /** The body's centre, world metres. */
  center: Vector3;
  /** Heights are measured over a sphere of this radius around `center`, metres. */
  refRadiusM: number;
  /** Unit direction from `center` to the camera at the end. */
  endDir: Vector3;
  /** The camera's height over the reference sphere at the end, metres (> 0). */
  endHeightM: number;
  /** What the camera looks at when it arrives (the orbit target from then on). */
  endTarget: Vector3;
}

export interface FlightPlan extends FlightEnd {
  startDir: Vector3;
  startHeightM: number;
  startTarget: Vector3;
  durationS: number;
}

/** Least height a flight interpolates from, metres (a camera under the reference sphere starts from it). */
const MIN_HEIGHT_M = 1;

/**
 * Plans a flight from the camera at `position` looking at `target` to `end`. Its duration grows with
 * the decades of height to lose and the arc to turn: 1 s to 5 s (3.7 s from explore's camera to 3 km
 * over seed 1's planet).
 */
export function planFlight(position: Vector3, target: Vector3, end: FlightEnd): FlightPlan {
  const away = position.clone().sub(end.center);
  const distance = away.length();
  const startDir = distance > 0 ? away.divideScalar(distance) : end.endDir.clone();
  const startHeightM = Math.max(MIN_HEIGHT_M, distance - end.refRadiusM);
  const endHeightM = Math.max(MIN_HEIGHT_M, end.endHeightM);
  const decades = Math.abs(Math.log10(startHeightM / endHeightM));
  const arc = startDir.angleTo(end.endDir);
  const durationS = Math.min(5, Math.max(1, 0.8 + 0.5 * decades + 0.6 * arc));
  return { ...end, endHeightM, startDir, startHeightM, startTarget: target.clone(), durationS };
}

/** Ease in and out (smoothstep). */
function ease(u: number): number {
  return u * u * (3 - 2 * u);
}

const scratchQ = new Quaternion();
const scratchAxis = new Vector3();

/**
 * The camera's position and look target `timeS` seconds into `plan` (written into `position`,
 * `target`); true once the flight is over (both at their ends).
 */
export function flightPose(plan: FlightPlan, timeS: number, position: Vector3, target: Vector3): boolean {
  const u = Math.min(1, Math.max(0, timeS / plan.durationS));
  const s = ease(u);
  // Height: geometric between the two (equal ratios in equal steps of s).
  const height = plan.startHeightM * Math.pow(plan.endHeightM / plan.startHeightM, s);
  // Direction: the great circle from start to end (an antipodal start turns about any perpendicular).
  const angle = plan.startDir.angleTo(plan.endDir);
  scratchAxis.crossVectors(plan.startDir, plan.endDir);
  if (scratchAxis.lengthSq() < 1e-20) scratchAxis.set(1, 0, 0).cross(plan.startDir);
  if (scratchAxis.lengthSq() < 1e-20) scratchAxis.set(0, 1, 0).cross(plan.startDir);
  scratchAxis.normalize();
  // The direction and the look target turn sooner (ease-out): sideways while high, where it is cheap.
  const t = 1 - Math.pow(1 - u, 3);
  scratchQ.setFromAxisAngle(scratchAxis, angle * t);
  position.copy(plan.startDir).applyQuaternion(scratchQ).multiplyScalar(plan.refRadiusM + height).add(plan.center);
  target.copy(plan.startTarget).lerp(plan.endTarget, t);
  if (u >= 1) {
    position.copy(plan.endDir).multiplyScalar(plan.refRadiusM + plan.endHeightM).add(plan.center);
    target.copy(plan.endTarget);
  }
  return u >= 1;
}

/**
 * Where a flight to a point on a planet ends: `heightM` over the clicked ground, looking at it at ~45°
 * from the side the camera came from (not straight down: the horizon shows).
 */
export function planetFlightEnd(center: Vector3, groundPoint: Vector3, camera: Vector3, heightM: number): FlightEnd {
  const up = groundPoint.clone().sub(center);
  const refRadiusM = up.length();
  up.divideScalar(refRadiusM || 1);
  // The tangent towards the camera: its offset from the ground point, less the part along `up`.
  const toward = camera.clone().sub(groundPoint);
  toward.addScaledVector(up, -toward.dot(up));
  if (toward.lengthSq() < 1e-12) toward.set(1, 0, 0).addScaledVector(up, -up.x);
  if (toward.lengthSq() < 1e-12) toward.set(0, 0, 1).addScaledVector(up, -up.z);
  toward.normalize();
  // Back off one height along the tangent: the camera sees the point 45° below its horizon.
  const endPoint = groundPoint.clone().addScaledVector(up, heightM).addScaledVector(toward, heightM);
  const endDir = endPoint.sub(center);
  const endRadius = endDir.length();
  endDir.divideScalar(endRadius);
  return { center: center.clone(), refRadiusM, endDir, endHeightM: endRadius - refRadiusM, endTarget: groundPoint.clone() };
}

/** Where a flight to an asteroid ends: `radii` bounding radii from its centre, on the camera's side, looking at the centre. */
export function asteroidFlightEnd(center: Vector3, radiusM: number, camera: Vector3, radii: number): FlightEnd {
  const endDir = camera.clone().sub(center);
  if (endDir.lengthSq() === 0) endDir.set(0, 0, 1);
  endDir.normalize();
  return { center: center.clone(), refRadiusM: radiusM, endDir, endHeightM: (radii - 1) * radiusM, endTarget: center.clone() };
}

/** How high over a planet's ground a flight stops: 1 % of its radius, 300 m … 3 km. */
export function planetStopHeightM(radiusM: number): number {
  return Math.min(3000, Math.max(300, 0.01 * radiusM));
}
