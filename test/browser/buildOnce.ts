/**
 * Global setup of the browser project: one production build of the app for the whole run, shared
 * by every file that serves it (`startPreviewServer` reads its folder through `inject`), instead of
 * one build per file. Removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The production build's folder (see buildOnce.ts). */
    previewDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const root = resolve(import.meta.dirname, '../..');
  const outDir = mkdtempSync(join(tmpdir(), 'sr-build-'));
  await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'error', build: { outDir, emptyOutDir: true } });
  project.provide('previewDir', outDir);
  return () => rmSync(outDir, { recursive: true, force: true });
}
