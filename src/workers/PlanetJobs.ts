/**
 * A planet's chunk and seam jobs on the body workers: the jobs half of the streaming model's piece
 * provider (src/lod/pieceProvider.ts, issue 44). The model (src/lod/planetStreaming.ts) says which
 * job to run; this registers the planet with the workers, turns a job into its worker parameters,
 * runs it where PlanetChunkJobs says (GPU sampling then a body worker, or JS in a body worker) or
 * as a seam on the pool, and answers through the job's report — with a function that makes the
 * piece (`makePiece`, src/render/planetPieces.ts's `create`, injected by the app), called when the
 * model applies the answer within the app's frame budget. It also counts what the jobs cost
 * (PlanetStats: worker time by kind, re-meshes from kept samples).
 */
import type { ChunkJob, ChunkKey, ChunkOutcome, CubeSphereSpace, JobHandle, JobReport, PlanetJobRunner, SeamJob, SeamOutcome, WorkerPace } from '../lod/index';
import { parseChunkKey } from '../lod/index';
import { BODY_SIMPLIFY, type PackedBoundaryLeaves, type PieceData } from '../mesher/index';
import type { BodyMesher } from './BodyMesher';
import type { BodyDefinition } from '../jobs/bodyRegistry';
import { chunkRelativeEligible } from '../field/index';
import { PlanetChunkJobs, type PlanetGpuStats } from './PlanetChunkJobs';
import type { PlanetChunkParams, PlanetChunkReply } from '../jobs/planetChunkJob';
import type { PlanetSeamParams, PlanetSeamPart, PlanetSeamReply } from '../jobs/planetSeamJob';
import type { GpuSpill } from '../jobs/gpuQueueLimit';
import { JobCancelledError, type PoolJob, type WorkerPool } from './WorkerPool';

/**
 * Jobs handed to the pool per body worker, queued ones included. Jobs are started once a frame, and
 * a worker clears a re-mesh (~10 ms, samples and crossings kept) or a seam (~5 ms) far faster than
 * a software renderer draws a frame (150-300 ms under SwiftShader): with one job in flight the
 * worker sat idle most of each frame. Queued jobs cost nothing when the camera moves on (cancelled
 * unstarted, in the pool or in the worker).
 */
const JOBS_PER_WORKER = 32;

/** What the jobs read of a piece: its size, and a chunk's boundary leaves for the seams that read it. */
export interface JobPiece {
  bytes: number;
  triangles: number;
  /** The name its worker kept the leaves under (a seam's worker that meshed the chunk reads them in place). */
  leafId: string | null;
  leaves: PackedBoundaryLeaves | null;
}

/** Makes the piece of a job's answer (hidden until a commit shows it). */
export type MakePiece<T> = (
  kind: 'chunk' | 'seam', key: ChunkKey, data: PieceData, tags: number | Uint8Array, leafId: string | null, sampledBy: string | null,
) => T;

export interface PlanetJobsOptions<T> {
  /** The id the planet is registered with the workers under (its scene id and chunk space). */
  body: string;
  chunkSpace: CubeSphereSpace;
  /** Outer radius of the recipe (m): with the level's cell size, whether float32 resolves it (GPU sampling). */
  maxRadiusM: number;
  /** Makes this planet's leaf ids unique among the planets sharing the body workers. */
  leafPrefix: string;
  makePiece: MakePiece<T>;
  /** A fixed limit on chunks waiting on the GPU (benchmarks); default: from its throughput. */
  gpuMaxPending?: number;
  gpuSpill?: GpuSpill;
  onError: (message: string) => void;
}

/** Running totals of the applied jobs (PlanetStats). */
export interface PlanetJobStats {
  chunksDone: number;
  seamsDone: number;
  /** Re-meshes that found their chunk's samples kept in their worker (no sampling). */
  remeshesFromKeptSamples: number;
  /** Body-worker time by job kind (ms). */
  workerMs: { surface: number; surfaceSampling: number; homogeneous: number; remesh: number; seam: number };
}

const NO_GPU: PlanetGpuStats = { chunks: 0, failed: 0, queueFull: 0, remeshSampled: 0, meanLatencyMs: 0, enabled: false, pending: 0, limit: 0 };

export class PlanetJobs<T extends JobPiece> implements PlanetJobRunner<T> {
  readonly stats: PlanetJobStats = {
    chunksDone: 0, seamsDone: 0, remeshesFromKeptSamples: 0, workerMs: { surface: 0, surfaceSampling: 0, homogeneous: 0, remesh: 0, seam: 0 },
  };
  private pool: WorkerPool | null = null;
  /** Where chunk jobs run (GPU sampling then a body worker, or JS in a body worker); set by start(). */
  private chunkJobs: PlanetChunkJobs | null = null;
  private release: (() => void) | null = null;
  /** Makes each chunk job's leaf id unique (PlanetPiece.leafId). */
  private leafSerial = 0;

  constructor(private readonly options: PlanetJobsOptions<T>) {}

  /**
   * Registers the planet with the body workers and the GPU sampling worker (its chunk and seam jobs
   * name it from then on); chunk samples come from the GPU sampling worker when the mesher has one
   * (asked per chunk), for every level where it evaluates the field relative to the chunk (every
   * planet class) or else those whose cells float32 resolves, and from JS otherwise.
   */
  start(mesher: BodyMesher, definition: BodyDefinition): void {
    this.pool = mesher.pool;
    this.release = mesher.registerBody(this.options.body, definition);
    const o = this.options;
    this.chunkJobs = new PlanetChunkJobs(mesher.pool, () => mesher.gpuWorker, {
      body: o.body, chunkSpace: o.chunkSpace, maxRadiusM: o.maxRadiusM, gpuMaxPending: o.gpuMaxPending, gpuSpill: o.gpuSpill, onError: o.onError,
      gpuRelative: chunkRelativeEligible(definition.recipe),
    });
  }

  /** The id the planet is registered with the workers under. */
  get body(): string {
    return this.options.body;
  }

  /** Started: jobs can run. */
  get started(): boolean {
    return this.pool !== null;
  }

  /** The most jobs out at once: {@link JOBS_PER_WORKER} a body worker, queued ones included. */
  get maxRunning(): number {
    return JOBS_PER_WORKER * (this.pool?.size ?? 0) + 1;
  }

  /** The workers' pace for the time policy (src/lod/timeFactor.ts): their chunk and seam job totals; null before start. */
  pace(): WorkerPace | null {
    if (!this.pool) return null;
    const w = this.stats.workerMs;
    return { workers: this.pool.size, chunkJobs: this.stats.chunksDone, workerMs: w.surface + w.homogeneous + w.remesh + w.seam };
  }

  /** Chunk jobs sampled on the GPU, failed there, sent to JS with the queue full, … */
  gpuStats(): PlanetGpuStats {
    return this.chunkJobs?.gpuStats() ?? NO_GPU;
  }

  runChunk(job: ChunkJob, report: JobReport<(remesh: boolean) => ChunkOutcome<T>>): JobHandle {
    const pool = this.pool!;
    const a = parseChunkKey(job.key);
    const params: PlanetChunkParams = {
      body: this.options.body, ...a, coarser: job.coarser, simplify: BODY_SIMPLIFY, brushes: job.brushes,
      leafId: `${this.options.leafPrefix}${job.id}#${this.leafSerial++}`, workerShare: 1 / pool.size,
    };
    // Same chunk, same worker: a re-mesh for a new restriction finds the samples it kept (~11 ms
    // instead of ~170 ms on a 16-core machine, where re-meshes on random workers cost a third of
    // all worker time).
    const run = { priority: job.priority, affinity: this.options.leafPrefix + job.key };
    return this.track(this.chunkJobs!.run(params, run, job.remesh), report, `chunk ${job.key}`, (r) => (remesh) => this.chunkOutcome(job, a.face, r, remesh));
  }

  runSeam(job: SeamJob<T>, report: JobReport<() => SeamOutcome<T>>): JobHandle {
    // Each part names its chunk mesh (the worker that meshed it reads its own copy in place) and
    // carries the packed leaves for a worker that did not (a structured clone of ~10 kB a part).
    const parts: PlanetSeamPart[] = job.parts.map((p) => ('piece' in p ? { key: p.key, leafId: p.piece.leafId ?? undefined, packed: p.piece.leaves! } : p));
    const params: PlanetSeamParams = { body: this.options.body, owner: job.owner, stitches: job.stitches, parts };
    const pending = this.pool!.run<PlanetSeamReply>('buildPlanetSeam', params, { priority: job.priority });
    return this.track(pending, report, `seam ${job.owner}`, (r) => () => this.seamOutcome(job, r));
  }

  /** Answers `report` when the job settles: done (with the piece maker), failed (told), or cancelled (not told). */
  private track<R, M>(pending: PoolJob<R>, report: JobReport<M>, what: string, make: (reply: R) => M): JobHandle {
    pending.promise.then(
      (reply) => report.done(make(reply)),
      (error: unknown) => {
        if (error instanceof JobCancelledError || (error as Error)?.name === 'JobCancelledError') return;
        report.failed();
        this.options.onError(`Planet ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
    return pending;
  }

  /** A chunk's answer as the model files it (`remesh`: a piece of the chunk was in when it was applied). */
  private chunkOutcome(job: ChunkJob, face: number, r: PlanetChunkReply, remesh: boolean): ChunkOutcome<T> {
    const s = this.stats;
    const w = s.workerMs;
    s.chunksDone++;
    const childProofs = r.childProofs;
    if (r.homogeneous) {
      w.homogeneous += r.ms;
      return { homogeneous: r.homogeneous, childProofs };
    }
    const piece = this.options.makePiece('chunk', job.key, r.piece!, face, r.leafId ?? null, r.sampledBy ?? null);
    if (remesh) {
      w.remesh += r.ms;
      if (r.sampleMs === 0) s.remeshesFromKeptSamples++;
    } else {
      w.surface += r.ms;
      w.surfaceSampling += r.sampleMs;
    }
    return { piece, bytes: piece.bytes, triangles: piece.triangles, childProofs };
  }

  /** A seam's answer (null: its worker lacked some chunk's leaves; the model starts it again with them). */
  private seamOutcome(job: SeamJob<T>, r: PlanetSeamReply): SeamOutcome<T> {
    this.stats.workerMs.seam += r.ms;
    if (r.missing.length > 0) return null;
    this.stats.seamsDone++;
    const piece = this.options.makePiece('seam', job.owner, r.piece!, r.vertexFaces, null, null);
    return { piece, bytes: piece.bytes, triangles: piece.triangles };
  }

  /** Releases the planet's registration with the workers (its jobs are cancelled by their owner). */
  dispose(): void {
    this.release?.();
    this.release = null;
  }
}
