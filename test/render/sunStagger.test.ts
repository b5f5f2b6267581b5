/**
 * Staggered shadow cascades (Sun.fitCascades `stagger`, issue 20's frame cost near a planet's
 * ground): cascade 0 re-renders every frame, the far cascades in turn; a skipped cascade keeps its
 * fit (so its map and its lookup agree); a new sun direction renders every map; the single-map
 * fit (fitShadow) goes back to three's automatic updates. Cached cascades (`castersVersion`): a map
 * is rendered again only when its fit, the light or the casters changed.
 */
import { describe, expect, it } from 'vitest';
import { Group, PerspectiveCamera, Sphere, Vector3 } from 'three';
import { Sun } from '../../src/render/Sun';
import { MAX_CACHED_FRAMES } from '../../src/render/cascadeFit';

/** One frame's fit; the maps it asks for, which three then renders (clearing needsUpdate). */
function frame(sun: Sun, camera: PerspectiveCamera, castersVersion?: number): boolean[] {
  sun.fitCascades(camera, { farM: 9000, nearM: 10, lambda: 0.97, stagger: true, castersVersion });
  const asked = sun.cascadeLights.map((l) => l.shadow.needsUpdate);
  for (const l of sun.cascadeLights) l.shadow.needsUpdate = false;
  return asked;
}

describe('Sun: staggered cascades', () => {
  it('renders cascade 0 each frame and the far ones in turn; skipped ones keep their fit', () => {
    const sun = new Sun({ cascades: 3 });
    const camera = new PerspectiveCamera(55, 16 / 9, 0.5, 1e7);
    camera.position.set(0, 20, 0);
    camera.lookAt(0, 20, -100);
    expect(frame(sun, camera)).toEqual([true, true, true]); // the first fit renders every map
    const seen: boolean[][] = [];
    for (let i = 0; i < 4; i++) {
      const before = sun.cascadeLights.map((l) => l.position.clone());
      camera.position.x += 50;
      camera.updateMatrixWorld();
      const updated = frame(sun, camera);
      seen.push(updated);
      expect(updated[0]).toBe(true);
      expect(updated[1] !== updated[2], 'one far cascade a frame').toBe(true);
      sun.cascadeLights.forEach((l, k) => {
        expect(l.shadow.autoUpdate).toBe(false);
        if (!updated[k]) expect(l.position.equals(before[k]), `cascade ${k} kept its fit`).toBe(true);
        else expect(l.position.equals(before[k]), `cascade ${k} was fitted again`).toBe(false);
      });
    }
    expect(seen.map((u) => u[1])).toEqual([seen[0][1], !seen[0][1], seen[0][1], !seen[0][1]]);
    sun.setDirection(new Vector3(0.3, 0.5, 0.2));
    expect(frame(sun, camera)).toEqual([true, true, true]);
    sun.fitShadow(new Sphere(new Vector3(), 100));
    expect(sun.cascadeLights.every((l) => l.shadow.autoUpdate)).toBe(true);
    sun.dispose();
  });

  it('a skipped cascade is looked up in the current floating-origin shift (its map does not depend on it)', () => {
    const world = new Group();
    const sun = new Sun({ cascades: 3 });
    world.add(sun);
    const camera = new PerspectiveCamera(55, 16 / 9, 0.5, 1e7);
    camera.position.set(0, 20, 0);
    camera.lookAt(0, 20, -100);
    world.updateMatrixWorld(true);
    frame(sun, camera);
    world.updateMatrixWorld(true);
    for (const l of sun.cascadeLights) l.shadow.updateMatrices(l); // as three does when it renders the maps
    camera.position.x += 30;
    camera.updateMatrixWorld();
    const updated = frame(sun, camera);
    world.updateMatrixWorld(true);
    for (const [k, l] of sun.cascadeLights.entries()) if (updated[k]) l.shadow.updateMatrices(l);
    const skipped = updated.indexOf(false);
    expect(skipped).toBeGreaterThan(0);
    const light = sun.cascadeLights[skipped];
    const point = new Vector3(40, 5, -300); // a world point, drawn at point − shift
    const before = point.clone().applyMatrix4(light.shadow.matrix);
    // The floating origin moves the world by −camera for the draw (src/render/floatingOrigin.ts).
    world.position.set(-30, 0, 0);
    world.updateMatrixWorld(true);
    const after = point.clone().add(world.position).applyMatrix4(light.shadow.matrix);
    expect(after.distanceTo(before)).toBeLessThan(1e-6);
    sun.dispose();
  });

  it('without stagger every map follows three automatic updates', () => {
    const sun = new Sun({ cascades: 3 });
    const camera = new PerspectiveCamera(55, 16 / 9, 0.5, 1e7);
    sun.fitCascades(camera, { farM: 9000 });
    expect(sun.cascadeLights.every((l) => l.shadow.autoUpdate)).toBe(true);
    sun.dispose();
  });

  it('cached: a hovering camera re-renders no map; moving past a texel, new casters or age render them again', () => {
    const sun = new Sun({ cascades: 3 });
    const camera = new PerspectiveCamera(55, 16 / 9, 0.5, 1e7);
    camera.position.set(0, 20, 0);
    camera.lookAt(0, 20, -100);
    camera.updateMatrixWorld();
    expect(frame(sun, camera, 7)).toEqual([true, true, true]);
    frame(sun, camera, 7); // the other far cascade's turn
    const positions = sun.cascadeLights.map((l) => l.position.clone());
    for (let i = 0; i < 6; i++) expect(frame(sun, camera, 7), `hovering, frame ${i}`).toEqual([false, false, false]);
    // three must not render them on its own either.
    expect(sun.cascadeLights.every((l) => !l.shadow.autoUpdate)).toBe(true);
    sun.cascadeLights.forEach((l, k) => expect(l.position.equals(positions[k]), `cascade ${k} kept its fit`).toBe(true));
    // Under a texel of the finest map (2048 texels over ~190 m: ~9 cm): nothing changes.
    camera.position.x += 0.01;
    camera.updateMatrixWorld();
    expect(frame(sun, camera, 7)).toEqual([false, false, false]);
    // A metre: cascade 0 moves by ~10 texels; the far maps (texels of 0.5-10 m) mostly stay.
    camera.position.x += 1;
    camera.updateMatrixWorld();
    expect(frame(sun, camera, 7)[0]).toBe(true);
    // New casters (a commit): each cascade renders on its turn.
    const asked = [frame(sun, camera, 8), frame(sun, camera, 8)];
    expect([asked[0][0], asked[1][0]], 'cascade 0 once for the new casters').toEqual([true, false]);
    expect([asked[0][1] !== asked[1][1], asked[0][2] !== asked[1][2]], 'each far cascade once, on its turn').toEqual([true, true]);
    // Old maps are rendered again eventually, even with nothing changed.
    let renders = 0;
    for (let i = 0; i < MAX_CACHED_FRAMES + 2; i++) renders += frame(sun, camera, 8).filter(Boolean).length;
    expect(renders).toBeGreaterThanOrEqual(3);
    expect(renders).toBeLessThanOrEqual(6);
    // A new direction renders every map at once.
    sun.setDirection(new Vector3(0.3, 0.5, 0.2));
    expect(frame(sun, camera, 8)).toEqual([true, true, true]);
    // A fit without a version (re-fitted maps the cache does not know) renders them again after.
    frame(sun, camera, 8);
    camera.position.x += 5;
    camera.updateMatrixWorld();
    frame(sun, camera);
    camera.position.x -= 5;
    camera.updateMatrixWorld();
    expect(frame(sun, camera, 8)[0], 'cascade 0 back where it was, rendered again').toBe(true);
    sun.dispose();
  });

  it('fitShadow with a casters\' version: the map renders when its fit or the version changes; parked cascades once; then fitCascades renders every map', () => {
    const sun = new Sun({ cascades: 3 });
    const shadowFrame = (center: Vector3, version?: number): boolean[] => {
      sun.fitShadow(new Sphere(center, 800), version);
      const asked = sun.cascadeLights.map((l) => l.shadow.needsUpdate || l.shadow.autoUpdate);
      for (const l of sun.cascadeLights) l.shadow.needsUpdate = false;
      return asked;
    };
    const focus = new Vector3(100, 0, 0);
    expect(shadowFrame(focus, 1), 'the first fit renders the map and the parked ones').toEqual([true, true, true]);
    for (let i = 0; i < 5; i++) expect(shadowFrame(focus, 1), `still, frame ${i}`).toEqual([false, false, false]);
    expect(sun.cascadeLights.every((l) => !l.shadow.autoUpdate)).toBe(true);
    expect(shadowFrame(focus, 2)[0], 'casters moved').toBe(true);
    expect(shadowFrame(focus.clone().setX(400), 2)[0], 'a new focus').toBe(true);
    expect(shadowFrame(focus.clone().setX(400), 2)).toEqual([false, false, false]);
    sun.invalidateShadows();
    expect(shadowFrame(focus.clone().setX(400), 2)[0], 'a restored context renders it again').toBe(true);
    // Without a version: three renders every map every frame, as before.
    expect(shadowFrame(focus)).toEqual([true, true, true]);
    // Back at a planet: the first cascaded fit renders every map (they were parked), not in turn.
    const camera = new PerspectiveCamera(55, 16 / 9, 0.5, 1e7);
    camera.position.set(0, 20, 0);
    camera.lookAt(0, 20, -100);
    camera.updateMatrixWorld();
    shadowFrame(focus, 3);
    expect(frame(sun, camera, 9)).toEqual([true, true, true]);
    sun.dispose();
  });
});
