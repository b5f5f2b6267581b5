/**
 * Staggered shadow cascades (Sun.fitCascades `stagger`, issue 20's frame cost near a planet's
 * ground): cascade 0 re-renders every frame, the far cascades in turn; a skipped cascade keeps its
 * fit (so its map and its lookup agree); a new sun direction renders every map; the single-map
 * fit (fitShadow) goes back to three's automatic updates.
 */
import { describe, expect, it } from 'vitest';
import { Group, PerspectiveCamera, Sphere, Vector3 } from 'three';
import { Sun } from '../../src/render/Sun';

/** One frame's fit; the maps it asks for, which three then renders (clearing needsUpdate). */
function frame(sun: Sun, camera: PerspectiveCamera): boolean[] {
  sun.fitCascades(camera, { farM: 9000, nearM: 10, lambda: 0.97, stagger: true });
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
});
