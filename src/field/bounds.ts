/**
 * Conservative bounds of a recipe, so callers can skip space that cannot hold surface.
 *
 * - `box*` / `sphere*`: contain every point where the field is ≤ 0 (the whole body).
 * - `elevationM`: |field − baseField| ≤ elevationM everywhere, where baseField is the same
 *   recipe without noise, craters and warp ({@link baseRecipe}). The base shapes are
 *   (near-)exact distance fields, so the surface lies within elevationM of the base
 *   surface: wherever |baseField| > elevationM there is no surface.
 * - `lipschitz`: an estimate of sup |∇field| (1 for a pure distance field), from the noise
 *   gradient bound measured on the package (NOISE_GRADIENT_BOUND). Dual Contouring and
 *   sphere tracing want it near 1; a value of L means "step at most value / L".
 *
 * Sublevel-set rule used throughout: `bound(node, t)` contains {p : node(p) ≤ t}. Exact
 * distance shapes grow by t; min/max/subtraction combine their children's sets; modifiers
 * that change the value by at most N turn t into t + N; a warp of amplitude A grows by A.
 */
import { usedOctaves } from './bandLimit';
import { craterHeightBound } from './craters';
import { fractalSlopeFactor, NOISE_GRADIENT_BOUND, NOISE_MAX_ABS } from './noise';
import { parseRecipe } from './parseRecipe';
import type { FieldNode, FieldRecipe, Modifiers, NoiseLayer, Vec3 } from './recipe';
import { rotate, rotationMatrix } from './transform';

export interface RecipeBounds {
  /** Axis-aligned box containing the body (m, body-local); ±Infinity when unbounded. */
  boxMin: Vec3;
  boxMax: Vec3;
  /** Sphere containing the body; radius Infinity when unbounded. */
  sphereCenter: Vec3;
  sphereRadiusM: number;
  /** Max |field − baseField| (m). */
  elevationM: number;
  /** Estimated bound on |∇field|. */
  lipschitz: number;
  /**
   * Characteristic size (m): the bounding sphere's radius, or for unbounded recipes the
   * largest finite length in the box. Tolerances "relative to the recipe's size" use it.
   */
  sizeM: number;
}

interface Volume {
  min: Vec3;
  max: Vec3;
  center: Vec3;
  radius: number;
}

const INF = Number.POSITIVE_INFINITY;

function ball(center: Vec3, radius: number): Volume {
  return {
    min: [center[0] - radius, center[1] - radius, center[2] - radius],
    max: [center[0] + radius, center[1] + radius, center[2] + radius],
    center,
    radius,
  };
}

function unbounded(): Volume {
  return { min: [-INF, -INF, -INF], max: [INF, INF, INF], center: [0, 0, 0], radius: INF };
}

function grow(v: Volume, d: number): Volume {
  return {
    min: [v.min[0] - d, v.min[1] - d, v.min[2] - d],
    max: [v.max[0] + d, v.max[1] + d, v.max[2] + d],
    center: v.center,
    radius: v.radius + d,
  };
}

function unionVolume(a: Volume, b: Volume): Volume {
  const min: Vec3 = [Math.min(a.min[0], b.min[0]), Math.min(a.min[1], b.min[1]), Math.min(a.min[2], b.min[2])];
  const max: Vec3 = [Math.max(a.max[0], b.max[0]), Math.max(a.max[1], b.max[1]), Math.max(a.max[2], b.max[2])];
  if (!Number.isFinite(a.radius) || !Number.isFinite(b.radius)) return { min, max, center: [0, 0, 0], radius: INF };
  const d = Math.hypot(b.center[0] - a.center[0], b.center[1] - a.center[1], b.center[2] - a.center[2]);
  if (d + b.radius <= a.radius) return { min, max, center: a.center, radius: a.radius };
  if (d + a.radius <= b.radius) return { min, max, center: b.center, radius: b.radius };
  const radius = (d + a.radius + b.radius) / 2;
  const s = (radius - a.radius) / d;
  const center: Vec3 = [
    a.center[0] + (b.center[0] - a.center[0]) * s,
    a.center[1] + (b.center[1] - a.center[1]) * s,
    a.center[2] + (b.center[2] - a.center[2]) * s,
  ];
  return { min, max, center, radius };
}

function intersectVolume(a: Volume, b: Volume): Volume {
  const min: Vec3 = [Math.max(a.min[0], b.min[0]), Math.max(a.min[1], b.min[1]), Math.max(a.min[2], b.min[2])];
  const max: Vec3 = [Math.min(a.max[0], b.max[0]), Math.min(a.max[1], b.max[1]), Math.min(a.max[2], b.max[2])];
  const s = a.radius <= b.radius ? a : b;
  return { min, max, center: s.center, radius: s.radius };
}

function transformVolume(v: Volume, m: readonly number[] | null, offset: Vec3, scale: number): Volume {
  const center = m ? rotate(m, v.center) : v.center;
  const c: Vec3 = [center[0] * scale + offset[0], center[1] * scale + offset[1], center[2] * scale + offset[2]];
  let min: Vec3;
  let max: Vec3;
  const finiteBox = v.min.every(Number.isFinite) && v.max.every(Number.isFinite);
  if (!finiteBox) {
    // A rotated or moved unbounded box stays unbounded (translation of ±∞ is ±∞).
    min = m ? [-INF, -INF, -INF] : [v.min[0] * scale + offset[0], v.min[1] * scale + offset[1], v.min[2] * scale + offset[2]];
    max = m ? [INF, INF, INF] : [v.max[0] * scale + offset[0], v.max[1] * scale + offset[1], v.max[2] * scale + offset[2]];
  } else {
    min = [INF, INF, INF];
    max = [-INF, -INF, -INF];
    for (let i = 0; i < 8; i++) {
      const corner: Vec3 = [i & 1 ? v.max[0] : v.min[0], i & 2 ? v.max[1] : v.min[1], i & 4 ? v.max[2] : v.min[2]];
      const r = m ? rotate(m, corner) : corner;
      for (let k = 0; k < 3; k++) {
        const value = r[k] * scale + offset[k];
        min[k] = Math.min(min[k], value);
        max[k] = Math.max(max[k], value);
      }
    }
  }
  const radius = v.radius * scale;
  // A rotated box's corners overestimate round bodies: clamp by the (rotated) sphere too.
  if (Number.isFinite(radius)) {
    for (let k = 0; k < 3; k++) {
      min[k] = Math.max(min[k], c[k] - radius);
      max[k] = Math.min(max[k], c[k] + radius);
    }
  }
  return { min, max, center: c, radius };
}

const KIND_VALUE_BOUND = { fbm: NOISE_MAX_ABS, billow: NOISE_MAX_ABS, ridged: 1, craters: 1, terrace: NOISE_MAX_ABS } as const;
// |d fractal / d u| relative to |∇noise|: billow doubles |n|; ridged squares and weights it; a
// crater cell's steepest wall is 8.3 per noise unit (noise.ts craterCell) against noise's 7.5;
// terrace risers are 3.75 × the fbm's slope (noise.ts terrace).
const KIND_SLOPE_FACTOR = { fbm: 1, billow: 2, ridged: 4, craters: 1.2, terrace: 3.75 } as const;

function noiseValueBound(layers: readonly NoiseLayer[] | undefined): number {
  let sum = 0;
  for (const l of layers ?? []) sum += Math.abs(l.amplitude) * KIND_VALUE_BOUND[l.kind];
  return sum;
}

/** How much a node's own modifiers (not its warp) can change its value (m). */
function ownValueBound(mods: Modifiers): number {
  return noiseValueBound(mods.noise) + (mods.craters ? craterHeightBound(mods.craters) : 0);
}

function bound(node: FieldNode, t: number): Volume {
  const own = ownValueBound(node);
  const warp = node.warp?.amplitude ?? 0;
  const tt = t + own;
  let v: Volume;
  switch (node.type) {
    case 'sphere':
      v = ball([0, 0, 0], node.radius + tt);
      break;
    case 'ellipsoid': {
      // Along a ray p = s·u the bound is α(sα − 1)/β with α = |u/r|, β = |u/r²| ≤ α / minR,
      // so f ≤ t ⇒ s ≤ 1/α + t/(α·minR), and s·|u_i| ≤ r_i (1 + t / minR).
      const minR = Math.min(...node.radii);
      const k = 1 + Math.max(0, tt) / minR;
      const box = node.radii.map((r) => r * k) as Vec3;
      v = { min: [-box[0], -box[1], -box[2]], max: box, center: [0, 0, 0], radius: Math.max(...box) };
      break;
    }
    case 'box':
    case 'roundBox': {
      const h = node.halfExtents;
      // A rounded box is its inner box (half extents h − ρ) grown by ρ: its corners are rounded off,
      // so the bounding sphere is the inner box's plus ρ (ρ = h: the sphere |p| − h).
      const rho = node.type === 'roundBox' ? node.radius : 0;
      const r = Math.hypot(h[0] - rho, h[1] - rho, h[2] - rho) + rho + tt;
      v = { min: [-h[0] - tt, -h[1] - tt, -h[2] - tt], max: [h[0] + tt, h[1] + tt, h[2] + tt], center: [0, 0, 0], radius: r };
      break;
    }
    case 'torus': {
      const xz = node.majorRadius + node.minorRadius + tt, y = node.minorRadius + tt;
      v = { min: [-xz, -y, -xz], max: [xz, y, xz], center: [0, 0, 0], radius: xz };
      break;
    }
    case 'capsule': {
      const { a, b } = node;
      const r = node.radius + tt;
      const center: Vec3 = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
      const half = Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]) / 2;
      v = {
        min: [Math.min(a[0], b[0]) - r, Math.min(a[1], b[1]) - r, Math.min(a[2], b[2]) - r],
        max: [Math.max(a[0], b[0]) + r, Math.max(a[1], b[1]) + r, Math.max(a[2], b[2]) + r],
        center,
        radius: half + r,
      };
      break;
    }
    case 'plane':
      v = unbounded();
      break;
    case 'union':
    case 'smoothUnion': {
      const extra = node.type === 'smoothUnion' ? node.blend * 0.25 : 0;
      v = node.children.map((c) => bound(c, tt + extra)).reduce(unionVolume);
      break;
    }
    case 'intersection':
    case 'smoothIntersection':
      v = node.children.map((c) => bound(c, tt)).reduce(intersectVolume);
      break;
    case 'subtraction':
    case 'smoothSubtraction':
      v = bound(node.children[0], tt);
      break;
    case 'translate':
      v = transformVolume(bound(node.child, tt), null, node.offset, 1);
      break;
    case 'rotate':
      v = transformVolume(bound(node.child, tt), rotationMatrix(node.axis, node.angleDeg), [0, 0, 0], 1);
      break;
    case 'scale':
      v = transformVolume(bound(node.child, tt / node.factor), null, [0, 0, 0], node.factor);
      break;
    case 'shell':
      v = bound(node.child, tt + node.thickness);
      break;
  }
  return warp > 0 ? grow(v, warp) : v;
}

function childrenOf(node: FieldNode): FieldNode[] {
  if ('children' in node) return node.children;
  if ('child' in node) return [node.child];
  return [];
}

function ellipsoidLipschitz(node: FieldNode): number {
  return node.type === 'ellipsoid' ? Math.max(...node.radii) / Math.min(...node.radii) : 1;
}

/**
 * Estimated Lipschitz constants (of the field, and of its base without modifiers) and the
 * max value change |field − baseField| of a subtree. A warp of amplitude A moves the point
 * by ≤ A, so it changes the value by ≤ A × (Lipschitz of the base): field ≥ base − E follows
 * from base(p + w) ≥ base(p) − A·L_base.
 */
function analyse(node: FieldNode, minWavelengthM = 0): { lipschitz: number; baseLipschitz: number; elevation: number } {
  let lipschitz = ellipsoidLipschitz(node);
  let baseLipschitz = lipschitz;
  let elevation = 0;
  const used = (l: { frequency: number; octaves: number; lacunarity: number }): number =>
    usedOctaves(l.frequency, l.octaves, l.lacunarity, minWavelengthM);
  for (const c of childrenOf(node)) {
    const a = analyse(c, minWavelengthM);
    lipschitz = Math.max(lipschitz, a.lipschitz);
    baseLipschitz = Math.max(baseLipschitz, a.baseLipschitz);
    elevation = Math.max(elevation, a.elevation);
  }
  if (node.type === 'scale') elevation *= node.factor;
  for (const l of node.noise ?? []) {
    lipschitz += Math.abs(l.amplitude) * l.frequency * NOISE_GRADIENT_BOUND * KIND_SLOPE_FACTOR[l.kind] *
      fractalSlopeFactor(l.octaves, l.lacunarity, l.gain, used(l));
  }
  if (node.craters && node.craters.count > 0) {
    const c = node.craters;
    lipschitz += Math.max(2 * (c.depth + c.rimHeight), (2 * c.rimHeight) / c.ejectaFalloff);
  }
  elevation += ownValueBound(node);
  if (node.warp && node.warp.amplitude > 0) {
    const w = node.warp;
    elevation += w.amplitude * baseLipschitz;
    lipschitz *= 1 + w.amplitude * w.frequency * NOISE_GRADIENT_BOUND * Math.sqrt(3) * fractalSlopeFactor(w.octaves, w.lacunarity, w.gain, used(w));
  }
  return { lipschitz, baseLipschitz, elevation };
}

/**
 * The Lipschitz estimate of the recipe's field band-limited to `minWavelengthM` (what
 * `compileToJs(recipe, { minWavelengthM })` evaluates: octaves shorter than the limit dropped,
 * the rest normalised by all; bandLimit.ts). Smaller than the full field's where fine octaves set
 * the slope: it lets a coarse chunk's samples prove the chunk holds no surface (planetChunkJob.ts:
 * band-limited field within L_band × gap of every sample, full field within the dropped octaves'
 * bound of it). Crater cells and brushes count in full. `recipeBounds(r).lipschitz` at 0.
 */
export function bandLipschitz(recipe: FieldRecipe | unknown, minWavelengthM: number): number {
  const parsed = parseRecipe(recipe);
  return Math.max(analyse(parsed.root, minWavelengthM).lipschitz, parsed.brushes.length > 0 ? 1 : 0);
}

/** Bounds of a recipe (validated first; throws RecipeError on bad input). */
export function recipeBounds(recipe: FieldRecipe | unknown): RecipeBounds {
  const parsed = parseRecipe(recipe);
  let v = bound(parsed.root, 0);
  for (const b of parsed.brushes) {
    if (b.op === 'add') v = unionVolume(v, ball(b.center, b.radius + b.blend * 0.25));
  }
  // The box's own circumscribed sphere may be tighter than the recursive sphere.
  const finiteBox = v.min.every(Number.isFinite) && v.max.every(Number.isFinite);
  let sphereCenter = v.center;
  let sphereRadiusM = v.radius;
  if (finiteBox) {
    const c: Vec3 = [(v.min[0] + v.max[0]) / 2, (v.min[1] + v.max[1]) / 2, (v.min[2] + v.max[2]) / 2];
    const r = Math.hypot(v.max[0] - c[0], v.max[1] - c[1], v.max[2] - c[2]);
    if (r < sphereRadiusM) {
      sphereCenter = c;
      sphereRadiusM = r;
    }
  }
  const { lipschitz, elevation } = analyse(parsed.root);
  let sizeM = sphereRadiusM;
  if (!Number.isFinite(sizeM)) {
    const finite = [...v.min, ...v.max].filter(Number.isFinite).map(Math.abs);
    sizeM = finite.length > 0 ? Math.max(...finite) : 1;
  }
  return {
    boxMin: v.min,
    boxMax: v.max,
    sphereCenter,
    sphereRadiusM,
    elevationM: elevation,
    lipschitz: Math.max(lipschitz, parsed.brushes.length > 0 ? 1 : 0),
    sizeM: Math.max(sizeM, 1e-9),
  };
}

function stripNode(node: FieldNode): FieldNode {
  const copy = { ...node } as FieldNode & Modifiers;
  delete copy.noise;
  delete copy.warp;
  delete copy.craters;
  if ('children' in copy) copy.children = copy.children.map(stripNode);
  if ('child' in copy) copy.child = stripNode(copy.child);
  return copy;
}

/** The recipe without noise, craters and warp: the "base shape" elevationM refers to. */
export function baseRecipe(recipe: FieldRecipe | unknown): FieldRecipe {
  const parsed = parseRecipe(recipe);
  return { ...parsed, root: stripNode(parsed.root) };
}
