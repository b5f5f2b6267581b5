/** Planet-mode helpers for browser tests: put the camera over the terrain, wait for the planet to complete. */
import type { Page } from 'playwright-core';
import { undrawn } from './harness';

/** Camera `altitudeM` above the planet (seed direction), looking at the ground `ahead` × altitude away. */
export async function above(page: Page, altitudeM: number, ahead: number): Promise<void> {
  await page.evaluate(([alt, ahead]) => {
    const app = window.__sr!.app!;
    const planet = app.planet!;
    const d = [0.3, 0.55, 0.78].map((v) => v / Math.hypot(0.3, 0.55, 0.78));
    const c = planet.root.position;
    const p = app.camera.position;
    let r = planet.radiusM + alt;
    for (let i = 0; i < 8; i++) {
      p.set(c.x + d[0] * r, c.y + d[1] * r, c.z + d[2] * r);
      r -= planet.altitude(p) - alt;
    }
    p.set(c.x + d[0] * r, c.y + d[1] * r, c.z + d[2] * r);
    // The ground point `ahead × alt` along the surface, found the same way.
    const side = [-d[1], d[0], 0].map((v) => v / Math.hypot(d[0], d[1]));
    const g = d.map((v, i) => v * planet.radiusM + side[i] * ahead * alt);
    const gl = Math.hypot(...g);
    const gd = g.map((v) => v / gl);
    const t = app.controls.target;
    let rg = planet.radiusM;
    for (let i = 0; i < 8; i++) {
      t.set(c.x + gd[0] * rg, c.y + gd[1] * rg, c.z + gd[2] * rg);
      rg -= planet.altitude(t);
    }
    app.camera.lookAt(t);
  }, [altitudeM, ahead] as const);
}

/**
 * Waits until the planet's LOD is complete (`timeoutMs`: tests that stream a whole surface on
 * SwiftShader need more), drawing nothing meanwhile (harness `undrawn`): what is checked after a
 * wait is the completed state.
 */
export async function complete(page: Page, timeoutMs = 150_000): Promise<void> {
  await undrawn(page, () => page.waitForFunction(() => window.__sr?.planet()?.complete === true, null, { timeout: timeoutMs, polling: 250 }));
}
