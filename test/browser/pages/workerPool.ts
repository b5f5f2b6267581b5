/**
 * Page-side checks for test/browser/workerPool.test.ts: the body worker pool under
 * failures (a job that throws, a worker that dies), cancellation and back-pressure.
 */
import { recipeBounds } from '../../../src/field/index';
import { asteroidRecipe } from '../../../src/scene/index';
import type { BodyMeshParams, BodyMeshResult } from '../../../src/jobs/bodyJob';
import { WorkerPool } from '../../../src/workers/WorkerPool';

function params(seed: number, cells = 12): BodyMeshParams {
  const recipe = asteroidRecipe(seed);
  const b = recipeBounds(recipe);
  const extent = Math.max(b.boxMax[0] - b.boxMin[0], b.boxMax[1] - b.boxMin[1], b.boxMax[2] - b.boxMin[2]) * 1.04;
  return {
    body: bodyOf(seed),
    cells,
    stepM: extent / cells,
    originM: [b.boxMin[0] - 0.02 * extent, b.boxMin[1] - 0.02 * extent, b.boxMin[2] - 0.02 * extent],
    simplify: 0,
  };
}

const SEEDS = [1, 2, 3, 4, 5, 6];
const bodyOf = (seed: number): string => `asteroid:${seed}`;

/** Registers the test asteroids with every worker of `p`, replacements included (as BodyMesher does). */
function registerSeeds(p: WorkerPool): WorkerPool {
  for (const seed of SEEDS) {
    p.broadcast(`body:${bodyOf(seed)}`, { id: 0, kind: 'registerBody', params: { body: bodyOf(seed), definition: { recipe: asteroidRecipe(seed) } } });
  }
  return p;
}

function pool(size: number, maxRetries = 1): WorkerPool {
  return registerSeeds(new WorkerPool({
    name: 'test pool',
    size,
    maxRetries,
    create: () => new Worker(new URL('../../../src/workers/body.worker.ts', import.meta.url), { type: 'module' }),
  }));
}

async function settle(p: Promise<unknown>): Promise<string> {
  try {
    const r = (await p) as BodyMeshResult;
    return `ok:${r.hash}`;
  } catch (e) {
    return `${(e as Error).name}:${(e as Error).message}`;
  }
}

/** A throwing job, a crashing worker and healthy jobs, all in one pool of two workers. */
export async function failures(): Promise<{ outcomes: string[]; crashes: number; afterwards: string }> {
  const p = pool(2, 1);
  const jobs = [
    p.run('meshBody', params(1)),
    p.run('meshBody', { ...params(2), debugThrow: true }),
    p.run('meshBody', { ...params(3), debugCrash: true }),
    p.run('meshBody', params(4)),
    p.run('meshBody', params(5)),
  ];
  const outcomes = await Promise.all(jobs.map((j) => settle(j.promise)));
  // The pool still works after a crash (the dead worker was replaced).
  const afterwards = await settle(p.run('meshBody', params(6)).promise);
  const crashes = p.crashes;
  p.dispose();
  return { outcomes, crashes, afterwards };
}

/** Priorities, cancellation of queued jobs and back-pressure on one worker. */
export async function scheduling(): Promise<{ order: number[]; cancelled: string; refused: boolean }> {
  const p = registerSeeds(new WorkerPool({
    name: 'sched pool',
    size: 1,
    maxQueued: 3,
    jobsPerWorker: 1, // strict priorities: nothing handed over ahead
    create: () => new Worker(new URL('../../../src/workers/body.worker.ts', import.meta.url), { type: 'module' }),
  }));
  const order: number[] = [];
  const first = p.run('meshBody', params(1, 16)); // occupies the worker
  const low = p.run('meshBody', params(2), { priority: 1 });
  const high = p.run('meshBody', params(3), { priority: 5 });
  const doomed = p.run('meshBody', params(4), { priority: 9 });
  const refused = p.tryRun('meshBody', params(5)) === undefined; // 3 queued: full
  doomed.cancel();
  const cancelled = await settle(doomed.promise);
  await Promise.all([
    first.promise.then(() => order.push(0)),
    low.promise.then(() => order.push(1)),
    high.promise.then(() => order.push(2)),
  ]);
  p.dispose();
  return { order, cancelled, refused };
}

/**
 * The GPU path end to end: BodyMesher with the OffscreenCanvas sampling worker (grid pass +
 * edge pass) feeding Dual Contouring in a body worker, against the JS path on the same grid.
 */
export async function gpuVersusJs(seed: number, cells: number): Promise<{ gpu: Summary; js: Summary }> {
  const { BodyMesher } = await import('../../../src/workers/BodyMesher');
  const { GpuSamplerClient } = await import('../../../src/workers/GpuSamplerClient');
  const { validateMesh } = await import('../../../src/mesher/index');
  const gpuWorker = await GpuSamplerClient.create();
  if (!gpuWorker) throw new Error('no GPU sampling worker');
  const gpuMesher = new BodyMesher({ sampling: 'gpu-worker', gpuWorker, workers: 1, gpuBeforeReady: 'wait' });
  const jsMesher = new BodyMesher({ sampling: 'js-worker', workers: 1 });
  const summarise = (r: BodyMeshResult): Summary => {
    const report = validateMesh({ positions: r.positions, indices: r.indices });
    return {
      sampledBy: r.sampledBy,
      triangles: r.indices.length / 3,
      boundaryEdges: report.boundaryEdges,
      nonManifoldEdges: report.nonManifoldEdges,
    };
  };
  for (const m of [gpuMesher, jsMesher]) m.registerBody(bodyOf(seed), { recipe: asteroidRecipe(seed) });
  try {
    const [gpu, js] = await Promise.all([
      gpuMesher.mesh(params(seed, cells)).promise,
      jsMesher.mesh(params(seed, cells)).promise,
    ]);
    return { gpu: summarise(gpu), js: summarise(js) };
  } finally {
    gpuMesher.dispose();
    jsMesher.dispose();
    gpuWorker.dispose();
  }
}

interface Summary {
  sampledBy: string;
  triangles: number;
  boundaryEdges: number;
  nonManifoldEdges: number;
}

/**
 * Two jobs handed to one worker at a time: the second waits in the worker, a third in the pool;
 * answers come back in order. A job waiting behind one that kills its worker is run again by the
 * replacement (it counts no attempt), and the killer gives up after its retries.
 */
export async function pipelining(): Promise<{ handedOver: [number, number]; order: number[]; outcomes: string[]; crashes: number }> {
  const p = registerSeeds(new WorkerPool({
    name: 'pipelined pool',
    size: 1,
    maxRetries: 1,
    jobsPerWorker: 2,
    create: () => new Worker(new URL('../../../src/workers/body.worker.ts', import.meta.url), { type: 'module' }),
  }));
  const order: number[] = [];
  const jobs = [1, 2, 3].map((seed, i) => p.run<BodyMeshResult>('meshBody', params(seed)).promise.then(() => order.push(i)));
  const handedOver: [number, number] = [p.busy, p.queued];
  await Promise.all(jobs);
  const crash = p.run('meshBody', { ...params(4), debugCrash: true });
  const behind = p.run('meshBody', params(5));
  const outcomes = await Promise.all([settle(crash.promise), settle(behind.promise)]);
  const crashes = p.crashes;
  p.dispose();
  return { handedOver, order, outcomes, crashes };
}

/**
 * Jobs handed over deep (4 to one worker) still run by priority inside the worker, take priority
 * changes made after the handoff, and a cancelled one never delays the others.
 */
export async function inWorkerOrder(): Promise<{ order: string[]; cancelled: string }> {
  const p = registerSeeds(new WorkerPool({
    name: 'deep pool',
    size: 1,
    jobsPerWorker: 4,
    create: () => new Worker(new URL('../../../src/workers/body.worker.ts', import.meta.url), { type: 'module' }),
  }));
  const order: string[] = [];
  const run = (name: string, seed: number, priority: number, cells = 12) => {
    const job = p.run('meshBody', params(seed, cells), { priority });
    job.promise.then(() => order.push(name), () => {});
    return job;
  };
  const first = run('first', 1, 9, 48);
  const a = run('a', 2, 1);
  run('b', 3, 2);
  const c = run('c', 4, 3);
  a.setPriority(10);
  c.cancel();
  const cancelled = await settle(c.promise);
  await first.promise;
  await new Promise((r) => setTimeout(r, 1500));
  p.dispose();
  return { order, cancelled };
}

/**
 * Routing by readiness: with the default `gpuBeforeReady: 'js'`, a job asked for right after the
 * body is registered (its programs still compiling) is sampled in JS; once the worker says they
 * linked, the next is sampled on the GPU. Also a registration and a release under the same id.
 */
export async function readinessRouting(seed: number, cells: number): Promise<{ before: string; readyOk: boolean; after: string }> {
  const { BodyMesher } = await import('../../../src/workers/BodyMesher');
  const { GpuSamplerClient } = await import('../../../src/workers/GpuSamplerClient');
  const gpuWorker = await GpuSamplerClient.create();
  if (!gpuWorker) throw new Error('no GPU sampling worker');
  const mesher = new BodyMesher({ sampling: 'gpu-worker', gpuWorker, workers: 1 });
  try {
    mesher.registerBody(bodyOf(seed), { recipe: asteroidRecipe(seed) });
    const first = mesher.mesh(params(seed, cells));
    const readyOk = await gpuWorker.whenReady(bodyOf(seed));
    const second = mesher.mesh(params(seed, cells));
    return { before: (await first.promise).sampledBy, readyOk, after: (await second.promise).sampledBy };
  } finally {
    mesher.dispose();
  }
}
