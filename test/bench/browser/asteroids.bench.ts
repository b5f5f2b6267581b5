/**
 * The asteroid pipeline under load, in this browser: 50 asteroids generated (seed → field
 * → body jobs in workers → geometry) while a 512×384 view keeps rendering. Reports total
 * time, jobs/s, main-thread long tasks (> 50 ms, PerformanceObserver 'longtask': the page
 * runs only our code), the longest gap between frames, and the GL programs the run compiled (the
 * sampling worker's grid and edge passes, two a recipe shape, plus three.js's material programs):
 * each run draws new seeds, so a program per recipe would show here (issue 16).
 */
import { PerspectiveCamera, Scene, Vector3, WebGLRenderer } from 'three';
import { rowFrom, type Benchmark, type BenchRow } from '../harness';
import { AsteroidField } from '../../../src/app/AsteroidField';
import { Progress } from '../../../src/app/progress';
import { detectGpu } from '../../../src/app/capabilities';
import { BodyMesher } from '../../../src/workers/BodyMesher';
import { chooseSamplingPath, type SamplingPath } from '../../../src/workers/samplingPath';
import { asteroidFieldSpec, asteroidRecipe } from '../../../src/scene/index';
import { gpuCollectNote, gpuCollectParam } from './gpuCollectParam';

const COUNT = 50;
const W = 512;
const H = 384;

let renderer: WebGLRenderer | null = null;
let mesher: BodyMesher | null = null;
let path: SamplingPath = 'js-worker';
let pathWhy = '';
let seed = 100;
const samples = {
  jobsPerS: [] as number[], longTasks: [] as number[], longestGapMs: [] as number[], jobs: [] as number[], programs: [] as number[], programNotes: [] as string[],
  samplerBusy: [] as number[], samplerNotes: [] as string[],
};

/** The bodies' GPU sampler's running totals: time inside its polls (dispatch and readback), grid batches and jobs. */
async function samplerTotals(): Promise<{ pollMs: number; batches: number; jobs: number; handlerMs: number } | null> {
  const stats = mesher?.gpuWorker ? await mesher.gpuWorker.stats() : null;
  const b = stats?.bodies;
  return b ? { pollMs: b.pollMs, batches: b.grid.batches + b.edges.batches, jobs: b.grid.jobs + b.edges.jobs, handlerMs: stats.handlerMs } : null;
}

/** GL programs so far: the sampling worker's (two a program set) and the renderer's (materials). */
async function programsSoFar(): Promise<{ sampler: number; materials: number; names: string }> {
  const stats = mesher?.gpuWorker ? await mesher.gpuWorker.stats() : null;
  const sets = stats ? stats.programSets.bodies + stats.programSets.planet : 0;
  const programs = renderer!.info.programs ?? [];
  const byName = new Map<string, number>();
  for (const p of programs) byName.set(p.name, (byName.get(p.name) ?? 0) + 1);
  return { sampler: 2 * sets, materials: programs.length, names: [...byName].map(([n, c]) => `${n} ×${c}`).join(', ') };
}

async function setup(): Promise<void> {
  if (renderer) return;
  // As the app's (src/app/renderer.ts): a reversed depth buffer where EXT_clip_control exists, a logarithmic one otherwise.
  renderer = new WebGLRenderer({ antialias: false, reversedDepthBuffer: true, logarithmicDepthBuffer: true });
  renderer.setSize(W, H, false);
  renderer.shadowMap.enabled = true;
  document.body.appendChild(renderer.domElement);
  // As the app: the probe measures a blob asteroid (its programs are the blob shape's), never cached here.
  const choice = await chooseSamplingPath(detectGpu(), 'auto', gpuCollectParam(), { measureBody: () => asteroidRecipe(1, { family: 'potato' }), storage: null });
  path = choice.path;
  pathWhy = choice.detail;
  mesher = new BodyMesher({ sampling: choice.path, gpuWorker: choice.gpuWorker });
}

async function generate(): Promise<void> {
  const scene = new Scene();
  const camera = new PerspectiveCamera(45, W / H, 0.5, 2e6);
  const field = new AsteroidField({ spec: asteroidFieldSpec(seed++, COUNT), progress: new Progress(), onError: (m) => console.error(m) });
  scene.add(field.root);
  const hero = field.spec.asteroids[0];
  camera.position.set(...hero.positionM).add(new Vector3(0.6, 0.4, 1).normalize().multiplyScalar(hero.radiusM * 3.2));
  camera.lookAt(...hero.positionM);
  const programsBefore = await programsSoFar();
  const samplerBefore = await samplerTotals();
  field.start(mesher!);

  let longTasks = 0;
  const observer = new PerformanceObserver((list) => (longTasks += list.getEntries().length));
  try {
    observer.observe({ type: 'longtask', buffered: false });
  } catch {
    // No Long Tasks API in this browser: reported as 0 with a note.
  }
  const t0 = performance.now();
  let last = t0;
  let longestGap = 0;
  await new Promise<void>((done) => {
    const frame = (now: number): void => {
      longestGap = Math.max(longestGap, now - last);
      last = now;
      field.update(camera, H, 1 / 60, (now - t0) / 1000);
      renderer!.render(scene, camera);
      if (field.allGenerated()) done();
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  const seconds = (performance.now() - t0) / 1000;
  observer.disconnect();
  samples.jobs.push(field.jobsDone);
  samples.jobsPerS.push(field.jobsDone / seconds);
  samples.longTasks.push(longTasks);
  samples.longestGapMs.push(longestGap);
  const programsAfter = await programsSoFar();
  const sampler = programsAfter.sampler - programsBefore.sampler, materials = programsAfter.materials - programsBefore.materials;
  samples.programs.push(sampler + materials);
  samples.programNotes.push(`${sampler} sampling + ${materials} material programs (${programsAfter.names})`);
  const samplerAfter = await samplerTotals();
  if (samplerBefore && samplerAfter) {
    // How busy the GPU worker was: if far below the run's time, batching several bodies' grids in one pass would not shorten it.
    const busy = samplerAfter.pollMs - samplerBefore.pollMs;
    const batches = samplerAfter.batches - samplerBefore.batches, jobs = samplerAfter.jobs - samplerBefore.jobs;
    samples.samplerBusy.push((100 * busy) / (seconds * 1000));
    samples.samplerNotes.push(`${busy.toFixed(0)} ms in polls of ${(seconds * 1000).toFixed(0)} ms; ${batches} batches, ${(jobs / Math.max(1, batches)).toFixed(2)} jobs a batch; requests ${(samplerAfter.handlerMs - samplerBefore.handlerMs).toFixed(0)} ms`);
  }
  field.dispose();
}

export const benchmarks: Benchmark[] = [
  {
    name: 'asteroids/50/generate-while-rendering',
    unit: 'ms',
    runs: 3,
    warmup: 1,
    setup,
    run: generate,
    notes: () => `${COUNT} asteroids, 16/32/64-cell levels by screen size, ${W}×${H} view, sampling ${path}${gpuCollectNote()}, ${mesher?.pool.size} body worker(s) (${pathWhy})`,
    extraRows: (): BenchRow[] => {
      const keep = <T>(a: T[]): T[] => a.slice(-3); // the timed runs, not the warm-up
      return [
        rowFrom('asteroids/50/jobs-per-s', 'jobs/s', keep(samples.jobsPerS), `${keep(samples.jobs).join('/')} jobs per run`),
        rowFrom('asteroids/50/long-tasks', 'count', keep(samples.longTasks), 'main-thread tasks > 50 ms during generation (target 0)'),
        rowFrom('asteroids/50/longest-frame-gap', 'ms', keep(samples.longestGapMs), 'longest rAF interval during generation'),
        ...(samples.samplerBusy.length > 0
          ? [rowFrom('asteroids/50/gpu-sampler-busy', '%', keep(samples.samplerBusy), `share of the run the GPU sampling worker spent dispatching and reading back (grid + edge passes): ${keep(samples.samplerNotes).join('; ')}`)]
          : []),
        // The warm-up run is where a fresh page compiles: its count is the first of the notes.
        rowFrom('asteroids/50/programs-compiled', 'count', samples.programs.slice(0, 1), `GL programs compiled by the first run (a fresh page; target ≤ 12): ${samples.programNotes[0] ?? 'none'}; later runs, new seeds: ${samples.programs.slice(1).join('/')}`),
      ];
    },
  },
];
