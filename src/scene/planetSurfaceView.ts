/**
 * A camera over a planet's terrain (issue 20: `npm run screenshot -- --mode planet --altitude <m>`):
 * `altitudeM` above the planet mode's ground at its north pole (+y), looking at the horizon with the
 * sun to the side, so the relief casts shadows across the view. At the pole the ground's up is the
 * camera's up (the orbit camera keeps +y up): the horizon is level. Planet mode's sun stands ~21°
 * over that horizon. Pure and deterministic (the same seed and altitude give the same camera), so
 * the URL's `cam` it makes reproduces the picture.
 */
import { compileToJs, recipeBounds, type Vec3 } from '../field/index';
import { sceneSpec, type SceneOptions } from './sceneSpec';

const norm = (v: number[]): Vec3 => {
  const l = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / l, v[1] / l, v[2] / l];
};
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/**
 * Camera `altitudeM` over planet mode's ground for `seed` (drawn as `options.planetClass` when
 * given), looking at the horizon (world metres).
 */
export function planetSurfaceView(seed: number, altitudeM: number, options: SceneOptions = {}): { position: Vec3; target: Vec3 } {
  const spec = sceneSpec(seed, 'planet', options);
  const planet = spec.planet!;
  const field = compileToJs(planet.recipe);
  const bounds = recipeBounds(planet.recipe);
  const sun = spec.sunDirection;
  const up: Vec3 = [0, 1, 0];
  const at = (r: number): number => field(up[0] * r, up[1] * r, up[2] * r);
  // Down from above the highest ground in steps no longer than the field allows, then settle the
  // altitude on the field (about the distance to the surface near it).
  const outer = Math.hypot(...bounds.sphereCenter) + bounds.sphereRadiusM;
  let r = outer + altitudeM;
  let above = r;
  for (let i = 0; i < 10_000; i++) {
    const f = at(r);
    if (f <= altitudeM + 0.01) break;
    above = r;
    r -= Math.max(0.01, (f - altitudeM) / Math.max(1, bounds.lipschitz));
  }
  // Bisection between the last radius above and the first at the altitude: Newton's steps on a
  // field with shells (karst's arches, the cave sheet) jumped into the rock (issue 41).
  let below = r;
  for (let i = 0; i < 60 && above - below > 1e-4; i++) {
    const mid = 0.5 * (above + below);
    if (at(mid) > altitudeM) above = mid;
    else below = mid;
  }
  r = 0.5 * (above + below);
  const c = planet.centerM;
  const position: Vec3 = [c[0] + up[0] * r, c[1] + up[1] * r, c[2] + up[2] * r];
  // The horizon of a sphere of the ground's radius, ⟂ the sun's azimuth (shadows across the view).
  const ground = r - altitudeM;
  const theta = Math.acos(Math.min(1, ground / r));
  const ahead = norm(cross(up, [sun[0], 0, sun[2]]));
  const target: Vec3 = [0, 1, 2].map((i) => c[i] + ground * (up[i] * Math.cos(theta) + ahead[i] * Math.sin(theta))) as Vec3;
  return { position, target };
}
