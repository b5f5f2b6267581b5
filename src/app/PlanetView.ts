/**
 * A planet drawn as cube-sphere chunk LOD (issue 9): selection in a worker (src/lod is pure,
 * and slow enough near the surface that it must stay off the main thread), chunk jobs on the
 * body worker pool, a budgeted apply step, the drawn set from the worker (a parent stays until
 * its children are in, so no hole shows), and a geometry cache with least-recently-visible
 * eviction that disposes in exactly one place.
 *
 * Positions: chunk meshes are relative to their chunk origin (float64, body-local); the root
 * sits at the planet centre; the app's floating origin does the rest.
 */
import {
  Color,
  Frustum,
  Group,
  HemisphereLight,
  Matrix4,
  Sphere,
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
import { GeometryCache, parseChunkKey, type ChunkKey, type ChunkRequest, type CubeSphereOptions } from '../lod/index';
import { BodyMaterial } from '../render/BodyMaterial';
import { Sun } from '../render/Sun';
import { bodyGeometryBytes, createBodyGeometry } from '../render/bodyGeometry';
import type { LodSelectResult, LodWorkerRequest } from '../workers/lod.worker';
import type { PlanetChunkParams, PlanetChunkResult } from '../workers/planetChunkJob';
import { JobCancelledError, type PoolJob, type WorkerPool } from '../workers/WorkerPool';
import { deserializeError, type WorkerResponse } from '../workers/protocol';
import type { Progress, ProgressTask } from './progress';

export interface PlanetViewOptions {
  recipe: FieldRecipe;
  /** Where the planet's centre is, world metres. */
  centerM: [number, number, number];
  /** Unit vector towards the sun. */
  sunDirection?: [number, number, number];
  progress: Progress;
  onError: (message: string) => void;
  /** Lateral size of the finest cells at the surface, metres (default 1). */
  finestCellM?: number;
  /** Cells per chunk axis (default 32). */
  chunkCells?: number;
  /** Screen-space error that splits a chunk, pixels (default 6). */
  maxScreenErrorPx?: number;
  /** Geometry memory budget, bytes (default 192 MiB). */
  budgetBytes?: number;
  /** Per-pixel field material (quality high). */
  detailMaterial?: boolean;
  renderer?: WebGLRenderer;
  scene?: Scene;
}

export interface PlanetStats {
  drawn: number;
  inFlight: number;
  queued: number;
  cached: number;
  bytes: number;
  budgetBytes: number;
  triangles: number;
  holes: number;
  leaves: number;
  /** Chunks settled by a centre sample in the LOD worker instead of a job (running total). */
  prefiltered: number;
  selectMs: number;
  chunksDone: number;
  /** Selection answered and nothing left to generate for it. */
  complete: boolean;
}

interface ChunkEntry {
  mesh: Mesh | null;
  bytes: number;
  triangles: number;
}

const SIMPLIFY = 0.02;
const APPLY_BUDGET_MS = 4;
/** Re-select when the camera moved this fraction of its altitude (or a second has passed). */
const RESELECT_MOVE = 0.02;

const frustum = new Frustum();
const scratchLocal = new Vector3();
const shadowSphere = new Sphere();
const viewProjection = new Matrix4();

export class PlanetView {
  readonly root = new Group();
  readonly sun: Sun;
  readonly recipe: FieldRecipe;
  readonly radiusM: number;
  readonly space: CubeSphereOptions;
  private readonly field: FieldFn;
  private readonly lod: Worker;
  private readonly cache: GeometryCache<ChunkEntry>;
  private readonly material: Material;
  private detail: BodyMaterial | null = null;
  private readonly inFlight = new Map<ChunkKey, PoolJob<PlanetChunkResult>>();
  private readonly results: { key: ChunkKey; result: PlanetChunkResult }[] = [];
  private readonly failed = new Set<ChunkKey>();
  private requests: ChunkRequest[] = [];
  private drawn = new Set<ChunkKey>();
  private pool: WorkerPool | null = null;
  private selecting = false;
  private lastSelectAt = -Infinity;
  private readonly lastSelectCamera = new Vector3(Infinity, 0, 0);
  private lastResult: LodSelectResult | null = null;
  private frame = 0;
  private task: ProgressTask | null = null;
  private readyBatch: ChunkKey[] = [];
  private nextId = 1;
  chunksDone = 0;

  constructor(private readonly options: PlanetViewOptions) {
    this.recipe = options.recipe;
    const bounds = recipeBounds(options.recipe);
    this.radiusM = bounds.sphereRadiusM;
    this.field = compileToJs(options.recipe);
    this.root.name = `planet ${options.recipe.name ?? ''}`;
    this.root.position.set(...options.centerM);
    this.sun = new Sun({ direction: options.sunDirection ?? [0.6, 0.35, 0.72] });
    this.root.add(this.sun, new HemisphereLight(0x2a3040, 0x050403, 0.2));
    this.space = { radiusM: this.radiusM, chunkCells: options.chunkCells ?? 32, finestCellM: options.finestCellM ?? 1 };
    this.material = new MeshStandardMaterial({ color: new Color(0.26, 0.24, 0.21), roughness: 0.95 });
    this.cache = new GeometryCache<ChunkEntry>({
      budgetBytes: options.budgetBytes ?? 192 * 2 ** 20,
      // The one place planet chunk geometry leaves the scene and the GPU.
      dispose: (key, entry) => {
        entry.mesh?.removeFromParent();
        entry.mesh?.geometry.dispose();
        this.post({ id: 0, kind: 'evicted', params: { keys: [key] } });
      },
    });
    this.lod = new Worker(new URL('../workers/lod.worker.ts', import.meta.url), { type: 'module', name: 'planet-lod' });
    this.lod.onmessage = (e: MessageEvent<WorkerResponse<LodSelectResult>>) => this.onLodMessage(e.data);
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
    this.lod.postMessage(msg);
  }

  /** The field at a world point: about the altitude above the surface, metres. */
  altitude(pointWorld: Vector3): number {
    const c = this.root.position;
    return this.field(pointWorld.x - c.x, pointWorld.y - c.y, pointWorld.z - c.z);
  }

  update(camera: PerspectiveCamera, viewportHeightPx: number, now = performance.now()): void {
    this.frame++;
    if (this.readyBatch.length > 0) {
      this.post({ id: 0, kind: 'ready', params: { keys: this.readyBatch } });
      this.readyBatch = [];
    }
    const altitude = Math.max(1, this.altitude(camera.position));
    const moved = camera.position.distanceTo(this.lastSelectCamera) > RESELECT_MOVE * altitude;
    if (!this.selecting && (moved || now - this.lastSelectAt > 1000)) this.select(camera, viewportHeightPx, now);
    this.schedule();
    this.apply();
    if (this.detail) {
      // The body material's per-pixel normals need each mesh's chunk origin and cell size.
      for (const key of this.drawn) {
        const mesh = this.cache.get(key)?.mesh;
        if (mesh && mesh.material !== this.detail) this.bindDetail(key, mesh);
      }
    }
  }

  private select(camera: PerspectiveCamera, heightPx: number, now: number): void {
    this.selecting = true;
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
    this.lastResult = result;
    this.requests = result.requests.filter((r) => !this.failed.has(r.key));
    const drawn = new Set(result.drawn);
    for (const key of this.drawn) if (!drawn.has(key)) this.setVisible(key, false);
    for (const key of drawn) this.setVisible(key, true);
    this.drawn = drawn;
    this.cache.markVisible(drawn, this.frame);
    this.cache.trim(drawn);
    // Jobs for chunks no longer requested are stale: the camera moved on.
    const wanted = new Set(this.requests.map((r) => r.key));
    for (const [key, job] of this.inFlight) {
      if (!wanted.has(key)) {
        job.cancel();
        this.inFlight.delete(key);
      }
    }
  }

  private setVisible(key: ChunkKey, visible: boolean): void {
    const mesh = this.cache.get(key)?.mesh;
    if (mesh) mesh.visible = visible;
  }

  private schedule(): void {
    const pool = this.pool;
    if (!pool) return;
    const maxInFlight = pool.size + 1;
    for (const req of this.requests) {
      if (this.inFlight.size >= maxInFlight) break;
      if (this.inFlight.has(req.key) || this.cache.has(req.key) || this.failed.has(req.key)) continue;
      const a = parseChunkKey(req.key);
      const params: PlanetChunkParams = { recipe: this.recipe, space: this.space, ...a, coarser: [], simplify: SIMPLIFY };
      const job = pool.run<PlanetChunkResult>('meshPlanetChunk', params, { priority: req.priority });
      this.inFlight.set(req.key, job);
      this.task ??= this.options.progress.begin('generating planet chunks', 0);
      this.task.addTotal(1);
      job.promise.then(
        (result) => {
          if (this.inFlight.get(req.key) !== job) return;
          this.inFlight.delete(req.key);
          this.results.push({ key: req.key, result });
        },
        (error: unknown) => {
          if (this.inFlight.get(req.key) === job) this.inFlight.delete(req.key);
          this.task?.advance();
          if (error instanceof JobCancelledError || (error as Error)?.name === 'JobCancelledError') return;
          this.failed.add(req.key);
          this.options.onError(`Planet chunk ${req.key} failed: ${error instanceof Error ? error.message : String(error)}`);
        },
      );
    }
  }

  private apply(): void {
    const t0 = performance.now();
    while (this.results.length > 0 && performance.now() - t0 < APPLY_BUDGET_MS) {
      const { key, result } = this.results.shift()!;
      this.chunksDone++;
      this.task?.advance();
      if (result.homogeneous) {
        this.post({ id: 0, kind: 'homogeneous', params: { key, ...result.homogeneous } });
        continue;
      }
      let entry: ChunkEntry = { mesh: null, bytes: 0, triangles: 0 };
      if (result.indices.length > 0) {
        const mesh = new Mesh(createBodyGeometry({ positions: result.positions, normals: result.normals, indices: result.indices, bvhRoots: null }), this.detail ?? this.material);
        mesh.position.set(...result.originM);
        mesh.castShadow = mesh.receiveShadow = true;
        mesh.name = key;
        mesh.visible = false; // until the LOD worker puts it in the drawn set
        mesh.userData.cellSizeM = this.cellSizeM(key);
        mesh.userData.originM = result.originM;
        if (this.detail) this.bindDetail(key, mesh);
        this.root.add(mesh);
        entry = { mesh, bytes: bodyGeometryBytes(result), triangles: result.indices.length / 3 };
      }
      this.cache.set(key, entry, entry.bytes, this.frame);
      this.readyBatch.push(key);
    }
    if (this.task && this.results.length === 0 && this.inFlight.size === 0 && this.requests.every((r) => this.cache.has(r.key) || this.failed.has(r.key))) {
      this.task.finish();
      this.task = null;
    }
  }

  private cellSizeM(key: ChunkKey): number {
    const level = parseChunkKey(key).level;
    return (this.options.finestCellM ?? 1) * 2 ** level;
  }

  private bindDetail(key: ChunkKey, mesh: Mesh): void {
    mesh.material = this.detail!;
    this.detail!.bindChunk(mesh, { chunkOriginM: mesh.userData.originM as number[], cellSizeM: this.cellSizeM(key), fade: 1 });
  }

  /** Compiles the planet's BodyMaterial off the frame path, then switches to it. */
  compileDetail(camera: PerspectiveCamera): void {
    const { renderer, scene } = this.options;
    if (!this.options.detailMaterial || !renderer || !scene || this.detail) return;
    const material = new BodyMaterial(compileToGlsl(this.recipe), { family: 'default', polarIce: true, craterShading: true });
    const probe = new Mesh(undefined, material);
    this.root.add(probe);
    renderer.compileAsync(probe, camera, scene).then(
      () => {
        probe.removeFromParent();
        this.detail = material;
      },
      (e: unknown) => {
        probe.removeFromParent();
        material.dispose();
        this.options.onError(`planet material failed: ${e instanceof Error ? e.message : String(e)}`);
      },
    );
  }

  /**
   * Fits the sun's shadow map around the ground below the camera: the whole planet from orbit,
   * a few altitudes across near the surface (the terrain shadows itself there).
   */
  fitShadows(camera: PerspectiveCamera): void {
    const local = scratchLocal.copy(camera.position).sub(this.root.position);
    const altitude = Math.max(0, this.altitude(camera.position));
    const radius = Math.min(this.radiusM * 1.2, Math.max(200, altitude * 4));
    const ground = local.setLength(this.radiusM);
    this.sun.fitShadow(shadowSphere.set(ground, radius));
  }

  stats(): PlanetStats {
    let triangles = 0;
    for (const key of this.drawn) triangles += this.cache.get(key)?.triangles ?? 0;
    const r = this.lastResult;
    return {
      drawn: this.drawn.size,
      inFlight: this.inFlight.size,
      queued: Math.max(0, this.requests.length - this.inFlight.size),
      cached: this.cache.size,
      bytes: this.cache.bytes,
      budgetBytes: this.options.budgetBytes ?? 192 * 2 ** 20,
      triangles,
      holes: r?.holes ?? -1,
      leaves: r?.leaves ?? 0,
      prefiltered: r?.prefiltered ?? 0,
      selectMs: r?.selectMs ?? 0,
      chunksDone: this.chunksDone,
      complete: r !== null && !this.selecting && r.holes === 0 && this.inFlight.size === 0 && this.results.length === 0 &&
        this.requests.every((q) => this.cache.has(q.key) || this.failed.has(q.key)),
    };
  }

  statsLine(camera: PerspectiveCamera): string {
    const s = this.stats();
    return (
      `planet R ${(this.radiusM / 1000).toFixed(0)} km · altitude ${formatM(this.altitude(camera.position))}` +
      ` · chunks drawn ${s.drawn} queued ${s.queued} busy ${s.inFlight} cached ${s.cached}` +
      ` · tris ${s.triangles.toLocaleString('en')} · ${(s.bytes / 2 ** 20).toFixed(1)} MiB · select ${s.selectMs.toFixed(0)} ms`
    );
  }

  dispose(): void {
    for (const job of this.inFlight.values()) job.cancel();
    this.inFlight.clear();
    for (const key of [...this.cache.keys()]) this.cache.delete(key);
    this.lod.terminate();
    this.task?.finish();
    this.material.dispose();
    this.detail?.dispose();
    this.sun.dispose();
    this.root.removeFromParent();
  }
}

function formatM(m: number): string {
  return Math.abs(m) >= 10_000 ? `${(m / 1000).toFixed(1)} km` : `${m.toFixed(1)} m`;
}

