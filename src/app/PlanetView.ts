/**
 * A planet drawn as cube-sphere chunk LOD (issues 9, 10, 15): wires the LOD worker
 * (`PlanetLodClient`), the streaming model (`PlanetStreaming`, src/lod: what to keep, run, commit
 * and evict, and the memory-adjusted error), the body worker pool (chunk and seam jobs), and the
 * pieces on the GPU (`PlanetPieces`, src/render). Its own work: turning job results into pieces
 * within a per-frame time slice, the sun's cascades, stats.
 *
 * Positions: chunk meshes are relative to their chunk origin (float64, body-local); the root
 * sits at the planet center (a DrawnMatrixGroup); the app's floating origin does the rest.
 */
import { HemisphereLight, Vector3, type PerspectiveCamera } from 'three';
import { compileToJs, recipeBounds, type Brush, type FieldFn, type FieldRecipe } from '../field/index';
import { lodView, planetCascades, planetStatsLine, type PlanetCrackReport, type PlanetStats, type PlanetViewOptions } from './planetViewTypes';
import {
  changedBrushes, CubeSphereSpace, parseChunkKey, PlanetEdits, PlanetStreaming, shouldReselect, type CubeSphereOptions, type LodSelectResult, type PlanetJob,
} from '../lod/index';
import { BODY_SIMPLIFY } from '../mesher/index';
import { APPLY_BUDGET_MS } from './frameBudget';
import { crackReport, PlanetPieces, type PlanetPiece } from '../render/planetPieces';
import { Sun } from '../render/Sun';
import { DrawnMatrixGroup } from '../render/drawnMatrixGroup';
import type { BodyMesher } from '../workers/BodyMesher';
import { PlanetLodClient } from '../workers/PlanetLodClient';
import { PlanetChunkJobs } from '../workers/PlanetChunkJobs';
import type { PlanetChunkParams, PlanetChunkReply } from '../workers/planetChunkJob';
import type { PlanetSeamParams, PlanetSeamPart, PlanetSeamReply } from '../workers/planetSeamJob';
import type { PlanetProbe } from '../workers/planetProbe';
import { JobCancelledError, type PoolJob, type WorkerPool } from '../workers/WorkerPool';
import type { ProgressTask } from './progress';

export type { PlanetCrackReport, PlanetStats, PlanetViewOptions } from './planetViewTypes';

/**
 * Jobs handed to the pool per body worker, queued ones included. Jobs are started once a frame, and
 * a worker clears a re-mesh (~10 ms, samples and crossings kept) or a seam (~5 ms) far faster than
 * a software renderer draws a frame (150-300 ms under SwiftShader): with one job in flight the
 * worker sat idle most of each frame. Queued jobs cost nothing when the camera moves on (cancelled
 * unstarted, in the pool or in the worker).
 */
const JOBS_PER_WORKER = 32;
/**
 * Main-thread time a frame may spend starting jobs: a tenth of the frame interval, within 4-12 ms.
 * A start clones the job's parameters (a seam's packed leaves, ~50 kB a part); on the H100 machine
 * unbudgeted starts after a LOD answer took 70 ms of one frame. Seams alone were budgeted before:
 * at a fixed 6 ms and ~4 software-rendered frames a second they capped the flight at ~8 seams/s.
 */
const START_SHARE = 0.1;
const START_MIN_MS = 4;
const START_MAX_MS = 12;
let nextLeafPrefix = 1;
/** Re-select when the camera moved this fraction of its altitude (or as lod/reselect.ts says). */
const RESELECT_MOVE = 0.02;
const DEFAULT_BUDGET_BYTES = 192 * 2 ** 20;

/** {@link PlanetView.priorityOffset} that puts the planet's jobs after everything else. */
export const BACKGROUND_PRIORITY = -1e14;

type Finished = { job: PlanetJob; result: PlanetChunkReply | PlanetSeamReply };

export class PlanetView {
  readonly root = new DrawnMatrixGroup();
  readonly sun: Sun;
  readonly recipe: FieldRecipe;
  readonly radiusM: number;
  readonly space: CubeSphereOptions;
  /**
   * Added to every job priority on the shared body pool. 0: the planet's jobs come first (it is
   * what the camera is at); {@link BACKGROUND_PRIORITY}: after every job of priority ≥ 0 (explore
   * sets it while the camera is among the asteroids). Order among the planet's own jobs is kept.
   */
  priorityOffset = 0;
  /**
   * The longest main-thread time of each phase since the last reset (ms): what a long task during
   * streaming was spent on (the bench reports it; `lodMessage` is taking a LOD answer).
   */
  readonly slowestMs = { select: 0, lodMessage: 0, apply: 0, transaction: 0, schedule: 0, materials: 0 };
  /** The same phases' main-thread time summed since the planet started (ms): where the frames went. */
  readonly totalMs = { select: 0, lodMessage: 0, apply: 0, transaction: 0, schedule: 0, materials: 0 };
  private readonly ownsSun: boolean;
  readonly chunkSpace: CubeSphereSpace;
  /** The planet's field with the user's brushes (altitude, collision); the brushes and what they reach (issue 19). */
  private field: FieldFn;
  private edits: PlanetEdits;
  readonly lod: PlanetLodClient;
  private readonly streaming: PlanetStreaming<PlanetPiece>;
  private readonly pieces: PlanetPieces;
  /** Jobs out on the pool by id, with their own priority (without {@link priorityOffset}). */
  private readonly jobs = new Map<string, { job: PoolJob<unknown>; priority: number }>();
  private appliedOffset = 0;
  private startedThisFrame = 0;
  /** Jobs cancelled or failed since the last apply (progress is told once a frame). */
  private endedUnapplied = 0;
  private readonly results: Finished[] = [];
  private pool: WorkerPool | null = null;
  /** The id this planet is registered with the workers under (its scene id and chunk space). */
  private readonly bodyId: string;
  private releaseBody: (() => void) | null = null;
  /** Where chunk jobs run (GPU sampling then a body worker, or JS in a body worker); set by start(). */
  private chunkJobs: PlanetChunkJobs | null = null;
  private readonly maxRadiusM: number;
  private lastSelectAt = -Infinity;
  private lastSelectHeightPx = 0;
  private viewportHeightPx = 0;
  private readonly lastSelectCamera = new Vector3(Infinity, 0, 0);
  private lastResult: LodSelectResult | null = null;
  private task: ProgressTask | null = null;
  /** Makes this view's leaf ids unique among the planets sharing the body workers. */
  private readonly leafPrefix = `${nextLeafPrefix++}:`;
  /** Makes each chunk job's leaf id unique (PlanetPiece.leafId). */
  private leafSerial = 0;
  /** Last update's time and the smoothed frame interval (ms). */
  private lastUpdateAt: number | null = null;
  private frameMs = 16;
  chunksDone = 0;
  seamsDone = 0;
  /** Re-meshes that found their chunk's samples kept in their worker (no sampling). */
  remeshesFromKeptSamples = 0;
  readonly workerMs = { surface: 0, surfaceSampling: 0, homogeneous: 0, remesh: 0, seam: 0 };

  constructor(private readonly options: PlanetViewOptions) {
    this.recipe = options.recipe;
    const bounds = recipeBounds(options.recipe);
    this.radiusM = bounds.sphereRadiusM;
    this.maxRadiusM = Math.hypot(...bounds.sphereCenter) + bounds.sphereRadiusM;
    this.field = compileToJs(options.recipe);
    this.root.name = `planet ${options.recipe.name ?? ''}`;
    this.root.position.set(...options.centerM);
    this.ownsSun = !options.sun;
    this.sun = options.sun ?? new Sun({ direction: options.sunDirection, cascades: 3 });
    if (this.ownsSun) this.root.add(this.sun, new HemisphereLight(0x2a3040, 0x050403, 0.2));
    this.space = { radiusM: this.radiusM, chunkCells: options.chunkCells ?? 32, finestCellM: options.finestCellM ?? 1 };
    this.chunkSpace = new CubeSphereSpace(this.space);
    this.edits = new PlanetEdits(this.chunkSpace);
    // One registration names one definition: the chunk space is part of the planet's id.
    this.bodyId = `${options.bodyId}/${this.space.chunkCells}c/${this.space.finestCellM}m`;
    this.pieces = new PlanetPieces(this.root, (level) => this.chunkSpace.cellSizeM(level), options.atmosphere, options.ground);
    this.pieces.uploads.enabled = !!options.renderer && options.preuploadGeometry !== false;
    this.pieces.batches.maxBytes = (options.budgetBytes ?? DEFAULT_BUDGET_BYTES) / 2; // a second GPU copy of what they batch
    this.lod = new PlanetLodClient({
      recipe: options.recipe, space: this.space, select: { maxScreenErrorPx: options.maxScreenErrorPx ?? 6 },
      onAnswer: (result) => {
        const t0 = performance.now();
        this.onAnswer(result);
        this.timed('lodMessage', t0);
      },
      onError: options.onError,
    });
    this.streaming = new PlanetStreaming<PlanetPiece>({
      space: this.chunkSpace,
      budgetBytes: options.budgetBytes ?? DEFAULT_BUDGET_BYTES,
      dispose: (_id, piece) => this.pieces.dispose(piece),
      setVisible: (piece, visible) => this.pieces.setVisible(piece, visible),
      onReady: (key) => this.lod.markReady(key),
      onEvicted: (key) => this.lod.markEvicted(key),
      onHomogeneous: (key, state, proven) => this.lod.markHomogeneous(key, state, proven),
      pruneUnderProof: options.pruneUnderProof,
      uploaded: (piece) => !piece.mesh || !this.pieces.uploads.isQueued(piece.mesh),
    });
  }

  /** Tint chunks by level and seams white (debug; the GUI's "chunk levels" checkbox). */
  get debugLevels(): boolean {
    return this.pieces.debugLevels;
  }

  set debugLevels(on: boolean) {
    this.pieces.debugLevels = on;
  }

  /** Still neighbours drawn in one call (src/render/pieceBatches.ts; default on); off: each piece on its own. */
  batchPieces(on: boolean): void {
    this.pieces.batches.enabled = on;
  }

  /**
   * Starts generating on the body worker pool; chunk samples come from the mesher's GPU sampling
   * worker when it has one (asked per chunk), for the levels whose cells float32 resolves, and from JS otherwise.
   */
  start(mesher: BodyMesher): void {
    const pool = mesher.pool;
    this.pool = pool;
    // The recipe, chunk space and ground palette go to the workers once; chunk and seam jobs name the body.
    const ground = this.pieces.groundPalette;
    this.releaseBody = mesher.registerBody(this.bodyId, { recipe: this.recipe, space: this.space, ...(ground ? { ground } : {}) });
    this.chunkJobs = new PlanetChunkJobs(pool, () => mesher.gpuWorker, {
      body: this.bodyId, chunkSpace: this.chunkSpace, maxRadiusM: this.maxRadiusM,
      gpuMaxPending: this.options.gpuMaxPending, gpuSpill: this.options.gpuSpill, onError: this.options.onError,
    });
  }

  /** The field at a world point: about the altitude above the surface, metres. */
  altitude(pointWorld: Vector3): number {
    const c = this.root.position;
    return this.field(pointWorld.x - c.x, pointWorld.y - c.y, pointWorld.z - c.z);
  }

  /** A world point in the planet's own frame (its recipe's), metres. */
  toBodyFrame(pointWorld: Vector3): [number, number, number] {
    return pointWorld.clone().sub(this.root.position).toArray() as [number, number, number];
  }

  /** The user's brushes (issue 19) after the recipe's: reached chunks re-meshed (src/lod/planetEdits.ts). Why not, or null. */
  setBrushes(brushes: readonly Brush[]): string | null {
    const problem = this.edits.problem(brushes);
    if (problem) return problem;
    const changed = changedBrushes(this.edits.brushes, brushes);
    if (changed.length === 0) return null;
    const recipe: FieldRecipe = { ...this.recipe, brushes: [...this.recipe.brushes, ...brushes] };
    this.field = compileToJs(recipe);
    this.edits = new PlanetEdits(this.chunkSpace, brushes);
    this.lod.edit(brushes, changed);
    for (const id of this.streaming.setEdits(this.edits, changed)) this.jobs.get(id)?.job.cancel();
    return null;
  }

  // Drawn as planned after the newest edit, with a LOD answer asked after it (a grown shell selects more).
  editDrawn = (): boolean => this.streaming.editsDrawn && this.lod.answerIsCurrent && this.streaming.betweenTransactions;

  update(camera: PerspectiveCamera, viewportHeightPx: number, now = performance.now()): void {
    // Frame interval, smoothed (ms): the job-start budget is a share of it.
    if (this.lastUpdateAt !== null) this.frameMs += 0.1 * (Math.min(now - this.lastUpdateAt, 1000) - this.frameMs);
    this.lastUpdateAt = now;
    const { renderer, scene } = this.options;
    if (renderer && scene) this.pieces.precompileBase(renderer, scene, camera);
    const altitude = Math.max(1, this.altitude(camera.position));
    this.viewportHeightPx = viewportHeightPx;
    const moved = camera.position.distanceTo(this.lastSelectCamera) > RESELECT_MOVE * altitude ||
      viewportHeightPx !== this.lastSelectHeightPx;
    let t = performance.now();
    const reselect = !this.lod.selecting && shouldReselect({
      moved, sinceSelectMs: now - this.lastSelectAt, lastSelectMs: this.lastResult?.selectMs ?? 0, news: this.lod.hasNews,
      drained: this.streaming.requestsDrained && this.results.length === 0, betweenTransactions: this.streaming.betweenTransactions,
    }, this.options.reselect);
    if (reselect) this.select(camera, viewportHeightPx, now);
    else this.lod.flush();
    t = this.timed('select', t);
    this.apply();
    // New pieces' buffers go to the GPU now, not all in the frame their transaction commits.
    if (renderer) this.pieces.uploads.flush(renderer);
    t = this.timed('apply', t);
    this.pieces.fades.enabled = this.streaming.editsDrawn; // an edit shows at once, without a cross-fade
    this.streaming.update(now);
    t = this.timed('transaction', t);
    this.schedule();
    t = this.timed('schedule', t);
    this.pieces.updateMaterials(this.drawnPieces(), this.toBodyFrame(camera.position));
    this.timed('materials', t);
  }

  /** Its registration and drawn surface chunks, finest first: the sampling probe's body (planetProbe.ts). */
  probeBody(): PlanetProbe {
    const keys = [...this.streaming.drawnPieces()].filter((d) => d.kind === 'chunk' && d.triangles > 0).map((d) => d.key);
    return { body: this.bodyId, definition: { recipe: this.recipe, space: this.space }, keys: keys.sort((a, b) => parseChunkKey(b).level - parseChunkKey(a).level) };
  }

  private *drawnPieces(): IterableIterator<PlanetPiece> {
    for (const d of this.streaming.drawnPieces()) yield d.piece;
  }

  /** Records the phase that started at `t0` in {@link slowestMs}; returns now. */
  private timed(phase: keyof PlanetView['slowestMs'], t0: number): number {
    const t = performance.now();
    this.slowestMs[phase] = Math.max(this.slowestMs[phase], t - t0);
    this.totalMs[phase] += t - t0;
    return t;
  }

  private select(camera: PerspectiveCamera, heightPx: number, now: number): void {
    this.lastSelectHeightPx = heightPx;
    this.lastSelectAt = now;
    this.lastSelectCamera.copy(camera.position);
    this.lod.select(lodView(camera, this.root.position, heightPx), this.streaming.errorFactor);
  }

  private onAnswer(result: LodSelectResult): void {
    this.lastResult = result;
    if (result.problems.length > 0) {
      // Never draw a configuration the seam builder cannot close: the drawn one stays.
      this.options.onError(`planet LOD: drawn set is not 2:1 balanced (${result.problems.length}): ${result.problems.slice(0, 3).join('; ')}`);
    }
    for (const id of this.streaming.onSelect(result)) {
      this.jobs.get(id)?.job.cancel();
      this.jobs.delete(id);
    }
  }

  private schedule(): void {
    const pool = this.pool;
    if (!pool) return;
    if (this.appliedOffset !== this.priorityOffset) {
      this.appliedOffset = this.priorityOffset;
      for (const { job, priority } of this.jobs.values()) job.setPriority(priority + this.priorityOffset);
    }
    const t0 = performance.now();
    const budgetMs = Math.min(START_MAX_MS, Math.max(START_MIN_MS, START_SHARE * this.frameMs));
    this.startedThisFrame = 0;
    for (const job of this.streaming.startJobs(JOBS_PER_WORKER * pool.size + 1, () => performance.now() - t0 <= budgetMs)) {
      if (job.kind === 'chunk') this.runChunk(pool, job);
      else this.runSeam(pool, job);
    }
    // Progress is told once a frame: each change re-renders the progress bar's listeners.
    if (this.startedThisFrame > 0) {
      this.task ??= this.options.progress.begin('generating planet chunks', 0);
      this.task.addTotal(this.startedThisFrame);
    }
  }

  private runChunk(pool: WorkerPool, job: Extract<PlanetJob, { kind: 'chunk' }>): void {
    const params: PlanetChunkParams = {
      body: this.bodyId, ...parseChunkKey(job.key), coarser: job.coarser, simplify: BODY_SIMPLIFY, brushes: this.edits.brushesFor(parseChunkKey(job.key)),
      leafId: `${this.leafPrefix}${job.id}#${this.leafSerial++}`, workerShare: 1 / pool.size,
    };
    // Same chunk, same worker: a re-mesh for a new restriction finds the samples it kept (~11 ms
    // instead of ~170 ms on a 16-core machine, where re-meshes on random workers cost a third of
    // all worker time).
    const run = { priority: job.priority + this.priorityOffset, affinity: this.leafPrefix + job.key };
    this.track(job, this.chunkJobs!.run(params, run, this.streaming.hasPiece(job.key)));
  }

  private runSeam(pool: WorkerPool, job: Extract<PlanetJob, { kind: 'seam' }>): void {
    // Each part names its chunk mesh (the worker that meshed it reads its own copy in place) and
    // carries the packed leaves for a worker that did not (a structured clone of ~50 kB a part).
    const parts: PlanetSeamPart[] = job.parts.map((p) =>
      'pieceId' in p ? { key: p.key, leafId: this.streaming.piece(p.pieceId)!.leafId ?? undefined, packed: this.streaming.piece(p.pieceId)!.leaves! } : p);
    const params: PlanetSeamParams = { body: this.bodyId, owner: job.owner, stitches: job.stitches, parts };
    this.track(job, pool.run<PlanetSeamReply>('buildPlanetSeam', params, { priority: job.priority + this.priorityOffset }));
  }

  private track(job: PlanetJob, pending: PoolJob<PlanetChunkReply | PlanetSeamReply>): void {
    this.jobs.set(job.id, { job: pending as PoolJob<unknown>, priority: job.priority });
    this.startedThisFrame++;
    const key = job.kind === 'chunk' ? job.key : job.owner;
    pending.promise.then(
      (result) => {
        if (this.jobs.get(job.id)?.job !== pending) return; // cancelled meanwhile
        this.jobs.delete(job.id);
        this.results.push({ job, result });
      },
      (error: unknown) => {
        if (this.jobs.get(job.id)?.job === pending) this.jobs.delete(job.id);
        this.endedUnapplied++;
        if (error instanceof JobCancelledError || (error as Error)?.name === 'JobCancelledError') return;
        this.streaming.jobFailed(job.id, job.kind, key);
        this.options.onError(`Planet ${job.kind} ${key} failed: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  }

  /** Turns finished jobs into pieces within a time slice (at least one a frame). */
  private apply(): void {
    const t0 = performance.now();
    let applied = 0;
    for (; this.results.length > 0 && (applied === 0 || performance.now() - t0 < APPLY_BUDGET_MS); applied++) {
      const { job, result } = this.results.shift()!;
      if (job.kind === 'chunk') this.applyChunk(job, result as PlanetChunkReply);
      else this.applySeam(job, result as PlanetSeamReply);
    }
    if (applied + this.endedUnapplied > 0) this.task?.advance(applied + this.endedUnapplied);
    this.endedUnapplied = 0;
    if (this.task && this.results.length === 0 && this.jobs.size === 0 && this.streaming.idle) {
      this.task.finish();
      this.task = null;
    }
  }

  private applyChunk(job: Extract<PlanetJob, { kind: 'chunk' }>, result: PlanetChunkReply): void {
    this.chunksDone++;
    const w = this.workerMs;
    if (result.homogeneous) {
      w.homogeneous += result.ms;
      this.streaming.chunkDone(job.id, job.key, { homogeneous: result.homogeneous });
      // A proof of no surface below: the jobs of its descendants are not needed.
      for (const id of this.streaming.takeCancelled()) {
        this.jobs.get(id)?.job.cancel();
        this.jobs.delete(id);
      }
      return;
    }
    const remeshed = this.streaming.counts.chunksRemeshed;
    const piece = this.pieces.create('chunk', job.key, result.piece!, parseChunkKey(job.key).face, result.leafId ?? null, result.sampledBy ?? null);
    this.streaming.chunkDone(job.id, job.key, { piece, bytes: piece.bytes, triangles: piece.triangles });
    if (this.streaming.counts.chunksRemeshed > remeshed) {
      w.remesh += result.ms;
      if (result.sampleMs === 0) this.remeshesFromKeptSamples++;
    } else {
      w.surface += result.ms;
      w.surfaceSampling += result.sampleMs;
    }
  }

  private applySeam(job: Extract<PlanetJob, { kind: 'seam' }>, result: PlanetSeamReply): void {
    this.workerMs.seam += result.ms;
    // Missing records: started again with them.
    if (result.missing.length > 0) return this.streaming.seamDone(job.id, job.owner, null);
    this.seamsDone++;
    const piece = this.pieces.create('seam', job.owner, result.piece!, result.vertexFaces);
    this.streaming.seamDone(job.id, job.owner, { piece, bytes: piece.bytes, triangles: piece.triangles });
  }

  /**
   * Fits the sun's shadow cascades to the view (the planet's own sun has 3; a shared one, whatever it
   * has): from half the altitude out to the horizon plus the horizon of the highest terrain (relief
   * ≈ 1 % of R), split nearly uniformly (λ 0.97: near the ground a log split would spend the first
   * map on the first metres) — the terrain shadows itself to the horizon.
   */
  fitShadows(camera: PerspectiveCamera, castersVersion?: number): void {
    this.sun.fitCascades(camera, { ...planetCascades(camera.near, this.altitude(camera.position), this.radiusM), castersVersion });
  }

  /** Changes whenever a piece is shown or hidden (what the planet casts into the sun's maps). */
  get castersVersion(): number {
    return this.pieces.castersVersion;
  }

  /**
   * Issue 10's crack check: every drawn chunk mesh and seam welded by leaf identity (face, vertex
   * cell) and validated. The drawn set covers the whole shell, so a watertight set is one closed
   * surface: `boundaryEdges` 0. Debug only (hundreds of ms on a full planet).
   */
  crackReport(): PlanetCrackReport {
    return crackReport(this.drawnPieces());
  }

  /** Bytes the drawn pieces hold, all in (geometry, vertex cells, weld tags, boundary leaves). */
  drawnBytes(): number {
    let bytes = 0;
    for (const p of this.drawnPieces()) bytes += p.bytes;
    return bytes;
  }

  stats(): PlanetStats {
    let triangles = 0, seamTriangles = 0, seams = 0;
    for (const p of this.drawnPieces()) {
      triangles += p.triangles;
      if (p.kind === 'seam') {
        seamTriangles += p.triangles;
        seams++;
      }
    }
    const r = this.lastResult;
    const m = this.streaming;
    const drawnKeys = m.drawnSnapshot?.keys ?? [];
    const committedLatest = r !== null && m.drawnSnapshot !== null && drawnKeys.length === r.drawn.length && drawnKeys.every((k, i) => k === r.drawn[i]);
    return {
      drawn: m.drawnChunks,
      seams,
      inFlight: this.jobs.size,
      queued: m.queuedCount,
      cached: m.cachedCount,
      bytes: m.bytes,
      budgetBytes: m.budgetBytes,
      triangles,
      seamTriangles,
      ...this.pieces.batches.stats(),
      holes: r?.holes ?? -1,
      leaves: r?.leaves ?? 0,
      prefiltered: r?.prefiltered ?? 0,
      selectMs: r?.selectMs ?? 0,
      chunksDone: this.chunksDone,
      jobsStarted: m.counts.chunkJobs + m.counts.seamJobs,
      chunksHomogeneous: m.counts.chunksHomogeneous,
      chunksRemeshed: m.counts.chunksRemeshed,
      remeshesFromKeptSamples: this.remeshesFromKeptSamples,
      seamsDone: this.seamsDone,
      seamsResent: m.counts.seamsResent,
      workerMs: { ...this.workerMs },
      gpu: this.chunkJobs?.gpuStats() ?? { chunks: 0, failed: 0, queueFull: 0, remeshSampled: 0, meanLatencyMs: 0, enabled: false, pending: 0, limit: 0 },
      transactions: m.counts.transactions,
      deferredSnapshots: m.counts.deferredSnapshots,
      evicted: m.counts.evicted,
      errorFactor: m.errorFactor,
      thresholdPx: r?.thresholdPx ?? 0,
      protectedBytes: m.protectedBytes,
      predictedBytes: m.predictedBytes,
      transactionPending: m.transactionPending,
      balanceFallbacks: r?.balanceFallbacks ?? 0,
      // No requests left in the LOD worker's own latest answer, given after everything it was told:
      // chunks that landed since it answered are not drawn until it selects again.
      complete: r !== null && this.lod.answerIsCurrent && this.lastSelectHeightPx === this.viewportHeightPx && r.holes === 0 &&
        r.requests.length === 0 && committedLatest && m.idle && this.jobs.size === 0 && this.results.length === 0 && !this.pieces.fades.active,
    };
  }

  statsLine(camera: PerspectiveCamera): string {
    return planetStatsLine(this.stats(), this.radiusM, this.altitude(camera.position));
  }

  dispose(): void {
    for (const { job } of this.jobs.values()) job.cancel();
    this.jobs.clear();
    this.streaming.clear();
    this.lod.dispose();
    this.releaseBody?.();
    this.task?.finish();
    this.pieces.disposeMaterials();
    if (this.ownsSun) this.sun.dispose();
    this.root.removeFromParent();
  }
}
