import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';

/** The GPU field's parity files (dev-server pages, no app): run alone, after the app's browser files. */
const GPU_PARITY_FILES = [
  'test/browser/gpuSampler.test.ts', 'test/browser/planetGpuSampling.test.ts', 'test/browser/fieldParity.test.ts',
  'test/browser/fieldGradient.test.ts', 'test/browser/fieldBandParity.test.ts', 'test/browser/cubeSphereMap.test.ts',
  'test/browser/webgl2.test.ts',
];

// One config for the app build, the dev server and both test projects.
// Unit tests run in Node (src/field, src/mesher, src/lod are DOM-free by design);
// browser tests are Node-side Vitest files that drive the system Chromium through
// playwright-core against a Vite server on 127.0.0.1 (see test/browser/harness.ts).
export default defineConfig({
  base: './',
  build: {
    target: 'es2022',
    sourcemap: true,
    rollupOptions: {
      input: {
        main: resolve(import.meta.dirname, 'index.html'),
        bench: resolve(import.meta.dirname, 'bench.html'),
      },
    },
  },
  worker: { format: 'es' },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/browser/**', 'node_modules/**'],
          // One test file per core (Vitest's default leaves one core to its own process, which
          // idles here): the unit stage took 231 s on CI's 2 cores with one worker, 170 s with two.
          maxWorkers: availableParallelism(),
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          environment: 'node',
          include: ['test/browser/**/*.test.ts'],
          exclude: GPU_PARITY_FILES,
          // One Chromium at a time: SwiftShader already uses both cores. (Two files at a time took
          // the stage from 1,489 s to 1,396 s in one CI run, on a machine others were loading:
          // not worth the flakes a loaded SwiftShader brings.)
          fileParallelism: false,
          // One production build for every file that serves it (test/browser/buildOnce.ts).
          globalSetup: ['test/browser/buildOnce.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser-gpu',
          environment: 'node',
          include: GPU_PARITY_FILES,
          // Its own group (`groupOrder`: never beside the app's files), one file at a time: their GPU
          // jobs run for seconds each on SwiftShader, and a busy machine stretches one past
          // Chromium's GPU watchdog, which kills every context (docs/robustness.md, "A software GPU
          // is not timed").
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
