/**
 * The simulation behind streaming300.test.ts and streaming20.test.ts (one teleport a file, so the
 * unit stage runs them on two cores). Planet streaming on fast hardware, simulated (issue 15): the production selector
 * (`PlanetLodSelector`, what the LOD worker runs) and streaming model (`PlanetStreaming`, what
 * PlanetView wires) with a piece provider whose jobs 16 simulated body workers that finish their jobs within a frame, the
 * production budget (192 MiB) and threshold (6 px at 720 p, 45° as the app's camera), on
 * planetRecipe(4). A teleport from orbit to 300 m and to 20 m above the surface must converge
 * (complete: nothing requested, nothing open, the latest drawn set committed), never evict a piece
 * that is drawn or still needed, and run at most 2 chunk jobs per chunk finally drawn.
 *
 * The old renderer livelocked exactly here on a 16-core machine (cache pinned at its budget, the
 * same chunks computed, evicted and computed again; a new snapshot every frame cancelling the open
 * transaction). Jobs are simulated: a chunk is homogeneous when 5³ field samples over it agree in
 * sign, else a surface piece of SURFACE_BYTES (about three times a production piece: the budget bites).
 * SIM_SURFACE_BYTES=80000 runs it with about what production pieces hold; SIM_TRACE=1 prints the
 * state every 20 frames.
 */
import { describe, expect, it } from 'vitest';
import { compileToJs, recipeBounds } from '../../src/field/index';
import {
  CubeSphereSpace, jobsPerSecond, levelErrorsM, parseChunkKey, PlanetLodSelector, planetShell, PlanetStreaming, type ChunkKey, type ChunkOutcome, type JobReport,
  type LodSelectResult, type LodView, type SeamOutcome, type StreamingPace,
} from '../../src/lod/index';
import { planetRecipe } from '../../src/scene/index';

export const WORKERS = 16;
/** Jobs each simulated worker finishes per frame. */
const JOBS_PER_WORKER_FRAME = 2;
export const BUDGET = 192 * 2 ** 20;
/** Bytes of a surface piece: ~3x a packed production piece (49-59 kB on average on the H100 run), so the budget bites. */
export const SURFACE_BYTES = Number(process.env.SIM_SURFACE_BYTES ?? 200_000);
const SEAM_BYTES = 30_000;
const HEIGHT_PX = 720;
const FOV_DEG = 45;
const MAX_FRAMES = 1500;

const recipe = planetRecipe(4);
const bounds = recipeBounds(recipe);
const field = compileToJs(recipe);
const spaceOptions = { radiusM: bounds.sphereRadiusM, chunkCells: 32, finestCellM: 1 };
const space = new CubeSphereSpace(spaceOptions);
const shell = planetShell(bounds);

type V3 = [number, number, number];
const norm = (v: V3): V3 => {
  const l = Math.hypot(...v);
  return [v[0] / l, v[1] / l, v[2] / l];
};
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** Camera `altitudeM` above the surface along a fixed direction, looking at the horizon (or the center from orbit). */
function view(altitudeM: number): LodView {
  const d = norm([0.3, 0.55, 0.78]);
  let r = space.radiusM + altitudeM;
  for (let i = 0; i < 8; i++) r -= field(d[0] * r, d[1] * r, d[2] * r) - altitudeM;
  const cam: V3 = [d[0] * r, d[1] * r, d[2] * r];
  const ahead = norm([-d[1], d[0], 0]);
  const forward: V3 = altitudeM > space.radiusM ? [-d[0], -d[1], -d[2]] : norm([100 * ahead[0] - 15 * d[0], 100 * ahead[1] - 15 * d[1], 100 * ahead[2] - 15 * d[2]]);
  const right = norm(cross(forward, d));
  const up = cross(right, forward);
  const t = Math.tan((FOV_DEG * Math.PI) / 360);
  const aspect = 16 / 9;
  // Frustum planes n·p + w ≥ 0 inside: left, right, bottom, top, near (far: none, a huge one).
  const planes: number[] = [];
  const side = (n: V3): void => {
    const u = norm(n);
    planes.push(u[0], u[1], u[2], -dot(u, cam));
  };
  for (const s of [1, -1]) side([forward[0] * t * aspect + s * right[0], forward[1] * t * aspect + s * right[1], forward[2] * t * aspect + s * right[2]]);
  for (const s of [1, -1]) side([forward[0] * t + s * up[0], forward[1] * t + s * up[1], forward[2] * t + s * up[2]]);
  side(forward);
  planes.push(-forward[0], -forward[1], -forward[2], dot(forward, cam) + 1e9);
  return { cameraM: cam, projectionFactor: HEIGHT_PX / (2 * t), frustumPlanes: planes };
}

/** The simulated chunk job: homogeneous when 5³ samples over the chunk agree in sign. */
function chunkIsHomogeneous(key: ChunkKey): 'empty' | 'full' | null {
  const a = parseChunkKey(key);
  const U = space.chunkUnits(a.level);
  const w = new Float64Array(3);
  const mapping = space.faceMapping(a.face);
  let neg = 0, pos = 0;
  for (let k = 0; k <= 4; k++) for (let j = 0; j <= 4; j++) for (let i = 0; i <= 4; i++) {
    mapping.toWorld((a.ci + i / 4) * U, (a.cj + j / 4) * U, (a.ck + k / 4) * U, w);
    if (field(w[0], w[1], w[2]) < 0) neg++;
    else pos++;
  }
  return neg === 0 ? 'empty' : pos === 0 ? 'full' : null;
}

export interface Outcome {
  frames: number;
  complete: boolean;
  drawn: number;
  chunkJobs: number;
  wrongEvictions: string[];
  maxFactor: number;
  peakBytes: number;
  transactions: number;
  remeshed: number;
  /** Chunks the view wants at full detail (factor 1), as the camera lands: the work without a time policy. */
  wantedAtJump: number;
}

/** A slower machine than the default 16 fast workers (the weak-machine test, weakMachine.test.ts). */
export interface SimMachine {
  /** Body workers. */
  workers: number;
  /** Jobs (chunks and seams) each worker finishes a frame, at 60 frames a second (may be under 1). */
  jobsPerWorkerFrame: number;
  /** A selection every this many frames (the LOD worker answers in its own time). */
  selectEvery: number;
  /** The time policy's budget (s; 0: off), told the measured pace each frame as PlanetView does. */
  timeBudgetS: number;
  /** Frames the teleport may take. */
  maxFrames: number;
  /** Frames to go on after the teleport completes, the camera still (the time policy refines). */
  stillFrames?: number;
  /** A seam job's cost in chunk jobs (default 1; a body worker's seams take ~0.1 of a chunk's time). */
  seamCost?: number;
}

export interface StillOutcome {
  /** Frames after the landing until the view was complete at factor 1 (null: not within `stillFrames`). */
  refinedAfterFrames: number | null;
  /** The factor when the view landed, and after the still frames. */
  landedFactor: number;
  factorAfter: number;
  drawnAfter: number;
}

export function teleport(altitudeM: number, machine?: SimMachine): Outcome & { still?: StillOutcome } {
  const workers = machine?.workers ?? WORKERS;
  const jobsPerFrame = workers * (machine?.jobsPerWorkerFrame ?? JOBS_PER_WORKER_FRAME);
  const selectEvery = machine?.selectEvery ?? 1;
  const jobMs = 1000 / 60 / (machine?.jobsPerWorkerFrame ?? JOBS_PER_WORKER_FRAME);
  const seamCost = machine?.seamCost ?? 1;
  let credit = 0, seamsRan = 0, frameCount = 0;
  // As the LOD worker builds it: the level errors of the recipe's band limits (levelErrors.ts).
  const select = { maxScreenErrorPx: 6, levelErrorM: levelErrorsM(recipe, space, bounds.lipschitz) };
  const selector = new PlanetLodSelector({ space: spaceOptions, shell, field, lipschitz: bounds.lipschitz, select });
  const visible = new Set<string>();
  const pieceIds = new Map<object, string>();
  let last: LodSelectResult | null = null;
  const wrongEvictions: string[] = [];
  const homogeneousCache = new Map<ChunkKey, 'empty' | 'full' | null>();
  // The provider: jobs go to the simulated workers (`running`), pieces are `{}` named by `pieceIds`.
  const track = (job: { id: string; priority: number }, kind: 'chunk' | 'seam', key: ChunkKey, report: Running['report']): { cancel(): void; setPriority(): void } => {
    const r: Running = { id: job.id, kind, key, priority: job.priority, report, cancelled: false };
    running.push(r);
    return { cancel: () => void (r.cancelled = true), setPriority: () => {} };
  };
  const model: PlanetStreaming<object> = new PlanetStreaming<object>({
    space, budgetBytes: BUDGET,
    provider: {
      jobs: {
        runChunk: (job, report) => track(job, 'chunk', job.key, report),
        runSeam: (job, report) => track(job, 'seam', job.owner, report),
      },
      pieces: {
        ready: () => true,
        dispose: (piece) => {
          const id = pieceIds.get(piece)!;
          if (visible.has(id)) wrongEvictions.push(`drawn ${id}`);
          // A wanted chunk's newest piece must stay (older restrictions of it may go).
          const key = id.slice(2, id.indexOf('|'));
          if (id.startsWith('c:') && newestIds.get(key) === id && last?.wanted.includes(key)) wrongEvictions.push(`wanted ${id}`);
          pieceIds.delete(piece);
        },
        show: (piece, on) => {
          const id = pieceIds.get(piece)!;
          if (on) visible.add(id);
          else visible.delete(id);
        },
      },
    },
    onReady: (key) => selector.markReady([key]),
    onEvicted: (key) => selector.markEvicted([key]),
    onHomogeneous: (key, state, proven) => selector.markHomogeneous(key, state, proven),
    // Planning slices by a clock that advances 1 ms a slice (4 slices a frame): deterministic.
    clock: () => (planClockMs += 1),
    timeBudgetS: machine?.timeBudgetS ?? 0,
  });
  // The workers' pace as PlanetJobs reports it: chunk jobs, and the worker time of all jobs.
  // Answered: the last selection came after every job applied and requests nothing (PlanetView: the LOD worker's answer is current).
  let seq = 0, selectedSeq = 0, appliedSeq = 0;
  const pace = (): StreamingPace => ({
    jobsPerS: jobsPerSecond({ workers, chunkJobs: ran, workerMs: (ran + seamsRan * seamCost) * jobMs }), still: true,
    answered: last !== null && selectedSeq > appliedSeq && last.requests.length === 0 && last.holes === 0,
  });
  let planClockMs = 0;
  const newestIds = new Map<ChunkKey, string>();
  interface Running {
    id: string;
    kind: 'chunk' | 'seam';
    key: ChunkKey;
    priority: number;
    report: JobReport<(remesh: boolean) => ChunkOutcome<object>> | JobReport<() => SeamOutcome<object>>;
    cancelled: boolean;
  }
  const running: Running[] = [];

  // Orbit first, settled, then the teleport: as a user jumping from the orbit view.
  const runTo = (v: LodView, maxFrames: number, until: () => boolean = () => true): { frames: number; complete: boolean } => {
    for (let frame = 1; frame <= maxFrames; frame++) {
      nowMs += 1000 / 60;
      if (!last || ++frameCount % selectEvery === 0 || frame === 1) {
        last = selector.select(v, model.errorFactor);
        model.onSelect(last);
        selectedSeq = ++seq;
      }
      for (let i = running.length - 1; i >= 0; i--) if (running[i].cancelled) running.splice(i, 1);
      model.update(nowMs, pace());
      model.schedule(32 * workers + 1);
      // The workers: the most urgent jobs finish this frame.
      running.sort((a, b) => b.priority - a.priority);
      credit += jobsPerFrame;
      const finished: Running[] = [];
      while (running.length > 0) {
        const cost = running[0].kind === 'seam' ? seamCost : 1;
        if (credit < cost) break;
        credit -= cost;
        finished.push(running.shift()!);
      }
      if (running.length === 0) credit = 0; // an idle worker banks no time
      for (const job of finished) {
        const piece = {};
        pieceIds.set(piece, job.id);
        if (job.kind === 'seam') {
          seamsRan++;
          (job.report as JobReport<() => SeamOutcome<object>>).done(() => ({ piece, bytes: SEAM_BYTES, triangles: 500 }));
          continue;
        }
        ran++;
        if (!homogeneousCache.has(job.key)) homogeneousCache.set(job.key, chunkIsHomogeneous(job.key));
        const h = homogeneousCache.get(job.key)!;
        const answer = (job.report as JobReport<(remesh: boolean) => ChunkOutcome<object>>).done;
        if (h) answer(() => ({ homogeneous: { state: h, proven: false } }));
        else {
          answer(() => ({ piece, bytes: SURFACE_BYTES, triangles: 3000 }));
          newestIds.set(job.key, job.id);
        }
      }
      // The finished jobs applied, in the order they finished (the app does it within its frame budget).
      while (model.applyNext()) appliedSeq = ++seq;
      model.update(nowMs, pace());
      peakBytes = Math.max(peakBytes, model.bytes);
      maxFactor = Math.max(maxFactor, model.errorFactor);
      if (frame % 20 === 0 && process.env.SIM_TRACE) console.log(frame, 'factor', model.errorFactor.toFixed(2), 'bytes', (model.bytes / 2 ** 20).toFixed(0), 'prot', (model.protectedBytes / 2 ** 20).toFixed(0), 'pred', (model.predictedBytes / 2 ** 20).toFixed(0), 'drawn', model.drawnChunks, 'req', last.requests.length, 'wanted', last.wanted.length, 'ran', ran, JSON.stringify(model.counts));
      const drawnNow = model.drawnSnapshot?.keys ?? [];
      const r = last;
      if (r.requests.length === 0 && r.holes === 0 && model.idle && running.length === 0 && drawnNow.length === r.drawn.length &&
        drawnNow.every((k, i) => k === r.drawn[i])) {
        // One more answer, after everything above was told to the selector: nothing new wanted.
        const again = selector.select(v, model.errorFactor);
        if (again.requests.length === 0 && !again.snapshot && until()) return { frames: frame, complete: true };
        last = again;
        model.onSelect(again);
        selectedSeq = ++seq;
      }
    }
    return { frames: maxFrames, complete: false };
  };
  let peakBytes = 0, maxFactor = 1;
  let nowMs = 0;
  let ran = 0;
  const orbit = runTo(view(3 * space.radiusM), machine ? machine.maxFrames : 400);
  expect(orbit.complete).toBe(true);
  peakBytes = 0;
  maxFactor = 1;
  model.time.moved(); // the camera jumped (PlanetView's PlanetPace tells it so)
  const wantedAtJump = selector.select(view(altitudeM), 1).wanted.length;
  const t = runTo(view(altitudeM), machine?.maxFrames ?? MAX_FRAMES);
  const outcome = {
    frames: t.frames, complete: t.complete, drawn: model.drawnChunks, chunkJobs: ran,
    wrongEvictions, maxFactor, peakBytes, transactions: model.counts.transactions, remeshed: model.counts.chunksRemeshed, wantedAtJump,
  };
  if (!machine?.stillFrames || !t.complete) return outcome;
  // Still: the time policy refines, one step each time the view has been complete a while.
  const landedFactor = model.errorFactor;
  const refined = runTo(view(altitudeM), machine.stillFrames, () => model.errorFactor <= 1);
  return { ...outcome, still: { refinedAfterFrames: refined.complete ? refined.frames : null, landedFactor, factorAfter: model.errorFactor, drawnAfter: model.drawnChunks } };
}

/** The teleport test both files run (one altitude a file, so the unit stage runs them on two cores). */
export function describeTeleport(altitudeM: number): void {
  describe('planet streaming with 16 fast workers (issue 15 livelock)', () => {
    it(`teleport orbit → ${altitudeM} m converges within budget, ≤ 2 chunk jobs per drawn chunk`, () => {
      const o = teleport(altitudeM);
      const sampling = o.chunkJobs - o.remeshed;
      console.log(`teleport to ${altitudeM} m: ${o.complete ? 'complete' : 'NOT complete'} after ${o.frames} frames, ${o.drawn} chunks drawn, ` +
        `${o.chunkJobs} chunk jobs since orbit start (${(o.chunkJobs / o.drawn).toFixed(2)} per drawn chunk; ${(sampling / o.drawn).toFixed(2)} sampling, ` +
        `${(o.remeshed / o.drawn).toFixed(2)} re-meshes for a new restriction), ${o.transactions} transactions, ` +
        `peak ${(o.peakBytes / 2 ** 20).toFixed(0)} MiB, error factor up to ×${o.maxFactor.toFixed(2)}`);
      expect(o.wrongEvictions).toEqual([]);
      expect(o.complete).toBe(true);
      // Every chunk job counts: meshed, found empty/full, or meshed again for a new restriction.
      expect(o.chunkJobs / o.drawn).toBeLessThanOrEqual(2);
      expect(o.peakBytes).toBeLessThanOrEqual(BUDGET * 1.25 + 32 * WORKERS * SURFACE_BYTES);
    }, 600_000);
  });
}
