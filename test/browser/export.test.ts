/**
 * Mesh export (src/app/exportMesh.ts) in Chromium: an asteroid's GLB passes the Khronos glTF
 * validator with no errors and re-imports with the same triangle count; the OBJ has one face
 * per triangle.
 */
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createRequire } from 'node:module';
import { openBlankPage, type Served, useBrowser } from './harness';

let browser: Browser;
let server: Served;

useBrowser('dev', (b, s) => ([browser, server] = [b, s]));

const PAGE = '/test/browser/pages/exportMesh.ts';

interface ValidatorMessage {
  code: string;
  message: string;
  severity: number;
  pointer?: string;
}
/** The Khronos glTF validator (npm `gltf-validator`, no type declarations of its own). */
const validator = createRequire(import.meta.url)('gltf-validator') as {
  validateBytes(data: Uint8Array): Promise<{
    issues: { numErrors: number; numWarnings: number; numInfos: number; numHints: number; messages: ValidatorMessage[] };
  }>;
};

describe('export', () => {
  it('the validator is really judging: a truncated GLB has errors', async () => {
    const report = await validator.validateBytes(new Uint8Array([0x67, 0x6c, 0x54, 0x46, 2, 0, 0, 0, 12, 0, 0, 0]));
    expect(report.issues.numErrors).toBeGreaterThan(0);
  });

  it.each([
    { seed: 42, cells: 32 },
    { seed: 3, cells: 64 },
  ])('asteroid seed $seed at $cells cells: valid GLB, same triangles after re-import, OBJ faces', async ({ seed, cells }) => {
    const { page, log } = await openBlankPage(browser, server);
    const r = await page.evaluate(async ([path, s, c]) => (await srImport(path)).exportAsteroid(s, c), [PAGE, seed, cells] as const);
    const bytes = new Uint8Array(Buffer.from(r.glb.base64, 'base64'));
    const report = await validator.validateBytes(bytes);
    const issues = report.issues;
    console.log(
      `seed ${seed} (${cells}³): ${r.sourceTriangles} triangles, GLB ${bytes.length} B, validator: ${issues.numErrors} errors, ` +
        `${issues.numWarnings} warnings, ${issues.numInfos} infos ${JSON.stringify(issues.messages.slice(0, 3).map((m) => m.code))}`,
    );
    expect(issues.numErrors, JSON.stringify(issues.messages.filter((m) => m.severity === 0).slice(0, 5))).toBe(0);
    expect(r.glb.name).toBe(`sr-asteroid-seed${seed}.glb`);
    expect(r.sourceTriangles).toBeGreaterThan(100);
    expect(r.glb.triangles).toBe(r.sourceTriangles);
    expect(r.reimportedTriangles).toBe(r.sourceTriangles);
    expect(r.reimportedMaterial).toBe('MeshStandardMaterial');
    // In the asteroid's own frame (bounding-sphere center at the origin), not the field's.
    expect(r.reimportedRadius).toBeLessThan(r.radiusM * 1.05);
    expect(r.reimportedRadius).toBeGreaterThan(r.radiusM * 0.5);
    expect(r.sourceMaterialKept).toBe(true);
    const faces = r.obj.text.split('\n').filter((l: string) => l.startsWith('f ')).length;
    expect(r.obj.name).toBe(`sr-asteroid-seed${seed}.obj`);
    expect(faces).toBe(r.sourceTriangles);
    expect(log.errors).toEqual([]);
  });
});
