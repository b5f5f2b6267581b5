#!/usr/bin/env node
/**
 * The project's own lint: the rules that keep the architecture true (DESIGN.md's module
 * map, STYLE.md). TypeScript itself (`tsc --noEmit`, strict) covers types and unused code;
 * ESLint is not used because typescript-eslint needs a TypeScript with a JS compiler API,
 * and the pinned TypeScript 7 (native) has none.
 *
 * Rules:
 *  - layers import only downward: ../shared/DESIGN.md's module map, with the exceptions below
 *    (each written down, with its reason, in docs/ARCHITECTURE.md "Layer exceptions");
 *  - each layer imports only the packages the map gives it (three.js only in render/, interact/,
 *    app/ and the one worker module that builds BVHs);
 *  - field/, mesher/, lod/, scene/ touch no three.js, DOM, WebGL or `?raw` files;
 *  - no Math.random in generation code (everything seeded goes through src/field/prng.ts);
 *  - no focused tests (`.only`);
 *  - no GLSL in TypeScript strings outside the field compiler.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * Which src/ layers each layer may import (itself included): DESIGN.md's "may import" column, plus
 * the exceptions marked (docs/ARCHITECTURE.md, "Layer exceptions", says why each is there).
 */
const ALLOWED = {
  field: ['field'],
  mesher: ['mesher', 'field'],
  // exception: lod → field (planet shells and bounds from the recipe; planet meshes in Node tests).
  lod: ['lod', 'mesher', 'field'],
  scene: ['scene', 'field'],
  gpu: ['gpu', 'field'],
  // exceptions: workers → gpu (the sampling worker owns an OffscreenCanvas context), workers → lod
  // (the LOD worker, planet chunk and seam jobs).
  workers: ['workers', 'mesher', 'field', 'gpu', 'lod'],
  // exception: render → mesher, lod (planet pieces unpack packed leaves and parse chunk keys).
  render: ['render', 'field', 'mesher', 'lod'],
  physics: ['physics', 'mesher', 'field'],
  interact: ['interact'],
  app: ['app', 'render', 'interact', 'physics', 'lod', 'workers', 'gpu', 'mesher', 'field', 'scene'],
};

/** Which packages each layer may import (DESIGN.md; none where a layer is missing). */
const PACKAGES = {
  field: /^simplex-noise$/,
  render: /^(three|three-mesh-bvh)(\/|$)/,
  physics: /^cannon-es(\/|$)/,
  interact: /^(three|three-mesh-bvh)(\/|$)/,
  app: /^(three|three-mesh-bvh|lil-gui)(\/|$)/,
};

/** Files allowed packages beyond their layer's, each with its reason (docs/ARCHITECTURE.md). */
const FILE_PACKAGES = {
  // The body worker builds each mesh's BVH off the main thread (three-mesh-bvh needs three's geometry).
  'src/workers/bodyJob.ts': /^(three|three-mesh-bvh)$/,
};
const PURE_LAYERS = ['field', 'mesher', 'lod', 'scene'];
const ENGINE_PACKAGES = /^(three|three-mesh-bvh|cannon-es|lil-gui)(\/|$)/;
const DOM_GLOBALS = /\b(document|window|navigator|WebGL2?RenderingContext|HTMLElement|HTMLCanvasElement|OffscreenCanvas|requestAnimationFrame)\b/;
const GLSL_IN_TS = /#version\s+300\s+es|\bgl_FragColor\b|\bgl_Position\s*=/;
const GLSL_GENERATORS = /^src\/field\/(compile|glsl)/;
const GLSL_MODULES = /^src\/field\/(glsl|compileGlsl)/;

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

for (const file of walk(join(ROOT, 'src'))) {
  const rel = relative(ROOT, file).split(sep).join('/');
  const layer = rel.split('/')[1];
  const allowed = ALLOWED[layer];
  const code = stripComments(readFileSync(file, 'utf8'));
  const lines = code.split('\n');
  if (!allowed) {
    report(file, 1, `src/${layer}/ is not a layer of the module map (docs/ARCHITECTURE.md)`);
    continue;
  }
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
        if (!allowed.includes(target[0]))
          report(file, line, `src/${layer}/ may not import src/${target[0]}/ (allowed: ${allowed.join(', ')})`);
      } else if (PURE_LAYERS.includes(layer) && ENGINE_PACKAGES.test(spec)) {
        report(file, line, `src/${layer}/ must stay free of three.js/engine packages (imports "${spec}")`);
      } else if (!(PACKAGES[layer]?.test(spec) || FILE_PACKAGES[rel]?.test(spec))) {
        report(file, line, `src/${layer}/ may not import the package "${spec}" (DESIGN.md's module map; exceptions in docs/ARCHITECTURE.md)`);
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
