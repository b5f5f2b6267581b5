/**
 * FieldRecipe → straight-line JS source (issue 43): the generated evaluator's program. The source
 * holds the recipe's SHAPE only — node types, which modifiers a node carries, which nodes share
 * them — and every number is data: `K` (doubles), `U` (octave counts of the band limit, shells
 * dropped), `N` (simplex-noise tables per noise use), `X` (crater indexes per crater field) and the
 * brushes `B`. So recipes of one shape (asteroids of a family, one planet at every LOD level, any
 * brush set) share one source, compiled once (compileField.ts caches by source text).
 *
 * Bitwise the closure chain (compileJs.ts), which stays the oracle: every expression is the
 * closures' own in the same order; the numbers the closures derive (a², 1/factor, rotation
 * matrices, fractal normalisers) are derived here by the same arithmetic; noise is jsNoiseCode.ts.
 * Two ways this differs in what it COMPUTES, never in what it returns:
 * - Modifier sharing: nodes with the same active modifiers at the same point variables reuse the
 *   first one's warped point, crater term and noise terms (the closures' shared memo, as common
 *   subexpressions). A layer that does nothing contributes `d − 0`, which is `d` bit for bit.
 * - A shell dropped by the band limit is 1e30 minus its own modifiers' terms, which is exactly 1e30
 *   while those terms are finite and under 2⁴⁶ (half an ulp of 1e30): the generated code skips them
 *   where their bound is under 1e13 (they are finite: see below).
 * - The noise is branch-free (jsNoiseCode.ts), exact for finite inputs: the generated code takes
 *   points whose coordinates are under `pointLimit` (1e100 m, so every noise input is finite), and
 *   hands any other point (huge, infinite, NaN) to the closures, `SLOW`.
 */
import { shellDropped, usedOctaves } from './bandLimit';
import { craterHeightBound, indexCraters, placeCraters, type CraterIndex } from './craters';
import { fractalCode, fractalKernel, fractalNorm, lit, type NoiseTableNames } from './jsNoiseCode';
import { noisePermutation, WARP_OFFSETS } from './noise';
import type { FieldNode, FieldRecipe, Modifiers, NoiseLayer } from './recipe';
import { rotationMatrix } from './transform';

/** simplex-noise's tables for one seed: perm (512), and the gradient components per entry. */
export type NoiseTables = readonly [Uint8Array, Float64Array, Float64Array, Float64Array];

/** A recipe's program: the source (cache key) and the numbers it reads. */
export interface FieldProgram {
  /**
   * Body of `new Function(source)`: returns `factory(K, U, N, X, CH, B, SLOW)` → `{ point, points }`
   * (CH: craterHeightIndexed; SLOW: the closures, for points beyond the limit).
   */
  source: string;
  K: Float64Array;
  U: Int32Array;
  N: NoiseTables[];
  X: (CraterIndex | null)[];
  /** Brushes, 6 doubles each: centre, radius, blend, +1 add / −1 carve. */
  B: Float64Array;
}

const GRAD3 = [1, 1, 0, -1, 1, 0, 1, -1, 0, -1, -1, 0, 1, 0, 1, -1, 0, 1, 1, 0, -1, -1, 0, -1, 0, 1, 1, 0, -1, 1, 0, 1, -1, 0, -1, -1];
const tableCache = new Map<number, NoiseTables>();

/** simplex-noise 4.0.3's tables for a seed (createNoise3D's perm and permGrad3x/y/z), cached. */
export function noiseTables(seed: number): NoiseTables {
  let t = tableCache.get(seed);
  if (!t) {
    const p = noisePermutation(seed);
    const perm = new Uint8Array(512);
    for (let i = 0; i < 512; i++) perm[i] = p[i & 255];
    const grad = (c: number): Float64Array => new Float64Array(perm).map((v) => GRAD3[(v % 12) * 3 + c]);
    t = [perm, grad(0), grad(1), grad(2)];
    if (tableCache.size > 256) tableCache.clear();
    tableCache.set(seed, t);
  }
  return t;
}

/** A value the fractal of noise3D can reach, per unit amplitude, with margin (|noise3D| ≤ 18.2 provably; ridged squares it). */
const FRACTAL_ABS_BOUND = 1000;
/** Largest sum of a dropped shell's modifier terms that leaves 1e30 unchanged (2⁴⁶ ≈ 7e13, with margin). */
const DROPPED_TERMS_BOUND = 1e13;
/** The band-limited-away shell's value (compileJs.ts DROPPED_SHELL). */
const DROPPED_SHELL = 1e30;

type Point = readonly [string, string, string];

/** What a node's modifiers give at a point: the warped point, the crater flag and term, the noise terms. */
interface ModValues {
  w: Point;
  hasCrater: string | null;
  crater: string;
  terms: string[];
}

class Emitter {
  readonly lines: string[] = [];
  readonly decls: string[] = [];
  private readonly k: number[] = [];
  private readonly u: number[] = [];
  readonly tables: NoiseTables[] = [];
  readonly craters: (CraterIndex | null)[] = [];
  /** Noise kinds the program uses (one kernel each). */
  readonly kinds = new Set<NoiseLayer['kind']>();
  private nVar = 0;
  private readonly scopes: Map<string, ModValues>[] = [new Map()];

  constructor(readonly minWavelengthM: number) {}

  v(prefix = 'v'): string {
    return `${prefix}${this.nVar++}`;
  }
  K(x: number): string {
    this.k.push(x);
    return `K[${this.k.length - 1}]`;
  }
  U(x: number): string {
    this.u.push(x);
    return `U[${this.u.length - 1}]`;
  }
  emit(line: string): void {
    this.lines.push(line);
  }
  noise(seed: number): NoiseTableNames {
    const n = this.tables.length;
    this.tables.push(noiseTables(seed));
    this.decls.push(`const N${n}p = N[${n}][0], N${n}x = N[${n}][1], N${n}y = N[${n}][2], N${n}z = N[${n}][3];`);
    return { perm: `N${n}p`, gx: `N${n}x`, gy: `N${n}y`, gz: `N${n}z` };
  }
  crater(index: CraterIndex | null): string {
    const n = this.craters.length;
    this.craters.push(index);
    this.decls.push(`const X${n} = X[${n}];`);
    return `X${n}`;
  }
  /** Statements in a conditional block: what they compute is not visible after it. */
  block(open: string, body: () => void): void {
    this.emit(`${open} {`);
    this.scopes.push(new Map());
    body();
    this.scopes.pop();
    this.emit('}');
  }
  shared(key: string): ModValues | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const m = this.scopes[i].get(key);
      if (m) return m;
    }
    return undefined;
  }
  share(key: string, m: ModValues): void {
    this.scopes[this.scopes.length - 1].set(key, m);
  }
  data(): { K: Float64Array; U: Int32Array } {
    return { K: Float64Array.from(this.k), U: Int32Array.from(this.u) };
  }
}

/** `out = fractal(layer)` at u = (ux, uy, uz) expressions; declares nothing. */
function fractalInto(e: Emitter, kind: NoiseLayer['kind'], layer: Omit<NoiseLayer, 'kind' | 'amplitude'>, used: string, u: Point, out: string): void {
  const names = e.noise(layer.seed);
  e.kinds.add(kind);
  const slots = { used, lacunarity: e.K(layer.lacunarity), gain: e.K(layer.gain), norm: e.K(fractalNorm(layer.octaves, layer.gain)) };
  e.emit(fractalCode(kind, names, u[0], u[1], u[2], slots, out));
}

/** The warp: `let` the warped point, set where the warp is active. */
function emitWarp(e: Emitter, warp: NonNullable<Modifiers['warp']>, p: Point): Point {
  const w: Point = [e.v('w'), e.v('w'), e.v('w')];
  e.emit(`let ${w[0]} = ${p[0]}, ${w[1]} = ${p[1]}, ${w[2]} = ${p[2]};`);
  const A = e.K(warp.amplitude);
  const used = e.U(usedOctaves(warp.frequency, warp.octaves, warp.lacunarity, e.minWavelengthM));
  const f = e.K(warp.frequency);
  e.block(`if (${A} > 0 && ${used} > 0)`, () => {
    e.emit(`const _wux = ${p[0]} * ${f}, _wuy = ${p[1]} * ${f}, _wuz = ${p[2]} * ${f};`);
    WARP_OFFSETS.forEach((o, c) => {
      const r = e.v('r');
      e.emit(`let ${r};`);
      fractalInto(e, 'fbm', warp, used, [`_wux + ${lit(o[0])}`, `_wuy + ${lit(o[1])}`, `_wuz + ${lit(o[2])}`], r);
      e.emit(`${w[c]} = ${p[c]} + ${A} * ${r};`);
    });
  });
  return w;
}

/** The node's modifiers at point p (reused from an earlier node of the same key at the same point). */
function emitModifiers(e: Emitter, node: Modifiers, p: Point): ModValues | null {
  const key = modifierKeyOf(node);
  if (key === null) return null;
  const cseKey = `${key}@${p.join(',')}`;
  const known = e.shared(cseKey);
  if (known) return known;
  const w = node.warp ? emitWarp(e, node.warp, p) : p;
  let hasCrater: string | null = null;
  let crater = '0';
  if (node.craters) {
    const c = node.craters;
    const X = e.crater(c.count > 0 ? indexCraters(placeCraters(c), c.ejectaFalloff) : null);
    hasCrater = e.v('hc');
    crater = e.v('cr');
    const [cx, cy, cz] = c.center.map((x) => e.K(x));
    e.emit(`let ${hasCrater} = false, ${crater} = 0;`);
    e.block(`if (${X} !== null)`, () => {
      e.emit(`const _dx = ${w[0]} - ${cx}, _dy = ${w[1]} - ${cy}, _dz = ${w[2]} - ${cz};`);
      e.emit('const _len = Math.sqrt(_dx * _dx + _dy * _dy + _dz * _dz);');
      e.emit(`if (_len > 0) { const _inv = 1 / _len; ${hasCrater} = true; ${crater} = CH(${X}, _dx * _inv, _dy * _inv, _dz * _inv); }`);
    });
  }
  const terms = (node.noise ?? []).map((layer) => {
    const t = e.v('t');
    const amp = e.K(layer.amplitude);
    const used = e.U(usedOctaves(layer.frequency, layer.octaves, layer.lacunarity, e.minWavelengthM));
    const f = e.K(layer.frequency);
    e.emit(`let ${t} = 0;`);
    e.block(`if (${amp} !== 0 && ${used} !== 0)`, () => {
      const r = e.v('r');
      e.emit(`let ${r};`);
      fractalInto(e, layer.kind, layer, used, [`${w[0]} * ${f}`, `${w[1]} * ${f}`, `${w[2]} * ${f}`], r);
      e.emit(`${t} = ${amp} * ${r};`);
    });
    return t;
  });
  const m: ModValues = { w, hasCrater, crater, terms };
  e.share(cseKey, m);
  return m;
}

/**
 * The structural key of a node's modifiers: which it carries (the numbers, data, are in it too, so
 * nodes that share it compute the same values). Unlike compileJs.ts's `modifierKey` it does not
 * drop idle ones (amplitude 0, no craters): they are data here, decided at run time.
 */
function modifierKeyOf(node: Modifiers): string | null {
  if (!node.craters && !(node.noise && node.noise.length > 0) && !node.warp) return null;
  return JSON.stringify([node.craters ?? null, node.noise ?? [], node.warp ?? null]);
}

/** Bound on |Σ a dropped shell's modifier terms| (m); Infinity when a term could be unbounded. */
function termsBound(node: Modifiers): number {
  let b = 0;
  for (const l of node.noise ?? []) b += FRACTAL_ABS_BOUND * Math.abs(l.amplitude);
  if (node.craters) b += 2 * craterHeightBound(node.craters);
  return b;
}

/** Largest |coordinate| of a point the generated code evaluates itself (others go to the closures). */
const POINT_LIMIT = 1e100;

/**
 * POINT_LIMIT where every noise input of a point within it is finite and under 1e140 (so the
 * branch-free noise, jsNoiseCode.ts, is exact), else 0 (every point to the closures). Bounds the
 * coordinates down the tree: translations and warps add (a warp at most 18.2 × its amplitude:
 * |noise3D| ≤ 32 · 4 · 0.6⁴ · √(2 · 0.6)), rotations multiply by at most √3, scales by 1 / factor;
 * a noise input is the point times at most frequency · lacunarity^octaves, plus offsets under 1e3.
 */
function pointLimit(recipe: FieldRecipe): number {
  let add = 0, mag = 1, scale = 1;
  const grow = (f: number, octaves: number, lac: number): void => {
    scale = Math.max(scale, f * lac ** octaves);
  };
  const visit = (n: FieldNode): void => {
    for (const l of n.noise ?? []) grow(l.frequency, l.octaves, l.lacunarity);
    if (n.warp) {
      grow(n.warp.frequency, n.warp.octaves, n.warp.lacunarity);
      add += 20 * n.warp.amplitude;
    }
    if (n.type === 'translate') add += Math.abs(n.offset[0]) + Math.abs(n.offset[1]) + Math.abs(n.offset[2]);
    if (n.type === 'rotate') mag *= 2;
    if (n.type === 'scale') mag *= Math.max(1, 1 / n.factor);
    if ('children' in n) n.children.forEach(visit);
    if ('child' in n) visit(n.child);
  };
  visit(recipe.root);
  const bound = (POINT_LIMIT + add) * mag * scale + 1e3;
  return bound < 1e140 ? POINT_LIMIT : 0;
}

/** Emits a node at point p; returns the variable holding its value. */
function emitNode(e: Emitter, node: FieldNode, p: Point): string {
  const res = e.v();
  e.emit(`let ${res};`);
  const body = (): void => {
    const mods = emitModifiers(e, node, p);
    const base = emitShape(e, node, mods ? mods.w : p);
    e.emit(`${res} = ${base};`);
    if (mods?.hasCrater) e.emit(`if (${mods.hasCrater}) ${res} = ${res} - ${mods.crater};`);
    for (const t of mods?.terms ?? []) e.emit(`${res} = ${res} - ${t};`);
  };
  if (node.type === 'shell' && modifierKeyOf(node) !== null) {
    // A dropped shell's value is exactly 1e30 where its terms stay under half an ulp of it.
    const dropped = e.U(shellDropped(node.thickness, e.minWavelengthM) ? 1 : 0);
    const small = e.U(termsBound(node) < DROPPED_TERMS_BOUND ? 1 : 0);
    e.emit(`if (${dropped} !== 0 && ${small} !== 0) ${res} = ${lit(DROPPED_SHELL)};`);
    e.block('else', body);
  } else {
    body();
  }
  return res;
}

const SMOOTH = {
  smin: (a: string, b: string, k: string): string =>
    `{ const _h = Math.max(${k} - Math.abs(${a} - ${b}), 0) / ${k}; ${a} = Math.min(${a}, ${b}) - _h * _h * ${k} * 0.25; }`,
  smax: (a: string, b: string, k: string): string =>
    `{ const _h = Math.max(${k} - Math.abs(${a} - ${b}), 0) / ${k}; ${a} = Math.max(${a}, ${b}) + _h * _h * ${k} * 0.25; }`,
};

function emitCsg(e: Emitter, node: FieldNode & { children: FieldNode[] }, p: Point): string {
  const d = e.v('d');
  const first = emitNode(e, node.children[0], p);
  e.emit(`let ${d} = ${first};`);
  const k = 'blend' in node ? e.K(node.blend) : '';
  for (const child of node.children.slice(1)) {
    const c = emitNode(e, child, p);
    switch (node.type) {
      case 'union': e.emit(`${d} = Math.min(${d}, ${c});`); break;
      case 'intersection': e.emit(`${d} = Math.max(${d}, ${c});`); break;
      case 'subtraction': e.emit(`${d} = Math.max(${d}, -${c});`); break;
      case 'smoothUnion': e.emit(SMOOTH.smin(d, c, k)); break;
      case 'smoothIntersection': e.emit(SMOOTH.smax(d, c, k)); break;
      default: e.emit(`{ const _c = -${c}; ${SMOOTH.smax(d, '_c', k)} }`);
    }
  }
  return d;
}

function pointVars(e: Emitter, exprs: readonly [string, string, string]): Point {
  const q: Point = [e.v('x'), e.v('y'), e.v('z')];
  e.emit(`const ${q[0]} = ${exprs[0]}, ${q[1]} = ${exprs[1]}, ${q[2]} = ${exprs[2]};`);
  return q;
}

/** The node's own value at p (its modifiers applied by emitNode), as an expression over variables. */
function emitShape(e: Emitter, node: FieldNode, p: Point): string {
  const [x, y, z] = p;
  switch (node.type) {
    case 'sphere':
      return `Math.sqrt(${x} * ${x} + ${y} * ${y} + ${z} * ${z}) - ${e.K(node.radius)}`;
    case 'ellipsoid': {
      const [a, b, c] = node.radii;
      const k0 = e.v('k'), k1 = e.v('k');
      e.emit(`const ${k0} = Math.sqrt((${x} / ${e.K(a)}) ** 2 + (${y} / ${e.K(b)}) ** 2 + (${z} / ${e.K(c)}) ** 2);`);
      e.emit(`const ${k1} = Math.sqrt((${x} / ${e.K(a * a)}) ** 2 + (${y} / ${e.K(b * b)}) ** 2 + (${z} / ${e.K(c * c)}) ** 2);`);
      return `(${k1} > 0 ? (${k0} * (${k0} - 1)) / ${k1} : ${e.K(-Math.min(a, b, c))})`;
    }
    case 'box':
    case 'roundBox': {
      const r = node.type === 'roundBox' ? node.radius : 0;
      const h = node.halfExtents.map((v) => e.K(v - r));
      const q = pointVars(e, [`Math.abs(${x}) - ${h[0]}`, `Math.abs(${y}) - ${h[1]}`, `Math.abs(${z}) - ${h[2]}`]);
      const m = pointVars(e, [`Math.max(${q[0]}, 0)`, `Math.max(${q[1]}, 0)`, `Math.max(${q[2]}, 0)`]);
      return `Math.sqrt(${m[0]} * ${m[0]} + ${m[1]} * ${m[1]} + ${m[2]} * ${m[2]}) + Math.min(Math.max(${q[0]}, ${q[1]}, ${q[2]}), 0) - ${e.K(r)}`;
    }
    case 'torus': {
      const qx = e.v('q');
      e.emit(`const ${qx} = Math.sqrt(${x} * ${x} + ${z} * ${z}) - ${e.K(node.majorRadius)};`);
      return `Math.sqrt(${qx} * ${qx} + ${y} * ${y}) - ${e.K(node.minorRadius)}`;
    }
    case 'capsule': {
      const [ax, ay, az] = node.a;
      const ba = [node.b[0] - ax, node.b[1] - ay, node.b[2] - az];
      const bb = ba[0] * ba[0] + ba[1] * ba[1] + ba[2] * ba[2];
      const bk = ba.map((v) => e.K(v));
      const q = pointVars(e, [`${x} - ${e.K(ax)}`, `${y} - ${e.K(ay)}`, `${z} - ${e.K(az)}`]);
      const h = e.v('h');
      e.emit(`const ${h} = Math.min(Math.max((${q[0]} * ${bk[0]} + ${q[1]} * ${bk[1]} + ${q[2]} * ${bk[2]}) * ${e.K(bb > 0 ? 1 / bb : 0)}, 0), 1);`);
      const dd = pointVars(e, [`${q[0]} - ${bk[0]} * ${h}`, `${q[1]} - ${bk[1]} * ${h}`, `${q[2]} - ${bk[2]} * ${h}`]);
      return `Math.sqrt(${dd[0]} * ${dd[0]} + ${dd[1]} * ${dd[1]} + ${dd[2]} * ${dd[2]}) - ${e.K(node.radius)}`;
    }
    case 'plane': {
      const [nx, ny, nz] = node.normal.map((v) => e.K(v));
      return `${x} * ${nx} + ${y} * ${ny} + ${z} * ${nz} - ${e.K(node.offset)}`;
    }
    case 'union':
    case 'intersection':
    case 'subtraction':
    case 'smoothUnion':
    case 'smoothIntersection':
    case 'smoothSubtraction':
      return emitCsg(e, node, p);
    case 'translate': {
      const [ox, oy, oz] = node.offset.map((v) => e.K(v));
      return emitNode(e, node.child, pointVars(e, [`${x} - ${ox}`, `${y} - ${oy}`, `${z} - ${oz}`]));
    }
    case 'rotate': {
      // The child is rotated by R, so it is evaluated at Rᵀ p (compileJs.ts).
      const m = rotationMatrix(node.axis, node.angleDeg).map((v) => e.K(v));
      return emitNode(e, node.child, pointVars(e, [
        `${m[0]} * ${x} + ${m[3]} * ${y} + ${m[6]} * ${z}`,
        `${m[1]} * ${x} + ${m[4]} * ${y} + ${m[7]} * ${z}`,
        `${m[2]} * ${x} + ${m[5]} * ${y} + ${m[8]} * ${z}`,
      ]));
    }
    case 'scale': {
      const inv = e.K(1 / node.factor);
      const c = emitNode(e, node.child, pointVars(e, [`${x} * ${inv}`, `${y} * ${inv}`, `${z} * ${inv}`]));
      return `${c} * ${e.K(node.factor)}`;
    }
    case 'shell': {
      const s = e.v('s');
      e.emit(`let ${s} = ${lit(DROPPED_SHELL)};`);
      const dropped = e.U(shellDropped(node.thickness, e.minWavelengthM) ? 1 : 0);
      e.block(`if (${dropped} === 0)`, () => {
        const c = emitNode(e, node.child, p);
        e.emit(`${s} = Math.abs(${c}) - ${e.K(node.thickness)};`);
      });
      return s;
    }
  }
}

/** The brushes, in order, over the root's value `d` at the point (x, y, z): compileJs.ts withBrush. */
const BRUSH_LOOP = `for (let _b = 0; _b < NB; _b += 6) {
const _sph = Math.sqrt((x - B[_b]) ** 2 + (y - B[_b + 1]) ** 2 + (z - B[_b + 2]) ** 2) - B[_b + 3];
const _k = B[_b + 4];
if (B[_b + 5] > 0) {
  if (_k > 0) ${SMOOTH.smin('_d', '_sph', '_k')} else _d = Math.min(_d, _sph);
} else {
  const _c = -_sph;
  if (_k > 0) ${SMOOTH.smax('_d', '_c', '_k')} else _d = Math.max(_d, _c);
}
}`;

/**
 * The program of a parsed recipe (compileField.ts validates first) for a band limit (bandLimit.ts;
 * 0: the full field).
 */
export function fieldProgram(recipe: FieldRecipe, minWavelengthM = 0): FieldProgram {
  const e = new Emitter(minWavelengthM);
  const limit = e.K(pointLimit(recipe));
  const root = emitNode(e, recipe.root, ['x', 'y', 'z']);
  const inside = `Math.abs(x) < ${limit} && Math.abs(y) < ${limit} && Math.abs(z) < ${limit}`;
  const body = `${e.lines.join('\n')}\nlet _d = ${root};\n${BRUSH_LOOP}`;
  const source = `"use strict";
return function fieldFactory(K, U, N, X, CH, B, SLOW) {
const NB = B.length;
${e.decls.join('\n')}
${[...e.kinds].sort().map(fractalKernel).join('\n')}
function point(x, y, z) {
if (!(${inside})) return SLOW(x, y, z);
${body}
return _d;
}
function points(xyz, out, count) {
for (let _p = 0, _pi = 0; _p < count; _p++, _pi += 3) {
const x = xyz[_pi], y = xyz[_pi + 1], z = xyz[_pi + 2];
if (!(${inside})) { out[_p] = SLOW(x, y, z); continue; }
${body}
out[_p] = _d;
}
}
return { point, points };
};`;
  const B = new Float64Array(recipe.brushes.length * 6);
  recipe.brushes.forEach((b, i) => B.set([b.center[0], b.center[1], b.center[2], b.radius, b.blend, b.op === 'add' ? 1 : -1], 6 * i));
  return { source, ...e.data(), N: e.tables, X: e.craters, B };
}
