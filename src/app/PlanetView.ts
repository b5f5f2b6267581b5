/**
 * A planet drawn as cube-sphere chunk LOD (issues 9, 10, 15, 44): wires the LOD worker
 * (`PlanetLodClient`) to the streaming model (`PlanetStreaming`, src/lod: what to keep, run, commit
 * and evict, the memory-adjusted error, and the planet's jobs), and the model to its piece provider —
 * jobs on the body workers (`PlanetJobs`, src/workers) and pieces on the GPU (`PlanetPieces`,
 * src/render). Each frame it tells the parts when: select, apply finished jobs within the frame's
 * budget (budgetedApply.ts), let the model commit, start jobs within the start budget
 * (frameBudget.ts), update the materials. The planet's brushes are planetBrushes.ts's, its stats
 * planetStats.ts's, its shadows planetShadows.ts's.
 *
 * Positions: chunk meshes are relative to their chunk origin (float64, body-local); the root
 * sits at the planet center (a DrawnMatrixGroup); the app's floating origin does the rest.
 */
import { HemisphereLight, Vector3, type PerspectiveCamera } from 'three';
import { recipeBounds, type Brush, type FieldRecipe } from '../field/index';
import type { PlanetCrackReport, PlanetStats, PlanetViewOptions } from './planetViewTypes';
import { lodView } from './lodView';
import { CubeSphereSpace, DEFAULT_TIME_BUDGET_S, parseChunkKey, PlanetStreaming, shouldReselect, type CubeSphereOptions, type LodSelectResult } from '../lod/index';
import { crackReport, PlanetPieces, type PlanetPiece } from '../render/planetPieces';
import { Sun } from '../render/Sun';
import { DrawnMatrixGroup } from '../render/drawnMatrixGroup';
import type { BodyMesher } from '../workers/BodyMesher';
import { PlanetLodClient } from '../workers/PlanetLodClient';
import { PlanetJobs } from '../workers/PlanetJobs';
import type { PlanetMeasureBody } from '../jobs/planetSamplingMeasure';
import { BudgetedApply } from './budgetedApply';
import { startBudgetMs } from './frameBudget';
import { PlanetBrushes } from './planetBrushes';
import { fitPlanetShadows } from './planetShadows';
import { planetStats, planetStatsLine } from './planetStats';
import { PlanetPace } from './planetPace';

export type { PlanetCrackReport, PlanetStats, PlanetViewOptions } from './planetViewTypes';

/** Makes each view's leaf ids unique among the planets sharing the body workers. */
let nextLeafPrefix = 1;
/** Re-select when the camera moved this fraction of its altitude (or as lod/reselect.ts says). */
const RESELECT_MOVE = 0.02;
const DEFAULT_BUDGET_BYTES = 192 * 2 ** 20;

/** {@link PlanetView.priorityOffset} that puts the planet's jobs after everything else. */
export const BACKGROUND_PRIORITY = -1e14;

export class PlanetView {
  readonly root = new DrawnMatrixGroup();
  readonly sun: Sun;
  readonly recipe: FieldRecipe;
  readonly radiusM: number;
  readonly space: CubeSphereOptions;
  /**
   * The longest main-thread time of each phase since the last reset (ms): what a long task during
   * streaming was spent on (the bench reports it; `lodMessage` is taking a LOD answer).
   */
  readonly slowestMs = { select: 0, lodMessage: 0, apply: 0, transaction: 0, schedule: 0, materials: 0 };
  /** The same phases' main-thread time summed since the planet started (ms): where the frames went. */
  readonly totalMs = { select: 0, lodMessage: 0, apply: 0, transaction: 0, schedule: 0, materials: 0 };
  private readonly ownsSun: boolean;
  readonly chunkSpace: CubeSphereSpace;
  /** The planet's field with the user's brushes (altitude, collision) and what they reach (issue 19). */
  private readonly brushes: PlanetBrushes;
  readonly lod: PlanetLodClient;
  private readonly streaming: PlanetStreaming<PlanetPiece>;
  private readonly pieces: PlanetPieces;
  private readonly jobs: PlanetJobs<PlanetPiece>;
  /** Finished jobs turned into pieces within the frame's budget, with the progress task. */
  private readonly applier: BudgetedApply;
  private lastSelectAt = -Infinity;
  private lastSelectHeightPx = 0;
  private viewportHeightPx = 0;
  private readonly lastSelectCamera = new Vector3(Infinity, 0, 0);
  private readonly cameraBody = new Vector3();
  private lastResult: LodSelectResult | null = null;
  /** The error factor the last selection was asked with (a change of a fifth asks again). */
  private lastSelectFactor = 1;
  /** The workers' pace and the camera's stillness, for the time policy (planetPace.ts). */
  private readonly pace = new PlanetPace();
  /** Last update's time and the smoothed frame interval (ms). */
  private lastUpdateAt: number | null = null;
  private frameMs = 16;

  constructor(private readonly options: PlanetViewOptions) {
    this.recipe = options.recipe;
    const bounds = recipeBounds(options.recipe);
    this.radiusM = bounds.sphereRadiusM;
    this.root.name = `planet ${options.recipe.name ?? ''}`;
    this.root.position.set(...options.centerM);
    this.ownsSun = !options.sun;
    this.sun = options.sun ?? new Sun({ direction: options.sunDirection, cascades: 3 });
    if (this.ownsSun) this.root.add(this.sun, new HemisphereLight(0x2a3040, 0x050403, 0.2));
    this.space = { radiusM: this.radiusM, chunkCells: options.chunkCells ?? 32, finestCellM: options.finestCellM ?? 1 };
    this.chunkSpace = new CubeSphereSpace(this.space);
    this.brushes = new PlanetBrushes(options.recipe, this.chunkSpace);
    this.pieces = new PlanetPieces(this.root, (level) => this.chunkSpace.cellSizeM(level), options.atmosphere, options.ground);
    this.pieces.uploads.enabled = !!options.renderer && options.preuploadGeometry !== false;
    this.pieces.batches.maxBytes = (options.budgetBytes ?? DEFAULT_BUDGET_BYTES) / 2; // a second GPU copy of what they batch
    this.jobs = new PlanetJobs<PlanetPiece>({
      // One registration names one definition: the chunk space is part of the planet's id.
      body: `${options.bodyId}/${this.space.chunkCells}c/${this.space.finestCellM}m`,
      chunkSpace: this.chunkSpace, maxRadiusM: Math.hypot(...bounds.sphereCenter) + bounds.sphereRadiusM, leafPrefix: `${nextLeafPrefix++}:`,
      makePiece: (...args) => this.pieces.create(...args), gpuMaxPending: options.gpuMaxPending, gpuSpill: options.gpuSpill, onError: options.onError,
    });
    this.applier = new BudgetedApply(options.progress, 'generating planet chunks');
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
      provider: { jobs: this.jobs, pieces: this.pieces },
      onReady: (key) => this.lod.markReady(key),
      onEvicted: (key) => this.lod.markEvicted(key),
      onHomogeneous: (key, state, proven) => this.lod.markHomogeneous(key, state, proven),
      pruneUnderProof: options.pruneUnderProof,
      childProofs: options.childProofs,
      timeBudgetS: options.timeBudgetS ?? DEFAULT_TIME_BUDGET_S,
    });
  }

  /**
   * Added to every job priority on the shared body pool. 0: the planet's jobs come first (it is
   * what the camera is at); {@link BACKGROUND_PRIORITY}: after every job of priority ≥ 0 (explore
   * sets it while the camera is among the asteroids). Order among the planet's own jobs is kept.
   */
  get priorityOffset(): number {
    return this.streaming.priorityOffset;
  }

  set priorityOffset(offset: number) {
    this.streaming.priorityOffset = offset;
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

  /** Starts generating on the body worker pool (the planet registered with the workers; PlanetJobs.start). */
  start(mesher: BodyMesher): void {
    // The recipe, chunk space and ground palette go to the workers once; chunk and seam jobs name the body.
    const ground = this.pieces.groundPalette;
    this.jobs.start(mesher, { recipe: this.recipe, space: this.space, ...(ground ? { ground } : {}) });
  }

  /** The field at a world point: about the altitude above the surface, metres. */
  altitude(pointWorld: Vector3): number {
    return this.brushes.altitude(pointWorld, this.root.position);
  }

  /** A world point in the planet's own frame (its recipe's), metres. */
  toBodyFrame(pointWorld: Vector3): [number, number, number] {
    return pointWorld.clone().sub(this.root.position).toArray() as [number, number, number];
  }

  /** The user's brushes (issue 19) after the recipe's: reached chunks re-meshed (src/lod/planetEdits.ts). Why not, or null. */
  setBrushes(brushes: readonly Brush[]): string | null {
    const set = this.brushes.set(brushes);
    if ('problem' in set) return set.problem;
    if (set.changed.length === 0) return null;
    this.lod.edit(brushes, set.changed);
    this.streaming.setEdits(this.brushes.edits, set.changed);
    return null;
  }

  // Drawn as planned after the newest edit, with a LOD answer asked after it (a grown shell selects more).
  // A select asked since by the clock alone does not void the answer (`answerSpeaksForState`): where
  // frames take over a second every frame asks again, and the drawn frame was missed for tens of seconds.
  editDrawn = (): boolean => this.streaming.editsDrawn && this.lod.answerSpeaksForState && this.streaming.betweenTransactions;

  update(camera: PerspectiveCamera, viewportHeightPx: number, now = performance.now()): void {
    // Frame interval, smoothed (ms): the job-start budget is a share of it (frameBudget.ts).
    if (this.lastUpdateAt !== null) this.frameMs += 0.1 * (Math.min(now - this.lastUpdateAt, 1000) - this.frameMs);
    this.lastUpdateAt = now;
    const { renderer, scene } = this.options;
    if (renderer && scene) this.pieces.precompileBase(renderer, scene, camera);
    const altitude = Math.max(1, this.altitude(camera.position));
    this.viewportHeightPx = viewportHeightPx;
    const moved = camera.position.distanceTo(this.lastSelectCamera) > RESELECT_MOVE * altitude ||
      viewportHeightPx !== this.lastSelectHeightPx || Math.abs(this.streaming.errorFactor / this.lastSelectFactor - 1) > 0.2;
    const m = this.streaming;
    let t = performance.now();
    const reselect = !this.lod.selecting && shouldReselect({
      moved, sinceSelectMs: now - this.lastSelectAt, lastSelectMs: this.lastResult?.selectMs ?? 0, news: this.lod.hasNews,
      drained: m.requestsDrained && m.finishedCount === 0, betweenTransactions: m.betweenTransactions,
    }, this.options.reselect);
    if (reselect) this.select(camera, viewportHeightPx, now);
    else this.lod.flush();
    t = this.timed('select', t);
    this.applier.endedWithoutResult(m.takeEnded());
    this.applier.step(() => m.applyNext(), () => m.finishedCount === 0 && m.idle);
    // New pieces' buffers go to the GPU now, not all in the frame their transaction commits.
    if (renderer) this.pieces.uploads.flush(renderer);
    t = this.timed('apply', t);
    this.pieces.fades.enabled = m.editsDrawn; // an edit shows at once, without a cross-fade
    const r = this.lastResult;
    const answered = r !== null && this.lod.answerIsCurrent && r.requests.length === 0 && r.holes === 0;
    m.update(now, this.pace.update(this.cameraBody.copy(camera.position).sub(this.root.position), altitude, now, this.jobs.pace(), answered, () => m.time.moved()));
    t = this.timed('transaction', t);
    if (this.jobs.started) {
      const t0 = performance.now();
      const budgetMs = startBudgetMs(this.frameMs);
      // Progress is told once a frame: each change re-renders the progress bar's listeners.
      this.applier.started(m.schedule(this.jobs.maxRunning, () => performance.now() - t0 <= budgetMs));
    }
    t = this.timed('schedule', t);
    this.pieces.updateMaterials(this.drawnPieces(), this.toBodyFrame(camera.position));
    this.timed('materials', t);
  }

  /** Its registration and drawn surface chunks, finest first: the sampling probe's body (planetSamplingMeasure.ts). */
  measureBody(): PlanetMeasureBody {
    const keys = [...this.streaming.drawnPieces()].filter((d) => d.kind === 'chunk' && d.triangles > 0).map((d) => d.key);
    return { body: this.jobs.body, definition: { recipe: this.recipe, space: this.space }, keys: keys.sort((a, b) => parseChunkKey(b).level - parseChunkKey(a).level) };
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
    this.lastSelectFactor = this.streaming.errorFactor;
    this.lod.select(lodView(camera, this.root.position, heightPx), this.lastSelectFactor);
  }

  private onAnswer(result: LodSelectResult): void {
    this.lastResult = result;
    if (result.problems.length > 0) {
      // Never draw a configuration the seam builder cannot close: the drawn one stays.
      this.options.onError(`planet LOD: drawn set is not 2:1 balanced (${result.problems.length}): ${result.problems.slice(0, 3).join('; ')}`);
    }
    this.streaming.onSelect(result);
  }

  /** Fits the sun's shadow cascades to the view (planetShadows.ts). */
  fitShadows(camera: PerspectiveCamera, castersVersion?: number): void {
    fitPlanetShadows(this.sun, camera, this.altitude(camera.position), this.radiusM, castersVersion);
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
    return planetStats({
      streaming: this.streaming, jobs: this.jobs, pieces: this.pieces, lastResult: this.lastResult,
      answerCurrent: this.lod.answerIsCurrent && this.lastSelectHeightPx === this.viewportHeightPx,
    });
  }

  statsLine(camera: PerspectiveCamera): string {
    return planetStatsLine(this.stats(), this.radiusM, this.altitude(camera.position));
  }

  dispose(): void {
    this.streaming.clear(); // cancels the planet's jobs, disposes its pieces
    this.lod.dispose();
    this.jobs.dispose();
    this.applier.finish();
    this.pieces.disposeMaterials();
    if (this.ownsSun) this.sun.dispose();
    this.root.removeFromParent();
  }
}
