/**
 * Planet LOD under load, in this browser (issues 9, 10): the scripted orbit-to-surface flight of
 * test/browser/planet.test.ts on planetRecipe(4) (R ≈ 63 km) with the production chunk size
 * (32³) and 1 m finest cells, chunks + seams streamed by the body worker pool while a 480×360
 * view keeps rendering. Reports chunks generated per second, the time to the complete state at the
 * surface (every job done, the latest LOD snapshot swapped in; capped), main-thread long tasks
 * (PerformanceObserver 'longtask'), the longest frame gap and geometry bytes per triangle.
 */
import { PCFShadowMap, PerspectiveCamera, Scene, Vector3, WebGLRenderer } from 'three';
import { rowFrom, type Benchmark, type BenchRow } from '../harness';
import { PlanetView } from '../../../src/app/PlanetView';
import { Progress } from '../../../src/app/progress';
import { detectGpu } from '../../../src/app/capabilities';
import { BodyMesher } from '../../../src/workers/BodyMesher';
import { chooseSamplingPath } from '../../../src/workers/samplingPath';
import { gpuCollectNote, gpuCollectParam } from './gpuCollectParam';
import type { GpuWorkerStats } from '../../../src/workers/protocol';
import { asteroidRecipe, parsePlanetClass, planetRecipe, sceneSpec } from '../../../src/scene/index';
import { compileToJs, recipeBounds, type FieldRecipe } from '../../../src/field/index';
import { canonicalSampleMapping, CubeSphereSpace, isReselectMode, keyOf, parseChunkKey, type ChunkKey } from '../../../src/lod/index';
import { sampleChunk } from '../../../src/mesher/index';
import { planetContext } from '../../jobs/oneWorker';
import { registerBody } from '../../jobs/oneWorker';
import { gpuFieldToleranceM } from '../../../src/jobs/planetGpuSamples';

const W = 480;
const H = 360;
/** Seconds a flight step may take before the next one starts. */
const STEP_CAP_S = 25;
/** The surface step's cap (time to full detail). */
const SURFACE_CAP_S = 60;

let renderer: WebGLRenderer | null = null;
let mesher: BodyMesher | null = null;
/** Why the sampling path is what it is (the probe's line). */
let samplingWhy = '';
let finestCellM = 1;
let cascadeCount = 1;
const samples = {
  chunksPerS: [] as number[], busiestStep: [] as number[], busiestStepNote: [] as string[], seamsPerS: [] as number[], surfaceS: [] as number[], longTasks: [] as number[],
  longestGapMs: [] as number[], bytesPerTri: [] as number[], cacheBytesPerTri: [] as number[], chunks: [] as number[], cracks: [] as number[], complete: [] as string[],
  chunkKinds: [] as string[], workerIdle: [] as string[], longestUpdateMs: [] as number[], longestRenderMs: [] as number[], phases: [] as string[], attributed: [] as string[],
};

async function setup(): Promise<void> {
  if (renderer) return;
  // As the app's (src/app/renderer.ts): a reversed depth buffer where EXT_clip_control exists, a logarithmic one otherwise.
  renderer = new WebGLRenderer({ antialias: false, reversedDepthBuffer: true, logarithmicDepthBuffer: true });
  renderer.setSize(W, H, false);
  // As the app draws: PCF shadow maps fitted by the planet each frame.
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.type = PCFShadowMap;
  document.body.appendChild(renderer.domElement);
  // `?gpuPermutation=const`: planet grid passes read the noise tables from constants (A/B of the texture).
  const permutationTexture = new URLSearchParams(location.search).get('gpuPermutation') !== 'const';
  // `?gpuBatch=N`: at most N chunks a GPU batch (1: a fence and a readback per chunk, as before batching).
  const gpuBatch = Number(new URLSearchParams(location.search).get('gpuBatch') ?? NaN);
  // Measured afresh each run (not the app's cached answer) at setup, before a planet exists: on a blob asteroid.
  const choice = await chooseSamplingPath(detectGpu(), 'auto', { permutationTexture, ...gpuCollectParam(), ...(gpuBatch >= 1 ? { maxBatchJobs: gpuBatch } : {}) }, {
    storage: null, measureBody: () => asteroidRecipe(1, { family: 'potato' }),
  });
  samplingWhy = choice.detail + gpuCollectNote();
  mesher = new BodyMesher({ sampling: choice.path, gpuWorker: choice.gpuWorker });
}

function place(planet: PlanetView, camera: PerspectiveCamera, altitudeM: number): void {
  const d = new Vector3(0.3, 0.55, 0.78).normalize();
  // Down from the bounding radius in steps the field allows (16: over the classes' Lipschitz
  // estimates), then bisection: Newton's steps jumped into the rock on karst's shells (issue 41).
  const at = (radius: number): number => planet.altitude(camera.position.copy(d).multiplyScalar(radius)) - altitudeM;
  let above = planet.radiusM + altitudeM;
  let r = above;
  for (let i = 0; i < 20_000; i++) {
    const f = at(r);
    if (f <= 0) break;
    above = r;
    r -= Math.max(0.05, f / 16);
  }
  let below = r;
  for (let i = 0; i < 60 && above - below > 1e-4; i++) {
    const mid = 0.5 * (above + below);
    if (at(mid) > 0) above = mid;
    else below = mid;
  }
  r = 0.5 * (above + below);
  camera.position.copy(d).multiplyScalar(r);
  if (altitudeM > planet.radiusM) camera.lookAt(0, 0, 0);
  else {
    const ahead = new Vector3(-d.y, d.x, 0).normalize();
    camera.lookAt(camera.position.clone().addScaledVector(ahead, 100).addScaledVector(d, -15));
  }
}

/** planetRecipe(4) streaming on the shared body pool into a fresh scene, errors collected. */
function planetScene(fovDeg: number): { scene: Scene; camera: PerspectiveCamera; errors: string[]; planet: PlanetView } {
  const scene = new Scene();
  const camera = new PerspectiveCamera(fovDeg, W / H, 0.5, 1e7);
  const errors: string[] = [];
  // `?gpuMaxPending=N`: how many chunks may wait on the GPU before new ones are sampled in JS.
  const gpuMaxPending = Number(new URLSearchParams(location.search).get('gpuMaxPending')) || undefined;
  // `?gpuSpill=limit|always`: when a chunk is sampled in JS instead of on the GPU (gpuQueueLimit.ts).
  const spillParam = new URLSearchParams(location.search).get('gpuSpill');
  const gpuSpill = spillParam === 'limit' || spillParam === 'always' ? spillParam : undefined;
  // `?reselect=timer|idle|drained`: when selections are asked for besides camera moves (lod/reselect.ts).
  const reselectParam = new URLSearchParams(location.search).get('reselect') ?? '';
  const reselect = isReselectMode(reselectParam) ? reselectParam : undefined;
  // `?prune=0`: jobs under a chunk proven empty/full run on (the earlier behaviour).
  const pruneUnderProof = new URLSearchParams(location.search).get('prune') !== '0';
  // `?childProofs=0`: a surface chunk's samples prove none of its children (the earlier behaviour).
  const childProofs = new URLSearchParams(location.search).get('childProofs') !== '0';
  // `?lodTime=S`: the time policy's budget (src/lod/timeFactor.ts; 0: off, full detail however long it takes).
  const lodTime = new URLSearchParams(location.search).get('lodTime');
  const timeBudgetS = lodTime !== null && Number.isFinite(Number(lodTime)) ? Number(lodTime) : undefined;
  // `?preupload=0`: new pieces' buffers upload in the frame that first shows them (the old way).
  const preuploadGeometry = new URLSearchParams(location.search).get('preupload') !== '0';
  // `?planetClass=<class>`: planet 4 drawn as that class (issue 41: the teleports on every class).
  const planetClass = parsePlanetClass(new URLSearchParams(location.search).get('planetClass') ?? '') ?? undefined;
  const scene4 = sceneSpec(4, 'planet', { planetClass });
  const planet = new PlanetView({ bodyId: scene4.planet!.id, recipe: scene4.planet!.recipe, centerM: scene4.planet!.centerM, sunDirection: scene4.sunDirection, progress: new Progress(), onError: (m) => errors.push(m), renderer: renderer!, scene, gpuMaxPending, gpuSpill, reselect, pruneUnderProof, childProofs, preuploadGeometry, timeBudgetS });
  scene.add(planet.root);
  planet.start(mesher!);
  return { scene, camera, errors, planet };
}

interface FrameTimes {
  /** The rAF time, then when the planet update, the render, and the frame ended. */
  now: number;
  updateStart: number;
  renderStart: number;
  renderEnd: number;
}

/**
 * Draws frames as the app does (planet update, shadow fit, render) until the planet is complete
 * (true) or `capMs` has passed (false); `onFrame` sees each frame's times.
 */
function untilComplete(
  view: { scene: Scene; camera: PerspectiveCamera; planet: PlanetView }, heightPx: number, capMs: number, onFrame: (f: FrameTimes) => void,
): Promise<boolean> {
  const { scene, camera, planet } = view;
  const start = performance.now();
  let frames = 0;
  return new Promise((resolve) => {
    const frame = (now: number): void => {
      const updateStart = performance.now();
      planet.update(camera, heightPx, now);
      planet.fitShadows(camera, planet.castersVersion); // as the app: the maps render again only when what casts changed
      const renderStart = performance.now();
      renderer!.render(scene, camera);
      onFrame({ now, updateStart, renderStart, renderEnd: performance.now() });
      frames++;
      if (frames > 3 && planet.stats().complete) resolve(true);
      else if (now - start > capMs) resolve(false);
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

async function fly(): Promise<void> {
  const { scene, camera, errors, planet } = planetScene(60);
  finestCellM = planet.space.finestCellM ?? 1;
  cascadeCount = planet.sun.cascadeCount;
  const R = planet.radiusM;
  const path = [3 * R, R, 0.3 * R, 0.1 * R, 3000, 300, 30, 10];

  let longTasks = 0;
  const observer = new PerformanceObserver((list) => (longTasks += list.getEntries().length));
  try {
    observer.observe({ type: 'longtask', buffered: false });
  } catch {
    // No Long Tasks API in this browser: reported as 0.
  }
  // Long-task attribution: each long task is matched to the frame work that overlapped it.
  const work: { name: string; start: number; end: number }[] = [];
  const longTaskSpans: { start: number; end: number }[] = [];
  const spans = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTaskSpans.push({ start: e.startTime, end: e.startTime + e.duration });
  });
  try {
    spans.observe({ type: 'longtask', buffered: false });
  } catch {
    // No Long Tasks API: nothing to attribute.
  }
  let longestUpdate = 0, longestRender = 0;
  // Frames that found the body workers idle (nothing running) or with nothing queued behind them.
  let totalFrames = 0, idleFrames = 0, shallowFrames = 0;
  const idleAtStart = mesher!.pool.workerIdleMs;
  const t0 = performance.now();
  let last = t0;
  let longestGap = 0;
  let surfaceS = SURFACE_CAP_S;
  const complete: string[] = [];
  // Chunk jobs per second within each step: the flight as a whole also counts the steps' latency
  // (small steps finish in ~1 s whatever the rate), the busiest step shows the throughput.
  let busiest = { rate: 0, note: 'none' };
  for (const [i, alt] of path.entries()) {
    place(planet, camera, alt);
    const s0 = planet.stats();
    const chunks0 = s0.chunksDone;
    // Within the step: when its last chunk job was done (what follows is seams and commits).
    let lastChunkMs = 0, chunksSeen = chunks0;
    const surface = i === path.length - 1;
    const cap = (surface ? SURFACE_CAP_S : STEP_CAP_S) * 1000;
    const start = performance.now();
    const done = await untilComplete({ scene, camera, planet }, H, cap, (f) => {
      longestGap = Math.max(longestGap, f.now - last);
      last = f.now;
      const updateMs = f.renderStart - f.updateStart, renderMs = f.renderEnd - f.renderStart;
      totalFrames++;
      if (planet.stats().chunksDone > chunksSeen) {
        chunksSeen = planet.stats().chunksDone;
        lastChunkMs = f.now - start;
      }
      if (mesher!.pool.busy === 0) idleFrames++;
      else if (mesher!.pool.queued === 0) shallowFrames++;
      longestUpdate = Math.max(longestUpdate, updateMs);
      longestRender = Math.max(longestRender, renderMs);
      if (updateMs > 20) work.push({ name: 'update', start: f.updateStart, end: f.renderStart });
      if (renderMs > 20) work.push({ name: 'render', start: f.renderStart, end: f.renderEnd });
    });
    complete.push(`${done ? `${((performance.now() - start) / 1000).toFixed(1)}s` : 'cap'} (${planet.stats().drawn} drawn)`);
    const s1 = planet.stats();
    const stepJobs = s1.chunksDone - chunks0, stepS = (performance.now() - start) / 1000;
    if (stepJobs / stepS > busiest.rate) {
      busiest = {
        rate: stepJobs / stepS,
        note: `step ${i + 1} (to ${alt.toFixed(0)} m): ${stepJobs} chunk jobs in ${stepS.toFixed(1)} s, the last done at ${(lastChunkMs / 1000).toFixed(1)} s; ` +
          `${s1.seamsDone - s0.seamsDone} seams, ${s1.transactions - s0.transactions} transactions in the step`,
      };
    }
    if (surface && done) surfaceS = (performance.now() - start) / 1000;
  }
  const seconds = (performance.now() - t0) / 1000;
  observer.disconnect();
  spans.disconnect();
  // A long task is 'update' or 'render' when that frame work covers most of it; else 'other'
  // (message handling: worker results and LOD snapshots deserialised, GC, the browser).
  const causes: string[] = [];
  for (const task of longTaskSpans) {
    let cause = 'other';
    for (const w of work) {
      const overlap = Math.min(task.end, w.end) - Math.max(task.start, w.start);
      if (overlap > 0.5 * (task.end - task.start)) cause = w.name;
    }
    causes.push(`${cause} ${(task.end - task.start).toFixed(0)} ms at ${((task.start - t0) / 1000).toFixed(1)} s`);
  }
  samples.attributed.push(causes.join(', ') || 'none');
  samples.longestUpdateMs.push(longestUpdate);
  samples.longestRenderMs.push(longestRender);
  samples.phases.push(Object.entries(planet.slowestMs).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', '));
  const s = planet.stats();
  samples.chunks.push(s.chunksDone);
  const w = s.workerMs;
  const sec = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  samples.chunkKinds.push(`${s.chunksHomogeneous} empty/full, ${s.chunksRemeshed} re-meshed for a new restriction; body-worker time: surface chunks ${sec(w.surface)} (sampling ${sec(w.surfaceSampling)}), empty/full ${sec(w.homogeneous)}, re-meshes ${sec(w.remesh)}, seams ${sec(w.seam)}; ` +
    (s.gpu.enabled ? `GPU-sampled ${s.gpu.chunks} (mean latency ${s.gpu.meanLatencyMs.toFixed(1)} ms, ${s.gpu.queueFull} to JS with the queue full)` : 'sampled in JS'));
  samples.chunksPerS.push(s.chunksDone / seconds);
  samples.busiestStep.push(busiest.rate);
  samples.busiestStepNote.push(busiest.note);
  const idleS = (mesher!.pool.workerIdleMs - idleAtStart) / 1000;
  samples.workerIdle.push(`${s.seamsResent} sent again with records; body workers idle (no job in hand) ${idleS.toFixed(1)} s of ${seconds.toFixed(0)} s; ${totalFrames} frames: the pool had no job running in ${(100 * idleFrames / totalFrames).toFixed(0)} %, none queued in ${(100 * shallowFrames / totalFrames).toFixed(0)} %`);
  samples.seamsPerS.push(s.seamsDone / seconds);
  samples.surfaceS.push(surfaceS);
  samples.longTasks.push(longTasks);
  samples.longestGapMs.push(longestGap);
  samples.bytesPerTri.push(planet.drawnBytes() / Math.max(1, s.triangles));
  samples.cacheBytesPerTri.push(s.bytes / Math.max(1, s.triangles));
  samples.cracks.push(planet.crackReport().boundaryEdges);
  samples.complete.push(complete.join(' '));
  if (errors.length > 0) console.error(errors.join('\n'));
  planet.dispose();
}

/** Teleports: the view's selection is for a 1280×720 window (what users see; the canvas stays small). */
const TELEPORT_HEIGHT_PX = 720;
/** The teleports' cap (s): 60, or `?teleportCapS=` (BENCH_TELEPORT_CAP_S for `npm run bench`). */
const TELEPORT_CAP_S = Math.max(1, Number(new URLSearchParams(location.search).get('teleportCapS') ?? 60) || 60);
const teleportAltitudes = [300, 20] as const;
const teleport: Record<number, { s: number[]; capped: number[]; jobsPerDrawn: number[]; longTasks: number[]; gapMs: number[]; notes: string[] }> = {};
for (const alt of teleportAltitudes) teleport[alt] = { s: [], capped: [], jobsPerDrawn: [], longTasks: [], gapMs: [], notes: [] };

/** Orbit (settled), then the camera jumps to `altitudeM` above the surface looking at the horizon. */
async function teleportTo(altitudeM: number): Promise<void> {
  const { scene, camera, errors, planet } = planetScene(45);
  let longestUpdate = 0, longestRender = 0;
  const run = (capS: number, onGap?: (gapMs: number) => void): Promise<boolean> => {
    let last = performance.now();
    return untilComplete({ scene, camera, planet }, TELEPORT_HEIGHT_PX, capS * 1000, (f) => {
      onGap?.(f.now - last);
      last = f.now;
      longestUpdate = Math.max(longestUpdate, f.renderStart - f.updateStart);
      longestRender = Math.max(longestRender, f.renderEnd - f.renderStart);
      frames++;
      renderMs += f.renderEnd - f.renderStart;
    });
  };
  let frames = 0, renderMs = 0;
  place(planet, camera, 3 * planet.radiusM);
  await run(STEP_CAP_S);
  const before = planet.stats();
  let longTasks = 0, gap = 0;
  const observer = new PerformanceObserver((list) => (longTasks += list.getEntries().length));
  try {
    observer.observe({ type: 'longtask', buffered: false });
  } catch {
    // No Long Tasks API: reported as 0.
  }
  place(planet, camera, altitudeM);
  for (const k of Object.keys(planet.slowestMs) as (keyof PlanetView['slowestMs'])[]) planet.slowestMs[k] = 0;
  longestUpdate = longestRender = 0;
  const t0 = performance.now();
  // Once a second after the jump: where the work is (drawn / chunk jobs done / seams done / in
  // flight + queued in the planet / body-pool busy + queued / the open transaction's jobs left).
  const timeline: string[] = [];
  let nextSample = t0 + 1000;
  let lastFrames = frames, lastStarted = before.jobsStarted, lastRenderMs = renderMs;
  const lastMs = { ...planet.totalMs };
  const done = await run(TELEPORT_CAP_S, (g) => {
    gap = Math.max(gap, g);
    const now = performance.now();
    if (now < nextSample) return;
    nextSample += 1000;
    const q = planet.stats();
    // The second's frames, jobs started, and main-thread ms in the planet's phases (apply/schedule/transaction/select+answers) and in render.
    const ms = planet.totalMs, d = (k: keyof typeof ms): string => (ms[k] - lastMs[k]).toFixed(0);
    const second = `${frames - lastFrames}f ${q.jobsStarted - lastStarted}st ${d('apply')}/${d('schedule')}/${d('transaction')}/${(ms.select + ms.lodMessage - lastMs.select - lastMs.lodMessage).toFixed(0)}/${(renderMs - lastRenderMs).toFixed(0)}ms`;
    lastFrames = frames;
    lastStarted = q.jobsStarted;
    lastRenderMs = renderMs;
    Object.assign(lastMs, ms);
    timeline.push(`${((now - t0) / 1000).toFixed(0)}s ${q.drawn}/${q.chunksDone - before.chunksDone}/${q.seamsDone - before.seamsDone}/${q.inFlight}+${q.queued}/${mesher!.pool.busy}+${mesher!.pool.queued}/gpu ${q.gpu.pending} of ${q.gpu.limit}/${q.transactionPending} tx${q.transactions} p${renderer!.info.programs?.length ?? 0} (${second})`);
  });
  const seconds = (performance.now() - t0) / 1000;
  observer.disconnect();
  const s = planet.stats();
  const jobs = s.chunksDone - before.chunksDone;
  const t = teleport[altitudeM];
  t.s.push(done ? seconds : TELEPORT_CAP_S);
  t.capped.push(done ? 0 : 1);
  t.jobsPerDrawn.push(s.chunksDone / Math.max(1, s.drawn));
  t.longTasks.push(longTasks);
  t.gapMs.push(gap);
  t.notes.push(`${done ? 'complete' : `NOT complete (cap ${TELEPORT_CAP_S} s)`}: ${s.drawn} chunks drawn, ${jobs} chunk jobs since the jump ` +
    `(${s.chunksHomogeneous} empty/full and ${s.chunksRemeshed} re-meshes since start, ${s.remeshesFromKeptSamples} of them from kept samples), ${s.transactions} transactions, ${s.evicted} evicted, ` +
    `${(s.bytes / 2 ** 20).toFixed(0)} MiB of ${(s.budgetBytes / 2 ** 20).toFixed(0)}, error ${s.thresholdPx.toFixed(1)} px (×${s.errorFactor.toFixed(2)}), ` +
    `${crackNote(planet)}; longest update ${longestUpdate.toFixed(0)} ms (slowest phases: ` +
    `${Object.entries(planet.slowestMs).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}), longest render ${longestRender.toFixed(0)} ms; ` +
    `body-worker ms: ${Object.entries(s.workerMs).map(([k, v]) => `${k} ${(v / 1000).toFixed(0)} s`).join(', ')}; ${s.seamsResent} seams sent again; ` +
    (s.gpu.enabled
      ? `GPU-sampled chunks ${s.gpu.chunks} (mean latency ${s.gpu.meanLatencyMs.toFixed(1)} ms; ${s.gpu.remeshSampled} re-meshes without kept samples; ${s.gpu.queueFull} to JS with the GPU queue full; ${s.gpu.failed} failed)`
      : `chunks sampled in JS (${samplingWhy})`) +
    `; timeline (drawn/chunks/seams since the jump/planet in flight+queued/pool busy+queued/GPU waiting of its limit/tx jobs left (that second: frames, jobs started, main-thread ms in apply/schedule/transaction/select/render)): ${timeline.join(', ')}`);
  if (errors.length > 0) console.error(errors.join('\n'));
  planet.dispose();
}

/** "N open edges", and where when N > 0 (the pieces beside them, and how their chunks were sampled). */
function crackNote(planet: PlanetView): string {
  const c = planet.crackReport();
  return `${c.boundaryEdges} open edges${c.boundaryEdges > 0 ? ` at ${c.openAt.join(', ')}` : ''}`;
}

function teleportBenchmark(altitudeM: number): Benchmark {
  const t = teleport[altitudeM];
  const name = `planet/teleport/${altitudeM}m`;
  return {
    name: `${name}/orbit-then-jump`,
    unit: 's',
    runs: 1,
    warmup: 0,
    setup,
    run: () => teleportTo(altitudeM),
    // The harness times run() (orbit + jump); the row that matters is the jump's own, below.
    notes: () => `orbit settled first, then the jump; ${mesher?.pool.size} body worker(s), selection for ${TELEPORT_HEIGHT_PX} px high; ${t.notes.at(-1)}`,
    extraRows: (): BenchRow[] => [
      rowFrom(`${name}/time-to-complete`, 's', t.s, `jump → complete (every job done, latest snapshot drawn)${t.capped.some((c) => c) ? `; CAPPED at ${TELEPORT_CAP_S} s` : ''} (target ≤ 10 s on a 16-core GPU machine)`),
      rowFrom(`${name}/jobs-per-drawn-chunk`, 'jobs', t.jobsPerDrawn, 'chunk jobs since the page started (orbit included) / chunks drawn at the end (target ≤ 2)'),
      rowFrom(`${name}/long-tasks`, 'count', t.longTasks, 'main-thread tasks > 50 ms after the jump (target 0)'),
      rowFrom(`${name}/longest-frame-gap`, 'ms', t.gapMs, 'longest rAF interval after the jump'),
    ],
  };
}

/**
 * The planet's GPU path alone: surface chunks (levels 0-2, 8 × 8 columns each, where the 20 m
 * teleport looks) sampled by the GPU sampling worker — grid pass, readback, edge pass, readback —
 * all submitted at once. Chunks per second over the batch, and the mean dispatch → collect time.
 */
const GPU_LEVELS = [0, 1, 2];
const GPU_COLUMNS = 8;
const gpuSamples = { latencyMs: [] as number[], edges: [] as number[], timing: [] as string[] };
let gpuKeys: ChunkKey[] = [];

function gpuBatchKeys(): ChunkKey[] {
  const recipe = planetRecipe(4);
  const bounds = recipeBounds(recipe);
  const space = new CubeSphereSpace({ radiusM: bounds.sphereRadiusM, chunkCells: 32, finestCellM: 1 });
  const field = compileToJs(recipe);
  const d = new Vector3(0.3, 0.55, 0.78).normalize().multiplyScalar(bounds.sphereRadiusM);
  const at: number[] = [0, 0, 0, 0];
  space.fromWorld(d.x, d.y, d.z, at);
  const [face, gi0, gj0] = at;
  const w = new Float64Array(3);
  const keys: ChunkKey[] = [];
  for (const level of GPU_LEVELS) {
    const U = space.chunkUnits(level);
    for (let dj = 0; dj < GPU_COLUMNS; dj++) for (let di = 0; di < GPU_COLUMNS; di++) {
      const ci = Math.floor(gi0 / U) + di - GPU_COLUMNS / 2, cj = Math.floor(gj0 / U) + dj - GPU_COLUMNS / 2;
      // The surface along the column's middle, by bisection on gk.
      let lo = space.gkAtRadius(space.innerRadiusM), hi = space.gkAtRadius(space.outerRadiusM);
      for (let s = 0; s < 50; s++) {
        const m = 0.5 * (lo + hi);
        space.toWorld(face, (ci + 0.5) * U, (cj + 0.5) * U, m, w);
        if (field(w[0], w[1], w[2]) < 0) lo = m; else hi = m;
      }
      keys.push(keyOf({ face, level, ci, cj, ck: Math.floor(lo / U) }));
    }
  }
  return keys;
}

/** Largest |GPU − JS| over the points of some batch chunks, as a share of the tolerance the body worker assumes. */
const gpuError = { ratio: NaN, worstM: NaN, chunks: 0, signMismatches: 0, farMismatches: 0 };

async function measureGpuError(): Promise<void> {
  const gpu = mesher?.gpuWorker;
  if (!gpu) return;
  const recipe = planetRecipe(4);
  const spaceOptions = { radiusM: recipeBounds(recipe).sphereRadiusM, chunkCells: 32, finestCellM: 1 };
  // Registered here (the main thread's JS reference) and with the sampling worker, under one id.
  registerBody('bench:planet4', { recipe, space: spaceOptions });
  gpu.registerBody('bench:planet4', { recipe, space: spaceOptions });
  const ctx = planetContext('bench:planet4');
  const space = ctx.space;
  const keys = gpuKeys.filter((_, i) => i % (GPU_COLUMNS * GPU_COLUMNS) < 8);
  let ratio = 0, worstM = 0, mismatches = 0, far = 0;
  for (const key of keys) {
    const a = parseChunkKey(key);
    const U = space.chunkUnits(a.level);
    const js = sampleChunk({ originGrid: [a.ci * U, a.cj * U, a.ck * U], level: a.level, cells: 32 }, ctx.level(a.level).field, canonicalSampleMapping(space, a.face));
    const r = await gpu.samplePlanetChunk('bench:planet4', key).promise;
    const tol = gpuFieldToleranceM(space, a.level, ctx.maxRadiusM, ctx.lipschitz);
    for (let p = 0; p < js.length; p++) {
      const d = Math.abs(r.values[p] - js[p]);
      if (!(d <= worstM)) worstM = d;
      if (!(d / tol <= ratio)) ratio = d / tol;
      if ((r.values[p] < 0) !== (js[p] < 0)) {
        mismatches++;
        if (Math.abs(js[p]) >= tol) far++;
      }
    }
  }
  Object.assign(gpuError, { ratio, worstM, chunks: keys.length, signMismatches: mismatches, farMismatches: far });
}

/** Where the sampling worker's time went in one batch run, per chunk. */
function gpuTimingNote(a: GpuWorkerStats, b: GpuWorkerStats, chunks: number): string {
  if (!a.planet || !b.planet) return '';
  const per = (x: number, y: number): string => ((y - x) / chunks).toFixed(2);
  const pass = (k: 'grid' | 'edges'): string => {
    const p = a.planet![k], q = b.planet![k];
    return `${k} ${q.batches - p.batches} batches, dispatch ${per(p.dispatchMs, q.dispatchMs)} / collect ${per(p.collectMs, q.collectMs)} / GPU busy ≤ ${per(p.gpuBusyMs, q.gpuBusyMs)}`;
  };
  return `ms a chunk: ${pass('grid')}; ${pass('edges')}; edge lists ${per(a.planet.edgeListMs, b.planet.edgeListMs)}; ` +
    `worker requests ${per(a.handlerMs, b.handlerMs)}, replies ${per(a.replyMs, b.replyMs)}, polls ${per(a.planet.pollMs, b.planet.pollMs)}`;
}

async function gpuBatch(): Promise<void> {
  const gpu = mesher?.gpuWorker;
  if (!gpu) return;
  const planet = planetRecipe(4);
  const space = { radiusM: recipeBounds(planet).sphereRadiusM, chunkCells: 32, finestCellM: 1 };
  // `?gpuRecipe=sphere`: a plain sphere of the planet's radius in the same chunks, the control for
  // what the field costs against what sampling a chunk costs anyway.
  const recipe: FieldRecipe = new URLSearchParams(location.search).get('gpuRecipe') === 'sphere'
    ? { version: 1, name: 'sphere', root: { type: 'sphere', radius: space.radiusM - 5 }, brushes: [] }
    : planet;
  const body = `bench:batch:${recipe.name}`;
  gpu.registerBody(body, { recipe, space });
  const before = await gpu.stats();
  const results = await Promise.all(gpuKeys.map((key) => gpu.samplePlanetChunk(body, key).promise));
  const after = await gpu.stats();
  gpu.unregisterBody(body);
  gpuSamples.timing.push(gpuTimingNote(before, after, results.length));
  gpuSamples.latencyMs.push(results.reduce((a, r) => a + r.latencyMs, 0) / results.length);
  gpuSamples.edges.push(results.reduce((a, r) => a + r.hermite.count, 0));
}

export const benchmarks: Benchmark[] = [
  {
    name: 'planet/gpu/chunks-per-s',
    unit: 'chunks/s',
    runs: 3,
    warmup: 1,
    setup: async () => {
      await setup();
      gpuKeys = gpuBatchKeys();
      await measureGpuError();
    },
    run: gpuBatch,
    toValue: (ms) => (mesher?.gpuWorker ? gpuKeys.length / (ms / 1000) : 0),
    notes: () => mesher?.gpuWorker
      ? `${gpuKeys.length} surface chunks of planetRecipe(4) (32³, levels ${GPU_LEVELS.join(', ')}) submitted at once to the GPU sampling worker (grid + edge passes, readbacks; ` +
        `noise tables ${new URLSearchParams(location.search).get('gpuPermutation') === 'const' ? 'as constants' : 'in a texture'}; ` +
        `batches of ${new URLSearchParams(location.search).get('gpuBatch') ?? 'up to 32'} chunks` +
        `${new URLSearchParams(location.search).get('gpuRecipe') === 'sphere' ? '; CONTROL: a plain sphere instead of the planet' : ''}); ` +
        `${gpuSamples.edges.at(-1)} sign-changing edges; mean dispatch → collect ${gpuSamples.latencyMs.at(-1)?.toFixed(1)} ms a chunk; ${gpuSamples.timing.at(-1)}`
      : 'no GPU sampling here (the probe chose JS workers): 0',
    extraRows: (): BenchRow[] => mesher?.gpuWorker
      ? [rowFrom('planet/gpu/error-vs-tolerance', 'ratio', [gpuError.ratio],
        `largest |GPU − JS| over every point of ${gpuError.chunks} batch chunks / gpuFieldToleranceM (must stay < 1; ${gpuError.worstM.toExponential(2)} m at worst; ${gpuError.signMismatches} points of the other sign, ${gpuError.farMismatches} of them at least the tolerance from zero: must be 0)`)]
      : [],
  },
  {
    name: 'planet/flight/orbit-to-surface',
    unit: 'ms',
    runs: 1,
    warmup: 0,
    setup,
    run: fly,
    notes: () => `planetRecipe(4) R 63 km, 32³ chunks, ${finestCellM.toFixed(1)} m finest cells, ${W}×${H}, shadows (${cascadeCount} map(s)), ${mesher?.pool.size} body worker(s); steps done at (chunks drawn at the step's end): ${samples.complete.at(-1)}`,
    extraRows: (): BenchRow[] => [
      rowFrom('planet/flight/chunks-per-s', 'chunks/s', samples.chunksPerS, `${samples.chunks.join('/')} chunk jobs (32³; of the last run's: ${samples.chunkKinds.at(-1)})`),
      rowFrom('planet/flight/busiest-step-chunks-per-s', 'chunks/s', samples.busiestStep, `chunk jobs per second within the busiest step (throughput; chunks-per-s above also counts each step's latency): ${samples.busiestStepNote.at(-1)}`),
      rowFrom('planet/flight/seams-per-s', 'seams/s', samples.seamsPerS, `seam jobs; ${samples.workerIdle.at(-1)}`),
      rowFrom('planet/flight/surface-full-detail', 's', samples.surfaceS, `10 m step: time to complete (cap ${SURFACE_CAP_S} s)`),
      rowFrom('planet/flight/long-tasks', 'count', samples.longTasks, `main-thread tasks > 50 ms during the flight (target 0): ${samples.attributed.at(-1)}`),
      rowFrom('planet/flight/longest-update', 'ms', samples.longestUpdateMs, `longest PlanetView.update (slowest phases, ms: ${samples.phases.at(-1)})`),
      rowFrom('planet/flight/longest-render', 'ms', samples.longestRenderMs, 'longest renderer.render of the 480×360 view (SwiftShader)'),
      rowFrom('planet/flight/longest-frame-gap', 'ms', samples.longestGapMs, 'longest rAF interval during the flight'),
      rowFrom('planet/flight/bytes-per-triangle', 'B/tri', samples.bytesPerTri, 'bytes the drawn chunks and seams hold, all in (geometry, vertex cells, weld tags, boundary leaves) / drawn triangles at the end (target ≤ 64)'),
      rowFrom('planet/flight/cache-bytes-per-triangle', 'B/tri', samples.cacheBytesPerTri, 'ALL cached bytes (drawn + hidden pieces kept for reuse, up to the budget) / drawn triangles at the end: an upper bound'),
      rowFrom('planet/flight/cracks', 'edges', samples.cracks, 'open edges of the drawn chunks + seams at the end (target 0)'),
    ],
  },
  ...teleportAltitudes.map(teleportBenchmark),
];
