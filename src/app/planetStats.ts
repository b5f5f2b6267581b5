/**
 * What the planet reports (PlanetView.stats, the overlay's planet line, the benchmarks and the
 * browser tests' "complete"): gathered from the parts PlanetView wires — the streaming model and its
 * jobs, the LOD worker's latest answer, the pieces on the GPU.
 */
import type { LodSelectResult, PlanetStreaming } from '../lod/index';
import type { PlanetPiece, PlanetPieces } from '../render/planetPieces';
import type { PlanetJobs } from '../workers/PlanetJobs';
import type { PlanetStats } from './planetViewTypes';

export interface PlanetStatsSources {
  streaming: PlanetStreaming<PlanetPiece>;
  jobs: PlanetJobs<PlanetPiece>;
  pieces: PlanetPieces;
  /** The LOD worker's latest answer (null before the first). */
  lastResult: LodSelectResult | null;
  /** That answer was given after everything the worker was told, for the viewport's height now. */
  answerCurrent: boolean;
}

export function planetStats({ streaming: m, jobs, pieces, lastResult: r, answerCurrent }: PlanetStatsSources): PlanetStats {
  let triangles = 0, seamTriangles = 0, seams = 0;
  for (const { piece: p } of m.drawnPieces()) {
    triangles += p.triangles;
    if (p.kind === 'seam') {
      seamTriangles += p.triangles;
      seams++;
    }
  }
  const drawnKeys = m.drawnSnapshot?.keys ?? [];
  const committedLatest = r !== null && m.drawnSnapshot !== null && drawnKeys.length === r.drawn.length && drawnKeys.every((k, i) => k === r.drawn[i]);
  const j = jobs.stats;
  return {
    drawn: m.drawnChunks,
    seams,
    inFlight: m.inFlight,
    queued: m.queuedCount,
    cached: m.cachedCount,
    bytes: m.bytes,
    budgetBytes: m.budgetBytes,
    triangles,
    seamTriangles,
    ...pieces.batches.stats(),
    holes: r?.holes ?? -1,
    leaves: r?.leaves ?? 0,
    prefiltered: r?.prefiltered ?? 0,
    selectMs: r?.selectMs ?? 0,
    chunksDone: j.chunksDone,
    jobsStarted: m.counts.chunkJobs + m.counts.seamJobs,
    chunksHomogeneous: m.counts.chunksHomogeneous,
    childrenProven: m.counts.childrenProven,
    chunksRemeshed: m.counts.chunksRemeshed,
    remeshesFromKeptSamples: j.remeshesFromKeptSamples,
    seamsDone: j.seamsDone,
    seamsResent: m.counts.seamsResent,
    workerMs: { ...j.workerMs },
    gpu: jobs.gpuStats(),
    transactions: m.counts.transactions,
    deferredSnapshots: m.counts.deferredSnapshots,
    evicted: m.counts.evicted,
    errorFactor: m.errorFactor,
    memoryFactor: m.memoryFactor,
    timeFactor: m.time.factor,
    predictedS: m.time.predictedS,
    thresholdPx: r?.thresholdPx ?? 0,
    protectedBytes: m.protectedBytes,
    predictedBytes: m.predictedBytes,
    transactionPending: m.transactionPending,
    balanceFallbacks: r?.balanceFallbacks ?? 0,
    // No requests left in the LOD worker's own latest answer, given after everything it was told:
    // chunks that landed since it answered are not drawn until it selects again.
    complete: r !== null && answerCurrent && r.holes === 0 && r.requests.length === 0 && committedLatest && m.idle && m.inFlight === 0 &&
      m.finishedCount === 0 && !pieces.fades.active,
  };
}

/** The overlay's planet line. */
export function planetStatsLine(s: PlanetStats, radiusM: number, altitudeM: number): string {
  const why = [s.memoryFactor > 1.005 ? `×${s.memoryFactor.toFixed(2)} for memory` : '', s.timeFactor > 1.005 ? `×${s.timeFactor.toFixed(2)} for time` : ''].filter(Boolean);
  const factor = why.length > 0 ? ` (${why.join(', ')})` : '';
  return (
    `planet R ${(radiusM / 1000).toFixed(0)} km · altitude ${formatM(altitudeM)}` +
    ` · chunks drawn ${s.drawn} seams ${s.seams} queued ${s.queued} busy ${s.inFlight} cached ${s.cached}` +
    ` · tris ${s.triangles.toLocaleString('en')} · ${(s.bytes / 2 ** 20).toFixed(1)} / ${(s.budgetBytes / 2 ** 20).toFixed(0)} MiB` +
    ` · error ${s.thresholdPx.toFixed(1)} px${factor} · select ${s.selectMs.toFixed(0)} ms` +
    (s.gpu.enabled ? ` · GPU-sampled ${s.gpu.chunks} (${s.gpu.meanLatencyMs.toFixed(1)} ms)` : ' · sampled in JS')
  );
}

function formatM(m: number): string {
  return Math.abs(m) >= 10_000 ? `${(m / 1000).toFixed(1)} km` : `${m.toFixed(1)} m`;
}
