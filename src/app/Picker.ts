/**
 * Picking in the explorer (issue 19): hovering shows what the pointer is over (the hit point, its
 * distance, the asteroid's seed and family, or the planet and the hit's altitude) on the overlay,
 * and a click (a press and release without a drag) on an asteroid focuses the orbit camera on it.
 * Rays go through the bodies' BVHs (src/interact/picking.ts), at most one pick a frame's worth of
 * pointer moves (MIN_INTERVAL_MS).
 */
import { Vector3 } from 'three';
import { pickAt } from '../interact/picking';
import type { App } from './App';

export interface PickInfo {
  kind: 'asteroid' | 'planet';
  pointM: [number, number, number];
  distanceM: number;
  /** The asteroid hit (kind 'asteroid'). */
  asteroid?: { index: number; seed: number; family: string; radiusM: number; centerM: [number, number, number] };
  /** Height of the hit above the planet's surface field (kind 'planet'), metres. */
  altitudeM?: number;
}

/** Pointer travel under which a press and release is a click, not an orbit drag, pixels. */
const CLICK_PX = 5;
const MIN_INTERVAL_MS = 30;
/** A focused asteroid is framed at this many radii from its centre. */
const FOCUS_RADII = 3;

export class Picker {
  private lastPickMs = -Infinity;
  private down: { x: number; y: number } | null = null;
  /** The last hover's answer (the overlay's `pick` line). */
  hover: PickInfo | null = null;
  /** A click focuses the asteroid under it (off while the brush tool owns clicks). */
  clickFocus = true;

  constructor(private readonly app: App) {
    const canvas = app.renderer.domElement;
    canvas.addEventListener('pointermove', this.onMove);
    canvas.addEventListener('pointerdown', this.onDown);
    canvas.addEventListener('pointerup', this.onUp);
    app.stats.setLine('keys', 'T throws a probe · hover picks · click focuses an asteroid · B brush: click digs, shift-click builds, Ctrl+Z undoes · F flies');
  }

  /** What is under pixel (`xPx`, `yPx`) of the canvas (CSS pixels), or null. */
  pick(xPx: number, yPx: number): PickInfo | null {
    const bodies = this.app.bodies;
    if (!bodies) return null;
    const roots = [bodies.field?.root, bodies.planet?.root].filter((r) => r !== undefined && r !== null);
    const { clientWidth, clientHeight } = this.app.renderer.domElement;
    const hit = pickAt(this.app.camera, xPx, yPx, clientWidth, clientHeight, roots);
    if (!hit) return null;
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

  /** Frames asteroid `index` in the orbit camera: the target at its centre, the camera FOCUS_RADII radii out. */
  focus(index: number): void {
    const a = this.app.field?.spec.asteroids[index];
    if (!a || this.app.fly.enabled) return;
    const center = new Vector3(...a.positionM);
    const away = this.app.camera.position.clone().sub(center);
    if (away.lengthSq() === 0) away.set(0, 0, 1);
    this.app.camera.position.copy(center).addScaledVector(away.normalize(), FOCUS_RADII * a.radiusM);
    this.app.controls.target.copy(center);
    this.app.controls.update();
    // The URL follows the view when an orbit ends.
    this.app.controls.dispatchEvent({ type: 'end' });
  }

  dispose(): void {
    const canvas = this.app.renderer.domElement;
    canvas.removeEventListener('pointermove', this.onMove);
    canvas.removeEventListener('pointerdown', this.onDown);
    canvas.removeEventListener('pointerup', this.onUp);
  }

  private readonly onMove = (e: PointerEvent): void => {
    const now = performance.now();
    if (now - this.lastPickMs < MIN_INTERVAL_MS || e.buttons !== 0) return;
    this.lastPickMs = now;
    this.hover = this.pick(e.offsetX, e.offsetY);
    if (this.hover) this.app.stats.setLine('pick', describe(this.hover));
    else this.app.stats.clearLine('pick');
  };

  private readonly onDown = (e: PointerEvent): void => {
    this.down = e.button === 0 ? { x: e.offsetX, y: e.offsetY } : null;
  };

  private readonly onUp = (e: PointerEvent): void => {
    const down = this.down;
    this.down = null;
    if (!down || !this.clickFocus || Math.hypot(e.offsetX - down.x, e.offsetY - down.y) > CLICK_PX) return;
    const hit = this.pick(e.offsetX, e.offsetY);
    if (hit?.asteroid) this.focus(hit.asteroid.index);
  };
}

function isUnder(object: { parent: unknown } | null, ancestor: unknown): boolean {
  for (let o = object as { parent: unknown } | null; o; o = o.parent as { parent: unknown } | null) if (o === ancestor) return true;
  return false;
}

/** The overlay line for a pick. */
export function describe(p: PickInfo): string {
  const at = p.pointM.map((v) => v.toFixed(0)).join(', ');
  const what = p.asteroid
    ? `asteroid ${p.asteroid.index} (seed ${p.asteroid.seed}, ${p.asteroid.family}, r ${p.asteroid.radiusM.toFixed(0)} m)`
    : `planet${p.altitudeM !== undefined ? ` (hit ${p.altitudeM.toFixed(1)} m from its field's surface)` : ''}`;
  return `pick: ${what} · ${p.distanceM.toFixed(1)} m away · at (${at})`;
}
