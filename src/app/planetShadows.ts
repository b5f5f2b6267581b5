/**
 * The sun's shadow cascades near a planet (PlanetView.fitShadows): from half the altitude out to
 * the horizon plus the horizon of the highest terrain (relief ≈ 1 % of R), split nearly uniformly
 * (λ 0.97: near the ground a log split would spend the first map on the first metres) — the terrain
 * shadows itself to the horizon. The planet's own sun has 3 cascades; a shared one, whatever it has.
 */
import type { PerspectiveCamera } from 'three';
import type { Sun } from '../render/Sun';

/** The sun's cascades near a planet: from half the altitude to the horizons. */
export function planetCascades(nearM: number, altitudeM: number, radiusM: number): { nearM: number; farM: number; lambda: number; stagger: boolean } {
  const altitude = Math.max(0, altitudeM);
  const horizon = (h: number): number => Math.sqrt(h * (2 * radiusM + h));
  // Staggered far maps (Sun.fitCascades): near the ground the shadow passes were ~21 of 55 ms a
  // frame on the H100 (2,500 of 3,600 draws), most of them the far cascades'.
  return { nearM: Math.max(nearM, 0.5 * altitude), farM: horizon(altitude) + horizon(0.01 * radiusM), lambda: 0.97, stagger: true };
}

/** Fits `sun`'s cascades to the view `altitudeM` over a planet of `radiusM` (`castersVersion`: what casts changed). */
export function fitPlanetShadows(sun: Sun, camera: PerspectiveCamera, altitudeM: number, radiusM: number, castersVersion?: number): void {
  sun.fitCascades(camera, { ...planetCascades(camera.near, altitudeM, radiusM), castersVersion });
}
