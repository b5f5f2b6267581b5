/**
 * `npm run bench [-- <filter>] [--node-only | --browser-only]`
 *
 * Runs the Node benchmarks (`test/bench/*.bench.ts`) here, then builds the app and drives
 * the production `bench.html` in headless Chromium, collecting the rows it POSTs to
 * `/results`, and loads the explore scene in fresh browsers for `explore/cold-start` (coldStart.ts) and
 * times brush edits (`physics/brush/…`, brushEdits.ts) and whole frames (`render/explore|planet-surface/…`,
 * renderFrames.ts) in the app. Prints one table and writes `test-results/bench.json` (an array of rows).
 *
 * It never aborts on a row (issue 43): a wait that reaches its cap gives a row whose notes say
 * `CAPPED at N s` (capped.ts), a row that throws gives a `FAILED: …` row (harness.ts), and the rest
 * still run. The exit code is 0 unless a row FAILED (capped rows are a slow machine, not an error).
 */
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serveStatic } from '../../scripts/staticServer';
import { FAILED, failedRow, runBenchmarks, type Benchmark, type BenchRow } from './harness';
import { COLD_START_ROW, coldStartRows } from './coldStart';
import { BRUSH_ROWS, brushRows } from './brushEdits';
import { RENDER_ROWS, renderRows } from './renderFrames';
import { PLANET_LOAD_ROWS, planetLoadRows } from './planetLoad';

const ROOT = resolve(import.meta.dirname, '../..');
const BENCH_DIR = join(ROOT, 'test/bench');
const BROWSER_TIMEOUT_MS = 20 * 60_000;

const args = process.argv.slice(2);
const nodeOnly = args.includes('--node-only');
const browserOnly = args.includes('--browser-only');
const filter = args.find((a) => !a.startsWith('--')) ?? '';

function printRow(row: BenchRow): void {
  const n = (x: number): string => (Math.abs(x) >= 1e5 ? x.toExponential(3) : x.toPrecision(4)).padStart(10);
  console.log(
    `${row.name.padEnd(44)} ${n(row.median)} ${n(row.min)} ${n(row.max)}  ${row.unit.padEnd(8)} ${String(row.runs).padStart(3)}  ${row.notes}`,
  );
}

async function nodeBenchmarks(): Promise<BenchRow[]> {
  const files = readdirSync(BENCH_DIR)
    .filter((f) => f.endsWith('.bench.ts'))
    .sort();
  const rows: BenchRow[] = [];
  for (const file of files) {
    let benches: Benchmark[];
    try {
      const mod = (await import(pathToFileURL(join(BENCH_DIR, file)).href)) as { benchmarks?: Benchmark[] };
      if (!Array.isArray(mod.benchmarks)) throw new Error(`${file} does not export \`benchmarks: Benchmark[]\``);
      benches = mod.benchmarks;
    } catch (e) {
      const row = failedRow(`node/${file}`, '-', e);
      printRow(row);
      rows.push(row);
      continue;
    }
    rows.push(...(await runBenchmarks(benches, filter, printRow)));
  }
  return rows;
}

async function browserBenchmarks(): Promise<BenchRow[]> {
  const { build } = await import('vite');
  const { launchChromium } = await import('../../scripts/chromium');
  const outDir = mkdtempSync(join(tmpdir(), 'sr-bench-'));
  console.log(`building the bench page into ${outDir} …`);
  await build({ root: ROOT, configFile: join(ROOT, 'vite.config.ts'), logLevel: 'error', build: { outDir } });

  let resolveResults: (body: string) => void = () => {};
  const results = new Promise<string>((r) => (resolveResults = r));
  const server = await serveStatic(outDir, { onPost: { path: '/results', handle: (body) => resolveResults(body) } });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    page.on('pageerror', (e) => console.error(`[bench page] ${e.message}`));
    // BENCH_TELEPORT_CAP_S: a longer cap for the planet teleports (a software renderer with one body
    // worker needs minutes to complete them; the default 60 s suits a GPU machine).
    const cap = process.env.BENCH_TELEPORT_CAP_S ? `&teleportCapS=${encodeURIComponent(process.env.BENCH_TELEPORT_CAP_S)}` : '';
    // BENCH_LOD_TIME: the planet rows' time budget (s; 0: off; default the app's, src/lod/timeFactor.ts).
    const lodTime = process.env.BENCH_LOD_TIME ? `&lodTime=${encodeURIComponent(process.env.BENCH_LOD_TIME)}` : '';
    await page.goto(`${server.url}/bench.html?filter=${encodeURIComponent(filter)}${cap}${lodTime}`, { timeout: BROWSER_TIMEOUT_MS });
    const timeout = new Promise<string>((resolve) =>
      setTimeout(() => resolve(JSON.stringify({ rows: [], error: null, renderer: 'unknown', capped: true })), BROWSER_TIMEOUT_MS).unref(),
    );
    const posted = JSON.parse(await Promise.race([results, timeout])) as {
      rows: BenchRow[];
      error: string | null;
      renderer: string;
      capped?: boolean;
    };
    console.log(`browser: ${await browser.version()}, WebGL renderer: ${posted.renderer}`);
    for (const row of posted.rows) {
      row.notes = `${row.notes}${row.notes ? '; ' : ''}renderer=${posted.renderer}`;
      printRow(row);
    }
    const rows = posted.rows;
    const pageRow = (row: BenchRow): void => {
      printRow(row);
      rows.push(row);
    };
    // The page's rows are what it posted; a page that never posted (or failed outside a row) is a row too.
    if (posted.capped) {
      const cap = BROWSER_TIMEOUT_MS / 1000;
      pageRow({ name: 'bench-page', unit: 's', median: cap, min: cap, max: cap, runs: 0, notes: `CAPPED at ${cap} s: bench.html did not report; its rows are missing` });
    }
    if (posted.error) pageRow(failedRow('bench-page', '-', posted.error));
    /** A group of app rows; one that throws outside its rows is a FAILED row and the rest go on. */
    const group = async (name: string, make: () => Promise<BenchRow[]>): Promise<BenchRow[]> => {
      try {
        return await make();
      } catch (e) {
        return [failedRow(name, '-', e)];
      }
    };
    // Page load → settled, each in a fresh browser (coldStart.ts): not a bench.html row.
    if (!filter || COLD_START_ROW.includes(filter)) {
      for (const row of await group(COLD_START_ROW, () => coldStartRows(server.url))) {
        row.notes = `${row.notes}; renderer=${posted.renderer}`;
        printRow(row);
        rows.push(row);
      }
    }
    // A dig → its drawn frame, and whole app frames, in the app (brushEdits.ts, renderFrames.ts).
    const appRows = [
      ...(!filter || BRUSH_ROWS.some((r) => r.includes(filter)) ? await group('physics/brush', () => brushRows(server.url, filter)) : []),
      ...(!filter || RENDER_ROWS.some((r) => r.includes(filter)) ? await group('render', () => renderRows(server.url, filter)) : []),
      // A surface link opened in a fresh browser, load → complete (planetLoad.ts).
      ...(!filter || PLANET_LOAD_ROWS.some((r) => r.includes(filter)) ? await group('planet/load', () => planetLoadRows(server.url, filter)) : []),
    ];
    for (const row of appRows) {
      row.notes = `${row.notes}; renderer=${posted.renderer}`;
      printRow(row);
      rows.push(row);
    }
    return rows;
  } finally {
    await browser.close();
    server.close();
  }
}

async function main(): Promise<void> {
  console.log(`${'name'.padEnd(44)} ${'median'.padStart(10)} ${'min'.padStart(10)} ${'max'.padStart(10)}  unit     runs  notes`);
  const rows: BenchRow[] = [];
  if (!browserOnly) rows.push(...(await nodeBenchmarks()));
  if (!nodeOnly) rows.push(...(await browserBenchmarks()));
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  const out = join(ROOT, 'test-results/bench.json');
  writeFileSync(out, `${JSON.stringify(rows, null, 2)}\n`);
  const capped = rows.filter((r) => r.notes.includes('CAPPED')).length;
  const failed = rows.filter((r) => r.notes.startsWith(FAILED)).length;
  console.log(`\n${rows.length} rows → ${out}${capped ? `; ${capped} capped` : ''}${failed ? `; ${failed} FAILED` : ''}`);
  if (failed > 0) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
