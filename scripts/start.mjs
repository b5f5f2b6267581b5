#!/usr/bin/env node
/**
 * `npm start`: installs the dependencies when they are missing or stale, then serves the
 * app with Vite on http://127.0.0.1:5173 (pass `-- --host 0.0.0.0` etc. to change it).
 * Plain Node with no dependencies, so it runs on a fresh clone.
 */
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const installed = join(ROOT, 'node_modules/.package-lock.json');
const lock = join(ROOT, 'package-lock.json');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const stale = !existsSync(installed) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(installed).mtimeMs);
if (stale) {
  console.log('Installing dependencies (npm ci)…');
  const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const vite = join(ROOT, 'node_modules/vite/bin/vite.js');
const child = spawn(process.execPath, [vite, '--host', '127.0.0.1', '--port', '5173', ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: 'inherit',
});
child.on('exit', (code) => process.exit(code ?? 0));
