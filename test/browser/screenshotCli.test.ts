/**
 * `npm run screenshot` end to end (it builds the app, serves it and drives headless
 * Chromium, so it lives in the serial browser project): a valid PNG of the requested size,
 * the same bytes twice, and a 2× capture saved for looking at.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resultPath, ROOT } from './harness';

const TSX = join(ROOT, 'node_modules/.bin/tsx');
const dir = mkdtempSync(join(tmpdir(), 'sr-cli-test-'));

function run(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(TSX, ['scripts/screenshot.ts', ...args], { cwd: ROOT });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => done({ code, out }));
  });
}

/** PNG signature and the IHDR chunk's width and height (big-endian, bytes 16–23). */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(bytes.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('npm run screenshot', () => {
  it('asteroid seed 42 at 320×240: a valid PNG of that size, identical bytes on a second run', async () => {
    const args = ['--seed', '42', '--mode', 'asteroid', '--width', '320', '--height', '240'];
    const t0 = Date.now();
    const a = await run([...args, '--out', join(dir, 'a.png')]);
    const t1 = Date.now();
    const b = await run([...args, '--out', join(dir, 'b.png')]);
    console.log(`two runs: ${t1 - t0} ms and ${Date.now() - t1} ms\n${a.out}`);
    expect(a.code, a.out).toBe(0);
    expect(b.code, b.out).toBe(0);
    const first = readFileSync(join(dir, 'a.png'));
    const second = readFileSync(join(dir, 'b.png'));
    expect(pngSize(first)).toEqual({ width: 320, height: 240 });
    expect(second.equals(first), 'same bytes').toBe(true);
    copyFileSync(join(dir, 'a.png'), resultPath('cli-asteroid-seed42-320x240.png'));
  });

  it('explore seed 7, a 320×240 window saved 2×: a 640×480 PNG', async () => {
    const r = await run(['--seed', '7', '--width', '320', '--height', '240', '--scale', '2', '--out', join(dir, 'explore2x.png')]);
    expect(r.code, r.out).toBe(0);
    const png = readFileSync(join(dir, 'explore2x.png'));
    expect(pngSize(png)).toEqual({ width: 640, height: 480 });
    copyFileSync(join(dir, 'explore2x.png'), resultPath('cli-explore-seed7-2x-640x480.png'));
  });

  it('gallery from seed 1, 6 cells in a 480×360 window: the whole grid once every cell is drawn', async () => {
    const r = await run(['--seed', '1', '--mode', 'gallery', '--count', '6', '--width', '480', '--height', '360', '--out', join(dir, 'gallery.png')]);
    expect(r.code, r.out).toBe(0);
    // Two columns of three rows do not fit 360 px: the capture grows to the grid's height
    // (before, it kept the window and cut the last rows off).
    const tall = /gallery: the grid is (\d+) px tall; captured 480×(\d+)/.exec(r.out);
    expect(tall, r.out).not.toBeNull();
    expect(Number(tall![1])).toBeGreaterThan(360);
    expect(pngSize(readFileSync(join(dir, 'gallery.png')))).toEqual({ width: 480, height: Number(tall![2]) });
    expect(Number(tall![2])).toBe(Number(tall![1]));
    copyFileSync(join(dir, 'gallery.png'), resultPath('cli-gallery-seed1.png'));
  });
});
