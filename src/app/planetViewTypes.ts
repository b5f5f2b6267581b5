/** What PlanetView takes and reports: its options, its stats, the crack check's report (types only; the LOD worker's view of the camera is lodView.ts). */
import type { Scene, WebGLRenderer } from 'three';
import type { FieldRecipe } from '../field/index';
import type { Sun } from '../render/Sun';
import type { Atmosphere } from '../render/Atmosphere';
import type { PlanetGroundOptions } from '../render/planetGround';
import type { PiecesCrackReport } from '../render/planetPieces';
import type { PlanetGpuStats } from '../workers/PlanetChunkJobs';
import type { GpuSpill } from '../jobs/gpuQueueLimit';
import type { Progress } from './progress';
import type { ReselectMode } from '../lod/index';

export interface PlanetViewOptions {
  /** The planet's body id (sceneSpec.ts): what its worker registration is named after. */
  bodyId: string;
  recipe: FieldRecipe;
  /** Where the planet's center is, world metres. */
  centerM: [number, number, number];
  /** Unit vector towards the sun: the SceneSpec's (ignored when `sun` is given). */
  sunDirection: [number, number, number];
  /**
   * A sun shared with the rest of the scene (explore: the asteroid field's). The planet then
   * neither adds nor disposes it, and adds no fill light of its own. Default: its own sun.
   */
  sun?: Sun;
  progress: Progress;
  /** A problem to report: 'error' unless `level` says 'warning' (a worker replaced, an error it survived). */
  onError: (message: string, level?: 'warning' | 'error') => void;
  /** Lateral size of the finest cells at the surface, metres (default 1). */
  finestCellM?: number;
  /** Cells per chunk axis (default 32). */
  chunkCells?: number;
  /** Screen-space error that splits a chunk, pixels (default 6). */
  maxScreenErrorPx?: number;
  /** Geometry memory budget, bytes (default 192 MiB): meshes, seams and boundary leaves; planetStreaming.ts keeps to it. */
  budgetBytes?: number;
  /**
   * Seconds a view may take to build at the workers' measured pace before the selection coarsens, and
   * refines again while the camera holds still (src/lod/timeFactor.ts; `lodTime=` in the URL; default
   * DEFAULT_TIME_BUDGET_S; 0: off, as the screenshot CLI renders).
   */
  timeBudgetS?: number;
  /**
   * A fixed limit on planet chunks waiting on the GPU sampler (benchmarks: `?gpuMaxPending=`); past it a
   * new chunk is sampled in JS by its body worker. Default: about a second of the GPU's measured throughput.
   */
  gpuMaxPending?: number;
  /** When a chunk is sampled in JS instead (gpuQueueLimit.ts: default 'limit', a free worker takes chunks past the limit; benchmarks: `?gpuSpill=`). */
  gpuSpill?: GpuSpill;
  /** When selections are asked for besides camera moves and the 1 s timer (lod/reselect.ts; default 'drained'; benchmarks compare: `?reselect=`). */
  reselect?: ReselectMode;
  /** Stop jobs under a chunk proven homogeneous (default true; benchmarks compare: `?prune=0`). */
  pruneUnderProof?: boolean;
  /** File the children a surface chunk's samples prove empty/full (default true; benchmarks compare: `?childProofs=0`). */
  childProofs?: boolean;
  /** Upload new pieces' geometry while they wait for their transaction (default true; benchmarks compare: `?preupload=0`). */
  preuploadGeometry?: boolean;
  renderer?: WebGLRenderer;
  scene?: Scene;
  /** The planet's air on its surface materials (SceneBodies owns and updates it); none: airless. */
  atmosphere?: Atmosphere | null;
  /** The ground's colours by altitude, slope and latitude and its close-range detail (src/render/planetGround.ts); none: one flat tone. */
  ground?: PlanetGroundOptions | null;
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
  /** Pieces drawn in batches, the batches, and their GPU bytes (a second copy of those pieces'; src/render/pieceBatches.ts). */
  batched: number;
  batches: number;
  batchBytes: number;
  holes: number;
  leaves: number;
  /** Chunks settled by a center sample in the LOD worker instead of a job (running total). */
  prefiltered: number;
  selectMs: number;
  chunksDone: number;
  /** Chunk and seam jobs started (running total). */
  jobsStarted: number;
  /** Of chunksDone: chunks found empty or full, and chunks meshed again for a new restriction. */
  chunksHomogeneous: number;
  /** Chunks proven empty or full by their parent's samples (no job of their own; running total). */
  childrenProven: number;
  chunksRemeshed: number;
  /** Of chunksRemeshed: those whose worker still kept the chunk's samples. */
  remeshesFromKeptSamples: number;
  seamsDone: number;
  /** Seam jobs sent again with the records because their worker did not hold some chunk's leaves. */
  seamsResent: number;
  /**
   * Body-worker time by job kind (running totals, ms): chunks with a surface meshed from scratch
   * (and the sampling part of it), chunks found empty or full, re-meshes, seams.
   */
  workerMs: { surface: number; surfaceSampling: number; homogeneous: number; remesh: number; seam: number };
  /**
   * Planet chunks sampled on the GPU; GPU jobs that failed (then sampled in JS); chunks sampled in JS
   * because the GPU queue was full; re-meshes whose worker had not kept the samples (GPU-sampled);
   * mean GPU dispatch → collect time (ms); whether GPU sampling is on; chunks waiting on the GPU now
   * and how many may (its throughput's second).
   */
  gpu: PlanetGpuStats;
  /** Transactions swapped in; snapshots folded into a newer one while a transaction was open (running totals). */
  transactions: number;
  deferredSnapshots: number;
  /** Pieces evicted (running total; never a drawn or wanted one). */
  evicted: number;
  /**
   * The factor on the error threshold (the coarser of the memory and time policies'), the threshold
   * used, bytes protected and predicted (memory policy).
   */
  errorFactor: number;
  /** The memory policy's factor and the time policy's (src/lod/timeFactor.ts), and the seconds the view would take at the workers' pace (NaN: unmeasured or off). */
  memoryFactor: number;
  timeFactor: number;
  predictedS: number;
  thresholdPx: number;
  protectedBytes: number;
  predictedBytes: number;
  /** Jobs of the open transaction still to finish (0 when none). */
  transactionPending: number;
  /** LOD snapshots the worker could not balance by coarsening (the previous one stayed drawn). */
  balanceFallbacks: number;
  /** Selection answered, nothing left to generate and the latest snapshot drawn. */
  complete: boolean;
}

/** Watertightness of what is drawn (debug; issue 10's crack check). */
export type PlanetCrackReport = PiecesCrackReport;
