#!/usr/bin/env node
/**
 * The project's own lint: the rules that keep the architecture true (DESIGN.md's module
 * map, STYLE.md). TypeScript itself (`tsc --noEmit`, strict) covers types and unused code;
 * ESLint is not used because typescript-eslint needs a TypeScript with a JS compiler API,
 * and the pinned TypeScript 7 (native) has none.
 *
 * Rules:
 *  - layers import only downward (the table below);
 *  - field/, mesher/, lod/, scene/ touch no three.js, DOM, WebGL or `?raw` files;
 *  - no Math.random in generation code (everything seeded goes through src/field/prng.ts);
 *  - no focused tests (`.only`);
 *  - no GLSL in TypeScript strings outside the field compiler.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

/** Which src/ layers each layer may import (itself included). */
const ALLOWED = {
  field: ['field'],
  mesher: ['mesher', 'field'],
  lod: ['lod', 'mesher', 'field'],
  scene: ['scene', 'field'],
  gpu: ['gpu', 'field'],
  // gpu: a worker may own an OffscreenCanvas WebGL2 context for sampling (issue 5).
  workers: ['workers', 'mesher', 'field', 'lod', 'gpu', 'scene'],
  render: ['render', 'field', 'mesher', 'lod', 'scene'],
  physics: ['physics', 'mesher', 'field'],
  interact: ['interact', 'render', 'mesher', 'lod', 'field'],
  app: ['app', 'render', 'interact', 'physics', 'lod', 'workers', 'gpu', 'mesher', 'field', 'scene'],
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
