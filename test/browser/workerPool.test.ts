/**
 * The worker pool with real module workers in Chromium: errors keep their names, dead
 * workers are replaced and their jobs retried (bounded), priorities, cancellation and
 * back-pressure hold.
 */
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { openBlankPage, type Served, useBrowser } from './harness';

let browser: Browser;
let server: Served;
useBrowser('dev', (b, s) => ([browser, server] = [b, s]));

const PAGE = '/test/browser/pages/workerPool.ts';

describe('WorkerPool', () => {
  it('a throwing job rejects with its error, a dying worker is replaced, the rest complete', async () => {
    const { page } = await openBlankPage(browser, server);
    const r = await page.evaluate(async (path) => (await srImport(path)).failures(), PAGE);
    console.log(JSON.stringify(r));
    expect(r.outcomes[0]).toMatch(/^ok:/);
    expect(r.outcomes[1]).toBe('Error:debugThrow: this body job was asked to fail');
    // debugCrash kills the worker each time: tried 1 + maxRetries (1) times, then given up.
    expect(r.outcomes[2]).toMatch(/^WorkerCrashedError:test pool: worker crashed: .*failed after 2 attempts/);
    expect(r.outcomes[3]).toMatch(/^ok:/);
    expect(r.outcomes[4]).toMatch(/^ok:/);
    expect(r.crashes).toBe(2);
    expect(r.afterwards).toMatch(/^ok:/);
  });

  it('runs higher priorities first, drops cancelled jobs, refuses work when full', async () => {
    const { page } = await openBlankPage(browser, server);
    const r = await page.evaluate(async (path) => (await srImport(path)).scheduling(), PAGE);
    expect(r.order).toEqual([0, 2, 1]);
    expect(r.cancelled).toBe('JobCancelledError:job cancelled');
    expect(r.refused).toBe(true);
  });

  it('jobs handed over still run by priority in the worker, take changes and cancels', async () => {
    const { page } = await openBlankPage(browser, server);
    const r = await page.evaluate(async (path) => (await srImport(path)).inWorkerOrder(), PAGE);
    // All four were handed over at once; 'a' (1 → 10) now runs before 'b' (2); 'c' never runs.
    expect([...r.order].sort()).toEqual(['a', 'b', 'first']);
    expect(r.order.indexOf('a')).toBeLessThan(r.order.indexOf('b'));
    expect(r.cancelled).toBe('JobCancelledError:job cancelled');
  });

  it('hands a worker its next job ahead, answers in order, re-runs a job stranded by a crash', async () => {
    const { page } = await openBlankPage(browser, server);
    const r = await page.evaluate(async (path) => (await srImport(path)).pipelining(), PAGE);
    console.log(JSON.stringify(r));
    expect(r.handedOver).toEqual([1, 1]); // one worker busy, two jobs in it, the third queued
    expect(r.order).toEqual([0, 1, 2]);
    expect(r.outcomes[0]).toMatch(/^WorkerCrashedError:pipelined pool: worker crashed: .*failed after 2 attempts/);
    expect(r.outcomes[1]).toMatch(/^ok:/);
    expect(r.crashes).toBe(2);
  });
});

describe('BodyMesher', () => {
  it('the GPU path (sampling worker → body worker) meshes like the JS path', async () => {
    const { page, log } = await openBlankPage(browser, server);
    const r = await page.evaluate(async (path) => (await srImport(path)).gpuVersusJs(3, 24), PAGE);
    console.log(JSON.stringify(r));
    expect(r.gpu.sampledBy).toBe('gpu');
    expect(r.js.sampledBy).toBe('js');
    for (const s of [r.gpu, r.js]) {
      expect(s.boundaryEdges).toBe(0);
      expect(s.nonManifoldEdges).toBe(0);
    }
    // Same surface, float32 vs float64 samples: the meshes differ only in rare near-zero corners.
    expect(Math.abs(r.gpu.triangles - r.js.triangles) / r.js.triangles).toBeLessThan(0.02);
    expect(log.errors).toEqual([]);
  });

  it('a body is sampled in JS until its GPU programs have linked, then on the GPU', async () => {
    const { page, log } = await openBlankPage(browser, server);
    const r = await page.evaluate(async (path) => (await srImport(path)).readinessRouting(4, 16), PAGE);
    expect(r).toEqual({ before: 'js', readyOk: true, after: 'gpu' });
    expect(log.errors).toEqual([]);
  });
});
