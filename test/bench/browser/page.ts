/**
 * The browser bench page (`bench.html`, part of the production build): runs every
 * `test/bench/browser/*.bench.ts` in this browser, shows a table and POSTs the rows to
 * `/results` on its own origin. Works from any static host; the POST is best-effort.
 */
import { runBenchmarks, type Benchmark, type BenchRow } from '../harness';

declare global {
  interface Window {
    __benchDone?: { rows: BenchRow[]; error: string | null; renderer: string };
  }
}

const modules = import.meta.glob<{ benchmarks: Benchmark[] }>('./*.bench.ts');

function rendererString(): string {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return 'no WebGL2';
  const dbg = gl.getExtension('WEBGL_debug_renderer_info');
  const s = String(dbg ? gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return s;
}

function addRow(row: BenchRow): void {
  const tr = document.createElement('tr');
  for (const cell of [row.name, fmt(row.median), fmt(row.min), fmt(row.max), row.unit, String(row.runs), row.notes]) {
    const td = document.createElement('td');
    td.textContent = cell;
    tr.appendChild(td);
  }
  document.getElementById('rows')!.appendChild(tr);
}

function fmt(x: number): string {
  return Math.abs(x) >= 1000 ? x.toExponential(3) : x.toPrecision(4);
}

async function main(): Promise<void> {
  const status = document.getElementById('status')!;
  const filter = new URLSearchParams(location.search).get('filter') ?? '';
  const renderer = rendererString();
  const rows: BenchRow[] = [];
  let error: string | null = null;
  try {
    for (const [path, load] of Object.entries(modules).sort(([a], [b]) => a.localeCompare(b))) {
      status.textContent = `running ${path} on ${renderer}…`;
      const { benchmarks } = await load();
      rows.push(...(await runBenchmarks(benchmarks, filter, addRow)));
    }
    status.textContent = `done: ${rows.length} rows on ${renderer}`;
  } catch (e) {
    error = e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e);
    status.textContent = `failed: ${error}`;
  }
  try {
    await fetch('./results', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rows, error, renderer }),
    });
  } catch {
    // Static hosting without a collector: the table on the page is the result.
  }
  window.__benchDone = { rows, error, renderer };
}

void main();
