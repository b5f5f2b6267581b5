/**
 * A piece provider for Node tests of the streaming model (src/lod/pieceProvider.ts): jobs are
 * recorded, not run — the test answers them (`answer`) and the model applies the answers
 * (`applyAll`); pieces are `{ id }` records and what the model shows, hides and disposes is logged.
 */
import type { ChunkJob, ChunkOutcome, JobReport, PlanetPieceProvider, PlanetStreaming, SeamJob, SeamOutcome } from '../../src/lod/index';

export interface FakePiece {
  id: string;
}

export interface FakeJob {
  job: ChunkJob | SeamJob<FakePiece>;
  id: string;
  kind: 'chunk' | 'seam';
  /** The chunk (a seam's owner). */
  key: string;
  priority: number;
  cancelled: boolean;
  report: JobReport<(remesh: boolean) => ChunkOutcome<FakePiece>> | JobReport<() => SeamOutcome<FakePiece>>;
}

export class FakeProvider implements PlanetPieceProvider<FakePiece> {
  /** Every job started, in order. */
  readonly started: FakeJob[] = [];
  /** Jobs started since the last {@link take}. */
  private fresh: FakeJob[] = [];
  /** Called as each job starts (a test's clock can count the start's cost). */
  onStart: () => void = () => {};

  constructor(readonly log: string[] = [], private readonly isReady: (p: FakePiece) => boolean = () => true) {}

  readonly jobs = {
    runChunk: (job: ChunkJob, report: JobReport<(remesh: boolean) => ChunkOutcome<FakePiece>>) => this.track({ job, id: job.id, kind: 'chunk', key: job.key, priority: job.priority, cancelled: false, report }),
    runSeam: (job: SeamJob<FakePiece>, report: JobReport<() => SeamOutcome<FakePiece>>) => this.track({ job, id: job.id, kind: 'seam', key: job.owner, priority: job.priority, cancelled: false, report }),
  };

  readonly pieces = {
    ready: (p: FakePiece) => this.isReady(p),
    show: (p: FakePiece, on: boolean) => void this.log.push(`${on ? 'show' : 'hide'} ${p.id}`),
    dispose: (p: FakePiece) => void this.log.push(`dispose ${p.id}`),
  };

  private track(f: FakeJob): { cancel(): void; setPriority(p: number): void } {
    this.started.push(f);
    this.fresh.push(f);
    this.onStart();
    return { cancel: () => void (f.cancelled = true), setPriority: (p) => void (f.priority = p) };
  }

  /** The jobs started since the last call. */
  take(): FakeJob[] {
    const jobs = this.fresh;
    this.fresh = [];
    return jobs;
  }

  /** Ids of the jobs cancelled so far. */
  cancelledIds(): string[] {
    return this.started.filter((f) => f.cancelled).map((f) => f.id);
  }

  /** A chunk job's answer: a surface piece of `bytes` (the piece is `{ id }`), or a homogeneous one. */
  answerChunk(f: FakeJob, outcome: ChunkOutcome<FakePiece> | number, triangles = 1): void {
    const o: ChunkOutcome<FakePiece> = typeof outcome === 'number' ? { piece: { id: f.id }, bytes: outcome, triangles } : outcome;
    (f.report as JobReport<(remesh: boolean) => ChunkOutcome<FakePiece>>).done(() => o);
  }

  /** A seam job's answer: a piece of `bytes`, or null (its worker lacked some leaves). */
  answerSeam(f: FakeJob, bytes: number | null, triangles = 1): void {
    (f.report as JobReport<() => SeamOutcome<FakePiece>>).done(() => (bytes === null ? null : { piece: { id: f.id }, bytes, triangles }));
  }

  /** Answers any job with a piece of `bytes`. */
  answer(f: FakeJob, bytes: number, triangles = 1): void {
    if (f.kind === 'chunk') this.answerChunk(f, bytes, triangles);
    else this.answerSeam(f, bytes, triangles);
  }
}

/** Applies every finished job (what the app does within its frame budget). */
export function applyAll(m: PlanetStreaming<FakePiece>): void {
  while (m.applyNext());
}
