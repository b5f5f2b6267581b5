/**
 * FieldRecipe → JS: a tree of closures over plain numbers. No code generation, no
 * allocation per call (every closure takes and returns numbers), double precision
 * throughout, so the JS back end is the reference the GPU is tested against.
 */
import type { NoiseFunction3D } from 'simplex-noise';
import { shellDropped, usedOctaves } from './bandLimit';
import { craterHeight, craterHeightIndexed, indexCraters, placeCraters } from './craters';
import { fractal, noisePermutation, seededNoise3D, WARP_OFFSETS } from './noise';
import { parseRecipe } from './parseRecipe';
import type { Brush, FieldNode, FieldRecipe, Modifiers } from './recipe';
import { rotationMatrix } from './transform';

/**
 * A compiled field: signed value in metres at a body-local point (m). The generated evaluator
 * (compileField.ts) also carries `points`: many points in one call (see `evaluatePoints`).
 */
export interface FieldFn {
  (x: number, y: number, z: number): number;
  /** The field at `count` points (xyz interleaved), into `out` (float32 rounding where `out` is). */
  points?: (xyz: Float64Array, out: Float32Array | Float64Array, count: number) => void;
}

type NoiseCache = Map<number, NoiseFunction3D>;

/** A band-limited-away shell's value: far outside, the identity of union and subtraction. */
const DROPPED_SHELL = 1e30;

/** Options of {@link compileToJs}. */
export interface CompileJsOptions {
  /**
   * The plain closure chain (default false): no modifier sharing, full crater loops. The default
   * closures share the modifier evaluation (warped point, crater height, noise terms) between nodes
   * whose active modifiers are structurally identical, evaluated at the same point one after the
   * other, and visit only the craters that can reach a direction (craterHeightIndexed); both give
   * bitwise the values of this chain, which is kept as their test oracle and bench peer.
   */
  reference?: boolean;
  /**
   * Band-limit for a sampling lattice (bandLimit.ts): noise and warp octaves shorter than this
   * wavelength are left out (the rest still normalised by all), shells thinner than half of it
   * vanish. Default 0: the full field, bitwise.
   */
  minWavelengthM?: number;
}

/**
 * The last point a group of structurally identical modifiers was evaluated at, and what they gave
 * there: the warped point, the crater term (`hasCrater` false where the original returns the base
 * value unchanged) and each noise layer's `amplitude * fractal(...)`, in layer order.
 */
interface ModifierMemo {
  x: number; y: number; z: number;
  wx: number; wy: number; wz: number;
  hasCrater: boolean;
  crater: number;
  terms: Float64Array;
}

interface CompileContext {
  cache: NoiseCache;
  /** Band-limit (CompileJsOptions.minWavelengthM); 0 for the full field. */
  minWavelengthM: number;
  /** Crater loops through a direction index (false: the reference chain's full loops). */
  indexCraters: boolean;
  /** Structural key → memo, for keys held by two or more nodes (absent: no sharing). */
  memos: Map<string, ModifierMemo> | null;
}

/**
 * Structural key of a node's ACTIVE modifiers (those withModifiers applies), or null when none.
 * Nodes with one key evaluated at one point share their modifier values (here and in the GLSL
 * back end, glslNodes.ts).
 */
export function modifierKey(mods: Modifiers): string | null {
  const craters = mods.craters && mods.craters.count > 0 ? mods.craters : null;
  const noise = mods.noise ?? [];
  const warp = mods.warp && mods.warp.amplitude > 0 ? mods.warp : null;
  if (!craters && noise.length === 0 && !warp) return null;
  return JSON.stringify([craters, noise, warp]);
}

export function countModifierKeys(node: FieldNode, counts: Map<string, number>): void {
  const key = modifierKey(node);
  if (key !== null) counts.set(key, (counts.get(key) ?? 0) + 1);
  if ('children' in node) for (const c of node.children) countModifierKeys(c, counts);
  if ('child' in node) countModifierKeys(node.child, counts);
}

function noiseFor(cache: NoiseCache, seed: number): NoiseFunction3D {
  let n = cache.get(seed);
  if (!n) {
    n = seededNoise3D(seed);
    cache.set(seed, n);
  }
  return n;
}

/** Polynomial smooth minimum (Quílez), blend radius k > 0. */
export function smin(a: number, b: number, k: number): number {
  const h = Math.max(k - Math.abs(a - b), 0) / k;
  return Math.min(a, b) - h * h * k * 0.25;
}

/** Polynomial smooth maximum: −smin(−a, −b, k). */
export function smax(a: number, b: number, k: number): number {
  const h = Math.max(k - Math.abs(a - b), 0) / k;
  return Math.max(a, b) + h * h * k * 0.25;
}

function compileShape(node: FieldNode, ctx: CompileContext): FieldFn {
  switch (node.type) {
    case 'sphere': {
      const r = node.radius;
      return (x, y, z) => Math.sqrt(x * x + y * y + z * z) - r;
    }
    case 'ellipsoid': {
      const [a, b, c] = node.radii;
      const minR = Math.min(a, b, c);
      return (x, y, z) => {
        const k0 = Math.sqrt((x / a) ** 2 + (y / b) ** 2 + (z / c) ** 2);
        const k1 = Math.sqrt((x / (a * a)) ** 2 + (y / (b * b)) ** 2 + (z / (c * c)) ** 2);
        return k1 > 0 ? (k0 * (k0 - 1)) / k1 : -minR;
      };
    }
    case 'box':
    case 'roundBox': {
      const r = node.type === 'roundBox' ? node.radius : 0;
      const hx = node.halfExtents[0] - r, hy = node.halfExtents[1] - r, hz = node.halfExtents[2] - r;
      return (x, y, z) => {
        const qx = Math.abs(x) - hx, qy = Math.abs(y) - hy, qz = Math.abs(z) - hz;
        const mx = Math.max(qx, 0), my = Math.max(qy, 0), mz = Math.max(qz, 0);
        return Math.sqrt(mx * mx + my * my + mz * mz) + Math.min(Math.max(qx, qy, qz), 0) - r;
      };
    }
    case 'torus': {
      const R = node.majorRadius, r = node.minorRadius;
      return (x, y, z) => {
        const qx = Math.sqrt(x * x + z * z) - R;
        return Math.sqrt(qx * qx + y * y) - r;
      };
    }
    case 'capsule': {
      const [ax, ay, az] = node.a;
      const bax = node.b[0] - ax, bay = node.b[1] - ay, baz = node.b[2] - az;
      const bb = bax * bax + bay * bay + baz * baz;
      const invBB = bb > 0 ? 1 / bb : 0;
      const r = node.radius;
      return (x, y, z) => {
        const px = x - ax, py = y - ay, pz = z - az;
        const h = Math.min(Math.max((px * bax + py * bay + pz * baz) * invBB, 0), 1);
        const dx = px - bax * h, dy = py - bay * h, dz = pz - baz * h;
        return Math.sqrt(dx * dx + dy * dy + dz * dz) - r;
      };
    }
    case 'plane': {
      const [nx, ny, nz] = node.normal;
      const d = node.offset;
      return (x, y, z) => x * nx + y * ny + z * nz - d;
    }
    case 'union':
    case 'intersection':
    case 'subtraction':
    case 'smoothUnion':
    case 'smoothIntersection':
    case 'smoothSubtraction':
      return compileCsg(node.type, 'blend' in node ? node.blend : 0, node.children.map((c) => compileNode(c, ctx)));
    case 'translate': {
      const child = compileNode(node.child, ctx);
      const [ox, oy, oz] = node.offset;
      return (x, y, z) => child(x - ox, y - oy, z - oz);
    }
    case 'rotate': {
      const child = compileNode(node.child, ctx);
      // The child is rotated by R, so it is evaluated at Rᵀ p.
      const m = rotationMatrix(node.axis, node.angleDeg);
      const [m00, m01, m02, m10, m11, m12, m20, m21, m22] = m;
      return (x, y, z) =>
        child(m00 * x + m10 * y + m20 * z, m01 * x + m11 * y + m21 * z, m02 * x + m12 * y + m22 * z);
    }
    case 'scale': {
      const child = compileNode(node.child, ctx);
      const s = node.factor, inv = 1 / node.factor;
      return (x, y, z) => child(x * inv, y * inv, z * inv) * s;
    }
    case 'shell': {
      // Thinner than the lattice resolves: nothing (a large positive value is the identity of
      // union and subtraction), and its subtree is never evaluated.
      if (shellDropped(node.thickness, ctx.minWavelengthM)) return () => DROPPED_SHELL;
      const child = compileNode(node.child, ctx);
      const t = node.thickness;
      return (x, y, z) => Math.abs(child(x, y, z)) - t;
    }
  }
}

function compileCsg(type: FieldNode['type'], k: number, fns: FieldFn[]): FieldFn {
  const first = fns[0];
  const rest = fns.slice(1);
  const n = rest.length;
  switch (type) {
    case 'union':
      return (x, y, z) => {
        let d = first(x, y, z);
        for (let i = 0; i < n; i++) d = Math.min(d, rest[i](x, y, z));
        return d;
      };
    case 'intersection':
      return (x, y, z) => {
        let d = first(x, y, z);
        for (let i = 0; i < n; i++) d = Math.max(d, rest[i](x, y, z));
        return d;
      };
    case 'subtraction':
      return (x, y, z) => {
        let d = first(x, y, z);
        for (let i = 0; i < n; i++) d = Math.max(d, -rest[i](x, y, z));
        return d;
      };
    case 'smoothUnion':
      return (x, y, z) => {
        let d = first(x, y, z);
        for (let i = 0; i < n; i++) d = smin(d, rest[i](x, y, z), k);
        return d;
      };
    case 'smoothIntersection':
      return (x, y, z) => {
        let d = first(x, y, z);
        for (let i = 0; i < n; i++) d = smax(d, rest[i](x, y, z), k);
        return d;
      };
    default:
      return (x, y, z) => {
        let d = first(x, y, z);
        for (let i = 0; i < n; i++) d = smax(d, -rest[i](x, y, z), k);
        return d;
      };
  }
}

/** Wraps a node's own function with its modifiers: warp(p) → base + craters − noise. */
function withModifiers(base: FieldFn, mods: Modifiers, cache: NoiseCache, indexed: boolean, minWavelengthM: number): FieldFn {
  let fn = base;
  if (mods.craters && mods.craters.count > 0) {
    const inner = fn;
    const data = placeCraters(mods.craters);
    const ejecta = mods.craters.ejectaFalloff;
    const [cx, cy, cz] = mods.craters.center;
    const index = indexed ? indexCraters(data, ejecta) : null;
    fn = index ? (x, y, z) => {
      const dx = x - cx, dy = y - cy, dz = z - cz;
      const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
      const d = inner(x, y, z);
      if (!(len > 0)) return d;
      const inv = 1 / len;
      return d - craterHeightIndexed(index, dx * inv, dy * inv, dz * inv);
    } : (x, y, z) => {
      const dx = x - cx, dy = y - cy, dz = z - cz;
      const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
      const d = inner(x, y, z);
      if (!(len > 0)) return d;
      const inv = 1 / len;
      return d - craterHeight(data, ejecta, dx * inv, dy * inv, dz * inv);
    };
  }
  for (const layer of mods.noise ?? []) {
    const inner = fn;
    const noise = noiseFor(cache, layer.seed);
    const { kind, frequency: f, octaves, lacunarity, gain, amplitude } = layer;
    const used = usedOctaves(f, octaves, lacunarity, minWavelengthM);
    // A layer of amplitude 0 (an idle member of a shared shape, src/scene/asteroids.ts) adds nothing.
    if (used === 0 || amplitude === 0) continue;
    const perm = kind === 'craters' ? noisePermutation(layer.seed) : null;
    fn = (x, y, z) => inner(x, y, z) - amplitude * fractal(kind, noise, x * f, y * f, z * f, octaves, lacunarity, gain, used, perm);
  }
  const warpUsed = mods.warp ? usedOctaves(mods.warp.frequency, mods.warp.octaves, mods.warp.lacunarity, minWavelengthM) : 0;
  if (mods.warp && mods.warp.amplitude > 0 && warpUsed > 0) {
    const inner = fn;
    const noise = noiseFor(cache, mods.warp.seed);
    const { frequency: f, octaves, lacunarity, gain, amplitude: A } = mods.warp;
    const [o0, o1, o2] = WARP_OFFSETS;
    fn = (x, y, z) => {
      const ux = x * f, uy = y * f, uz = z * f;
      const wx = x + A * fractal('fbm', noise, ux + o0[0], uy + o0[1], uz + o0[2], octaves, lacunarity, gain, warpUsed);
      const wy = y + A * fractal('fbm', noise, ux + o1[0], uy + o1[1], uz + o1[2], octaves, lacunarity, gain, warpUsed);
      const wz = z + A * fractal('fbm', noise, ux + o2[0], uy + o2[1], uz + o2[2], octaves, lacunarity, gain, warpUsed);
      return inner(wx, wy, wz);
    };
  }
  return fn;
}

/**
 * withModifiers for a node whose active modifiers other nodes share (same structural key): the
 * modifier values at a point are computed once into the shared memo and reused by every node of
 * the group evaluated next at the same point (the planet's cave shell follows the terrain with the
 * terrain's own warp, noise and craters). Same operations in the same order as withModifiers:
 * `(((base(w) - crater) - term0) - term1) …`, so the values are bitwise identical.
 */
function withSharedModifiers(base: FieldFn, mods: Modifiers, cache: NoiseCache, memo: ModifierMemo, minWavelengthM: number): FieldFn {
  const craters = mods.craters && mods.craters.count > 0 ? mods.craters : null;
  const index = craters ? indexCraters(placeCraters(craters), craters.ejectaFalloff) : null;
  const [cx, cy, cz] = craters ? craters.center : [0, 0, 0];
  const layers = (mods.noise ?? []).map((l) => ({
    ...l,
    fn: noiseFor(cache, l.seed),
    perm: l.kind === 'craters' ? noisePermutation(l.seed) : null,
    used: usedOctaves(l.frequency, l.octaves, l.lacunarity, minWavelengthM),
  }));
  const nLayers = layers.length;
  const warpUsed = mods.warp ? usedOctaves(mods.warp.frequency, mods.warp.octaves, mods.warp.lacunarity, minWavelengthM) : 0;
  const warp = mods.warp && mods.warp.amplitude > 0 && warpUsed > 0 ? mods.warp : null;
  const warpNoise = warp ? noiseFor(cache, warp.seed) : null;
  const [o0, o1, o2] = WARP_OFFSETS;
  const update = (x: number, y: number, z: number): void => {
    let wx = x, wy = y, wz = z;
    if (warp) {
      const { frequency: f, octaves, lacunarity, gain, amplitude: A } = warp;
      const ux = x * f, uy = y * f, uz = z * f;
      wx = x + A * fractal('fbm', warpNoise!, ux + o0[0], uy + o0[1], uz + o0[2], octaves, lacunarity, gain, warpUsed);
      wy = y + A * fractal('fbm', warpNoise!, ux + o1[0], uy + o1[1], uz + o1[2], octaves, lacunarity, gain, warpUsed);
      wz = z + A * fractal('fbm', warpNoise!, ux + o2[0], uy + o2[1], uz + o2[2], octaves, lacunarity, gain, warpUsed);
    }
    memo.wx = wx; memo.wy = wy; memo.wz = wz;
    memo.hasCrater = false;
    if (index) {
      const dx = wx - cx, dy = wy - cy, dz = wz - cz;
      const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
      if (len > 0) {
        const inv = 1 / len;
        memo.hasCrater = true;
        memo.crater = craterHeightIndexed(index, dx * inv, dy * inv, dz * inv);
      }
    }
    for (let i = 0; i < nLayers; i++) {
      const l = layers[i];
      const f = l.frequency;
      memo.terms[i] = l.used === 0 || l.amplitude === 0 ? 0 : l.amplitude * fractal(l.kind, l.fn, wx * f, wy * f, wz * f, l.octaves, l.lacunarity, l.gain, l.used, l.perm);
    }
    memo.x = x; memo.y = y; memo.z = z;
  };
  // Same point, also in the sign of zeros (-0 and 0 may round differently downstream).
  const holds = (x: number, y: number, z: number): boolean =>
    x === memo.x && y === memo.y && z === memo.z &&
    (x !== 0 || 1 / x === 1 / memo.x) && (y !== 0 || 1 / y === 1 / memo.y) && (z !== 0 || 1 / z === 1 / memo.z);
  return (x, y, z) => {
    if (!holds(x, y, z)) update(x, y, z);
    let d = base(memo.wx, memo.wy, memo.wz);
    // base may hold a node of the same group evaluated elsewhere: recompute if it moved the memo.
    if (!holds(x, y, z)) update(x, y, z);
    if (memo.hasCrater) d = d - memo.crater;
    const terms = memo.terms;
    for (let i = 0; i < nLayers; i++) d = d - terms[i];
    return d;
  };
}

function compileNode(node: FieldNode, ctx: CompileContext): FieldFn {
  const base = compileShape(node, ctx);
  const key = ctx.memos ? modifierKey(node) : null;
  const memo = key !== null ? ctx.memos!.get(key) : undefined;
  return memo
    ? withSharedModifiers(base, node, ctx.cache, memo, ctx.minWavelengthM)
    : withModifiers(base, node, ctx.cache, ctx.indexCraters, ctx.minWavelengthM);
}

function withBrush(fn: FieldFn, brush: Brush): FieldFn {
  const [cx, cy, cz] = brush.center;
  const r = brush.radius, k = brush.blend;
  const sphere = (x: number, y: number, z: number): number => Math.sqrt((x - cx) ** 2 + (y - cy) ** 2 + (z - cz) ** 2) - r;
  if (brush.op === 'add') {
    return k > 0 ? (x, y, z) => smin(fn(x, y, z), sphere(x, y, z), k) : (x, y, z) => Math.min(fn(x, y, z), sphere(x, y, z));
  }
  return k > 0 ? (x, y, z) => smax(fn(x, y, z), -sphere(x, y, z), k) : (x, y, z) => Math.max(fn(x, y, z), -sphere(x, y, z));
}

/**
 * Compiles a recipe (validated again here, so untrusted JSON is fine too: it throws
 * RecipeError) into the closure chain `(x, y, z) => value`, metres in, metres out, double
 * precision: the reference JS back end, the generated evaluator's oracle (compileField.ts's
 * `compileToJs` uses the generated one where it can).
 */
export function compileClosures(recipe: FieldRecipe | unknown, options: CompileJsOptions = {}): FieldFn {
  const parsed = parseRecipe(recipe);
  const reference = options.reference ?? false;
  const ctx: CompileContext = { cache: new Map(), minWavelengthM: options.minWavelengthM ?? 0, indexCraters: !reference, memos: null };
  if (!reference) {
    const counts = new Map<string, number>();
    countModifierKeys(parsed.root, counts);
    for (const [key, n] of counts) {
      if (n < 2) continue;
      ctx.memos ??= new Map();
      const layers = (JSON.parse(key) as [unknown, unknown[], unknown])[1].length;
      ctx.memos.set(key, { x: NaN, y: NaN, z: NaN, wx: 0, wy: 0, wz: 0, hasCrater: false, crater: 0, terms: new Float64Array(layers) });
    }
  }
  let fn = compileNode(parsed.root, ctx);
  for (const brush of parsed.brushes) fn = withBrush(fn, brush);
  return fn;
}

/**
 * Central-difference gradient of a compiled field at (x, y, z) with step `stepM`, written
 * into `out` (returned). Six evaluations; no allocation when `out` is reused.
 */
export function fieldGradient<T extends { [index: number]: number }>(
  field: FieldFn,
  x: number,
  y: number,
  z: number,
  stepM: number,
  out: T,
): T {
  const inv = 0.5 / stepM;
  out[0] = (field(x + stepM, y, z) - field(x - stepM, y, z)) * inv;
  out[1] = (field(x, y + stepM, z) - field(x, y - stepM, z)) * inv;
  out[2] = (field(x, y, z + stepM) - field(x, y, z - stepM)) * inv;
  return out;
}
