/**
 * A planet's sea and clouds (issue 41; src/render/PlanetLayers.ts) in the production app on ocean
 * planet 7 (130 km, clear air), 320×180 under SwiftShader: the water reflects the sky — brighter
 * towards the horizon than looking down — and along a coastline no pixel of space shows between
 * the water and the ground (the background turned magenta and the sky's passes off, so a gap
 * would be unmistakable); from orbit the clouds add white. PNGs in test-results/sea-*.png.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, resultPath, useBrowser, type Served } from './harness';
import { complete } from './planetCamera';
import type { Browser } from 'playwright-core';

let browser: Browser;
let server: Served;
useBrowser('preview', (b, s) => ([browser, server] = [b, s]));

const SEED = 7;

interface Shot { width: number; height: number; rgb: number[] }

/** The frame as the app draws it (tone-mapped), saved as test-results/sea-<name>.png; RGB rows top-down. */
async function grab(page: Page, name: string): Promise<Shot> {
  // Two of the app's frames with the camera as set (the layers' and the air's uniforms and tables
  // follow the frame's camera). Under load SwiftShader's context was lost twice here: the app's
  // frames stop until it is restored, and a capture then draws a black sky from empty tables.
  const frames = await page.evaluate(() => window.__sr!.frames());
  await page.waitForFunction((n) => window.__sr!.frames() >= n + 2 && !window.__sr!.app!.renderer.getContext().isContextLost(), frames, { timeout: 120_000, polling: 100 })
    .catch(() => { throw new Error(`grab ${name}: the app drew no frame in 120 s after frame ${frames} (WebGL context lost?)`); });
  const r = await page.evaluate(async () => {
    const { base64, width, height } = await window.__sr!.capture(innerWidth, innerHeight);
    const img = new Image();
    img.src = `data:image/png;base64,${base64}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const data = ctx.getImageData(0, 0, width, height).data;
    const rgb: number[] = [];
    for (let i = 0; i < data.length; i += 4) rgb.push(data[i], data[i + 1], data[i + 2]);
    return { base64, width, height, rgb };
  });
  writeFileSync(resultPath(`sea-${name}.png`), Buffer.from(r.base64, 'base64'));
  return { width: r.width, height: r.height, rgb: r.rgb };
}

/** Mean luma (0–255) of the pixels of rows [from, to) (fractions of the height, top 0) where `mask` holds. */
function meanLuma(s: Shot, from: number, to: number, mask?: (i: number) => boolean): { luma: number; n: number } {
  let sum = 0, n = 0;
  for (let y = Math.floor(from * s.height); y < Math.floor(to * s.height); y++) {
    for (let x = 0; x < s.width; x++) {
      const i = y * s.width + x;
      if (mask && !mask(i)) continue;
      sum += 0.2126 * s.rgb[3 * i] + 0.7152 * s.rgb[3 * i + 1] + 0.0722 * s.rgb[3 * i + 2];
      n++;
    }
  }
  return { luma: n ? sum / n : 0, n };
}

/** Pixels where two shots differ by more than `eps` in some channel. */
function differs(a: Shot, b: Shot, eps = 6): (i: number) => boolean {
  return (i) => Math.abs(a.rgb[3 * i] - b.rgb[3 * i]) > eps || Math.abs(a.rgb[3 * i + 1] - b.rgb[3 * i + 1]) > eps || Math.abs(a.rgb[3 * i + 2] - b.rgb[3 * i + 2]) > eps;
}

/** Shows or hides one layer's proxy. */
async function showLayer(page: Page, which: 'sea' | 'clouds', on: boolean): Promise<void> {
  await page.evaluate(([w, v]) => { window.__sr!.app!.bodies!.layers!.mesh(w)!.visible = v; }, [which, on] as const);
}

/**
 * Camera `altitudeM` above sea level over a point of the sunlit side that is open water (`want`
 * 'sea': the ground ≥ 60 m under the surface) or on a coastline ('coast'), looking at that point
 * from `backM` away along the surface, or towards the horizon away from the sun ('horizon').
 */
async function placeOverSea(page: Page, want: 'sea' | 'coast', altitudeM: number, look: 'down' | 'horizon'): Promise<{ depthM: number; sunUp: number }> {
  return page.evaluate(([want, alt, look]) => {
    const app = window.__sr!.app!;
    const planet = app.planet!;
    const seaR = app.bodies!.spec.planet!.sea!.radiusM;
    const c = planet.root.position;
    const sun = app.bodies!.sun.direction;
    const P = c.clone();
    // The sea's depth at a direction: the field at sea level is about the height of the water over the ground.
    const depth = (d: number[]): number => planet.altitude(P.set(c.x + d[0] * seaR, c.y + d[1] * seaR, c.z + d[2] * seaR));
    const norm = (v: number[]): number[] => { const l = Math.hypot(...v); return v.map((x) => x / l); };
    let best: number[] | null = null;
    // A spiral of directions around the subsolar point, out to ~55° from it (the sun well up).
    const s = [sun.x, sun.y, sun.z];
    const e1 = norm([-s[1], s[0], 0]);
    const e2 = [s[1] * e1[2] - s[2] * e1[1], s[2] * e1[0] - s[0] * e1[2], s[0] * e1[1] - s[1] * e1[0]];
    for (let i = 0; i < 4000 && !best; i++) {
      const a = 0.2 + 0.75 * Math.sqrt(i / 4000);
      const phi = i * 2.39996;
      const d = norm(s.map((v, k) => v * Math.cos(a) + Math.sin(a) * (Math.cos(phi) * e1[k] + Math.sin(phi) * e2[k])));
      const h = depth(d);
      if (want === 'sea' && h > 60) best = d;
      if (want === 'coast' && Math.abs(h) < 30) {
        // A coast: water a few hundred metres one way, land the other.
        const t = norm([-d[1], d[0], 0]);
        const step = 300 / seaR;
        const w = depth(norm(d.map((v, k) => v + t[k] * step)));
        const l = depth(norm(d.map((v, k) => v - t[k] * step)));
        if (w * l < 0) best = d;
      }
    }
    if (!best) throw new Error(`no ${want} found on the sunlit side`);
    const up = best;
    // Horizontal direction away from the sun (no glint in the view).
    let away = s.map((v, k) => -(v - up[k] * (s[0] * up[0] + s[1] * up[1] + s[2] * up[2])));
    if (Math.hypot(...away) < 1e-3) away = [-up[1], up[0], 0];
    away = norm(away);
    const spot = up.map((v, k) => c.getComponent(k) + v * seaR);
    const back = look === 'down' ? alt : 0;
    app.camera.position.set(...(spot.map((v, k) => v + up[k] * alt - away[k] * back) as [number, number, number]));
    const t = app.controls.target;
    if (look === 'down') t.set(spot[0], spot[1], spot[2]);
    // Towards the horizon, 4° under the level (the horizon of 30 m on 130 km dips 0.4°).
    else t.set(...(app.camera.position.toArray().map((v, k) => v + (away[k] - up[k] * 0.07) * 1000) as [number, number, number]));
    // Level with the local horizon (the default up is the world's +y: the view would roll).
    app.camera.up.set(up[0], up[1], up[2]);
    app.camera.lookAt(t);
    return { depthM: depth(up), sunUp: s[0] * up[0] + s[1] * up[1] + s[2] * up[2] };
  }, [want, altitudeM, look] as const);
}

/**
 * In a frame over a magenta background (nothing but water under the horizon): the water pixels,
 * from each column's first run of 6 rows that are not magenta (stars are single pixels) down, and
 * those of them tinted magenta (the background seen through the water).
 */
function backgroundThroughWater(s: Shot): { water: number; tinted: number } {
  const px = (x: number, y: number): number[] => { const i = 3 * (y * s.width + x); return [s.rgb[i], s.rgb[i + 1], s.rgb[i + 2]]; };
  const magenta = (x: number, y: number): boolean => { const [r, g, b] = px(x, y); return r > 180 && b > 180 && g < 100; };
  let water = 0, tinted = 0;
  for (let x = 0; x < s.width; x++) {
    let h = 0;
    for (; h + 6 <= s.height; h++) {
      let run = true;
      for (let y = h; y < h + 6 && run; y++) run = !magenta(x, y);
      if (run) break;
    }
    for (let y = h; y < s.height; y++) {
      const [r, g, b] = px(x, y);
      water++;
      if (r - g > 25 && b - g > 25) tinted++;
    }
  }
  return { water, tinted };
}

/** Waits for the planet's LOD to complete, or `ms`, whichever comes first. */
async function settleUpTo(page: Page, ms: number): Promise<void> {
  await complete(page, ms).catch(() => console.log(`LOD not complete after ${ms / 1000} s: going on with what is drawn`));
}

describe(`sea and clouds (ocean planet ${SEED})`, () => {
  it('the water reflects the sky, brighter towards the horizon; no space shows along a coastline; clouds from orbit', { timeout: 420_000 }, async () => {
    const { page, log } = await newPage(browser, { width: 320, height: 180 });
    // lodTime=0: full detail, so the settled view stays as it is (the time policy refines a landed view afterwards).
    await page.goto(`${server.url}/?mode=planet&seed=${SEED}&t=0&ui=0&quality=low&lodTime=0`);
    await page.waitForFunction(() => (window.__sr?.planet()?.drawn ?? 0) > 0, null, { timeout: 120_000, polling: 250 });
    const layers = await page.evaluate(() => {
      const l = window.__sr!.app!.bodies!.layers;
      return { sea: !!l?.sea, clouds: !!l?.clouds };
    });
    expect(layers, 'planet 7 has a sea and clouds').toEqual({ sea: true, clouds: true });

    // From orbit (the default view): clouds add white over the disc.
    await complete(page);
    const orbit = await grab(page, 'orbit');
    await showLayer(page, 'clouds', false);
    const orbitNoClouds = await grab(page, 'orbit-no-clouds');
    await showLayer(page, 'clouds', true);
    const white = (s: Shot): number => {
      let n = 0;
      for (let i = 0; i < s.width * s.height; i++) if (Math.min(s.rgb[3 * i], s.rgb[3 * i + 1], s.rgb[3 * i + 2]) > 150) n++;
      return n;
    };
    console.log(`orbit: white pixels ${white(orbit)} with clouds, ${white(orbitNoClouds)} without`);
    expect(white(orbit), 'clouds add white from orbit').toBeGreaterThan(white(orbitNoClouds) + 0.01 * orbit.width * orbit.height);

    // Their shadow on the ground: with the sea and the clouds hidden (the sea floor is ground too),
    // the frame with the shadow against the same frame with its strength at 0.
    const setShadow = (v: number | null) => page.evaluate((value) => {
      const u = window.__sr!.app!.bodies!.atmosphere!.cloudShadow!.uniforms.uCloudShadow;
      const was = u.value as number;
      if (value !== null) u.value = value;
      return was;
    }, v);
    await showLayer(page, 'clouds', false);
    await showLayer(page, 'sea', false);
    const shaded = await grab(page, 'orbit-cloud-shadows');
    const strength = await setShadow(0);
    const unshaded = await grab(page, 'orbit-no-cloud-shadows');
    await setShadow(strength);
    await showLayer(page, 'clouds', true);
    await showLayer(page, 'sea', true);
    let darker = 0, lighter = 0;
    for (let i = 0; i < shaded.width * shaded.height; i++) {
      const y = (s: Shot): number => 0.2126 * s.rgb[3 * i] + 0.7152 * s.rgb[3 * i + 1] + 0.0722 * s.rgb[3 * i + 2];
      if (y(shaded) < y(unshaded) - 6) darker++;
      else if (y(shaded) > y(unshaded) + 6) lighter++;
    }
    console.log(`cloud shadows (strength ${strength}): ${darker} pixels darker, ${lighter} lighter of ${shaded.width * shaded.height}`);
    expect(darker, 'the clouds shade the ground under them').toBeGreaterThan(0.005 * shaded.width * shaded.height);
    expect(lighter, 'a shadow only takes light away').toBeLessThan(0.1 * darker + 5);

    // (a) 30 m over open water, looking towards the horizon away from the sun.
    const sea = await placeOverSea(page, 'sea', 30, 'horizon');
    // The sea hides the sea floor whatever its LOD: a while for detail, not for completeness (20 s
    // gave the same figures as 60 s, luma 86.2 against 86.5; the full stream took ~40 s here).
    await settleUpTo(page, 20_000);
    const water = await grab(page, 'horizon');
    await showLayer(page, 'sea', false);
    const noWater = await grab(page, 'horizon-no-water');
    await showLayer(page, 'sea', true);
    // The camera's fov is 45°, the view's centre 4° under the level: the horizon sits ~42 % down.
    // Rows 50–60 % see the water a few hundred metres to ~3 km away, rows 85–100 % 40–70 m away.
    const nearHorizon = meanLuma(water, 0.5, 0.6).luma;
    const below = meanLuma(water, 0.85, 1).luma;
    // What the water changes over the sea floor it covers (logged: near the horizon the floor is
    // farther than the water, behind more air, so the difference there is not the reflection alone).
    const addedNear = nearHorizon - meanLuma(noWater, 0.5, 0.6).luma;
    const addedBelow = below - meanLuma(noWater, 0.85, 1).luma;
    console.log(`water (depth ${sea.depthM.toFixed(0)} m, sun ${(Math.asin(sea.sunUp) * 180 / Math.PI).toFixed(0)}° up): luma near the horizon ${nearHorizon.toFixed(1)} (+${addedNear.toFixed(1)} over the sea floor), looking down ${below.toFixed(1)} (+${addedBelow.toFixed(1)})`);
    // The sky just above the horizon (rows 30–40 %), which the water near it mirrors at grazing incidence.
    const sky = meanLuma(water, 0.3, 0.4).luma;
    console.log(`sky above the horizon ${sky.toFixed(1)}`);
    // Measured 1.24–1.31× here (the same code on two runs: what is drawn of the sea floor when the
    // capture is taken differs); under this ocean world's thin air the sky it mirrors is dim, so the
    // ratio is modest. The mirror itself is held by the next line.
    expect(nearHorizon, 'the sea is brighter towards the horizon').toBeGreaterThan(1.15 * below);
    expect(nearHorizon, 'near the horizon the sea mirrors the sky (Fresnel → 1)').toBeGreaterThan(0.7 * sky);
    // Under the sea's horizon the straight view ray can pass over the sea floor's own horizon (701 m
    // down): nothing but space behind the water. It showed through as a dark strip; the water now
    // veils what is behind it at grazing view (sea.frag.glsl). Counted over a magenta background
    // with the sky's passes and the clouds off: water pixels tinted magenta let the background through.
    await showLayer(page, 'clouds', false);
    await page.evaluate(() => {
      const app = window.__sr!.app!;
      window.__sr!.atmosphere(false);
      (window as unknown as { __savedBackground: unknown }).__savedBackground = app.scene.background;
      app.scene.background = null;
      app.renderer.setClearColor(0xff00ff, 1);
    });
    const through = await grab(page, 'horizon-magenta');
    await page.evaluate(() => {
      const app = window.__sr!.app!;
      app.scene.background = (window as unknown as { __savedBackground: typeof app.scene.background }).__savedBackground;
      app.renderer.setClearColor(0x000000, 1); // three.js's default, which the app keeps
      window.__sr!.atmosphere(true);
    });
    await showLayer(page, 'clouds', true);
    const bleed = backgroundThroughWater(through);
    console.log(`under the sea's horizon: ${bleed.tinted} of ${bleed.water} water pixels let the background through`);
    expect(bleed.water).toBeGreaterThan(0.2 * through.width * through.height);
    expect(bleed.tinted, 'space does not show through the water under its horizon').toBeLessThan(0.005 * bleed.water);

    // The clouds from below: looking 20° up towards up to four azimuths, until one shows clouds
    // (the cloudiest of those tried kept). What the layers cost a frame is the bench's, not this test's.
    let bestDiff = -1;
    const enough = 0.02 * water.width * water.height;
    for (let k = 0; k < 4 && bestDiff <= enough; k++) {
      await page.evaluate((k) => {
        const app = window.__sr!.app!;
        const p = app.camera.position;
        const up = p.clone().sub(app.planet!.root.position).normalize();
        const fwd = app.controls.target.clone().sub(p);
        fwd.addScaledVector(up, -fwd.dot(up)).normalize().applyAxisAngle(up, (k * Math.PI) / 2);
        app.controls.target.copy(p).addScaledVector(fwd, 1000).addScaledVector(up, 364);
        app.camera.lookAt(app.controls.target);
      }, k);
      const withClouds = await grab(page, 'clouds-below-try');
      await showLayer(page, 'clouds', false);
      const clear = await grab(page, 'clouds-below-clear');
      await showLayer(page, 'clouds', true);
      const n = meanLuma(withClouds, 0, 1, differs(withClouds, clear)).n;
      if (n > bestDiff) {
        bestDiff = n;
        await grab(page, 'clouds-below');
      }
    }
    console.log(`clouds from below: ${(100 * bestDiff / (water.width * water.height)).toFixed(0)} % of the frame changed by the cloudiest view's clouds`);
    expect(bestDiff, 'clouds seen from below').toBeGreaterThan(enough);

    await placeOverSea(page, 'coast', 300, 'down');
    // The sea is drawn on its analytic sphere, so no LOD state of the ground may let space through
    // beside it: 20 s of streaming, not the ~50 s a complete coast takes here (the same 46 % water, 0 gaps).
    await settleUpTo(page, 20_000);
    await grab(page, 'coast');
    await showLayer(page, 'sea', false);
    await grab(page, 'coast-no-water');
    await showLayer(page, 'sea', true);
    // Seen steeply, the water shows the sea floor the workers tinted by depth: for the count the
    // water is made an opaque green (its veil 1, its colour green), then put back.
    const marked = await page.evaluate(() => {
      const u = window.__sr!.app!.bodies!.layers!.sea!.material.uniforms;
      const saved = { veil: u.uSeaVeil.value as number, deep: (u.uSeaDeep.value as { toArray(): number[] }).toArray() };
      u.uSeaVeil.value = 1;
      (u.uSeaDeep.value as { set(x: number, y: number, z: number): void }).set(0, 1, 0);
      return saved;
    });
    const green = await grab(page, 'coast-marked');
    await page.evaluate((saved) => {
      const u = window.__sr!.app!.bodies!.layers!.sea!.material.uniforms;
      u.uSeaVeil.value = saved.veil;
      (u.uSeaDeep.value as { set(x: number, y: number, z: number): void }).set(saved.deep[0], saved.deep[1], saved.deep[2]);
    }, marked);
    let wet = 0;
    for (let i = 0; i < green.width * green.height; i++) if (green.rgb[3 * i + 1] > Math.max(green.rgb[3 * i], green.rgb[3 * i + 2]) + 50) wet++;
    const waterShare = wet / (green.width * green.height);
    await page.evaluate(() => {
      const app = window.__sr!.app!;
      window.__sr!.atmosphere(false);
      app.scene.background = null;
      app.renderer.setClearColor(0xff00ff, 1);
    });
    const magenta = await grab(page, 'coast-magenta');
    let gaps = 0;
    for (let i = 0; i < magenta.width * magenta.height; i++) {
      const [r, g, b] = [magenta.rgb[3 * i], magenta.rgb[3 * i + 1], magenta.rgb[3 * i + 2]];
      if (r > 180 && b > 180 && g < 100) gaps++;
    }
    console.log(`coast: water over ${(100 * waterShare).toFixed(0)} % of the frame, magenta (space) pixels ${gaps}`);
    expect(waterShare, 'a coastline in view: water and land').toBeGreaterThan(0.1);
    expect(waterShare).toBeLessThan(0.9);
    expect(gaps, 'no space between water and ground').toBe(0);
    expect(log.errors).toEqual([]);
  });
});
