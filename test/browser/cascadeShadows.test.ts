/**
 * Cascaded sun shadows (src/render/Sun.ts fitCascades, glsl/sr_sun_shadow.glsl) in real Chromium
 * WebGL2: a flat ground with a box near the camera and a tall box far beyond the first cascade,
 * drawn with a floating origin and a log depth buffer. Saves cascade-*.png under test-results/:
 * look at them.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resultPath, useBlankPages } from './harness';

const pages = useBlankPages();
const PAGE = '/test/browser/pages/cascadeShadows.ts';

function savePng(name: string, dataUrl: string): void {
  writeFileSync(resultPath(name), Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'));
}

describe('Sun cascades', () => {
  it('three cascades: near and far shadows, no seam on lit ground', async () => {
    const page = await pages.open();
    const r = await page.evaluate(async ([path]) => (await srImport(path)).cascadeScene(3), [PAGE] as const);
    savePng('cascade-3.png', r.cascadesPng);
    savePng('cascade-single-fit.png', r.singlePng);
    savePng('cascade-off.png', r.offPng);
    const fmt = (s: { distanceM: number; cascades: number; single: number; off: number }): string =>
      `${s.distanceM.toFixed(0)} m: cascades ${s.cascades.toFixed(1)}, one map ${s.single.toFixed(1)}, off ${s.off.toFixed(1)}`;
    console.log(
      `cascades: splits ${r.splitsM.map((d: number) => d.toFixed(1)).join(' / ')} m, texels ${r.texelsM.map((t: number) => t.toFixed(3)).join(' / ')} m; ` +
        `near shadow ${fmt(r.near)}; far shadow ${fmt(r.far)}; farthest shadow ${fmt(r.farthest)}; frame ${r.ms.cascades.toFixed(0)} ms (one map ${r.ms.single.toFixed(0)}, off ${r.ms.off.toFixed(0)})`,
    );
    // Both shadows clearly darker than the same spot unshadowed.
    expect(r.near.cascades, 'near shadow').toBeLessThan(0.7 * r.near.off);
    expect(r.far.cascades, 'far shadow (beyond cascade 0)').toBeLessThan(0.7 * r.far.off);
    expect(r.far.distanceM).toBeGreaterThan(r.splitsM[1]);
    expect(r.farthest.cascades, 'farthest shadow').toBeLessThan(0.7 * r.farthest.off);
    // The one map the planet view fitted before (200 m around the ground below) misses it.
    expect(r.farthest.single, 'one 200 m map misses the farthest shadow').toBeGreaterThan(0.9 * r.farthest.off);
    // Lit ground: no acne, no darker band or jump where one cascade hands over to the next.
    const ratios = r.rows.map((row: { ratio: number }) => row.ratio);
    let worstJump = 0;
    for (let i = 1; i < ratios.length; i++) worstJump = Math.max(worstJump, Math.abs(ratios[i] - ratios[i - 1]));
    const crossed = r.splitsM.slice(1, -1).filter((d: number) => r.rows.some((row: { distanceM: number }) => row.distanceM < d) && r.rows.some((row: { distanceM: number }) => row.distanceM > d));
    console.log(`lit ground: ${ratios.length} rows over ${r.rows[0]?.distanceM.toFixed(0)}…${r.rows.at(-1)?.distanceM.toFixed(0)} m (splits crossed: ${crossed.length}), ratio on/off ${Math.min(...ratios).toFixed(3)}…${Math.max(...ratios).toFixed(3)}, worst row-to-row jump ${worstJump.toFixed(3)}`);
    expect(crossed.length, 'the lit strip spans the cascade splits').toBe(r.splitsM.length - 2);
    expect(Math.min(...ratios)).toBeGreaterThan(0.95);
    expect(worstJump).toBeLessThan(0.02);
  });
});
