#!/usr/bin/env node
/**
 * The project's own lint: the rules that keep the architecture true (docs/design.md's
 * layers and house rules). TypeScript itself (`tsc --noEmit`, strict) covers types and unused code;
 * ESLint is not used because typescript-eslint needs a TypeScript with a JS compiler API,
 * and the pinned TypeScript 7 (native) has none.
 *
 * Rules:
 *  - layers import only downward: docs/ARCHITECTURE.md's module map, with the exceptions below
 *    (each written down, with its reason, in docs/ARCHITECTURE.md "Layer exceptions");
 *  - each layer imports only the packages the map gives it (three.js only in render/, interact/,
 *    app/ and the one worker module that builds BVHs);
 *  - field/, mesher/, lod/, scene/, jobs/ touch no three.js, DOM, WebGL or `?raw` files (jobs/ may
 *    name src/gpu/ types: the sampler it drives is the GPU worker entry's, handed in);
 *  - no Math.random in generation code (everything seeded goes through src/field/prng.ts);
 *  - no focused tests (`.only`);
 *  - no GLSL in TypeScript strings outside the field compiler;
 *  - no function over MAX_FUNCTION_LINES lines, and no file over MAX_FILE_LINES lines without a
 *    sentence in its header saying why ("Over 500 lines because …");
 *  - src/workers/ holds only worker entry files (`*.worker.ts`), the main-thread clients that post
 *    to them (a client makes a worker or posts to one, or uses a client that does) and the one
 *    protocol module (protocol.ts); an entry file imports nothing else of src/workers/ but protocol.ts.
 *    Job bodies, a worker's state and the policies around jobs are src/jobs/;
 *  - src/workers/ and src/jobs/ (what runs in workers, and its clients) import no three.js package:
 *    a job body is pure, and the one three.js step of a worker (the body worker's BVH) is a
 *    render/ bridge its entry file calls;
 *  - no module-level mutable state in src/workers/ outside its `*.worker.ts` entry files, nor in
 *    src/jobs/: a top-level `let`/`var`, a top-level object made with `new` (typed-array scratch
 *    excepted: house rule 16), or a top-level object or array literal the module mutates. A
 *    worker's caches are objects its entry file creates and hands to the jobs.
 *
 * Function lengths come from a real TypeScript parse (rolldown's, the parser vite builds with;
 * TypeScript 7 has no JS API), so nested closures count inside the function that holds them.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { parseAst } from 'rolldown/parseAst';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * Which src/ layers each layer may import (itself included): docs/ARCHITECTURE.md's "may import" column, plus
 * the exceptions marked (docs/ARCHITECTURE.md, "Layer exceptions", says why each is there).
 */
const ALLOWED = {
  field: ['field'],
  mesher: ['mesher', 'field'],
  // exception: lod → field (planet shells and bounds from the recipe; planet meshes in Node tests).
  lod: ['lod', 'mesher', 'field'],
  scene: ['scene', 'field'],
  gpu: ['gpu', 'field'],
  // Job bodies, a worker's state and job policies: pure, run by the entry files and their clients
  // (exception: jobs → lod, the planet chunk and seam jobs work in the cube-sphere space; src/gpu/
  // only as types, TYPE_IMPORTS).
  jobs: ['jobs', 'lod', 'mesher', 'field'],
  // exceptions: workers → gpu (the sampling worker owns an OffscreenCanvas context), workers → lod
  // (the LOD worker).
  workers: ['workers', 'jobs', 'mesher', 'field', 'gpu', 'lod'],
  // exception: render → mesher, lod (planet pieces unpack packed leaves and parse chunk keys).
  render: ['render', 'field', 'mesher', 'lod'],
  physics: ['physics', 'mesher', 'field'],
  interact: ['interact'],
  app: ['app', 'render', 'interact', 'physics', 'lod', 'workers', 'jobs', 'gpu', 'mesher', 'field', 'scene'],
};

/**
 * Layers a layer may import with `import type` only: a job that times the GPU drives the sampler
 * the GPU worker's entry made and hands in, so it names the sampler's types, never makes one.
 */
const TYPE_IMPORTS = { jobs: ['gpu'] };

/** Which packages each layer may import (docs/design.md, "Layers"; none where a layer is missing). */
const PACKAGES = {
  field: /^simplex-noise$/,
  render: /^(three|three-mesh-bvh)(\/|$)/,
  physics: /^cannon-es(\/|$)/,
  interact: /^(three|three-mesh-bvh)(\/|$)/,
  app: /^(three|three-mesh-bvh|lil-gui)(\/|$)/,
};

/** Files allowed packages beyond their layer's, each with its reason (docs/ARCHITECTURE.md). */
const FILE_PACKAGES = {};
/** Files allowed one src/ module beyond their layer's, each with its reason (docs/ARCHITECTURE.md). */
const FILE_IMPORTS = {
  // The body worker builds each asteroid mesh's BVH off the main thread: the job body stays pure,
  // and the entry calls the one three.js bridge it needs (three-mesh-bvh needs three's geometry).
  'src/workers/body.worker.ts': ['render/bodyBvh'],
  // The worker side of the pool's envelope speaks the one protocol module (workers/protocol.ts
  // imports only types from src/jobs/, so there is no cycle at run time).
  'src/jobs/jobQueue.ts': ['workers/protocol'],
  // The planet sampling measure sends full batches: the batch size is the sampler's constant.
  'src/jobs/planetSamplingMeasure.ts': ['gpu/batches'],
};
/** Worker code: entry files, their clients, the protocol (src/workers) and the job bodies (src/jobs). */
const WORKER_CODE = /^src\/(workers|jobs)\//;
/** Worker entry files: their module state is the worker's own, one instance per worker. */
const WORKER_ENTRY = /\.worker\.ts$/;
/** Typed arrays: module-level scratch for one call (house rule 16), not state kept between calls. */
const TYPED_ARRAY = /^(Float32|Float64|Int8|Int16|Int32|Uint8|Uint8Clamped|Uint16|Uint32|BigInt64|BigUint64)Array$/;
const PURE_LAYERS = ['field', 'mesher', 'lod', 'scene', 'jobs'];
/** src/workers/: entry files, clients (found below) and the one protocol module. */
const WORKERS_DIR = /^src\/workers\//;
const WORKERS_PROTOCOL = 'src/workers/protocol.ts';
/** What makes a file a client: it makes a worker or posts to one. */
const POSTS_TO_WORKER = /\bnew Worker\s*\(|\.postMessage\s*\(/;
const ENGINE_PACKAGES = /^(three|three-mesh-bvh|cannon-es|lil-gui)(\/|$)/;
const DOM_GLOBALS = /\b(document|window|navigator|WebGL2?RenderingContext|HTMLElement|HTMLCanvasElement|OffscreenCanvas|requestAnimationFrame)\b/;
const GLSL_IN_TS = /#version\s+300\s+es|\bgl_FragColor\b|\bgl_Position\s*=/;
const GLSL_GENERATORS = /^src\/field\/(compile|glsl)/;
const GLSL_MODULES = /^src\/field\/(glsl|compileGlsl|fieldGlslChunks)/;
/** Longest function (lines, braces included): beyond this a function is a file of stages. */
const MAX_FUNCTION_LINES = 150;
/** Longest file without a written reason. */
const MAX_FILE_LINES = 500;
const LONG_FILE_REASON = /Over 500 lines because/;

function walk(dir, out = []) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Source with comments blanked (kept line structure), so rules see only code. */
function stripComments(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, (m, pre) => pre);
}

const problems = [];
const report = (file, line, message) => problems.push(`${relative(ROOT, file)}:${line}: ${message}`);

/** Reports every function of `source` longer than MAX_FUNCTION_LINES. */
function checkFunctionLengths(file, source) {
  let ast;
  try {
    ast = parseAst(source, { lang: 'ts' });
  } catch (err) {
    report(file, 1, `does not parse: ${err.message}`);
    return;
  }
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') lineStarts.push(i + 1);
  const lineOf = (offset) => {
    let lo = 0, hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid; else hi = mid - 1;
    }
    return lo + 1;
  };
  const visit = (node, parent) => {
    if (/Function/.test(node.type) && node.body) {
      const first = lineOf(node.start), lines = lineOf(node.end) - first + 1;
      if (lines > MAX_FUNCTION_LINES) {
        const name = node.id?.name ?? parent?.key?.name ?? parent?.id?.name ?? '(anonymous)';
        report(file, first, `function ${name} is ${lines} lines (at most ${MAX_FUNCTION_LINES}): split it into stages`);
      }
    }
    for (const key in node) {
      const value = node[key];
      if (Array.isArray(value)) {
        for (const child of value) if (child && typeof child.type === 'string') visit(child, node);
      } else if (value && typeof value.type === 'string') {
        visit(value, node);
      }
    }
  };
  visit(ast, null);
}

/**
 * Reports module-level mutable state in `source`: top-level `let`/`var`, `const` objects made with
 * `new` (typed arrays excepted), and `const` object or array literals that `code` mutates.
 */
function checkModuleState(file, source, code) {
  let ast;
  try {
    ast = parseAst(source, { lang: 'ts' });
  } catch {
    return; // checkFunctionLengths reports it
  }
  const lineOf = (offset) => source.slice(0, offset).split('\n').length;
  for (const statement of ast.body) {
    const decl = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (decl?.type !== 'VariableDeclaration') continue;
    for (const d of decl.declarations) {
      const name = d.id?.name ?? '(pattern)';
      const at = lineOf(d.start);
      if (decl.kind !== 'const') {
        report(file, at, `module-level mutable state ("${decl.kind} ${name}"): make it a field of an object the worker's entry file creates`);
        continue;
      }
      const init = d.init?.type === 'TSAsExpression' || d.init?.type === 'TSSatisfiesExpression' ? d.init.expression : d.init;
      if (init?.type === 'NewExpression' && !TYPED_ARRAY.test(init.callee?.name ?? '')) {
        report(file, at, `module-level mutable state ("const ${name} = new ${init.callee?.name ?? '…'}"): make it a field of an object the worker's entry file creates`);
      } else if ((init?.type === 'ObjectExpression' || init?.type === 'ArrayExpression') && d.id?.type === 'Identifier') {
        const mutated = new RegExp(
          `(\\b${name}(\\.\\w+|\\[[^\\]]*\\])+\\s*([-+*/|&]?=(?!=)|\\+\\+|--))|((\\+\\+|--)\\s*${name}\\.)|(\\b${name}\\.(push|pop|shift|unshift|splice|sort|reverse|fill)\\()`,
        );
        if (mutated.test(code)) report(file, at, `module-level mutable state ("const ${name}", mutated in this module): make it a field of an object the worker's entry file creates`);
      }
    }
  }
}

/** Specifiers this file imports or re-exports with `import type` / `export type` only. */
function typeOnlySpecs(code) {
  return new Set([...code.matchAll(/(?:^|\n)\s*(?:import|export)\s+type\b[^;]*?from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]));
}
/** Specifiers this file imports as values (any import that is not `import type`). */
function valueSpecs(code) {
  return new Set([...code.matchAll(/(?:^|\n)\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]/g)].map((m) => m[1] ?? m[2]));
}

/**
 * src/workers/ holds only entry files, the clients that post to them and protocol.ts: a client makes
 * a worker or posts to one (POSTS_TO_WORKER), or imports a client; an entry file imports nothing of
 * src/workers/ but protocol.ts. Anything else there (a job body, a policy, a worker's state) belongs
 * in src/jobs/ (or lod/, mesher/, field/).
 */
function checkWorkersFolder() {
  const files = walk(join(ROOT, 'src', 'workers')).map((file) => {
    const rel = relative(ROOT, file).split(sep).join('/');
    const code = stripComments(readFileSync(file, 'utf8'));
    const imports = [...code.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.[^'"]+)['"]/g)]
      .map((m) => relative(ROOT, resolve(dirname(file), m[1])).split(sep).join('/').replace(/(\.ts)?$/, '.ts'))
      .filter((target) => WORKERS_DIR.test(target));
    return { file, rel, code, imports };
  });
  const clients = new Set(files.filter((f) => !WORKER_ENTRY.test(f.rel) && f.rel !== WORKERS_PROTOCOL && POSTS_TO_WORKER.test(f.code)).map((f) => f.rel));
  for (let grew = true; grew;) {
    grew = false;
    for (const f of files) {
      if (clients.has(f.rel) || WORKER_ENTRY.test(f.rel) || f.rel === WORKERS_PROTOCOL) continue;
      if (f.imports.some((target) => clients.has(target))) {
        clients.add(f.rel);
        grew = true;
      }
    }
  }
  for (const f of files) {
    if (WORKER_ENTRY.test(f.rel)) {
      for (const target of f.imports) {
        if (target !== WORKERS_PROTOCOL && !WORKER_ENTRY.test(target))
          report(f.file, 1, `worker entry imports ${target}: an entry file takes its jobs from src/jobs/ and its messages from ${WORKERS_PROTOCOL}`);
      }
    } else if (f.rel !== WORKERS_PROTOCOL && !clients.has(f.rel)) {
      report(f.file, 1, `src/workers/ holds only *.worker.ts entry files, the clients that post to them and protocol.ts; this file neither makes nor posts to a worker: a job body, worker state or policy goes in src/jobs/`);
    }
  }
}

for (const file of walk(join(ROOT, 'src'))) {
  const rel = relative(ROOT, file).split(sep).join('/');
  const layer = rel.split('/')[1];
  const allowed = ALLOWED[layer];
  const source = readFileSync(file, 'utf8');
  const code = stripComments(source);
  const lines = code.split('\n');
  if (!allowed) {
    report(file, 1, `src/${layer}/ is not a layer of the module map (docs/ARCHITECTURE.md)`);
    continue;
  }
  checkFunctionLengths(file, source);
  if (WORKER_CODE.test(rel) && !WORKER_ENTRY.test(rel)) checkModuleState(file, source, code);
  const lineCount = source.endsWith('\n') ? lines.length - 1 : lines.length;
  if (lineCount > MAX_FILE_LINES && !LONG_FILE_REASON.test(source.slice(0, source.indexOf('*/') + 2)))
    report(file, 1, `${lineCount} lines (over ${MAX_FILE_LINES}) and no "Over 500 lines because …" in its header comment`);
  lines.forEach((text, i) => {
    const line = i + 1;
    for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)) {
      const spec = m[1];
      if (spec.startsWith('.')) {
        const target = relative(join(ROOT, 'src'), resolve(dirname(file), spec)).split(sep);
        if (target[0] === '..') {
          // glsl/ files: only the field's GLSL modules may load them into a pure layer, and the
          // JS back end never imports those (command-line tools run it in plain Node).
          if (PURE_LAYERS.includes(layer) && spec.includes('?raw') && !GLSL_MODULES.test(rel))
            report(file, line, `src/${layer}/ must not import ?raw files outside ${GLSL_MODULES.source}`);
          continue;
        }
        const typeOnly = TYPE_IMPORTS[layer]?.includes(target[0]) && typeOnlySpecs(code).has(spec) && !valueSpecs(code).has(spec);
        if (!allowed.includes(target[0]) && !typeOnly && !FILE_IMPORTS[rel]?.includes(target.join('/').replace(/\.ts$/, '')))
          report(file, line, `src/${layer}/ may not import src/${target[0]}/ (allowed: ${allowed.join(', ')}${TYPE_IMPORTS[layer] ? `; types only from ${TYPE_IMPORTS[layer].join(', ')}` : ''})`);
      } else if (WORKER_CODE.test(rel) && ENGINE_PACKAGES.test(spec)) {
        report(file, line, `worker code imports "${spec}": job bodies stay free of three.js (a three.js step is a render/ bridge the entry file calls)`);
      } else if (PURE_LAYERS.includes(layer) && ENGINE_PACKAGES.test(spec)) {
        report(file, line, `src/${layer}/ must stay free of three.js/engine packages (imports "${spec}")`);
      } else if (!(PACKAGES[layer]?.test(spec) || FILE_PACKAGES[rel]?.test(spec))) {
        report(file, line, `src/${layer}/ may not import the package "${spec}" (docs/ARCHITECTURE.md's module map and layer exceptions)`);
      }
    }
    if (PURE_LAYERS.includes(layer) && DOM_GLOBALS.test(text))
      report(file, line, `src/${layer}/ must not touch the DOM or WebGL (${text.match(DOM_GLOBALS)[0]})`);
    if (PURE_LAYERS.includes(layer) && /\bMath\.random\s*\(/.test(text))
      report(file, line, 'Math.random in generation code: use the seeded PRNG of src/field/prng.ts');
    if (GLSL_IN_TS.test(text) && !GLSL_GENERATORS.test(rel))
      report(file, line, 'GLSL in a TypeScript string: put it in glsl/ and import it with ?raw');
  });
}

checkWorkersFolder();

for (const file of walk(join(ROOT, 'test'))) {
  const code = stripComments(readFileSync(file, 'utf8'));
  code.split('\n').forEach((text, i) => {
    if (/\b(it|test|describe)\.only\s*\(/.test(text)) report(file, i + 1, 'focused test (.only) silences the rest');
  });
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`\nlint: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log('lint: ok');
