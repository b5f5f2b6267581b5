/**
 * Go to what you see (issue 45): a click on the planet (or an asteroid, or a body of the Controls'
 * *Go to* list) flies the orbit camera there — src/interact/flyTo.ts plans the path, log-height over
 * the body, 1–5 s by wall-clock time whatever the frame rate — and stops at a sensible distance: a
 * few kilometres over the clicked ground (1 % of the planet's radius, 300 m … 3 km), three radii
 * from an asteroid's centre. The orbit target is then what was clicked, and the URL follows. Any
 * press, wheel or key of the user's stops the flight where it is.
 */
import { Vector3 } from 'three';
import { asteroidFlightEnd, flightPose, planetFlightEnd, planetStopHeightM, planFlight, type FlightEnd, type FlightPlan } from '../interact/flyTo';
import type { App } from './App';

/** An asteroid flown to is framed at this many radii from its centre (the old click focus's). */
export const ASTEROID_STOP_RADII = 3;

export class CameraFlight {
  private plan: FlightPlan | null = null;
  private startMs = 0;
  /** Flights that reached their end (tests). */
  arrived = 0;

  constructor(private readonly app: App) {
    const canvas = app.renderer.domElement;
    canvas.addEventListener('pointerdown', this.stop);
    canvas.addEventListener('wheel', this.stop, { passive: true });
    window.addEventListener('keydown', this.onKey);
  }

  /** A flight is under way. */
  get active(): boolean {
    return this.plan !== null;
  }

  /** Flies to `point` on the planet's ground (world metres); false without a planet. */
  toPlanet(point?: Vector3): boolean {
    const planet = this.app.planet;
    if (!planet) return false;
    const center = planet.root.position;
    const camera = this.app.camera.position;
    // No point given (the Go to list): the ground under the camera's line to the centre.
    const ground = point ?? center.clone().add(camera.clone().sub(center).setLength(planet.radiusM));
    if (!point) ground.copy(groundBelow(ground, center, (p) => planet.altitude(p)));
    this.start(planetFlightEnd(center, ground, camera, planetStopHeightM(planet.radiusM)));
    return true;
  }

  /** Flies to asteroid `index` of the scene's field; false when there is none. */
  toAsteroid(index: number): boolean {
    const field = this.app.field;
    const a = field?.spec.asteroids[index];
    if (!field || !a) return false;
    this.start(asteroidFlightEnd(field.pivotOf(index).position.clone(), a.radiusM, this.app.camera.position, ASTEROID_STOP_RADII));
    return true;
  }

  /** Moves the camera for this frame (instead of the controls); false when no flight is under way. */
  update(nowMs: number): boolean {
    const plan = this.plan;
    if (!plan) return false;
    const { camera, controls } = this.app;
    const done = flightPose(plan, (nowMs - this.startMs) / 1000, camera.position, controls.target);
    camera.lookAt(controls.target);
    if (done) {
      this.arrived++;
      this.end();
    }
    return true;
  }

  /** Stops the flight where it is (the user took over). */
  readonly stop = (): void => {
    if (this.plan) this.end();
  };

  dispose(): void {
    const canvas = this.app.renderer.domElement;
    canvas.removeEventListener('pointerdown', this.stop);
    canvas.removeEventListener('wheel', this.stop);
    window.removeEventListener('keydown', this.onKey);
  }

  private start(end: FlightEnd): void {
    this.app.setCameraMode('orbit');
    this.plan = planFlight(this.app.camera.position, this.app.controls.target, end);
    this.startMs = performance.now();
  }

  private end(): void {
    this.plan = null;
    this.app.controls.update();
    // The URL follows the view when an orbit ends.
    this.app.controls.dispatchEvent({ type: 'end' });
  }

  private readonly onKey = (e: KeyboardEvent): void => {
    if (!['Shift', 'Control', 'Alt', 'Meta', '?', 'h', 'H'].includes(e.key)) this.stop();
  };
}

/** The ground point on the line from `center` through `start`, found by a few Newton steps on the altitude. */
function groundBelow(start: Vector3, center: Vector3, altitude: (p: Vector3) => number): Vector3 {
  const p = start.clone();
  const dir = start.clone().sub(center).normalize();
  for (let i = 0; i < 8; i++) {
    const h = altitude(p);
    if (!Number.isFinite(h) || Math.abs(h) < 1) break;
    p.addScaledVector(dir, -h);
  }
  return p;
}
