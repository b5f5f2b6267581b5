/**
 * What the planet's streaming model (planetStreaming.ts) is given to do its work (issue 44): a
 * piece provider, after CesiumJS's `QuadtreePrimitive` and its `TileProvider` — the model decides
 * what to run, keep, show and drop; the provider says how a job runs and what a piece is. Two
 * halves, implemented in two layers and wired by the app (PlanetView):
 *
 * - **jobs** ({@link PlanetJobRunner}, src/workers/PlanetJobs.ts): starts chunk and seam jobs and
 *   answers each through its {@link JobReport}; the handle cancels or re-prioritises it.
 * - **pieces** ({@link PlanetPieceSink}, src/render/planetPieces.ts): whether a piece is ready to
 *   show (its geometry on the GPU), showing or hiding it, and the one place it is disposed.
 *
 * A finished job does not hand over a piece but a function that makes one (`make`): the model calls
 * it when the app applies finished jobs within its frame budget (src/app/budgetedApply.ts), so
 * turning a worker's answer into GPU geometry never runs in a promise callback outside that budget.
 * Pure types; Node tests implement both halves with a fake (test/lod/fakeProvider.ts).
 */
import type { Brush } from '../field/index.ts';
import type { ChunkKey } from './chunkKey.ts';
import type { ChildProof } from './culling.ts';

/** A chunk job to run: mesh `key` with its coarser neighbours, within the brushes that reach it. */
export interface ChunkJob {
  kind: 'chunk';
  /** The piece id its answer will have (`c:key|coarser…#revision`). */
  id: string;
  key: ChunkKey;
  coarser: ChunkKey[];
  /** Pool priority, the app's offset included (higher first). */
  priority: number;
  /** The user's brushes that reach the chunk (issue 19; empty: the generated planet). */
  brushes: Brush[];
  /** A piece of this chunk is cached (any restriction): the job re-meshes it, and its worker may have kept the samples. */
  remesh: boolean;
}

/** One chunk a seam reads: a cached chunk piece, or a homogeneous chunk (leaves synthesised by the job). */
export type SeamPart<T> = { key: ChunkKey; piece: T } | { key: ChunkKey; homogeneous: 'empty' | 'full' };

/** A seam job to run: the owner's seam with its stitched neighbours, from their pieces' boundary leaves. */
export interface SeamJob<T> {
  kind: 'seam';
  /** The piece id its answer will have (`s:owner|part ids`). */
  id: string;
  owner: ChunkKey;
  stitches: ChunkKey[];
  /** The owner and every stitched chunk, in that order. */
  parts: SeamPart<T>[];
  priority: number;
}

/**
 * What a chunk job brought: a piece (a surface), or a homogeneous answer; either may prove some of the
 * chunk's eight children empty or full (culling.ts `childProofs`, by child index).
 */
export type ChunkOutcome<T> = ({ homogeneous: { state: 'empty' | 'full'; proven: boolean } } | { piece: T; bytes: number; triangles: number }) & {
  childProofs?: readonly ChildProof[];
};

/** What a seam job brought; null: its worker lacked some chunk's leaves (the seam is started again). */
export type SeamOutcome<T> = { piece: T; bytes: number; triangles: number } | null;

/**
 * How a job's end is told, once. `done(make)`: it finished, and `make` turns its answer into an
 * outcome when the model applies it (a chunk's is told whether a piece of the chunk was cached
 * then: a re-mesh). `failed()`: it failed for good (the provider reports the error). A job
 * cancelled through its handle is not told.
 */
export interface JobReport<Make> {
  done(make: Make): void;
  failed(): void;
}

/** A running job, as its starter holds it. */
export interface JobHandle {
  cancel(): void;
  /** Re-prioritises a job still queued. */
  setPriority(priority: number): void;
}

/** The jobs half of the provider (src/workers/PlanetJobs.ts). */
export interface PlanetJobRunner<T> {
  runChunk(job: ChunkJob, report: JobReport<(remesh: boolean) => ChunkOutcome<T>>): JobHandle;
  runSeam(job: SeamJob<T>, report: JobReport<() => SeamOutcome<T>>): JobHandle;
}

/** The pieces half of the provider (src/render/planetPieces.ts). */
export interface PlanetPieceSink<T> {
  /**
   * Whether a piece can be shown without work in the commit's frame (its geometry uploaded). A
   * transaction whose pieces are all in waits for this, up to COMMIT_UPLOAD_WAIT_MS.
   */
  ready(piece: T): boolean;
  /** Shows or hides a piece (commits). */
  show(piece: T, visible: boolean): void;
  /** The one place a piece leaves (evicted, replaced, deleted). */
  dispose(piece: T): void;
}

/** The piece provider: both halves. */
export interface PlanetPieceProvider<T> {
  jobs: PlanetJobRunner<T>;
  pieces: PlanetPieceSink<T>;
}
