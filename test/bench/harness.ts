/**
 * Benchmark harness shared by Node benchmarks (`test/bench/*.bench.ts`) and the
 * browser bench page (`bench.html`). Each benchmark is timed over several runs after
 * warm-up and reported as median / min / max, so numbers from a shared, noisy machine
 * can still be compared. Keep the row format stable: `test-results/bench.json` is
 * compared across commits.
 */

/** One line of `test-results/bench.json`. */
export interface BenchRow {
  name: string;
  unit: string;
  median: number;
  min: number;
  max: number;
  runs: number;
  notes: string;
}

export interface Benchmark {
  /** Unique, stable name, e.g. `mesher/dc/64^3/total`. `npm run bench -- <filter>` matches it. */
  name: string;
  /** Unit of the reported value: `ms` unless `toValue` converts a duration into something else. */
  unit: string;
  /** Timed runs after warm-up (default 7). */
  runs?: number;
  /** Untimed runs first (default 2). */
  warmup?: number;
  /** Untimed preparation, once before warm-up. */
  setup?: () => void | Promise<void>;
  /** The timed work. */
  run: () => unknown | Promise<unknown>;
  /**
   * Turn one run's duration (ms) into the reported value, e.g. evaluations per second.
   * Median/min/max are taken over the converted values.
   */
  toValue?: (ms: number) => number;
  /** Untimed, once after the runs and before `notes` (e.g. fetch a worker's counters for the notes). */
  teardown?: () => void | Promise<void>;
  /** Free-form context: sizes, the peer compared against, ratios. Called after the runs. */
  notes?: string | (() => string);
  /**
   * More rows measured by the same runs (e.g. long tasks and frame gaps of a generation
   * run), built after the runs with {@link rowFrom}.
   */
  extraRows?: () => BenchRow[];
}

/** A row from per-run samples (median/min/max over them). */
export function rowFrom(name: string, unit: string, samples: readonly number[], notes = ''): BenchRow {
  return { name, unit, median: median(samples), min: Math.min(...samples), max: Math.max(...samples), runs: samples.length, notes };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid]);
}

const now: () => number =
  typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

/** Runs one benchmark and returns its rows (its own, then any extra rows). */
export async function runBenchmark(bench: Benchmark): Promise<BenchRow[]> {
  const runs = bench.runs ?? 7;
  const warmup = bench.warmup ?? 2;
  if (bench.setup) await bench.setup();
  for (let i = 0; i < warmup; i++) await bench.run();
  const values: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = now();
    await bench.run();
    const ms = now() - t0;
    values.push(bench.toValue ? bench.toValue(ms) : ms);
  }
  if (bench.teardown) await bench.teardown();
  const notes = typeof bench.notes === 'function' ? bench.notes() : (bench.notes ?? '');
  return [rowFrom(bench.name, bench.unit, values, notes), ...(bench.extraRows?.() ?? [])];
}

/** Marks a row's notes whose run threw: `FAILED: <message>` (see {@link failedRow}). */
export const FAILED = 'FAILED';

/**
 * The row of a benchmark that threw: the same fields as any row (the format stays stable), no runs,
 * 0 for the values, and the notes start with `FAILED:` and say what happened. The bench goes on.
 */
export function failedRow(name: string, unit: string, error: unknown): BenchRow {
  const message = error instanceof Error ? error.message : String(error);
  return { name, unit, median: 0, min: 0, max: 0, runs: 0, notes: `${FAILED}: ${message.split('\n')[0].slice(0, 300)}` };
}

/**
 * Runs every benchmark whose name contains `filter` (all when empty), in order. One that throws
 * gives its {@link failedRow} and the rest still run.
 */
export async function runBenchmarks(
  benches: readonly Benchmark[],
  filter: string,
  onRow?: (row: BenchRow) => void,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const bench of benches) {
    if (filter && !bench.name.includes(filter)) continue;
    let benchRows: BenchRow[];
    try {
      benchRows = await runBenchmark(bench);
    } catch (e) {
      benchRows = [failedRow(bench.name, bench.unit, e)];
    }
    for (const row of benchRows) {
      rows.push(row);
      onRow?.(row);
    }
  }
  return rows;
}
