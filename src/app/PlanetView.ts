/**
 * A planet drawn as cube-sphere chunk LOD (issues 9, 10): selection in a worker (src/lod is
 * pure, and slow enough near the surface that it must stay off the main thread), chunk and seam
 * jobs on the body worker pool, a budgeted apply step, and a geometry cache with
 * least-recently-visible eviction that disposes in exactly one place.
 *
 * Seams (issue 10, docs/lod.md "Renderer"): the LOD worker sends the drawn configuration as one
 * balanced, checked snapshot. Going from the drawn snapshot to a new one is a TRANSACTION: plan it
 * with `planLodUpdate`, mesh the chunks whose restriction (coarser neighbours) is new, build the
 * seams that read them, keep drawing the whole old set meanwhile, and swap chunks + seams in one
 * frame when every job is done. A newer snapshot cancels the transaction and re-plans from what is
 * drawn (results already computed are content-addressed in the cache and reused).
 *
 * Positions: chunk meshes are relative to their chunk origin (float64, body-local); the root
 * sits at the planet centre; the app's floating origin does the rest.
 */
import {
  BufferGeometry,
  Color,
  Float32BufferAttribute,
  Frustum,
  Group,
  HemisphereLight,
  Matrix4,
  Mesh,
  MeshStandardMaterial,
  Vector3,
  type Material,
  type PerspectiveCamera,
  type Scene,
  type WebGLRenderer,
} from 'three';
import { compileToJs, recipeBounds, type FieldFn, type FieldRecipe } from '../field/index';
import { compileToGlsl } from '../field/glsl';
import {
  CubeSphereSpace,
  GeometryCache,
  parseChunkKey,
  planLodUpdate,
  type ChunkAddress,
  type ChunkKey,
  type ChunkRequest,
  type CubeSphereOptions,
  type PlanetLod,
} from '../lod/index';
import { validateMesh, weldMeshes, type BoundaryLeaves, type ChunkMesh, type MeshReport } from '../mesher/index';
import { BodyMaterial } from '../render/BodyMaterial';
import { Sun } from '../render/Sun';
import { withSunCascades } from '../render/sunCascades';
import { bodyGeometryBytes, createBodyGeometry } from '../render/bodyGeometry';
import type { LodSelectResult, LodSnapshot, LodWorkerRequest } from '../workers/lod.worker';
import type { PlanetChunkParams, PlanetChunkResult } from '../workers/planetChunkJob';
import { boundaryLeavesBytes } from '../workers/leafStore';
import { seamPartsToSend, type PlanetSeamParams, type PlanetSeamPart, type PlanetSeamResult } from '../workers/planetSeamJob';
import { JobCancelledError, type PoolJob, type WorkerPool } from '../workers/WorkerPool';
import { deserializeError, type WorkerResponse } from '../workers/protocol';
import type { Progress, ProgressTask } from './progress';

export interface PlanetViewOptions {
  recipe: FieldRecipe;
  /** Where the planet's centre is, world metres. */
  centerM: [number, number, number];
  /** Unit vector towards the sun (ignored when `sun` is given). */
  sunDirection?: [number, number, number];
  /**
   * A sun shared with the rest of the scene (explore: the asteroid field's). The planet then
   * neither adds nor disposes it, and adds no fill light of its own. Default: its own sun.
   */
  sun?: Sun;
  progress: Progress;
  onError: (message: string) => void;
  /** Lateral size of the finest cells at the surface, metres (default 1). */
  finestCellM?: number;
  /** Cells per chunk axis (default 32). */
  chunkCells?: number;
  /** Screen-space error that splits a chunk, pixels (default 6). */
  maxScreenErrorPx?: number;
  /** Geometry memory budget, bytes (default 192 MiB): meshes, seams and boundary leaves. */
  budgetBytes?: number;
  /** Per-pixel field material (quality high). */
  detailMaterial?: boolean;
  renderer?: WebGLRenderer;
  scene?: Scene;
}

export interface PlanetStats {
  /** Chunks in the drawn (committed) configuration. */
  drawn: number;
  /** Seams drawn (non-empty seam meshes of the committed configuration). */
  seams: number;
  inFlight: number;
  queued: number;
  cached: number;
  bytes: number;
  budgetBytes: number;
  triangles: number;
  seamTriangles: number;
  holes: number;
  leaves: number;
  /** Chunks settled by a centre sample in the LOD worker instead of a job (running total). */
  prefiltered: number;
  selectMs: number;
  chunksDone: number;
  /** Of chunksDone: chunks found empty or full, and chunks meshed again for a new restriction. */
  chunksHomogeneous: number;
  chunksRemeshed: number;
  seamsDone: number;
  /** Seam jobs sent again with the records because their worker did not hold some chunk's leaves. */
  seamsResent: number;
  /**
   * Body-worker time by job kind (running totals, ms): chunks with a surface meshed from scratch
   * (and the sampling part of it), chunks found empty or full, re-meshes, seams.
   */
  workerMs: { surface: number; surfaceSampling: number; homogeneous: number; remesh: number; seam: number };
  /** Transactions swapped in / cancelled by a newer snapshot (running totals). */
  transactions: number;
  cancelledTransactions: number;
  /** Jobs of the open transaction still to finish (0 when none). */
  transactionPending: number;
  /** LOD snapshots the worker could not balance by coarsening (the previous one stayed drawn). */
  balanceFallbacks: number;
  /** Selection answered, nothing left to generate and the latest snapshot drawn. */
  complete: boolean;
}

/** Watertightness of what is drawn (debug; issue 10's crack check). */
export interface PlanetCrackReport extends MeshReport {
  chunks: number;
  seams: number;
  ms: number;
}

/** One cached piece: a chunk mesh for one restriction, or a seam for one set of stitched pieces. */
interface PieceEntry {
  kind: 'chunk' | 'seam';
  /** Chunk key (seam: owner key). */
  key: ChunkKey;
  mesh: Mesh | null;
  bytes: number;
  triangles: number;
  /** For the crack check (same arrays as the geometry's attributes, plus vertexCells). */
  chunkMesh: ChunkMesh | null;
  /** Weld tag: the chunk's face, or per seam vertex. */
  tags: number | Uint8Array;
  boundary: BoundaryLeaves | null;
}

/** A drawn configuration: its snapshot and, per chunk and per seam, the cache id drawn (null: nothing to draw). */
interface Configuration {
  lod: PlanetLod;
  snapshot: LodSnapshot;
  chunkIds: Map<ChunkKey, string | null>;
  seamIds: Map<ChunkKey, string | null>;
}

interface Transaction extends Configuration {
  serial: number;
  /** Chunks whose piece for this restriction is not in yet. */
  waitingChunks: Set<ChunkKey>;
  /** Seams not built yet. */
  waitingSeams: Set<ChunkKey>;
  /** Index of each chunk in the snapshot's arrays. */
  index: Map<ChunkKey, number>;
}

const SIMPLIFY = 0.02;
const APPLY_BUDGET_MS = 4;
/**
 * Jobs handed to the pool per body worker, queued ones included. Jobs are started once a frame, and
 * a worker clears a re-mesh (~10 ms, samples and crossings kept) or a seam (~5 ms) far faster than
 * a software renderer draws a frame (150-300 ms under SwiftShader): with one job in flight the
 * worker sat idle most of each frame. Queued jobs cost nothing when the camera moves on (cancelled
 * unstarted, in the pool or in the worker).
 */
const JOBS_PER_WORKER = 32;
/**
 * Main-thread time a frame may spend starting seam jobs: a tenth of the frame interval, within
 * 4-12 ms (a start copies the boundary records the seam reads, ~2-3 ms). It bounds how many seams
 * a transaction gets per frame: at a fixed 6 ms and ~4 software-rendered frames a second, seam
 * starts capped the flight at ~8 seams/s and a 340-seam transaction took 40 s to commit; uncapped
 * (27 ms of a 270 ms frame) a start that overran made 50-90 ms tasks.
 */
const SEAM_START_SHARE = 0.1;
const SEAM_START_MIN_MS = 4;
const SEAM_START_MAX_MS = 12;
let nextLeafPrefix = 1;
/** Re-select when the camera moved this fraction of its altitude (or a second has passed). */
const RESELECT_MOVE = 0.02;
/** Transaction jobs run before streaming requests. */
const TRANSACTION_PRIORITY = 1e12;
const LEVEL_COLOURS = [0xe6194b, 0xf58231, 0xffe119, 0xbfef45, 0x3cb44b, 0x42d4f4, 0x4363d8, 0x911eb4, 0xf032e6, 0x469990, 0xfabed4, 0xffd8b1, 0xaaffc3, 0xdcbeff];
const SEAM_COLOUR = 0xffffff;

const frustum = new Frustum();
/** {@link PlanetView.priorityOffset} that puts the planet's jobs after everything else. */
export const BACKGROUND_PRIORITY = -1e14;
const viewProjection = new Matrix4();

const chunkId = (key: ChunkKey, coarser: readonly ChunkKey[]): string => `c:${key}|${coarser.join(',')}`;

export class PlanetView {
  readonly root = new Group();
  readonly sun: Sun;
  readonly recipe: FieldRecipe;
  readonly radiusM: number;
  readonly space: CubeSphereOptions;
  /** Tint chunks by level and seams white (debug; the GUI's "chunk levels" checkbox). */
  debugLevels = false;
  /**
   * Added to every job priority on the shared body pool. 0: the planet's jobs come first (it is
   * what the camera is at); {@link BACKGROUND_PRIORITY}: after every job of priority ≥ 0 (explore
   * sets it while the camera is among the asteroids). Order among the planet's own jobs is kept.
   */
  priorityOffset = 0;
  /**
   * The longest main-thread time of each phase since the last reset (ms): what a long task during
   * streaming was spent on (the bench reports it; `lodMessage` is planning a transaction).
   */
  readonly slowestMs = { select: 0, lodMessage: 0, apply: 0, transaction: 0, schedule: 0, materials: 0 };
  private readonly ownsSun: boolean;
  private readonly chunkSpace: CubeSphereSpace;
  private readonly field: FieldFn;
  private readonly lod: Worker;
  private readonly cache: GeometryCache<PieceEntry>;
  private readonly material: Material;
  private readonly levelMaterials: MeshStandardMaterial[];
  private readonly seamMaterial: MeshStandardMaterial;
  private detail: BodyMaterial | null = null;
  private detailState: 'none' | 'compiling' | 'ready' | 'failed' = 'none';
  private basePrecompiled = false;
  /** Chunk and seam jobs by cache id. */
  private readonly jobs = new Map<string, PoolJob<unknown>>();
  /** Each job's own priority, without {@link priorityOffset}. */
  private readonly jobPriority = new Map<string, number>();
  private appliedOffset = 0;
  private readonly results: { id: string; kind: 'chunk' | 'seam'; key: ChunkKey; result: PlanetChunkResult | PlanetSeamResult }[] = [];
  private readonly failed = new Set<ChunkKey>();
  /** Cache ids per chunk key (any restriction): the LOD worker's "ready" is "some mesh exists". */
  private readonly idsByKey = new Map<ChunkKey, Set<string>>();
  /** Chunks known to hold no surface (from jobs and the LOD worker's record). */
  private readonly homogeneous = new Map<ChunkKey, 'empty' | 'full'>();
  private requests: ChunkRequest[] = [];
  private requestCoarser = new Map<ChunkKey, ChunkKey[]>();
  private committed: Configuration | null = null;
  private tx: Transaction | null = null;
  /** Cache ids drawn now (committed chunks + seams). */
  private drawnIds = new Set<string>();
  private pool: WorkerPool | null = null;
  private selecting = false;
  private lastSelectAt = -Infinity;
  /**
   * Bumped by every message that changes what the LOD worker knows (ready, evicted, homogeneous);
   * `complete` needs an answer to a select posted after the last of them, at the current viewport
   * height: an answer computed before them could be followed by one that asks for more, and
   * 'complete' flickered (the explore test saw settled, then complete false).
   */
  private lodStateVersion = 0;
  private selectVersion = -1;
  private answeredVersion = -2;
  private lastSelectHeightPx = 0;
  private viewportHeightPx = 0;
  private readonly lastSelectCamera = new Vector3(Infinity, 0, 0);
  private lastResult: LodSelectResult | null = null;
  private frame = 0;
  private task: ProgressTask | null = null;
  private readyBatch: ChunkKey[] = [];
  private nextId = 1;
  private txSerial = 0;
  chunksDone = 0;
  /** Of {@link chunksDone}: found empty or full / meshed again for another restriction. */
  chunksHomogeneous = 0;
  chunksRemeshed = 0;
  seamsDone = 0;
  /** Seam jobs sent again with their records: a worker did not hold a chunk's leaves (running total). */
  seamsResent = 0;
  /** Seams whose next start sends the records (their worker lacked some). */
  private readonly seamNeedsLeaves = new Set<string>();
  /** Makes this view's leaf ids unique among the planets sharing the body workers. */
  private readonly leafPrefix = `${nextLeafPrefix++}:`;
  /** Last update's time and the smoothed frame interval (ms). */
  private lastUpdateAt: number | null = null;
  private frameMs = 16;
  readonly workerMs = { surface: 0, surfaceSampling: 0, homogeneous: 0, remesh: 0, seam: 0 };
  transactions = 0;
  cancelledTransactions = 0;

  constructor(private readonly options: PlanetViewOptions) {
    this.recipe = options.recipe;
    const bounds = recipeBounds(options.recipe);
    this.radiusM = bounds.sphereRadiusM;
    this.field = compileToJs(options.recipe);
    this.root.name = `planet ${options.recipe.name ?? ''}`;
    this.root.position.set(...options.centerM);
    this.ownsSun = !options.sun;
    // Default: side-on to the default view (3 R out along ~(0.29, 0.19, 0.94)), so the terminator shows.
    this.sun = options.sun ?? new Sun({ direction: options.sunDirection ?? [0.9, 0.35, -0.25], cascades: 3 });
    if (this.ownsSun) this.root.add(this.sun, new HemisphereLight(0x2a3040, 0x050403, 0.2));
    this.space = { radiusM: this.radiusM, chunkCells: options.chunkCells ?? 32, finestCellM: options.finestCellM ?? 1 };
    this.chunkSpace = new CubeSphereSpace(this.space);
    // Standard materials that take the sun's cascaded shadow (far terrain shadows itself too).
    this.material = withSunCascades(new MeshStandardMaterial({ color: new Color(0.26, 0.24, 0.21), roughness: 0.95 }));
    this.levelMaterials = LEVEL_COLOURS.map((c) => withSunCascades(new MeshStandardMaterial({ color: c, roughness: 0.9 })));
    this.seamMaterial = withSunCascades(new MeshStandardMaterial({ color: SEAM_COLOUR, roughness: 0.9, emissive: 0x202020 }));
    this.cache = new GeometryCache<PieceEntry>({
      budgetBytes: options.budgetBytes ?? 192 * 2 ** 20,
      // The one place planet chunk and seam geometry leaves the scene and the GPU.
      dispose: (id, entry) => {
        entry.mesh?.removeFromParent();
        entry.mesh?.geometry.dispose();
        if (entry.kind !== 'chunk') return;
        const ids = this.idsByKey.get(entry.key);
        ids?.delete(id);
        if (ids && ids.size === 0) {
          this.idsByKey.delete(entry.key);
          this.post({ id: 0, kind: 'evicted', params: { keys: [entry.key] } });
        }
      },
    });
    this.lod = new Worker(new URL('../workers/lod.worker.ts', import.meta.url), { type: 'module', name: 'planet-lod' });
    this.lod.onmessage = (e: MessageEvent<WorkerResponse<LodSelectResult>>) => {
      const t0 = performance.now();
      this.onLodMessage(e.data);
      this.timed('lodMessage', t0);
    };
    this.lod.onerror = (e) => this.options.onError(`planet LOD worker failed: ${e.message}`);
    this.post({
      id: this.nextId++,
      kind: 'init',
      params: { recipe: options.recipe, space: this.space, select: { maxScreenErrorPx: options.maxScreenErrorPx ?? 6 } },
    });
  }

  /** Starts generating on the body worker pool. */
  start(pool: WorkerPool): void {
    this.pool = pool;
  }

  private post(msg: LodWorkerRequest): void {
    // Anything but a select tells the LOD worker something new: an answer to an earlier select
    // no longer speaks for the current state (see `complete`).
    if (msg.kind !== 'select') this.lodStateVersion++;
    this.lod.postMessage(msg);
  }

  /** The field at a world point: about the altitude above the surface, metres. */
  altitude(pointWorld: Vector3): number {
    const c = this.root.position;
    return this.field(pointWorld.x - c.x, pointWorld.y - c.y, pointWorld.z - c.z);
  }

  update(camera: PerspectiveCamera, viewportHeightPx: number, now = performance.now()): void {
    this.frame++;
    // Frame interval, smoothed (ms): the seam-start budget is a share of it.
    if (this.lastUpdateAt !== null) this.frameMs += 0.1 * (Math.min(now - this.lastUpdateAt, 1000) - this.frameMs);
    this.lastUpdateAt = now;
    this.precompileBase(camera);
    if (this.readyBatch.length > 0) {
      this.post({ id: 0, kind: 'ready', params: { keys: this.readyBatch } });
      this.readyBatch = [];
    }
    const altitude = Math.max(1, this.altitude(camera.position));
    this.viewportHeightPx = viewportHeightPx;
    const moved = camera.position.distanceTo(this.lastSelectCamera) > RESELECT_MOVE * altitude ||
      viewportHeightPx !== this.lastSelectHeightPx;
    let t = performance.now();
    if (!this.selecting && (moved || now - this.lastSelectAt > 1000)) this.select(camera, viewportHeightPx, now);
    t = this.timed('select', t);
    this.apply();
    t = this.timed('apply', t);
    this.advanceTransaction();
    t = this.timed('transaction', t);
    this.schedule();
    t = this.timed('schedule', t);
    this.updateMaterials();
    this.timed('materials', t);
  }

  /** Records the phase that started at `t0` in {@link slowestMs}; returns now. */
  private timed(phase: keyof PlanetView['slowestMs'], t0: number): number {
    const t = performance.now();
    this.slowestMs[phase] = Math.max(this.slowestMs[phase], t - t0);
    return t;
  }

  private select(camera: PerspectiveCamera, heightPx: number, now: number): void {
    this.selecting = true;
    this.selectVersion = this.lodStateVersion;
    this.lastSelectHeightPx = heightPx;
    this.lastSelectAt = now;
    this.lastSelectCamera.copy(camera.position);
    const c = this.root.position;
    camera.updateMatrixWorld();
    viewProjection.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse);
    frustum.setFromProjectionMatrix(viewProjection);
    // Planes in body-local space: n·(p + c) + d = n·p + (d + n·c).
    const planes: number[] = [];
    for (const p of frustum.planes) planes.push(p.normal.x, p.normal.y, p.normal.z, p.constant + p.normal.dot(c));
    this.post({
      id: this.nextId++,
      kind: 'select',
      params: {
        view: {
          cameraM: [camera.position.x - c.x, camera.position.y - c.y, camera.position.z - c.z],
          projectionFactor: heightPx / (2 * Math.tan((camera.fov * Math.PI) / 360)),
          frustumPlanes: planes,
        },
      },
    });
  }

  private onLodMessage(msg: WorkerResponse<LodSelectResult | { levels: number }>): void {
    if ('error' in msg) {
      this.selecting = false;
      this.options.onError(`planet LOD: ${deserializeError(msg.error).message}`);
      return;
    }
    const result = msg.result as LodSelectResult;
    if (!('drawn' in result)) return; // init
    this.selecting = false;
    this.answeredVersion = this.selectVersion;
    this.lastResult = result;
    this.requests = result.requests.filter((r) => !this.failed.has(r.key));
    this.requestCoarser = new Map(result.requests.map((r, i) => [r.key, result.requestCoarser[i]]));
    if (result.problems.length > 0) {
      // Never draw a configuration the seam builder cannot close: keep the drawn one.
      this.options.onError(`planet LOD: drawn set is not 2:1 balanced (${result.problems.length}): ${result.problems.slice(0, 3).join('; ')}`);
    } else if (result.snapshot) {
      this.beginTransaction(result.snapshot);
    }
    this.cancelStaleJobs();
  }

  /** Jobs no transaction and no request needs any more: the camera moved on. */
  private cancelStaleJobs(): void {
    const wanted = new Set(this.requests.map((r) => r.key));
    for (const [id, job] of this.jobs) {
      if (this.tx && (this.tx.chunkIds.get(keyOfId(id)) === id || this.tx.seamIds.get(keyOfId(id)) === id)) continue;
      if (id.startsWith('c:') && wanted.has(keyOfId(id))) continue;
      job.cancel();
      this.jobs.delete(id);
      this.jobPriority.delete(id);
    }
  }

  /**
   * Plans the move from the drawn configuration to `snapshot` (planLodUpdate): pieces that stay
   * exact are kept, chunks with a new restriction and seams reading them are (re)built. Replaces any
   * open transaction (re-planned from what is drawn, not from the cancelled plan).
   */
  private beginTransaction(snapshot: LodSnapshot): void {
    if (this.tx) this.cancelledTransactions++;
    const lod = lodFromSnapshot(this.chunkSpace, snapshot);
    snapshot.homogeneous.forEach((h, i) => { if (h) this.homogeneous.set(snapshot.keys[i], h); });
    const before = this.committed;
    const plan = planLodUpdate(before?.lod ?? null, lod);
    const remesh = new Set(plan.meshChunks);
    const rebuild = new Set(plan.buildSeams);
    const tx: Transaction = {
      lod, snapshot, serial: ++this.txSerial,
      chunkIds: new Map(), seamIds: new Map(), waitingChunks: new Set(), waitingSeams: new Set(),
      index: new Map(snapshot.keys.map((k, i) => [k, i])),
    };
    snapshot.keys.forEach((key, i) => {
      if (!remesh.has(key) && before) {
        tx.chunkIds.set(key, before.chunkIds.get(key)!);
        return;
      }
      tx.chunkIds.set(key, this.homogeneous.has(key) ? null : chunkId(key, snapshot.coarser[i]));
      if (tx.chunkIds.get(key) !== null && !this.cache.has(tx.chunkIds.get(key)!)) tx.waitingChunks.add(key);
    });
    for (const key of snapshot.keys) {
      if (!rebuild.has(key) && before) tx.seamIds.set(key, before.seamIds.get(key)!);
      else tx.waitingSeams.add(key);
    }
    this.tx = tx;
  }

  /** Fills in what finished, starts seams whose pieces are all in, swaps when nothing is left. */
  private advanceTransaction(): void {
    const tx = this.tx;
    if (!tx) return;
    for (const key of tx.waitingChunks) {
      const id = tx.chunkIds.get(key);
      if (id === null || (id !== undefined && this.cache.has(id))) tx.waitingChunks.delete(key);
      else if (this.homogeneous.has(key)) {
        tx.chunkIds.set(key, null);
        tx.waitingChunks.delete(key);
      }
    }
    for (const owner of tx.waitingSeams) {
      const id = tx.seamIds.get(owner);
      if (id !== undefined && (id === null || this.cache.has(id))) tx.waitingSeams.delete(owner);
    }
    if (tx.waitingChunks.size > 0 || tx.waitingSeams.size > 0) return;
    // A piece evicted while waiting (over budget with kept pieces) would leave a gap: re-plan instead.
    for (const id of tx.chunkIds.values()) if (id && !this.cache.has(id)) return this.beginTransaction(tx.snapshot);
    this.commit(tx);
  }

  /** The swap: one frame, the old chunks and seams out, the new ones in. */
  private commit(tx: Transaction): void {
    const next = new Set<string>();
    for (const id of tx.chunkIds.values()) if (id) next.add(id);
    for (const id of tx.seamIds.values()) if (id) next.add(id);
    for (const id of this.drawnIds) {
      if (next.has(id)) continue;
      const entry = this.cache.get(id);
      if (entry?.mesh) entry.mesh.visible = false;
      // Seams are exact for one snapshot only: the replaced ones go now (chunks stay cached for reuse).
      if (entry?.kind === 'seam') this.cache.delete(id);
    }
    for (const id of next) {
      const mesh = this.cache.get(id)?.mesh;
      if (mesh) mesh.visible = true;
    }
    this.drawnIds = next;
    this.committed = { lod: tx.lod, snapshot: tx.snapshot, chunkIds: tx.chunkIds, seamIds: tx.seamIds };
    this.tx = null;
    this.transactions++;
    this.cache.markVisible(next, this.frame);
    this.cache.trim(next);
  }

  private schedule(): void {
    const pool = this.pool;
    if (!pool) return;
    if (this.appliedOffset !== this.priorityOffset) {
      this.appliedOffset = this.priorityOffset;
      for (const [id, job] of this.jobs) job.setPriority((this.jobPriority.get(id) ?? 0) + this.priorityOffset);
    }
    const maxInFlight = JOBS_PER_WORKER * pool.size + 1;
    // Starting a seam copies the boundary records it reads (a few ms): spread them over frames.
    const t0 = performance.now();
    const budgetMs = Math.min(SEAM_START_MAX_MS, Math.max(SEAM_START_MIN_MS, SEAM_START_SHARE * this.frameMs));
    const tx = this.tx;
    if (tx) {
      for (const key of tx.waitingChunks) {
        if (this.jobs.size >= maxInFlight) return;
        const id = tx.chunkIds.get(key)!;
        if (!this.jobs.has(id)) this.runChunk(key, tx.snapshot.coarser[tx.index.get(key)!], id, TRANSACTION_PRIORITY);
      }
      for (const owner of tx.waitingSeams) {
        if (this.jobs.size >= maxInFlight) return;
        if (performance.now() - t0 > budgetMs) break; // the requests below still get a turn
        const sid = tx.seamIds.get(owner);
        if (sid === undefined || (sid !== null && !this.jobs.has(sid) && !this.cache.has(sid))) this.startSeam(tx, owner);
      }
    }
    for (const req of this.requests) {
      if (this.jobs.size >= maxInFlight) break;
      if (this.idsByKey.has(req.key) || this.failed.has(req.key) || this.homogeneous.has(req.key)) continue;
      const coarser = this.requestCoarser.get(req.key) ?? [];
      const id = chunkId(req.key, coarser);
      if (this.jobs.has(id)) continue;
      this.runChunk(req.key, coarser, id, req.priority);
    }
  }

  private runChunk(key: ChunkKey, coarser: ChunkKey[], id: string, priority: number): void {
    const params: PlanetChunkParams = {
      recipe: this.recipe, space: this.space, ...parseChunkKey(key), coarser, simplify: SIMPLIFY, leafId: this.leafPrefix + id,
      workerShare: 1 / this.pool!.size,
    };
    this.track(id, 'chunk', key, this.pool!.run<PlanetChunkResult>('meshPlanetChunk', params, { priority: priority + this.priorityOffset }), priority);
  }

  /** Starts the seam job of `owner` once every piece it reads is in (or settles it as empty). */
  private startSeam(tx: Transaction, owner: ChunkKey): void {
    const i = tx.index.get(owner)!;
    const stitches = tx.snapshot.stitches[i];
    const parts: PlanetSeamPart[] = [];
    const ids: string[] = [];
    const states = new Set<string>();
    for (const key of [owner, ...stitches]) {
      const cid = tx.chunkIds.get(key);
      if (cid === undefined || tx.waitingChunks.has(key)) return;
      if (cid === null) {
        const h = this.homogeneous.get(key)!;
        states.add(h);
        ids.push(`${key}:${h}`);
        parts.push({ key, homogeneous: h, coarser: tx.snapshot.coarser[tx.index.get(key)!] });
      } else {
        const entry = this.cache.get(cid);
        if (!entry) return; // evicted meanwhile: advanceTransaction will not see it either
        states.add('surface');
        ids.push(cid);
        parts.push({ key, leafId: this.leafPrefix + cid, leaves: entry.boundary! });
      }
    }
    if (states.size === 1 && !states.has('surface')) {
      // Every chunk it stitches is empty (or every one full): no sign change, no seam.
      tx.seamIds.set(owner, null);
      tx.waitingSeams.delete(owner);
      return;
    }
    const id = `s:${owner}|${ids.join(';')}`;
    tx.seamIds.set(owner, id);
    if (this.cache.has(id) || this.jobs.has(id)) return;
    // The worker holds the leaves of the chunks it meshed: name them. Only when it did not (another
    // worker meshed one, or it was evicted there) does the job go again with the records.
    const sent = this.seamNeedsLeaves.has(id)
      ? seamPartsToSend(this.chunkSpace, owner, parts)
      : { parts: parts.map((p) => (p.leaves ? { key: p.key, leafId: p.leafId } : p)), transfer: [] };
    const params: PlanetSeamParams = { space: this.space, owner, stitches: [...stitches], parts: sent.parts };
    const priority = TRANSACTION_PRIORITY + 1;
    const job = this.pool!.run<PlanetSeamResult>('buildPlanetSeam', params, { priority: priority + this.priorityOffset, transfer: sent.transfer });
    this.track(id, 'seam', owner, job, priority);
  }

  private track(id: string, kind: 'chunk' | 'seam', key: ChunkKey, job: PoolJob<PlanetChunkResult | PlanetSeamResult>, priority: number): void {
    this.jobs.set(id, job as PoolJob<unknown>);
    this.jobPriority.set(id, priority);
    this.task ??= this.options.progress.begin('generating planet chunks', 0);
    this.task.addTotal(1);
    job.promise.then(
      (result) => {
        if (this.jobs.get(id) !== job) return;
        this.jobs.delete(id);
        this.jobPriority.delete(id);
        this.results.push({ id, kind, key, result });
      },
      (error: unknown) => {
        if (this.jobs.get(id) === job) {
          this.jobs.delete(id);
          this.jobPriority.delete(id);
        }
        this.task?.advance();
        if (error instanceof JobCancelledError || (error as Error)?.name === 'JobCancelledError') return;
        if (kind === 'chunk') this.failed.add(key);
        this.options.onError(`Planet ${kind} ${key} failed: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  }

  private apply(): void {
    const t0 = performance.now();
    while (this.results.length > 0 && performance.now() - t0 < APPLY_BUDGET_MS) {
      const { id, kind, key, result } = this.results.shift()!;
      this.task?.advance();
      if (kind === 'chunk') this.applyChunk(id, key, result as PlanetChunkResult);
      else this.applySeam(id, key, result as PlanetSeamResult);
    }
    this.trimCache();
    if (this.task && this.results.length === 0 && this.jobs.size === 0 && !this.tx) {
      this.task.finish();
      this.task = null;
    }
  }

  private applyChunk(id: string, key: ChunkKey, result: PlanetChunkResult): void {
    this.chunksDone++;
    const w = this.workerMs;
    if (result.homogeneous) {
      this.chunksHomogeneous++;
      w.homogeneous += result.ms;
      this.homogeneous.set(key, result.homogeneous.state);
      this.post({ id: 0, kind: 'homogeneous', params: { key, ...result.homogeneous } });
      return;
    }
    if (this.idsByKey.has(key)) {
      this.chunksRemeshed++;
      w.remesh += result.ms;
    } else {
      w.surface += result.ms;
      w.surfaceSampling += result.sampleMs;
    }
    const entry = this.pieceEntry('chunk', key, result, parseChunkKey(key).face);
    entry.boundary = result.boundary!;
    entry.bytes += boundaryLeavesBytes(entry.boundary);
    this.cache.set(id, entry, entry.bytes, this.frame);
    let ids = this.idsByKey.get(key);
    if (!ids) {
      ids = new Set();
      this.idsByKey.set(key, ids);
      this.readyBatch.push(key);
    }
    ids.add(id);
  }

  private applySeam(id: string, owner: ChunkKey, result: PlanetSeamResult): void {
    this.workerMs.seam += result.ms;
    if (result.missing.length > 0) {
      // schedule() starts it again (its id is neither cached nor running), with the records.
      this.seamNeedsLeaves.add(id);
      this.seamsResent++;
      return;
    }
    this.seamNeedsLeaves.delete(id);
    this.seamsDone++;
    const entry = this.pieceEntry('seam', owner, result, result.vertexFaces);
    this.cache.set(id, entry, entry.bytes, this.frame);
  }

  /** Evicts least-recently-visible pieces over budget, never what is drawn or what the open transaction uses. */
  private trimCache(): void {
    if (!this.cache.overBudget) return;
    const keep = new Set(this.drawnIds);
    if (this.tx) {
      for (const id of this.tx.chunkIds.values()) if (id) keep.add(id);
      for (const id of this.tx.seamIds.values()) if (id) keep.add(id);
    }
    this.cache.trim(keep);
  }

  private pieceEntry(
    kind: 'chunk' | 'seam', key: ChunkKey, r: PlanetChunkResult | PlanetSeamResult, tags: number | Uint8Array,
  ): PieceEntry {
    const chunkMesh: ChunkMesh = { positions: r.positions, normals: r.normals, indices: r.indices, originWorld: r.originM, vertexCells: r.vertexCells };
    let mesh: Mesh | null = null;
    if (r.indices.length > 0) {
      mesh = new Mesh(createBodyGeometry({ positions: r.positions, normals: r.normals, indices: r.indices, bvhRoots: null }), this.materialFor(kind, key));
      mesh.position.set(...r.originM);
      mesh.castShadow = mesh.receiveShadow = true;
      mesh.name = `${kind} ${key}`;
      mesh.visible = false; // until a transaction swaps it in
      mesh.userData.cellSizeM = this.cellSizeM(key);
      mesh.userData.originM = r.originM;
      mesh.userData.kind = kind;
      mesh.userData.level = parseChunkKey(key).level;
      if (this.detail && !this.debugLevels) this.bindDetail(key, mesh);
      this.root.add(mesh);
    }
    const bytes = bodyGeometryBytes(r) + r.vertexCells.byteLength + (typeof tags === 'number' ? 0 : tags.byteLength);
    return { kind, key, mesh, bytes, triangles: r.indices.length / 3, chunkMesh, tags, boundary: null };
  }

  private materialFor(kind: 'chunk' | 'seam', key: ChunkKey): Material {
    if (this.debugLevels) return kind === 'seam' ? this.seamMaterial : this.levelMaterials[parseChunkKey(key).level % this.levelMaterials.length];
    return this.detail ?? this.material;
  }

  /** Keeps drawn meshes on the right material (detail material compiled, debug tint toggled). */
  private updateMaterials(): void {
    for (const id of this.drawnIds) {
      const entry = this.cache.get(id);
      const mesh = entry?.mesh;
      if (!mesh) continue;
      const want = this.materialFor(entry.kind, entry.key);
      if (mesh.material === want) continue;
      if (want === this.detail) this.bindDetail(entry.key, mesh);
      else mesh.material = want;
    }
  }

  private cellSizeM(key: ChunkKey): number {
    return this.chunkSpace.cellSizeM(parseChunkKey(key).level);
  }

  private bindDetail(key: ChunkKey, mesh: Mesh): void {
    mesh.material = this.detail!;
    this.detail!.bindChunk(mesh, { chunkOriginM: mesh.userData.originM as number[], cellSizeM: this.cellSizeM(key), fade: 1 });
  }

  /**
   * Compiles the chunks' standard material off the frame path (KHR_parallel_shader_compile through
   * compileAsync) before the first chunk is shown: otherwise the first commit's frame compiles it
   * (a 50 ms long task on SwiftShader, measured by the planet bench). Once; needs renderer + scene.
   */
  private precompileBase(camera: PerspectiveCamera): void {
    const { renderer, scene } = this.options;
    if (this.basePrecompiled || !renderer || !scene) return;
    this.basePrecompiled = true;
    // With normals like every chunk's: three compiles a standard material for a geometry without
    // them as flat-shaded, and the material would keep that program (faceted terrain, found here).
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new Float32BufferAttribute([0, 0, 0, 1, 0, 0, 0, 1, 0], 3));
    geometry.setAttribute('normal', new Float32BufferAttribute([0, 0, 1, 0, 0, 1, 0, 0, 1], 3));
    geometry.setIndex([0, 1, 2]);
    const probe = new Mesh(geometry, this.material);
    probe.receiveShadow = probe.castShadow = true;
    this.root.add(probe);
    const done = (): void => {
      probe.removeFromParent();
      probe.geometry.dispose();
    };
    renderer.compileAsync(probe, camera, scene).then(done, done); // a failure shows at first draw instead
  }

  /** Compiles the planet's BodyMaterial off the frame path, then switches to it. */
  compileDetail(camera: PerspectiveCamera): void {
    const { renderer, scene } = this.options;
    // Once: called every frame, it must not start a second compile while one is in flight.
    if (!this.options.detailMaterial || !renderer || !scene || this.detailState !== 'none') return;
    this.detailState = 'compiling';
    const material = new BodyMaterial(compileToGlsl(this.recipe), { family: 'default', polarIce: true });
    const probe = new Mesh(undefined, material);
    this.root.add(probe);
    renderer.compileAsync(probe, camera, scene).then(
      () => {
        probe.removeFromParent();
        if (this.detailState !== 'compiling') {
          material.dispose(); // disposed meanwhile
          return;
        }
        this.detail = material;
        this.detailState = 'ready';
      },
      (e: unknown) => {
        probe.removeFromParent();
        material.dispose();
        this.detailState = 'failed';
        this.options.onError(`planet material failed: ${e instanceof Error ? e.message : String(e)}`);
      },
    );
  }

  /**
   * Fits the sun's shadow cascades to the view (the planet's own sun has 3; a shared one, whatever it
   * has): from half the altitude out to the horizon plus the horizon of the highest terrain (relief
   * ≈ 1 % of R), split nearly uniformly (λ 0.97: near the ground a log split would spend the first
   * map on the first metres) — the terrain shadows itself to the horizon.
   */
  fitShadows(camera: PerspectiveCamera): void {
    const altitude = Math.max(0, this.altitude(camera.position));
    const horizon = (h: number): number => Math.sqrt(h * (2 * this.radiusM + h));
    this.sun.fitCascades(camera, {
      nearM: Math.max(camera.near, 0.5 * altitude),
      farM: horizon(altitude) + horizon(0.01 * this.radiusM),
      lambda: 0.97,
    });
  }

  /**
   * Issue 10's crack check: every drawn chunk mesh and seam welded by leaf identity (face, vertex
   * cell) and validated. The drawn set covers the whole shell, so a watertight set is one closed
   * surface: `boundaryEdges` 0. Debug only (hundreds of ms on a full planet).
   */
  crackReport(): PlanetCrackReport {
    const t0 = performance.now();
    const meshes: ChunkMesh[] = [];
    const tags: (number | Uint8Array)[] = [];
    let chunks = 0, seams = 0;
    for (const id of this.drawnIds) {
      const e = this.cache.get(id);
      if (!e?.chunkMesh || e.triangles === 0) continue;
      meshes.push(e.chunkMesh);
      tags.push(e.tags);
      if (e.kind === 'chunk') chunks++;
      else seams++;
    }
    const report = validateMesh(weldMeshes(meshes, tags));
    return { ...report, chunks, seams, ms: performance.now() - t0 };
  }

  stats(): PlanetStats {
    let triangles = 0, seamTriangles = 0, seams = 0;
    for (const id of this.drawnIds) {
      const e = this.cache.get(id);
      if (!e) continue;
      triangles += e.triangles;
      if (e.kind === 'seam') {
        seamTriangles += e.triangles;
        seams++;
      }
    }
    const r = this.lastResult;
    const tx = this.tx;
    const committedLatest = this.committed !== null && r !== null && this.committed.snapshot.keys.length === r.drawn.length &&
      this.committed.snapshot.keys.every((k, i) => k === r.drawn[i]);
    return {
      drawn: this.committed?.snapshot.keys.length ?? 0,
      seams,
      inFlight: this.jobs.size,
      queued: Math.max(0, this.requests.length - this.jobs.size),
      cached: this.cache.size,
      bytes: this.cache.bytes,
      budgetBytes: this.options.budgetBytes ?? 192 * 2 ** 20,
      triangles,
      seamTriangles,
      holes: r?.holes ?? -1,
      leaves: r?.leaves ?? 0,
      prefiltered: r?.prefiltered ?? 0,
      selectMs: r?.selectMs ?? 0,
      chunksDone: this.chunksDone,
      chunksHomogeneous: this.chunksHomogeneous,
      chunksRemeshed: this.chunksRemeshed,
      seamsDone: this.seamsDone,
      seamsResent: this.seamsResent,
      workerMs: { ...this.workerMs },
      transactions: this.transactions,
      cancelledTransactions: this.cancelledTransactions,
      transactionPending: tx ? tx.waitingChunks.size + tx.waitingSeams.size : 0,
      balanceFallbacks: r?.balanceFallbacks ?? 0,
      // No requests left in the LOD worker's own latest answer: chunks that landed since it answered
      // are not drawn until it selects again (flying back out, 'complete' came with 284 fine chunks
      // drawn and the 36 coarse ones selected, all meshed but not yet known to the LOD worker).
      complete: r !== null && !this.selecting && this.answeredVersion === this.lodStateVersion &&
        this.lastSelectHeightPx === this.viewportHeightPx && r.holes === 0 && !tx && committedLatest && this.jobs.size === 0 &&
        this.results.length === 0 && this.readyBatch.length === 0 && this.requests.length === 0,
    };
  }

  statsLine(camera: PerspectiveCamera): string {
    const s = this.stats();
    return (
      `planet R ${(this.radiusM / 1000).toFixed(0)} km · altitude ${formatM(this.altitude(camera.position))}` +
      ` · chunks drawn ${s.drawn} seams ${s.seams} queued ${s.queued} busy ${s.inFlight} cached ${s.cached}` +
      ` · tris ${s.triangles.toLocaleString('en')} · ${(s.bytes / 2 ** 20).toFixed(1)} MiB · select ${s.selectMs.toFixed(0)} ms`
    );
  }

  dispose(): void {
    for (const job of this.jobs.values()) job.cancel();
    this.jobs.clear();
    for (const key of [...this.cache.keys()]) this.cache.delete(key);
    this.lod.terminate();
    this.task?.finish();
    this.material.dispose();
    for (const m of this.levelMaterials) m.dispose();
    this.seamMaterial.dispose();
    this.detail?.dispose();
    this.detailState = 'failed'; // a compile still in flight disposes its material when it lands
    if (this.ownsSun) this.sun.dispose();
    this.root.removeFromParent();
  }
}

/** The chunk key inside a cache id (`c:key|…` or `s:owner|…`). */
function keyOfId(id: string): ChunkKey {
  return id.slice(2, id.indexOf('|'));
}

/** A `PlanetLod` rebuilt from the LOD worker's flattened snapshot (only what planLodUpdate reads). */
function lodFromSnapshot(space: CubeSphereSpace, s: LodSnapshot): PlanetLod {
  const leaves: ChunkAddress[] = s.keys.map((k) => parseChunkKey(k));
  const byKey = new Map<ChunkKey, ChunkAddress>();
  s.keys.forEach((k, i) => byKey.set(k, leaves[i]));
  const seamStitches = new Map<ChunkKey, readonly ChunkKey[]>();
  const seamsReading = new Map<ChunkKey, ChunkKey[]>();
  for (const k of s.keys) seamsReading.set(k, [k]);
  s.keys.forEach((k, i) => {
    seamStitches.set(k, s.stitches[i]);
    for (const t of s.stitches[i]) seamsReading.get(t)!.push(k);
  });
  // `touching` holds only the coarser touching chunks: all planLodUpdate reads from it.
  const touching = new Map<ChunkKey, readonly ChunkKey[]>(s.keys.map((k, i) => [k, s.coarser[i]]));
  return { space, leaves, keys: s.keys, byKey, touching, seamStitches, seamsReading };
}

function formatM(m: number): string {
  return Math.abs(m) >= 10_000 ? `${(m / 1000).toFixed(1)} km` : `${m.toFixed(1)} m`;
}

