/**
 * `npm run mesh`: help, bad arguments refused up front with one line and exit 2 (never a stack
 * trace, never after the meshing), and the validator's verdict in the exit code.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const DIR = mkdtempSync(join(tmpdir(), 'sr-mesh-cli-'));
const SPHERE = join(DIR, 'sphere.json');
writeFileSync(SPHERE, JSON.stringify({ version: 1, root: { type: 'sphere', radius: 10 } }));

function cli(args: string[]): { status: number | null; stderr: string; stdout: string } {
  const r = spawnSync(TSX, ['scripts/mesh.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stderr: r.stderr, stdout: r.stdout };
}

describe('npm run mesh', () => {
  it('--help: the usage on stdout, exit 0', () => {
    const r = cli(['--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('usage: npm run mesh');
    expect(r.stderr).not.toContain('unknown option');
  });

  it.each([
    [['--resolution', '2'], /--resolution must be an integer >= 4, got '2'/],
    [['--resolution', '16', '--bounds', '-1e300,-1e300,-1e300,1e300,1e300,1e300'], /--bounds coordinates must be within ±1000000000 m/],
    [['--resolution', '64', '--chunks', '64'], /--chunks 64 leaves 1 cells per chunk .* use at least 4/],
    [['--resolution', '16', '--out', join(DIR, 'missing', 'x.obj')], /--out .*folder .* does not exist/],
  ])('%j → one line and exit 2, before any meshing', (extra, message) => {
    const args = ['--recipe', SPHERE, '--out', join(DIR, 'x.obj'), ...extra];
    // A later --out wins in the flag map: the missing-folder case overrides the default one.
    const r = cli(args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(r.stdout).not.toContain('wrote');
    expect(existsSync(join(DIR, 'missing'))).toBe(false);
  });

  it('a sphere whose radius puts grid corners on it: valid, 0 degenerate triangles, exit 0', () => {
    const out = join(DIR, 's.obj');
    const r = cli(['--recipe', SPHERE, '--resolution', '32', '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('degenerate 0');
    expect(r.stdout).toContain('valid: closed 2-manifold');
    expect(existsSync(out)).toBe(true);
  });

  it('an invalid mesh is written but exits 1 with the reason', () => {
    // Bounds inside the sphere: every sample is inside, so there is no surface at all.
    const r = cli(['--recipe', SPHERE, '--resolution', '8', '--bounds', '-3,-3,-3,3,3,3', '--out', join(DIR, 'e.obj')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('mesh: invalid mesh: no triangles');
  });
});
