import { Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { asteroidFlightEnd, flightPose, planetFlightEnd, planetStopHeightM, planFlight } from '../../src/interact/flyTo';
import { sceneSpec } from '../../src/scene/index';

describe('go to what you see (issue 45): camera flights', () => {
  // Explore seed 1: the camera by asteroid 0, the planet 1,168 km off its surface.
  const spec = sceneSpec(1, 'explore');
  const planet = spec.planet!;
  const center = new Vector3(...planet.centerM);
  const camera = new Vector3(...spec.camera.position);
  const target = new Vector3(...spec.camera.target);
  // A ground point on the side facing the camera, 30° off the line to it.
  const toCamera = camera.clone().sub(center).normalize();
  const side = new Vector3(0, 1, 0).cross(toCamera).normalize();
  const ground = center.clone().addScaledVector(toCamera.clone().applyAxisAngle(side, Math.PI / 6), 0.8 * planet.radiusM);
  const heightM = planetStopHeightM(planet.radiusM);

  it('ends at the stop height over the clicked ground, looking at it, within 5 s; never under the ground sphere on the way', () => {
    const plan = planFlight(camera, target, planetFlightEnd(center, ground, camera, heightM));
    const pos = new Vector3();
    const look = new Vector3();
    let lowest = Infinity;
    for (let i = 0; i <= 400; i++) {
      flightPose(plan, (i / 400) * plan.durationS, pos, look);
      lowest = Math.min(lowest, pos.distanceTo(center) - ground.distanceTo(center));
    }
    const done = flightPose(plan, plan.durationS, pos, look);
    expect(done).toBe(true);
    expect(heightM).toBe(3000);
    const over = pos.distanceTo(center) - ground.distanceTo(center);
    expect(over).toBeGreaterThan(0.99 * heightM);
    expect(over).toBeLessThan(1.02 * heightM);
    expect(pos.distanceTo(ground)).toBeGreaterThan(heightM);
    expect(pos.distanceTo(ground)).toBeLessThan(2 * heightM);
    expect(look.distanceTo(ground)).toBeLessThan(1e-6);
    expect(lowest).toBeGreaterThan(heightM * 0.99);
    expect(plan.durationS).toBeGreaterThan(2);
    expect(plan.durationS).toBeLessThanOrEqual(5);
  });

  it('fast over long distances: half-way in time, more than 94 % of the 1,553 km is behind (the height there is the geometric mean); the last tenth moves metres, not kilometres a frame', () => {
    const plan = planFlight(camera, target, planetFlightEnd(center, ground, camera, heightM));
    const pos = new Vector3();
    const look = new Vector3();
    const end = new Vector3();
    flightPose(plan, plan.durationS, end, look);
    const total = camera.distanceTo(end);
    flightPose(plan, plan.durationS / 2, pos, look);
    expect(pos.distanceTo(end) / total).toBeLessThan(0.06);
    // At 60 fps, the last frame's step is under 1 % of the stop height.
    const a = new Vector3();
    flightPose(plan, plan.durationS - 1 / 60, a, look);
    expect(a.distanceTo(end)).toBeLessThan(0.01 * heightM);
    console.log(`flight ${plan.durationS.toFixed(2)} s over ${(total / 1000).toFixed(0)} km; half-way ${(pos.distanceTo(end) / 1000).toFixed(1)} km to go`);
  });

  it('to an asteroid: three radii from its centre on the camera side, looking at the centre; an antipodal start still arrives', () => {
    const c = new Vector3(100, 0, 0);
    for (const from of [new Vector3(5000, 200, 0), new Vector3(-5000, 0, 0)]) {
      const plan = planFlight(from, new Vector3(), asteroidFlightEnd(c, 50, from, 3));
      const pos = new Vector3();
      const look = new Vector3();
      let closest = Infinity;
      for (let i = 0; i <= 200; i++) {
        flightPose(plan, (i / 200) * plan.durationS, pos, look);
        closest = Math.min(closest, pos.distanceTo(c));
      }
      expect(pos.distanceTo(c)).toBeCloseTo(150, 6);
      expect(look.distanceTo(c)).toBeLessThan(1e-9);
      expect(closest).toBeGreaterThanOrEqual(150 - 1e-6);
    }
  });

  it('stops 300 m … 3 km over a planet, 1 % of its radius between', () => {
    expect(planetStopHeightM(10_000)).toBe(300);
    expect(planetStopHeightM(100_000)).toBe(1000);
    expect(planetStopHeightM(1e7)).toBe(3000);
  });
});
