/**
 * Rendering (src/render) in real Chromium WebGL2: BodyMaterial (per-pixel field normals,
 * procedural rock, shadows), Sun (PCF shadow map, disc) and SkyCubemap (rendered once per
 * seed). Canonical views are saved under test-results/ as render-*.png: look at them.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { resultPath, useBlankPages } from './harness';

let page: Page;
const pages = useBlankPages();

async function open(): Promise<void> {
  page = await pages.open();
}

const PAGE = '/test/browser/pages/renderScenes.ts';

function savePng(name: string, dataUrl: string): void {
  writeFileSync(resultPath(name), Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'));
}

describe('BodyMaterial', () => {
  it('asteroid close-up: per-pixel normals add detail, shadows darken, frame not blank', async () => {
    await open();
    const r = await page.evaluate(async ([path]) => (await srImport(path)).closeUp(4), [PAGE] as const);
    savePng('render-closeup.png', r.png);
    savePng('render-closeup-mesh-normals.png', r.meshNormalsPng);
    savePng('render-closeup-no-shadow.png', r.noShadowPng);
    console.log(
      `close-up: ${r.triangles} triangles, frame ${r.frameMs.toFixed(0)} ms, lit ${(r.stats.litFraction * 100).toFixed(1)}%, ` +
        `luma σ ${r.stats.lumaStd.toFixed(1)}, ${r.stats.distinctColours} colours, normals change ${(r.normalsDiffFraction * 100).toFixed(1)}%, ` +
        `shadows darken ${(r.shadowDarkenedFraction * 100).toFixed(1)}%`,
    );
    expect(r.stats.litFraction).toBeGreaterThan(0.1);
    expect(r.stats.lumaStd).toBeGreaterThan(10);
    expect(r.stats.distinctColours).toBeGreaterThan(50);
    expect(r.normalsDiffFraction, 'field normals change the image').toBeGreaterThan(0.05);
    expect(r.shadowDarkenedFraction, 'self-shadowing darkens pixels').toBeGreaterThan(0.01);
  });

  it('heavy self-shadowing under a grazing sun (cratered, seed 11)', async () => {
    await open();
    const r = await page.evaluate(async ([path]) => (await srImport(path)).closeUp(11, 'selfShadow'), [PAGE] as const);
    savePng('render-self-shadow.png', r.png);
    savePng('render-self-shadow-off.png', r.noShadowPng);
    console.log(
      `self-shadow: frame ${r.frameMs.toFixed(0)} ms, lit ${(r.stats.litFraction * 100).toFixed(1)}%, shadows darken ${(r.shadowDarkenedFraction * 100).toFixed(1)}%`,
    );
    expect(r.stats.litFraction).toBeGreaterThan(0.05);
    expect(r.shadowDarkenedFraction, 'shadows darken a clear share of the frame').toBeGreaterThan(0.02);
  });

  it('numbers as data: the same pixels as the literal field, and one program for a family', async () => {
    await open();
    // 4: a potato (warp, 2 noise layers, craters), with potatoes 13 and 15; 11: cratered (~100 craters in the params), with 6 and 5.
    for (const [seed, family] of [[4, [4, 13, 15]], [11, [11, 6, 5]]] as const) {
      const r = await page.evaluate(
        async ([path, seed, family]) => (await srImport(path)).dataMaterial(seed, family),
        [PAGE, seed, [...family]] as const,
      );
      savePng(`render-data-material-${seed}.png`, r.png);
      console.log(`data material, seed ${seed}: ${(r.diffFraction * 100).toFixed(3)}% of pixels differ, ${r.programs} BodyMaterial program(s); frame ${r.frameMs.literal.toFixed(0)} ms literal, ${r.frameMs.data.toFixed(0)} ms data`);
      expect(r.litFraction, 'the body is drawn').toBeGreaterThan(0.1);
      expect(r.diffFraction).toBeLessThan(0.002);
      expect(r.programs, 'three bodies of one family, one BodyMaterial program').toBe(1);
    }
  });

  it('LOD cross-fade: complementary dithers cover exactly one opaque mesh; fade 0 hides', async () => {
    await open();
    const r = await page.evaluate(async ([path]) => (await srImport(path)).fadeCoverage(5), [PAGE] as const);
    savePng('render-crossfade.png', r.png);
    console.log(
      `fade: pair vs opaque ${(r.crossFadeDiffFraction * 100).toFixed(3)}%, half fade vs opaque ${(r.halfFadeDiffFraction * 100).toFixed(1)}%, hidden vs none ${(r.hiddenDiffFraction * 100).toFixed(3)}%`,
    );
    expect(r.halfFadeDiffFraction, 'a half-faded mesh is visibly dithered').toBeGreaterThan(0.01);
    expect(r.crossFadeDiffFraction).toBeLessThan(0.0005);
    expect(r.hiddenDiffFraction).toBeLessThan(0.0005);
  });

  it('asteroid field towards the sun (log depth)', async () => {
    await open();
    const r = await page.evaluate(async ([path]) => (await srImport(path)).field([2, 3, 6, 13, 5, 10]), [PAGE] as const);
    savePng('render-field.png', r.png);
    console.log(`field: ${r.bodies} bodies, frame ${r.frameMs.toFixed(0)} ms, lit ${(r.stats.litFraction * 100).toFixed(1)}%`);
    expect(r.stats.litFraction).toBeGreaterThan(0.01);
    expect(r.stats.lumaStd).toBeGreaterThan(5);
  });
});

describe('SkyCubemap', () => {
  it('the sky alone: stars and nebula', async () => {
    await open();
    const r = await page.evaluate(async ([path]) => (await srImport(path)).skyAlone(7), [PAGE] as const);
    savePng('render-sky.png', r.png);
    console.log(
      `sky: cube render ${r.skyMs.toFixed(0)} ms (once), frame ${r.frameMs.toFixed(0)} ms, star pixels ${(r.starPixelFraction * 100).toFixed(2)}%, ` +
        `lit ${(r.stats.litFraction * 100).toFixed(1)}%, chroma ${r.meanChroma.toFixed(2)}, ${r.stats.distinctColours} colours`,
    );
    expect(r.starPixelFraction, 'stars').toBeGreaterThan(0.0005);
    // Crisp points (issue 20): the brightest pixels form areas of a few pixels, not soft discs.
    console.log(`star areas above luma 90: ${JSON.stringify(r.starBlobs)}`);
    expect(r.starBlobs.count, 'bright stars in view').toBeGreaterThanOrEqual(5);
    expect(r.starBlobs.medianArea).toBeLessThanOrEqual(3); // Gaussians in the 512 cube map: 6
    expect(r.starBlobs.p95Area).toBeLessThanOrEqual(8); // in the cube map: 23
    expect(r.stats.litFraction, 'nebula').toBeGreaterThan(0.1);
    expect(r.meanChroma, 'coloured nebula').toBeGreaterThan(0.15);
  });

  it('renders once per seed change, not per frame (10 frames, one seed change → 2)', async () => {
    await open();
    const r = await page.evaluate(async ([path]) => (await srImport(path)).skyRenderCount(3, 10), [PAGE] as const);
    expect(r).toEqual({ afterFirst: 1, afterSecond: 2, afterSameSeed: 2 });
  });
});

describe('GeometryUploader', () => {
  it('uploads waiting meshes ahead of their first draw, which then uploads nothing; skips disposed ones', async () => {
    await open();
    const r = await page.evaluate(async ([path]) => (await srImport(path)).geometryUploads(), [PAGE] as const);
    expect(r.uploaded, 'three meshes uploaded, the disposed one skipped').toBe(3);
    expect(r.duringFlush, 'position, normal, uv of three meshes went up during the flushes').toBeGreaterThanOrEqual(9);
    expect(r.atFirstDraw, 'first draw of the uploaded meshes').toBe(0);
    expect(r.drawnPixels, 'they draw').toBeGreaterThan(1000);
    expect(r.queuedAnswers, 'isQueued: all waiting, the oldest uploaded first, none left').toBe('qqq -qq ---');
  });
});
