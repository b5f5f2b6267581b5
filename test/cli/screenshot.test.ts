/**
 * `npm run screenshot`: argument parsing (pure) and the clean failures of the real command
 * (bad arguments → exit 2, no Chromium → exit 1 with the install hint), which all happen
 * before any build or browser. The runs that render are in test/browser/screenshotCli.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScreenshotArgs, screenshotUrl, UsageError } from '../../scripts/screenshot';
import { compileToJs } from '../../src/field/index';
import { sceneSpec } from '../../src/scene/index';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

function cli(args: string[], env: Record<string, string> = {}): { status: number | null; stderr: string; stdout: string } {
  const r = spawnSync(TSX, ['scripts/screenshot.ts', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
  return { status: r.status, stderr: r.stderr, stdout: r.stdout };
}

describe('parseScreenshotArgs', () => {
  it('reads every flag, both --flag value and --flag=value', () => {
    const a = parseScreenshotArgs(['--seed', '42', '--mode=asteroid', '--width', '320', '--height=240', '--scale', '2', '--out', 'x/shot.png']);
    expect(a).toMatchObject({ seed: 42, mode: 'asteroid', widthPx: 320, heightPx: 240, scale: 2, export: null, quality: 'auto' });
    expect(a.out).toBe(resolve('x/shot.png'));
  });

  it('defaults: seed 1, explore, 1920×1080, a file name holding mode, seed and size', () => {
    const a = parseScreenshotArgs([]);
    expect(a).toMatchObject({ seed: 1, mode: 'explore', widthPx: 1920, heightPx: 1080, scale: 1, count: null });
    expect(a.out).toBe(resolve('sr-explore-seed1-1920x1080.png'));
  });

  it('--altitude puts the planet camera that high over the ground, looking at the horizon (issue 20)', () => {
    expect(parseScreenshotArgs(['--mode', 'planet', '--seed', '4', '--altitude', '300'])).toMatchObject({ mode: 'planet', altitudeM: 300 });
    expect(() => parseScreenshotArgs(['--altitude', '300'])).toThrow(/only applies to --mode planet/);
    expect(() => parseScreenshotArgs(['--mode', 'planet', '--altitude', '0'])).toThrow(UsageError);
    const url = screenshotUrl({ seed: 4, mode: 'planet', count: null, quality: 'auto', altitudeM: 300 });
    expect(url).toMatch(/^\/index\.html\?mode=planet&seed=4&ui=0&t=0&lodTime=0&cam=[-\d.]+(,[-\d.]+){5}$/);
    const cam = new URLSearchParams(url.split('?')[1]).get('cam')!.split(',').map(Number);
    const spec = sceneSpec(4, 'planet');
    const field = compileToJs(spec.planet!.recipe);
    const c = spec.planet!.centerM;
    const at = (p: number[]): number => field(p[0] - c[0], p[1] - c[1], p[2] - c[2]);
    expect(Math.abs(at(cam.slice(0, 3)) - 300)).toBeLessThan(1);
    // The target is on the horizon: the view ray just grazes a sphere of the ground's radius.
    const p = cam.slice(0, 3), t = cam.slice(3);
    const dist = Math.hypot(p[0] - t[0], p[1] - t[1], p[2] - t[2]);
    const r = Math.hypot(...p.map((v, i) => v - c[i]));
    expect(dist / Math.sqrt(300 * (2 * (r - 300) + 300))).toBeCloseTo(1, 2);
    // Deterministic.
    expect(screenshotUrl({ seed: 4, mode: 'planet', count: null, quality: 'auto', altitudeM: 300 })).toBe(url);
  });

  it('--cam places a planet camera of your own (a cave, a coast): cam= in the URL, checked as the app checks it', () => {
    const a = parseScreenshotArgs(['--mode', 'planet', '--seed', '42', '--cam', '-99,158097.988,43,-73.288,158101.988,73.642']);
    expect(a.camera).toEqual([-99, 158097.988, 43, -73.288, 158101.988, 73.642]);
    expect(screenshotUrl({ ...a, count: null })).toBe('/index.html?mode=planet&seed=42&ui=0&t=0&lodTime=0&cam=-99,158097.988,43,-73.288,158101.988,73.642');
    expect(() => parseScreenshotArgs(['--mode', 'planet', '--cam', '1,2,3'])).toThrow(/--cam must be six numbers/);
    expect(() => parseScreenshotArgs(['--mode', 'planet', '--cam', '1,2,3,1,2,3'])).toThrow(UsageError);
    expect(() => parseScreenshotArgs(['--cam', '1,2,3,4,5,6'])).toThrow(/only applies to --mode planet/);
    expect(() => parseScreenshotArgs(['--mode', 'planet', '--cam', '1,2,3,4,5,6', '--altitude', '300'])).toThrow(/give one/);
  });

  it('--class draws the planet as that class (issue 41): class= in the URL, the class in the default file name', () => {
    const a = parseScreenshotArgs(['--mode', 'planet', '--seed', '4', '--class', 'ocean', '--width', '320', '--height', '240']);
    expect(a).toMatchObject({ mode: 'planet', planetClass: 'ocean', kind: 'asteroids' });
    expect(a.out).toBe(resolve('sr-planet-ocean-seed4-320x240.png'));
    expect(screenshotUrl(a)).toBe('/index.html?mode=planet&seed=4&ui=0&t=0&lodTime=0&class=ocean');
    expect(parseScreenshotArgs(['--mode', 'planet', '--class=karst']).planetClass).toBe('karst');
    // Not yet: the surface view finds the ground of the seed's own class.
    // With --altitude the camera stands over the class's own ground: outside it, at the altitude.
    const withClass = parseScreenshotArgs(['--mode', 'planet', '--seed', '4', '--class=karst', '--altitude', '300']);
    expect(withClass).toMatchObject({ planetClass: 'karst', altitudeM: 300 });
    expect(parseScreenshotArgs(['--mode', 'planet']).planetClass).toBeNull();
  });

  it('--kind planets makes the gallery a planet gallery (issue 41)', () => {
    const a = parseScreenshotArgs(['--mode', 'gallery', '--kind', 'planets', '--seed', '10', '--count', '3', '--width', '640', '--height', '480']);
    expect(a).toMatchObject({ mode: 'gallery', kind: 'planets', seed: 10, count: 3, planetClass: null });
    expect(a.out).toBe(resolve('sr-gallery-planets-seed10-640x480.png'));
    expect(screenshotUrl(a)).toBe('/index.html?mode=gallery&seed=10&kind=planets&start=10&count=3&ui=0');
    const asteroids = parseScreenshotArgs(['--mode', 'gallery', '--kind', 'asteroids']);
    expect(asteroids.kind).toBe('asteroids');
    expect(screenshotUrl(asteroids)).toBe('/index.html?mode=gallery&seed=1&start=1&ui=0');
  });

  it("--mode screenshot is the app's name for the explore capture: an alias", () => {
    expect(parseScreenshotArgs(['--mode', 'screenshot', '--seed', '3'])).toMatchObject({ mode: 'explore', seed: 3 });
    expect(screenshotUrl({ seed: 3, mode: 'explore', count: null, quality: 'auto' })).toBe('/index.html?mode=screenshot&seed=3');
  });

  it('--export writes the mesh next to the PNG, or alone when --out names the mesh', () => {
    expect(parseScreenshotArgs(['--export', 'glb', '--out', 'a.png'])).toMatchObject({ out: resolve('a.png'), export: { format: 'glb', out: resolve('a.glb') } });
    expect(parseScreenshotArgs(['--export', 'obj', '--out', 'rock.obj'])).toMatchObject({ out: null, export: { format: 'obj', out: resolve('rock.obj') } });
  });

  it.each([
    [['--colour', 'red'], /unknown flag --colour/],
    [['--seed'], /--seed needs a value/],
    [['--seed', '--mode', 'explore'], /--seed needs a value/],
    [['--width', 'wide'], /--width must be a whole number, got "wide"/],
    [['--width', '12.5'], /--width must be a whole number/],
    [['--height', '8'], /--height must be from 16 to 16384, got 8/],
    [['--width', '20000'], /--width must be from 16 to 16384/],
    [['--width', '9000', '--scale', '2'], /within 16384 pixels/],
    [['--seed', '4294967296'], /--seed must be from 0 to 4294967295/],
    [['--mode', 'moon'], /--mode must be one of explore, asteroid, planet, gallery, got "moon"/],
    [['--export', 'obj', '--mode', 'planet'], /planet chunks are not exported/],
    [['--export', 'stl'], /--export must be one of glb, obj/],
    [['--export', 'glb', '--mode', 'gallery'], /--export needs --mode explore or asteroid/],
    [['--out', 'shot.jpg'], /--out must end in \.png/],
    [['--count', '5'], /--count only applies to --mode gallery/],
    [['--seed', '1', '--seed', '2'], /--seed given twice/],
    [['shot.png'], /unexpected argument "shot.png"/],
    [['--mode', 'planet', '--class', 'lava'], /--class must be one of moon, desert, alpine, ocean, ice, volcanic, karst, got "lava"/],
    [['--mode', 'planet', '--class', 'Ocean'], /--class must be one of/],
    [['--class', 'ocean'], /--class only applies to --mode planet/],
    [['--mode', 'gallery', '--class', 'ocean'], /--class only applies to --mode planet/],
    [['--mode', 'planet', '--class'], /--class needs a value/],
    [['--mode', 'gallery', '--kind', 'moons'], /--kind must be one of asteroids, planets, got "moons"/],
    [['--kind', 'planets'], /--kind only applies to --mode gallery/],
    [['--mode', 'planet', '--kind', 'planets'], /--kind only applies to --mode gallery/],
  ])('%j → UsageError %s', (argv, message) => {
    expect(() => parseScreenshotArgs(argv)).toThrowError(UsageError);
    expect(() => parseScreenshotArgs(argv)).toThrowError(message);
  });

  it('URLs: explore is screenshot mode; asteroid and planet hide the UI and freeze time (a planet at full detail: lodTime=0); gallery starts at the seed', () => {
    const base = { seed: 42, count: null, quality: 'auto' as const };
    expect(screenshotUrl({ ...base, mode: 'explore' })).toBe('/index.html?mode=screenshot&seed=42');
    expect(screenshotUrl({ ...base, mode: 'asteroid' })).toBe('/index.html?mode=asteroid&seed=42&ui=0&t=0');
    expect(screenshotUrl({ ...base, mode: 'planet' })).toBe('/index.html?mode=planet&seed=42&ui=0&t=0&lodTime=0');
    expect(screenshotUrl({ ...base, mode: 'gallery', count: 6 })).toBe('/index.html?mode=gallery&seed=42&start=42&count=6&ui=0');
  });
});

describe('the command fails cleanly', () => {
  it('bad arguments: the message, the usage, exit code 2', () => {
    const r = cli(['--width', 'abc']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--width must be a whole number, got "abc"');
    expect(r.stderr).toContain('usage: npm run screenshot');
  });

  it('unknown mode: exit code 2', () => {
    const r = cli(['--mode', 'moon']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--mode must be one of explore, asteroid, planet, gallery/);
  });

  it('CHROMIUM_PATH=/nonexistent: the harness’s message, exit code 1, before building anything', () => {
    // A folder that exists on a fresh clone too (test-results/ may not yet).
    const out = join(mkdtempSync(join(tmpdir(), 'sr-cli-')), 'never.png');
    const r = cli(['--seed', '1', '--width', '64', '--height', '64', '--out', out], { CHROMIUM_PATH: '/nonexistent' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('CHROMIUM_PATH=/nonexistent does not exist');
    expect(r.stdout).not.toMatch(/built the app/);
  });

  it('a bad --class or --kind: the message naming the flag and its values, exit code 2', () => {
    const r = cli(['--mode', 'planet', '--class', 'lava']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--class must be one of moon, desert, alpine, ocean, ice, volcanic, karst, got "lava"');
    expect(r.stderr).toContain('usage: npm run screenshot');
    const k = cli(['--kind', 'planets']);
    expect(k.status).toBe(2);
    expect(k.stderr).toContain('--kind only applies to --mode gallery');
  });

  it('--help prints the usage and exits 0', () => {
    const r = cli(['--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('usage: npm run screenshot');
    expect(r.stdout).toContain('--class moon|desert|alpine|ocean|ice|volcanic|karst (planet)');
    expect(r.stdout).toContain('--kind asteroids|planets (gallery)');
  });
});
