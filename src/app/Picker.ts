/**
 * Picking in the explorer (issue 19): hovering shows what the pointer is over on the overlay, in plain
 * words (pickLine.ts), and a click (a press and release without a drag) goes there: a flight to the
 * asteroid or the planet's ground under it (CameraFlight.ts, issue 45). Rays go through the bodies'
 * BVHs (src/interact/picking.ts) — where they meet nothing drawn, over the planet's field (traceField:
 * a click on the planet goes there before its chunks are in) — at most one pick a frame's worth of
 * pointer moves (MIN_INTERVAL_MS);
 * while the camera moves under a still pointer (a flight, fly keys, a spinning asteroid) the line is
 * picked again every REFRESH_MS, so it never names what was there a moment ago.
 */
import { Vector3 } from 'three';
import { pickAt, pixelRay, traceField } from '../interact/picking';
import type { App } from './App';
import { pickLine, type PickInfo } from './pickLine';

export type { PickInfo } from './pickLine';

/** Pointer travel under which a press and release is a click, not an orbit drag, pixels. */
const CLICK_PX = 5;
const MIN_INTERVAL_MS = 30;
/** The hover line is picked again this often while the pointer rests on the canvas. */
const REFRESH_MS = 250;

export class Picker {
  private lastPickMs = -Infinity;
  private down: { x: number; y: number } | null = null;
  /** The last hover's answer (the overlay's `pick` line). */
  hover: PickInfo | null = null;
  /** A click goes to the body under it (off while the brush tool owns clicks). */
  clickFocus = true;
  /** Where the pointer rests on the canvas (CSS pixels), or null when it left. */
  private pointer: { x: number; y: number } | null = null;
  private readonly refresh: ReturnType<typeof setInterval>;

  constructor(private readonly app: App) {
    const canvas = app.renderer.domElement;
    canvas.addEventListener('pointermove', this.onMove);
    canvas.addEventListener('pointerdown', this.onDown);
    canvas.addEventListener('pointerup', this.onUp);
    canvas.addEventListener('pointerleave', this.onLeave);
    this.refresh = setInterval(() => this.hoverAt(), REFRESH_MS);
    app.stats.setLine('keys', 'click: go there · drag: orbit · F: fly · T: throw a probe · B: brush · ? or H: all keys');
  }

  /** What is under pixel (`xPx`, `yPx`) of the canvas (CSS pixels), or null. */
  pick(xPx: number, yPx: number): PickInfo | null {
    const bodies = this.app.bodies;
    if (!bodies) return null;
    const roots = [bodies.field?.root, bodies.planet?.root].filter((r) => r !== undefined && r !== null);
    const { clientWidth, clientHeight } = this.app.renderer.domElement;
    const hit = pickAt(this.app.camera, xPx, yPx, clientWidth, clientHeight, roots);
    if (!hit) return this.pickPlanetField(xPx, yPx);
    const pointM = hit.point.toArray() as [number, number, number];
    const field = bodies.field;
    if (field && isUnder(hit.object, field.root)) {
      const index = field.spec.asteroids.findIndex((_, i) => isUnder(hit.object, field.pivotOf(i)));
      const a = field.spec.asteroids[index];
      if (a) {
        return {
          kind: 'asteroid', pointM, distanceM: hit.distanceM,
          asteroid: { index, seed: a.seed, family: a.family, radiusM: a.radiusM, centerM: [...a.positionM] },
        };
      }
    }
    return { kind: 'planet', pointM, distanceM: hit.distanceM, altitudeM: bodies.planet?.altitude(hit.point) };
  }

  /** Nothing drawn under the pointer: the planet's field may still be (its chunks not in yet, or between them). */
  private pickPlanetField(xPx: number, yPx: number): PickInfo | null {
    const planet = this.app.planet;
    if (!planet) return null;
    const { clientWidth, clientHeight } = this.app.renderer.domElement;
    const ray = pixelRay(this.app.camera, xPx, yPx, clientWidth, clientHeight);
    const t = traceField(ray, planet.root.position, planet.radiusM, (p) => planet.altitude(p));
    if (t === null) return null;
    const point = ray.at(t, new Vector3());
    return { kind: 'planet', pointM: point.toArray() as [number, number, number], distanceM: t, altitudeM: planet.altitude(point) };
  }

  /** Flies the orbit camera to asteroid `index`: it ends three radii from its centre, looking at it. */
  focus(index: number): void {
    this.app.flight.toAsteroid(index);
  }

  dispose(): void {
    const canvas = this.app.renderer.domElement;
    canvas.removeEventListener('pointermove', this.onMove);
    canvas.removeEventListener('pointerdown', this.onDown);
    canvas.removeEventListener('pointerup', this.onUp);
    canvas.removeEventListener('pointerleave', this.onLeave);
    clearInterval(this.refresh);
  }

  private readonly onMove = (e: PointerEvent): void => {
    const now = performance.now();
    this.pointer = { x: e.offsetX, y: e.offsetY };
    if (now - this.lastPickMs < MIN_INTERVAL_MS || e.buttons !== 0) return;
    this.hoverAt();
  };

  private readonly onLeave = (): void => {
    this.pointer = null;
    this.hover = null;
    this.app.stats.clearLine('pick');
  };

  /** Picks under the resting pointer and shows the line (none: no line). */
  private hoverAt(): void {
    if (!this.pointer || !this.app.bodies) return;
    this.lastPickMs = performance.now();
    this.hover = this.pick(this.pointer.x, this.pointer.y);
    if (this.hover) this.app.stats.setLine('pick', pickLine(this.hover, this.app.bodies.spec.planet?.seed));
    else this.app.stats.clearLine('pick');
  }

  private readonly onDown = (e: PointerEvent): void => {
    this.down = e.button === 0 ? { x: e.offsetX, y: e.offsetY } : null;
  };

  private readonly onUp = (e: PointerEvent): void => {
    const down = this.down;
    this.down = null;
    if (!down || !this.clickFocus || Math.hypot(e.offsetX - down.x, e.offsetY - down.y) > CLICK_PX) return;
    const hit = this.pick(e.offsetX, e.offsetY);
    if (hit?.asteroid) this.focus(hit.asteroid.index);
    else if (hit) this.app.flight.toPlanet(new Vector3(...hit.pointM));
  };
}

function isUnder(object: { parent: unknown } | null, ancestor: unknown): boolean {
  for (let o = object as { parent: unknown } | null; o; o = o.parent as { parent: unknown } | null) if (o === ancestor) return true;
  return false;
}
