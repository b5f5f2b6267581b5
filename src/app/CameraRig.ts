/**
 * The explorer's camera and what moves it: the world camera that the orbit controls and free
 * flight (key F) drive, the render camera the floating origin draws with, and the camera as the
 * URL holds it. Flights to a clicked body (CameraFlight.ts) move the same camera from outside.
 */
import { PerspectiveCamera, Vector3, type Object3D } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { FlyControls } from '../interact/FlyControls';
import { drawShifted } from '../render/floatingOrigin';
import type { CameraState } from './urlState';

/** Near/far planes, metres: a logarithmic depth buffer holds both in one frame. */
const NEAR_M = 0.5;
const FAR_M = 1e8;

export interface CameraRigOptions {
  /** The element the controls listen on (the canvas). */
  element: HTMLElement;
  /** Height of the camera above the nearest surface, metres: free flight's speed follows it. */
  altitude(): number;
  /** A flight step from `from` to `to`, stopped short of the scene's surfaces. */
  collide(from: Vector3, to: Vector3): Vector3;
  /** An orbit drag ended: the view moved (the URL follows). */
  moved(): void;
}

export class CameraRig {
  /** The camera in world space (metres, float64 on the CPU): controls move this one. */
  readonly camera = new PerspectiveCamera(45, 1, NEAR_M, FAR_M);
  /**
   * What the GPU sees: the same view with the camera at the origin. Rendering shifts the
   * world by −camera.position for the draw (a floating origin), so every matrix three.js
   * uploads as float32 — model, view, shadow — holds small numbers near the camera, and a
   * planet 20,000 km away renders without jitter at 2 m above its surface.
   */
  readonly renderCamera = new PerspectiveCamera();
  readonly controls: OrbitControls;
  readonly fly: FlyControls;

  constructor(options: CameraRigOptions) {
    this.controls = new OrbitControls(this.camera, options.element);
    this.controls.enableDamping = true;
    this.controls.addEventListener('end', () => options.moved());
    this.fly = new FlyControls(this.camera, options.element, {
      altitude: () => Math.max(0, options.altitude()),
      collide: (from, to) => options.collide(from, to),
    });
  }

  /** One frame of the user's controls: free flight, or the orbit's damping. */
  update(dtS: number): void {
    if (this.fly.enabled) this.fly.update(dtS);
    else this.controls.update();
  }

  /**
   * Orbit around a body, or free flight. Leaving flight, the orbit goes around what is ahead:
   * `bodyAhead`'s center when it gives one, else a point 10 m out. False when already in `mode`.
   */
  setMode(mode: 'orbit' | 'fly', bodyAhead: (position: Vector3, ahead: Vector3) => Vector3 | null | undefined): boolean {
    const flying = mode === 'fly';
    if (flying === this.fly.enabled) return false;
    this.fly.enabled = flying;
    this.controls.enabled = !flying;
    if (!flying) {
      const ahead = new Vector3(0, 0, -1).applyQuaternion(this.camera.quaternion);
      const body = bodyAhead(this.camera.position, ahead);
      this.controls.target.copy(body ?? this.camera.position.clone().addScaledVector(ahead, 10));
    }
    return true;
  }

  /** The camera as the URL holds it. */
  state(): CameraState {
    // In flight the "target" is a point straight ahead, so the URL still holds the view.
    const target = this.fly.enabled
      ? this.camera.position.clone().add(new Vector3(0, 0, -10).applyQuaternion(this.camera.quaternion))
      : this.controls.target;
    return {
      position: this.camera.position.toArray() as [number, number, number],
      target: target.toArray() as [number, number, number],
    };
  }

  /** Puts the camera where `view` says, looking at its target (the orbit's center). */
  lookFrom(view: CameraState): void {
    this.camera.position.fromArray(view.position);
    this.controls.target.fromArray(view.target);
    this.camera.lookAt(new Vector3().fromArray(view.target));
    this.controls.update();
  }

  /** The drawing's aspect changed (a resize). */
  setAspect(aspect: number): void {
    this.camera.aspect = aspect;
    this.camera.updateProjectionMatrix();
  }

  /**
   * Runs `draw` with the floating origin at the camera (src/render/floatingOrigin.ts): `world`
   * shifted by −camera.position, the render camera at the origin with the camera's orientation and
   * projection. CPU-side logic (LOD, raycasts, fields) always sees the unshifted world.
   */
  drawShifted(world: Object3D, draw: () => void): void {
    drawShifted(world, this.camera, this.renderCamera, draw);
  }

  dispose(): void {
    this.controls.dispose();
    this.fly.dispose();
  }
}
