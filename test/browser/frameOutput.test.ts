/**
 * FrameOutput (src/render/FrameOutput.ts) in real Chromium WebGL2: the sun's disc half hidden
 * behind a black sphere. With bloom its light spills over the sphere's limb, as through a lens;
 * without, the depth-tested glow stops at the limb. Saved as test-results/bloom-{off,on}.png.
 */
import { writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { resultPath, useBlankPages } from './harness';
import type { BloomGateRun, SubmitPointsRun } from './pages/frameOutput';

const pages = useBlankPages();
const PAGE = '/test/browser/pages/frameOutput.ts';

function savePng(name: string, dataUrl: string): void {
  writeFileSync(resultPath(name), Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'));
}

it('bloom: the sun spills over an occluding limb; space far from it stays dark; info counts the whole frame', async () => {
  const page = await pages.open();
  const r = await page.evaluate(async ([path]) => (await srImport(path)).sunBloom(), [PAGE] as const);
  savePng('bloom-off.png', r.pngOff);
  savePng('bloom-on.png', r.pngOn);
  savePng('bloom-on-reference.png', r.pngReference);
  console.log(
    `bloom: hdr ${r.hdr}; over the limb ${r.overLimbOff.toFixed(1)} → ${r.overLimbOn.toFixed(1)}, ` +
      `disc ${r.discOff.toFixed(0)} / ${r.discOn.toFixed(0)}, far corner ${r.cornerOff.toFixed(1)} → ${r.cornerOn.toFixed(1)}; ` +
      `${r.triangles} triangles counted (sphere ${r.sphereTriangles}); against three's UnrealBloomPass + OutputPass mean |Δ| ${r.referenceMeanDiff.toFixed(3)}, max ${r.referenceMaxDiff}`,
  );
  expect(r.hdr, 'SwiftShader has EXT_color_buffer_float: a float target').toBe(true);
  expect(r.discOff, 'the visible half of the disc is white').toBeGreaterThan(240);
  expect(r.discOn).toBeGreaterThan(240);
  expect(r.overLimbOff, 'without bloom the sphere hides the glow').toBeLessThan(3);
  expect(r.overLimbOn, 'with bloom the sun spills over the limb').toBeGreaterThan(r.overLimbOff + 15);
  expect(Math.abs(r.cornerOn - r.cornerOff), 'space far from the sun is not washed out').toBeLessThan(3);
  // The bloom added by the output pass (bloom.ts) instead of blended into the MSAA target: the
  // same sum, less rounding (the target's 6-bit mantissas held the sum before).
  expect(r.referenceMeanDiff, 'three’s own bloom and output passes draw the same frame').toBeLessThan(0.5);
  expect(r.referenceMaxDiff).toBeLessThan(8);
  expect(r.triangles, 'the scene pass is counted, not only the last full-screen pass').toBeGreaterThanOrEqual(r.sphereTriangles);
});

it('bloom gate: frames with nothing over the threshold skip the blur chain (the same image as bloom off); the glow comes back within a few frames of the sun', async () => {
  const page = await pages.open();
  const r: BloomGateRun = await page.evaluate(async ([path]) => (await srImport(path)).bloomGate(), [PAGE] as const);
  console.log(`bloom gate: ${r.frames.map((f) => `${f.sun ? 'S' : '-'}${f.continuous ? '' : '!'}${f.blurred ? 'b' : '.'}${f.overLimb.toFixed(0)}`).join(' ')}; skipped vs off max |Δ| ${r.skippedVsOff}`);
  const runs = (from: number, count: number) => r.frames.slice(from, from + count);
  // 3 frames with the sun, 5 without, 4 with, 4 without, then one render that does not continue them.
  const firstSun = runs(0, 3);
  expect(firstSun.every((f) => f.blurred && f.overLimb > 15), 'no answer yet or a bright one: the glow is drawn').toBe(true);
  const dark = runs(3, 5);
  expect(dark.slice(2).every((f) => !f.blurred), 'black frames answered: the blur chain is skipped').toBe(true);
  expect(r.skippedVsOff, 'a skipped frame is the frame without bloom').toBe(0);
  const sunAgain = runs(8, 4);
  expect(sunAgain.slice(2).every((f) => f.blurred && f.overLimb > 15), 'the glow is back within two frames of the sun').toBe(true);
  const screenshot = r.frames[16];
  expect(screenshot.continuous).toBe(false);
  expect(screenshot.overLimb, 'a render that does not continue the frames before it always blooms').toBeGreaterThan(15);
});

it('submit points: an app frame goes to the GPU in parts and draws the same image as a screenshot’s; the renderer is as before', async () => {
  const page = await pages.open();
  const r: SubmitPointsRun = await page.evaluate(async ([path]) => (await srImport(path)).submitPoints(), [PAGE] as const);
  console.log(`submit points: ${r.submitsContinuous} in the app frame, ${r.submitsOther} in the screenshot; max |Δ| ${r.maxDiff}; ${r.covered} px covered`);
  expect(r.submitsContinuous, 'sixty-odd draws: submit points at 12, 24 and 36 (at most three)').toBe(3);
  expect(r.submitsOther).toBe(0);
  expect(r.covered).toBeGreaterThan(2000);
  expect(r.maxDiff, 'a render pass split in two draws the same pixels').toBe(0);
  expect(r.restored).toBe(true);
});
