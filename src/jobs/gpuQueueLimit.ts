/**
 * How many planet chunks may wait on the GPU sampler before a new one is sampled in JS by its body
 * worker instead (PlanetChunkJobs). The bound is time, not a count: the queue may hold about
 * {@link GPU_QUEUE_SECONDS} of the GPU's measured throughput. A fixed count was wrong both ways:
 * on the H200 machine 256 sent ~490 chunks of the 20 m teleport to JS sampling on body workers that
 * were the bottleneck (11.1–11.4 s to complete), 768 kept them on the GPU (8.6–8.7 s, same call,
 * alternating); a slow integrated GPU would drain 768 chunks in seconds, long after JS would have.
 * This limit against 256, same call, alternating: 10.9 / 10.4 s against 12.1 / 14.8 s.
 *
 * The rate is the peak seen over windows of completions: completions measure demand as much as
 * the GPU, and a lull (a few chunks asked for, so a few returned) must not shrink the limit before
 * the next burst — which then went to JS sampling on busy body workers.
 *
 * Past the limit the queue is soft (`route`): a chunk goes to JS sampling only when a body worker
 * has nothing else to do, since JS sampling costs a worker 25–40 ms a chunk (on the accelerator
 * machine ~350 chunks spilled onto busy workers were a third of a flight's body-worker time). Busy
 * workers leave chunks on the GPU up to {@link GPU_QUEUE_HARD_FACTOR} limits (about three seconds of
 * its throughput); past that they always go to JS, so a slow GPU never holds a backlog the workers
 * could clear sooner. Measured and not kept: a free worker taking any chunk the GPU would reach
 * after 0.1 s (the planet's 481 jobs out can all wait on the GPU, below the limit, with the pool
 * idle) — on the H100 machine teleports of 5.2 / 8.6 s against 5.2 / 8.2 s and flights of 312–315
 * against 328 chunks/s, for twice the JS sampling time.
 *
 * Pure: the caller reports completions with their time; the limit follows.
 */

/** Seconds of measured GPU throughput the queue may hold. */
export const GPU_QUEUE_SECONDS = 1;
/** Limit before any throughput is measured (the first batches set the rate). */
export const GPU_QUEUE_INITIAL = 256;
/** Bounds whatever the rate: at least a couple of batches, at most what the sampler's buffers should hold. */
export const GPU_QUEUE_MIN = 64;
export const GPU_QUEUE_MAX = 2048;
/** Past this many limits a chunk goes to JS sampling even on busy workers. */
export const GPU_QUEUE_HARD_FACTOR = 3;
/**
 * `route`'s policy past the limit: 'limit' (default: free workers only) or 'always' (busy workers
 * too: the first rule). Benchmarks compare them: `?gpuSpill=`.
 */
export type GpuSpill = 'limit' | 'always';
/** Completions the rate is measured over (several batches of up to 32). */
const WINDOW = 256;
/**
 * Completions before a rate counts: two batches. The teleport's orbit phase leaves ~40 GPU chunks;
 * at 64 the jump's first burst met the initial limit and sent ~250 chunks to JS sampling.
 */
const MIN_MEASURED = 40;

export class GpuQueueLimit {
  private readonly times: number[] = [];
  private peak: number | null = null;
  /** A fixed limit (benchmarks: `?gpuMaxPending=`), or null to follow the throughput. */
  constructor(private readonly fixed: number | null = null, private readonly spill: GpuSpill = 'limit') {}

  /**
   * Where a new chunk is sampled, with `pending` chunks waiting on the GPU and `workerFree`: a body
   * worker has no job and none is queued. A fixed limit (benchmarks) is hard.
   */
  route(pending: number, workerFree: boolean): 'gpu' | 'js' {
    const limit = this.limit;
    if (this.fixed !== null || this.spill === 'always') return pending < limit ? 'gpu' : 'js';
    if (pending >= GPU_QUEUE_HARD_FACTOR * limit) return 'js';
    return pending < limit || !workerFree ? 'gpu' : 'js';
  }
  /** One chunk came back from the GPU at `nowMs`. */
  completed(nowMs: number): void {
    this.times.push(nowMs);
    if (this.times.length > WINDOW) this.times.shift();
    const rate = this.windowRate();
    if (rate !== null && (this.peak === null || rate > this.peak)) this.peak = rate;
  }

  /** The highest throughput seen (chunks per second over a window of completions), or null before enough were seen. */
  get rate(): number | null {
    return this.peak;
  }

  private windowRate(): number | null {
    const n = this.times.length;
    if (n < MIN_MEASURED) return null;
    const first = this.times[0];
    const spanS = (this.times[n - 1] - first) / 1000;
    if (!(spanS > 0)) return null;
    // Completions come in batches with one time: count those after the window's first instant.
    let atFirst = 1;
    while (this.times[atFirst] === first) atFirst++;
    return (n - atFirst) / spanS;
  }

  /** Chunks that may be pending on the GPU now. */
  get limit(): number {
    if (this.fixed !== null) return this.fixed;
    const rate = this.rate;
    if (rate === null) return GPU_QUEUE_INITIAL;
    return Math.round(Math.min(GPU_QUEUE_MAX, Math.max(GPU_QUEUE_MIN, rate * GPU_QUEUE_SECONDS)));
  }
}
