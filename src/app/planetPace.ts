/**
 * What the planet's time policy (src/lod/timeFactor.ts) is told each frame: the workers' pace, from
 * PlanetJobs' totals, and whether the camera holds still. Pure of three.js beyond a Vector3.
 */
import type { Vector3 } from 'three';
import type { StreamingPace, WorkerPace } from '../lod/index';
import { jobsPerSecond } from '../lod/index';

/** The camera moved this share of its altitude from where it last settled: the view changed (the budget applies again). */
export const VIEW_MOVE = 0.25;
/** The camera is still once it has not moved for this long (ms). */
export const STILL_AFTER_MS = 1000;

export class PlanetPace {
  private anchor: [number, number, number] | null = null;
  private movedAt = -Infinity;

  /**
   * The frame's pace. `cameraBody` is the camera in the planet's frame, `altitudeM` its height,
   * `answered` whether the LOD worker's latest answer is current and requests nothing; `onMoved`
   * runs when the view changed enough to land again.
   */
  update(cameraBody: Vector3, altitudeM: number, nowMs: number, pace: WorkerPace | null, answered: boolean, onMoved: () => void): StreamingPace {
    const a = this.anchor;
    if (!a || Math.hypot(cameraBody.x - a[0], cameraBody.y - a[1], cameraBody.z - a[2]) > VIEW_MOVE * Math.max(1, altitudeM)) {
      if (a) {
        this.movedAt = nowMs;
        onMoved();
      }
      this.anchor = [cameraBody.x, cameraBody.y, cameraBody.z];
    }
    return { jobsPerS: pace ? jobsPerSecond(pace) : null, still: nowMs - this.movedAt >= STILL_AFTER_MS, answered };
  }
}
