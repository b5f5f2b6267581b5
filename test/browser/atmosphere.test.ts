/**
 * Planet atmospheres (issue 20) in real Chromium WebGL2 (SwiftShader here): the look-up tables,
 * the sky passes and the surface's aerial perspective (src/render/Atmosphere.ts) over a plain
 * sphere of seed 4's radius, measured from pixels — the zenith bluer than the horizon at noon,
 * the horizon redder at sunset, the limb seen from orbit brighter than space beside it. PNGs in
 * test-results/atmosphere-*.png: look at them. The app's own sky (and an airless planet's black
 * one) is checked in app.test.ts.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resultPath, useBlankPages } from './harness';
import type { AtmosphereShot, AtmosphereView } from './pages/atmosphere';

const pages = useBlankPages();
const PAGE = '/test/browser/pages/atmosphere.ts';

async function shot(name: string, view: AtmosphereView): Promise<AtmosphereShot> {
  const page = await pages.open();
  const r = await page.evaluate(async ([path, v]) => (await srImport(path)).atmosphereShot(v), [PAGE, view] as const);
  writeFileSync(resultPath(`atmosphere-${name}.png`), Buffer.from(r.png.replace(/^data:image\/png;base64,/, ''), 'base64'));
  return r as AtmosphereShot;
}

/** Mean colour of rows [from, to) (fractions of the height, top = 0). */
function band(s: AtmosphereShot, from: number, to: number): [number, number, number] {
  const rows = s.rows.slice(Math.floor(from * s.height), Math.max(Math.floor(from * s.height) + 1, Math.floor(to * s.height)));
  const sum = [0, 0, 0];
  for (const row of rows) for (let k = 0; k < 3; k++) sum[k] += row[k] / rows.length;
  return sum as [number, number, number];
}

const blueness = (c: number[]): number => c[2] / (c[0] + c[1] + c[2] + 1e-6);
const redOverBlue = (c: number[]): number => c[0] / (c[2] + 1);
const fmt = (c: number[]): string => `(${c.map((v) => v.toFixed(0)).join(', ')})`;

describe('atmosphere (seed 4: clear air, 63 km planet)', () => {
  it('at noon the zenith is bluer than the horizon, and both are bright', async () => {
    // Looking straight up, and level at the horizon, from 2 m; sun 80° up.
    const up = await shot('noon-zenith', { seed: 4, altitudeM: 2, lookElevationDeg: 90, sunElevationDeg: 80, sunAzimuthDeg: 180 });
    const level = await shot('noon-horizon', { seed: 4, altitudeM: 2, lookElevationDeg: 8, sunElevationDeg: 80, sunAzimuthDeg: 180 });
    const zenith = band(up, 0.4, 0.6);
    // The horizon: the rows just above the ground line (the view's centre is 8° up, fov 60°: the
    // horizon sits ~63 % down).
    const horizon = band(level, 0.52, 0.6);
    console.log(`noon: zenith ${fmt(zenith)} blueness ${blueness(zenith).toFixed(3)}, horizon ${fmt(horizon)} blueness ${blueness(horizon).toFixed(3)}; frame ${up.frameMs.toFixed(0)} ms (${up.frameMsWithout?.toFixed(0)} ms without the air)`);
    expect(blueness(zenith), 'zenith bluer than the horizon').toBeGreaterThan(blueness(horizon) + 0.03);
    expect(zenith[2], 'a day sky, not space').toBeGreaterThan(60);
    expect(horizon[0] + horizon[1] + horizon[2]).toBeGreaterThan(zenith[0] + zenith[1] + zenith[2]);
  });

  it('at sunset the horizon towards the sun is redder than at noon, and redder than blue', async () => {
    const noon = await shot('noon-level', { seed: 4, altitudeM: 2, lookElevationDeg: 8, sunElevationDeg: 80, sunAzimuthDeg: 0 });
    const sunset = await shot('sunset', { seed: 4, altitudeM: 2, lookElevationDeg: 8, sunElevationDeg: 3, sunAzimuthDeg: 0 });
    const atNoon = band(noon, 0.52, 0.6);
    const atSunset = band(sunset, 0.52, 0.6);
    const zenithward = band(sunset, 0, 0.1);
    console.log(`sunset: horizon ${fmt(atSunset)} r/b ${redOverBlue(atSunset).toFixed(2)}, noon horizon ${fmt(atNoon)} r/b ${redOverBlue(atNoon).toFixed(2)}; sky higher up ${fmt(zenithward)} r/b ${redOverBlue(zenithward).toFixed(2)}`);
    expect(redOverBlue(atSunset), 'sunset horizon redder than the noon horizon').toBeGreaterThan(1.5 * redOverBlue(atNoon));
    expect(redOverBlue(atSunset), 'sunset horizon red over blue').toBeGreaterThan(1.2);
    expect(redOverBlue(zenithward), 'the sky above stays bluer than the glow').toBeLessThan(redOverBlue(atSunset));
  });

  it('aerial perspective from the table matches the per-vertex march (3 km up, looking down to the horizon, GPU sizes)', async () => {
    const view: AtmosphereView = { seed: 4, altitudeM: 3000, lookElevationDeg: -12, sunElevationDeg: 25, sunAzimuthDeg: 60, ground: true, software: false };
    const table = await shot('aerial-table', view);
    const march = await shot('aerial-march', { ...view, aerialTable: false });
    // Rows below the horizon (the bottom 45 %): every pixel is ground seen through 3–19 km of air.
    const from = Math.floor(0.55 * table.height) * table.width * 3;
    let sum = 0, max = 0;
    for (let i = from; i < table.pixels.length; i++) {
      const d = Math.abs(table.pixels[i] - march.pixels[i]);
      sum += d;
      max = Math.max(max, d);
    }
    const mean = sum / (table.pixels.length - from);
    const far = band(table, 0.55, 0.6), near = band(table, 0.95, 1);
    console.log(`aerial: table vs march mean |Δ| ${mean.toFixed(2)}, max ${max} (0–255); far ground ${fmt(far)}, near ${fmt(near)}`);
    // GPU sizes (32³ table, 16 steps a texel; the march 10 steps): 0.6 mean, 4 max here. At the
    // software sizes (16³, 8 steps; 6) the two differ by 2.6 mean, 12 max: coarse steps in both.
    expect(mean, 'the table gives the march’s colours').toBeLessThan(1.5);
    expect(max).toBeLessThan(8);
    // The haze is there: the far ground is bluer than the near.
    expect(blueness(far)).toBeGreaterThan(blueness(near));
  });

  it("the app's reversed float depth draws what the log depth buffer draws: 40 radii out, and 2 m over the ground", async () => {
    // 40 radii out the planet's depth is ≈ near / distance = 2e-7 in a reversed buffer: passes
    // pinned at the far plane (the sky's, the sun's) must still fall behind it.
    const views: [string, AtmosphereView][] = [
      ['far', { seed: 4, orbitRadii: 40, sunElevationDeg: 30, sunBehind: true, fovDeg: 10, width: 160, height: 90 }],
      ['ground', { seed: 4, altitudeM: 2, lookElevationDeg: 4, sunElevationDeg: 40, ground: true }],
    ];
    for (const [name, view] of views) {
      const log = await shot(`depth-${name}-log`, view);
      const app = await shot(`depth-${name}-app`, { ...view, depth: 'app' });
      expect([log.reversedDepth, app.reversedDepth], 'log, then reversed (SwiftShader has EXT_clip_control)').toEqual([false, true]);
      let sum = 0, worst = 0;
      for (let i = 0; i < log.pixels.length; i++) {
        const d = Math.abs(log.pixels[i] - app.pixels[i]);
        sum += d;
        worst = Math.max(worst, d);
      }
      const mean = sum / log.pixels.length;
      console.log(`depth ${name}: mean |Δ| ${mean.toFixed(3)}, max ${worst} (of 255)`);
      // Visibility is all depth decides here: the same frame, to rounding (a sky pass over the far
      // planet's disc, as at a far-plane depth of 1e-6, gave mean 0.8 and max 35).
      expect(mean, `${name}: mean difference`).toBeLessThan(0.1);
      expect(worst, `${name}: largest difference`).toBeLessThan(12);
    }
  });

  it('the sky passes drawn over the atmosphere\'s rectangle only give the full-screen frame', async () => {
    // The planet small and off-centre, large and cut by the frame's edge, and beside the view
    // (the air's glow only at the edge): the same pixels as full-screen passes.
    const views: [string, AtmosphereView][] = [
      ['small', { seed: 4, orbitRadii: 12, sunElevationDeg: 0, fovDeg: 40, width: 160, height: 90, lookAsideDeg: [8, 5] }],
      ['edge', { seed: 4, orbitRadii: 2.2, sunElevationDeg: 0, fovDeg: 40, width: 160, height: 90, lookAsideDeg: [-22, -10] }],
      ['beside', { seed: 4, orbitRadii: 3, sunElevationDeg: 0, fovDeg: 30, width: 160, height: 90, lookAsideDeg: [33, 0] }],
    ];
    for (const [name, view] of views) {
      const bounded = await shot(`bounded-${name}`, view);
      const full = await shot(`bounded-${name}-full`, { ...view, boundedSky: false });
      let differ = 0, worst = 0, sky = 0, lightFull = 0, lightBounded = 0;
      for (let i = 0; i < full.pixels.length; i++) {
        const d = Math.abs(full.pixels[i] - bounded.pixels[i]);
        if (d > 2) differ++;
        worst = Math.max(worst, d);
        if (full.pixels[i] > 8) sky++;
        lightFull += full.pixels[i];
        lightBounded += bounded.pixels[i];
      }
      const lost = 1 - lightBounded / lightFull;
      console.log(`bounded sky ${name}: ${differ} of ${full.pixels.length} channels differ by > 2 (max ${worst}); light ${(100 * lost).toFixed(3)} % less; ${sky} channels lit`);
      expect(sky, `${name}: the air is in view`).toBeGreaterThan(100);
      // The same frame but where a ray grazes the ground: the two quads interpolate each pixel's
      // direction from different corners, and the last bit decides whether it meets the ground
      // (up to 13 of 255 on 0.1 % of the channels, 0.3 % of the light here). A rectangle that cut
      // the glow takes its light away on that side: one 10 % short loses 0.8 %.
      expect(differ / full.pixels.length, `${name}: channels that differ`).toBeLessThan(0.004);
      expect(Math.abs(lost), `${name}: light lost or gained`).toBeLessThan(0.005);
    }
  });

  it('from orbit the lit limb glows brighter than space beside it', async () => {
    const s = await shot('orbit-limb', { seed: 4, orbitRadii: 2.2, sunElevationDeg: 0, fovDeg: 40, width: 240, height: 136 });
    const limb = s.limb!;
    const mid = Math.floor(s.height / 2);
    const luma = (x: number): number => {
      let sum = 0;
      for (let y = mid - 2; y <= mid + 2; y++) {
        const i = 3 * (y * s.width + x);
        sum += 0.2126 * s.pixels[i] + 0.7152 * s.pixels[i + 1] + 0.0722 * s.pixels[i + 2];
      }
      return sum / 5;
    };
    const mean = (from: number, to: number): number => {
      let sum = 0, n = 0;
      for (let x = Math.max(0, Math.ceil(from)); x <= Math.min(s.width - 1, Math.floor(to)); x++, n++) sum += luma(x);
      return n > 0 ? sum / n : NaN;
    };
    // The glow: the air over the ground's silhouette (its lower 40 %); space: past the atmosphere's top.
    const glow = mean(limb.groundPx + 1, limb.groundPx + 1 + 0.4 * (limb.topPx - limb.groundPx));
    const space = mean(limb.topPx + 3, s.width - 1);
    console.log(`orbit: ground silhouette at x=${limb.groundPx.toFixed(1)}, top at ${limb.topPx.toFixed(1)}; limb luma ${glow.toFixed(1)}, space ${space.toFixed(1)}`);
    expect(glow, 'the limb glows').toBeGreaterThan(space + 8);
  });
});

describe('planet ground colours (airless seed 15)', () => {
  it('from orbit: maria and highlands across the disc (not one flat tone), ice at the pole', async () => {
    // The ground alone (seed 15 has no air), the sun behind the camera: a full disc.
    const side = await shot('ground-orbit', { seed: 15, orbitRadii: 3, sunElevationDeg: 0, fovDeg: 50, width: 200, height: 160, ground: true, sunBehind: true });
    const flat = await shot('ground-orbit-flat', { seed: 15, orbitRadii: 3, sunElevationDeg: 0, fovDeg: 50, width: 200, height: 160, sunBehind: true });
    const pole = await shot('ground-pole', { seed: 15, orbitRadii: 3, sunElevationDeg: 0, fovDeg: 50, width: 200, height: 160, ground: true, sunBehind: true, overPole: true });
    /** Luma of the pixels within [r0, r1) of the disc's radius from its centre. */
    const ring = (img: AtmosphereShot, r0: number, r1: number): { mean: number; sd: number } => {
      const cx = img.width / 2, cy = img.height / 2, radiusPx = img.limb!.groundPx - cx;
      const v: number[] = [];
      for (let y = 0; y < img.height; y++) for (let x = 0; x < img.width; x++) {
        const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy) / radiusPx;
        if (d < r0 || d >= r1) continue;
        const i = 3 * (y * img.width + x);
        v.push(0.2126 * img.pixels[i] + 0.7152 * img.pixels[i + 1] + 0.0722 * img.pixels[i + 2]);
      }
      const mean = v.reduce((a, b) => a + b, 0) / v.length;
      return { mean, sd: Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / v.length) };
    };
    const middle = ring(side, 0, 0.7);
    const middleFlat = ring(flat, 0, 0.7);
    // Over the pole: the cap at the centre (within ~15° of the pole: sin 15° ≈ 0.26 of the radius), lower latitudes around it.
    const cap = ring(pole, 0, 0.2);
    const around = ring(pole, 0.75, 0.85);
    console.log(`ground from orbit: disc luma ${middle.mean.toFixed(1)} ± ${middle.sd.toFixed(1)} (flat material ± ${middleFlat.sd.toFixed(1)}); over the pole: cap ${cap.mean.toFixed(1)}, ~50° latitude ${around.mean.toFixed(1)}`);
    expect(middle.sd, 'maria and highlands vary the disc').toBeGreaterThan(Math.max(6, 2 * middleFlat.sd));
    expect(cap.mean, 'an ice cap brighter than lower latitudes').toBeGreaterThan(around.mean + 20);
  });

  it('close up: the detail layer adds texture near the camera and fades out towards the horizon', async () => {
    // 2 m over the ground looking 25° down (the bottom row meets the ground ~1.5 m away, the top
    // rows the horizon); the sphere's own mesh is smooth there, so texture comes from the layer.
    const view: AtmosphereView = { seed: 15, altitudeM: 2, lookElevationDeg: -25, sunElevationDeg: 30, sunAzimuthDeg: 70, width: 200, height: 120, ground: true, sphereTiltRad: 0.7 };
    const detail = await shot('ground-detail', { ...view, groundDetailOctaves: 5 });
    const plain = await shot('ground-detail-off', { ...view, groundDetailOctaves: 0 });
    const luma = (img: AtmosphereShot, x: number, y: number): number => {
      const i = 3 * (y * img.width + x);
      return 0.2126 * img.pixels[i] + 0.7152 * img.pixels[i + 1] + 0.0722 * img.pixels[i + 2];
    };
    /** Mean |luma step| between horizontal neighbours in rows [from, to) (fractions, top = 0): fine texture. */
    const texture = (img: AtmosphereShot, from: number, to: number): number => {
      let sum = 0, n = 0;
      for (let y = Math.floor(from * img.height); y < Math.floor(to * img.height); y++) {
        for (let x = 1; x < img.width; x++, n++) sum += Math.abs(luma(img, x, y) - luma(img, x - 1, y));
      }
      return sum / n;
    };
    /** Mean |luma difference| between the two images in rows [from, to). */
    const change = (from: number, to: number): number => {
      let sum = 0, n = 0;
      for (let y = Math.floor(from * detail.height); y < Math.floor(to * detail.height); y++) {
        for (let x = 0; x < detail.width; x++, n++) sum += Math.abs(luma(detail, x, y) - luma(plain, x, y));
      }
      return sum / n;
    };
    const near = { with: texture(detail, 0.7, 1), without: texture(plain, 0.7, 1) };
    // Just under the horizon (the view's top is 5° over the horizontal: rows 8-16 % are the far ground).
    const far = change(0.09, 0.16);
    console.log(`ground detail: near texture ${near.with.toFixed(2)} against ${near.without.toFixed(2)} without; change near ${change(0.7, 1).toFixed(2)}, far ${far.toFixed(2)}`);
    expect(near.with, 'the near ground has texture finer than the mesh').toBeGreaterThan(Math.max(1, 3 * near.without));
    expect(far, 'past where it resolves, the layer leaves the ground as it was (no sparkle)').toBeLessThan(0.5);
  });
});
