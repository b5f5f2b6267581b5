import { Euler, Quaternion, Vector3, type PerspectiveCamera } from 'three';

export interface FlyControlsOptions {
  /** Distance from the camera to the nearest surface, metres (drives the speed). */
  altitude: () => number;
  /**
   * Shortens a move so the camera never passes through a surface: given the segment from
   * `from` to `to`, returns the allowed end point (write into `to` and return it).
   */
  collide?: (from: Vector3, to: Vector3) => Vector3;
  /** Speed in altitudes per second: speed (m/s) = altitude (m) × this (default 0.6): slow near the ground, fast in space. */
  altitudesPerS?: number;
  /** Floor on the speed, m/s (default 0.5). */
  minSpeedMS?: number;
  /** Look sensitivity, radians per pixel (default 0.003). */
  lookRadPerPx?: number;
}

const KEYS: Record<string, [number, number, number]> = {
  KeyW: [0, 0, -1],
  ArrowUp: [0, 0, -1],
  KeyS: [0, 0, 1],
  ArrowDown: [0, 0, 1],
  KeyA: [-1, 0, 0],
  ArrowLeft: [-1, 0, 0],
  KeyD: [1, 0, 0],
  ArrowRight: [1, 0, 0],
  KeyE: [0, 1, 0],
  KeyQ: [0, -1, 0],
};

const move = new Vector3();
const from = new Vector3();
const to = new Vector3();
const euler = new Euler(0, 0, 0, 'YXZ');
const quat = new Quaternion();

/**
 * Free flight: WASD/arrows move, Q/E down/up, drag to look, wheel scales speed. The speed
 * follows the altitude, so crossing the field and creeping over a boulder both feel right.
 */
export class FlyControls {
  enabled = false;
  /** Wheel-controlled multiplier on the altitude-based speed. */
  speedScale = 1;
  private readonly held = new Set<string>();
  private dragging = false;
  private lastX = 0;
  private lastY = 0;
  private readonly opts: Required<Omit<FlyControlsOptions, 'collide'>> & Pick<FlyControlsOptions, 'collide'>;

  constructor(
    private readonly camera: PerspectiveCamera,
    private readonly element: HTMLElement,
    options: FlyControlsOptions,
  ) {
    this.opts = {
      altitudesPerS: 0.6,
      minSpeedMS: 0.5,
      lookRadPerPx: 0.003,
      ...options,
    };
    element.addEventListener('pointerdown', this.onDown);
    window.addEventListener('pointermove', this.onMove);
    window.addEventListener('pointerup', this.onUp);
    element.addEventListener('wheel', this.onWheel, { passive: true });
    window.addEventListener('keydown', this.onKey);
    window.addEventListener('keyup', this.onKeyUp);
    window.addEventListener('blur', this.onBlur);
  }

  /** Current speed, m/s. */
  speed(): number {
    return Math.max(this.opts.minSpeedMS, this.opts.altitude() * this.opts.altitudesPerS) * this.speedScale;
  }

  update(dtS: number): void {
    if (!this.enabled || this.held.size === 0) return;
    move.set(0, 0, 0);
    for (const code of this.held) {
      const k = KEYS[code];
      if (k) move.x += k[0], move.y += k[1], move.z += k[2];
    }
    if (move.lengthSq() === 0) return;
    move.normalize().applyQuaternion(this.camera.quaternion).multiplyScalar(this.speed() * dtS);
    from.copy(this.camera.position);
    to.copy(from).add(move);
    this.camera.position.copy(this.opts.collide ? this.opts.collide(from, to) : to);
  }

  private readonly onDown = (e: PointerEvent): void => {
    if (!this.enabled || e.button !== 0) return;
    this.dragging = true;
    this.lastX = e.clientX;
    this.lastY = e.clientY;
  };

  private readonly onMove = (e: PointerEvent): void => {
    if (!this.enabled || !this.dragging) return;
    const dx = e.clientX - this.lastX;
    const dy = e.clientY - this.lastY;
    this.lastX = e.clientX;
    this.lastY = e.clientY;
    euler.setFromQuaternion(this.camera.quaternion);
    euler.y -= dx * this.opts.lookRadPerPx;
    euler.x = Math.max(-1.55, Math.min(1.55, euler.x - dy * this.opts.lookRadPerPx));
    this.camera.quaternion.copy(quat.setFromEuler(euler));
  };

  private readonly onUp = (): void => {
    this.dragging = false;
  };

  private readonly onWheel = (e: WheelEvent): void => {
    if (!this.enabled) return;
    this.speedScale = Math.min(100, Math.max(0.01, this.speedScale * Math.exp(-e.deltaY * 0.001)));
  };

  private readonly onKey = (e: KeyboardEvent): void => {
    if (!this.enabled || !(e.code in KEYS)) return;
    if (e.target instanceof HTMLInputElement) return; // typing in the GUI
    this.held.add(e.code);
  };

  private readonly onKeyUp = (e: KeyboardEvent): void => {
    this.held.delete(e.code);
  };

  private readonly onBlur = (): void => {
    this.held.clear();
    this.dragging = false;
  };

  dispose(): void {
    this.element.removeEventListener('pointerdown', this.onDown);
    window.removeEventListener('pointermove', this.onMove);
    window.removeEventListener('pointerup', this.onUp);
    this.element.removeEventListener('wheel', this.onWheel);
    window.removeEventListener('keydown', this.onKey);
    window.removeEventListener('keyup', this.onKeyUp);
    window.removeEventListener('blur', this.onBlur);
  }
}
