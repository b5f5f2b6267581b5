/**
 * Seed → asteroid FieldRecipe, in six recognisably different families. All randomness
 * comes from the project PRNG (src/field/prng.ts), drawn in a fixed order, so a seed always
 * gives the same recipe JSON. Radii are log-uniform in [50 m, 2 km].
 *
 * Noise is kept roughly distance-like (Lipschitz a few at worst, see recipeBounds): the
 * amplitude × frequency of each layer stays ≲ 0.2, so Dual Contouring sees sane gradients.
 *
 * One shape per family (issue 16): a family's recipes differ only in numbers, so the GPU compiles
 * one program for all its seeds (compileToGlsl `numbersAsData`). Where a seed draws fewer cutting
 * planes, tunnels or pits than the family's most, the rest are there and do nothing — planes and
 * holes far outside the body ({@link idle}) — and are added after the seed's draws, so every seed
 * keeps the look it had. Crater counts stay within one list capacity (glslParams.ts `listCapacity`).
 */
import { parseRecipe } from '../field/parseRecipe';
import { Prng } from '../field/prng';
import type { FieldNode, FieldRecipe, NoiseLayer, Vec3 } from '../field/recipe';

export const ASTEROID_FAMILIES = ['potato', 'shard', 'contactBinary', 'cratered', 'metallic', 'porous'] as const;
export type AsteroidFamily = (typeof ASTEROID_FAMILIES)[number];

/** The most cutting planes, tunnels and pits a seed draws; the cut shape has {@link CUT_PLANES} planes. */
const SHARD_CUTS_MAX = 4;
const CUT_PLANES = 15;
const POROUS_TUNNELS_MAX = 5;
const POROUS_PITS_MAX = 8;

export const ASTEROID_RADIUS_MIN_M = 50;
export const ASTEROID_RADIUS_MAX_M = 2000;

export interface AsteroidOptions {
  /** Force a family (the gallery and tests use it); otherwise the seed picks one. */
  family?: AsteroidFamily;
}

/** The family a seed produces (the first draw of the seed's stream). */
export function asteroidFamily(seed: number): AsteroidFamily {
  return new Prng(seed).pick(ASTEROID_FAMILIES);
}

function fbm(prng: Prng, frequency: number, octaves: number, amplitude: number, kind: NoiseLayer['kind'] = 'fbm'): NoiseLayer {
  return { kind, seed: prng.seed(), frequency, octaves, lacunarity: 2, gain: 0.5, amplitude };
}

function randomRotation(prng: Prng, child: FieldNode): FieldNode {
  return { type: 'rotate', ...rotation(prng), child };
}

function scaled(v: readonly number[], s: number): Vec3 {
  return [v[0] * s, v[1] * s, v[2] * s];
}

/** Where the unused planes and holes of a family's shape go: this many radii out, where they never touch the body. */
const IDLE_DISTANCE = 8;

/** `n` members that change nothing, each `make(i)`: pads a seed's list to the family's count. */
function idle(n: number, make: (i: number) => FieldNode): FieldNode[] {
  return Array.from({ length: Math.max(0, n) }, (_, i) => make(i));
}

/** The directions of idle members (fixed: they carry no randomness). */
const IDLE_AXES: Vec3[] = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [-1, 0, 0], [0, -1, 0], [0, 0, -1]];

/** Modifiers that change nothing (amplitude or count 0): a family without one still has its shape. */
function idleNoise(r: number): NoiseLayer {
  return { kind: 'fbm', seed: 1, frequency: 1 / r, octaves: 1, lacunarity: 2, gain: 0.5, amplitude: 0 };
}

function idleWarp(r: number): NonNullable<FieldNode['warp']> {
  return { seed: 1, frequency: 1 / r, octaves: 1, lacunarity: 2, gain: 0.5, amplitude: 0 };
}

function idleCraters(r: number): NonNullable<FieldNode['craters']> {
  return { seed: 1, count: 0, center: [0, 0, 0], sphereRadius: r, radiusMin: 0.05 * r, radiusMax: 0.1 * r, sizeExponent: 2, depth: 0.1, rimHeight: 0.03, ejectaFalloff: 0.8 };
}

const NO_ROTATION = { axis: [0, 1, 0] as Vec3, angleDeg: 0 };

function rotation(prng: Prng): { axis: Vec3; angleDeg: number } {
  const axis = prng.unitVector() as Vec3;
  return { axis, angleDeg: prng.range(0, 360) };
}

/**
 * The blob shape (potato, contactBinary, cratered): two ellipsoid lobes smooth-unioned, the
 * modifiers on the union, translated and rotated. A one-lobe body's second lobe is a speck at its
 * centre with a blend far smaller than their distance, so the union is the first lobe exactly.
 */
interface Blob {
  lobeA: Vec3;
  lobeB: { offset: Vec3; radii: Vec3 };
  blend: number;
  offset: Vec3;
  noise: [NoiseLayer, NoiseLayer];
  warp: NonNullable<FieldNode['warp']>;
  craters: NonNullable<FieldNode['craters']>;
  rotation: { axis: Vec3; angleDeg: number };
}

function blob(b: Blob): FieldNode {
  return {
    type: 'rotate', ...b.rotation,
    child: {
      type: 'translate',
      offset: b.offset,
      child: {
        type: 'smoothUnion',
        blend: b.blend,
        children: [
          { type: 'ellipsoid', radii: b.lobeA },
          { type: 'translate', offset: b.lobeB.offset, child: { type: 'ellipsoid', radii: b.lobeB.radii } },
        ],
        noise: b.noise, warp: b.warp, craters: b.craters,
      },
    },
  };
}

/** A lobe that changes nothing: a speck at the first lobe's centre, deep inside it. */
function speck(r: number): { lobeB: Blob['lobeB']; blend: number } {
  return { lobeB: { offset: [0, 0, 0], radii: [0.01 * r, 0.01 * r, 0.01 * r] }, blend: 0.001 * r };
}

function potato(prng: Prng, r: number): FieldNode {
  const lobeA: Vec3 = [r, r * prng.range(0.65, 0.85), r * prng.range(0.5, 0.7)];
  const noise: Blob['noise'] = [fbm(prng, 0.8 / r, 6, 0.16 * r), fbm(prng, 5 / r, 4, 0.015 * r)];
  const warp = { seed: prng.seed(), frequency: 0.5 / r, octaves: 2, lacunarity: 2, gain: 0.5, amplitude: 0.06 * r };
  const craters = {
    seed: prng.seed(), count: prng.intRange(6, 16), center: [0, 0, 0] as Vec3, sphereRadius: 0.8 * r,
    radiusMin: 0.05 * r, radiusMax: 0.25 * r, sizeExponent: 2, depth: 0.15, rimHeight: 0.04, ejectaFalloff: 0.8,
  };
  return blob({ lobeA, ...speck(r), offset: [0, 0, 0], noise, warp, craters, rotation: rotation(prng) });
}

/**
 * The cut shape (shard, metallic): a rounded box cut by {@link CUT_PLANES} planes, two noise layers,
 * rotated. The cuts meet the box and each other through a smooth intersection of radius `blend`:
 * with a sharp one a cut at a few degrees to a face left a straight, hard brightness step across
 * what reads as one flat face (the field's gradient jumps there, and the relief noise hides the
 * edge itself; issue 20, seed 7). Idle planes lie far outside the blend.
 */
function cut(
  box: { halfExtents: Vec3; radius: number }, planes: FieldNode[], noise: [NoiseLayer, NoiseLayer], rot: { axis: Vec3; angleDeg: number }, r: number,
  blend: number,
): FieldNode {
  const all = [...planes, ...idle(CUT_PLANES - planes.length, (i) => ({ type: 'plane', normal: IDLE_AXES[i % 6], offset: IDLE_DISTANCE * r }))];
  return { type: 'rotate', ...rot, child: { type: 'smoothIntersection', blend, children: [{ type: 'roundBox', ...box }, ...all], noise } };
}

function shard(prng: Prng, r: number): FieldNode {
  const box = { halfExtents: [r, r * prng.range(0.22, 0.35), r * prng.range(0.18, 0.3)] as Vec3, radius: 0.04 * r };
  const cuts: FieldNode[] = [];
  const planes = prng.intRange(2, SHARD_CUTS_MAX);
  for (let i = 0; i < planes; i++) {
    // Oblique cuts near the ends and along the sides give the broken, tapering look.
    const n = prng.unitVector();
    n[0] = n[0] * 0.6 + (n[0] >= 0 ? 0.5 : -0.5);
    cuts.push({ type: 'plane', normal: n as Vec3, offset: r * prng.range(0.3, 0.6) });
  }
  const noise: [NoiseLayer, NoiseLayer] = [fbm(prng, 2 / r, 5, 0.035 * r, 'ridged'), fbm(prng, 7 / r, 3, 0.008 * r)];
  // Cut edges rounded like the box's own.
  return cut(box, cuts, noise, rotation(prng), r, box.radius);
}

function contactBinary(prng: Prng, r: number): FieldNode {
  const ra = r * prng.range(0.5, 0.6);
  const rb = r * prng.range(0.35, 0.5);
  const gap = (ra + rb) * prng.range(0.8, 0.95);
  const lobeA: Vec3 = [ra, ra * prng.range(0.8, 0.95), ra * prng.range(0.75, 0.9)];
  const lobeB = { offset: [gap, r * prng.range(-0.08, 0.08), r * prng.range(-0.08, 0.08)] as Vec3, radii: [rb, rb * prng.range(0.8, 0.95), rb * prng.range(0.75, 0.9)] as Vec3 };
  const noise: Blob['noise'] = [fbm(prng, 1.5 / r, 6, 0.06 * r), fbm(prng, 6 / r, 3, 0.01 * r)];
  return blob({
    lobeA, lobeB, blend: 0.25 * r, offset: [-gap * (rb / (ra + rb)), 0, 0], noise, warp: idleWarp(r), craters: idleCraters(r), rotation: rotation(prng),
  });
}

function cratered(prng: Prng, r: number): FieldNode {
  const R = 0.92 * r;
  const noise: Blob['noise'] = [fbm(prng, 1 / r, 5, 0.07 * r), idleNoise(r)];
  const craters = {
    seed: prng.seed(), count: prng.intRange(80, 128), center: [0, 0, 0] as Vec3, sphereRadius: 0.92 * r,
    radiusMin: 0.03 * r, radiusMax: 0.35 * r, sizeExponent: 1.8, depth: 0.22, rimHeight: 0.06, ejectaFalloff: 0.8,
  };
  // A sphere: the ellipsoid of equal radii is exactly |p| − R.
  return blob({ lobeA: [R, R, R], ...speck(r), offset: [0, 0, 0], noise, warp: idleWarp(r), craters, rotation: NO_ROTATION });
}

function metallic(prng: Prng, r: number): FieldNode {
  const planes: FieldNode[] = [];
  const count = prng.intRange(9, CUT_PLANES);
  for (let i = 0; i < count; i++) {
    planes.push({ type: 'plane', normal: prng.unitVector() as Vec3, offset: r * prng.range(0.72, 0.95) });
  }
  // The sphere keeps the body finite whatever directions the planes drew: a rounded box whose
  // rounding is its half extent is exactly the sphere |p| − r.
  // Facets stay crisp (the blend is 0.2 % of the radius: edges sharp at any view, shading continuous).
  return cut({ halfExtents: [r, r, r], radius: r }, planes, [fbm(prng, 6 / r, 3, 0.006 * r, 'billow'), idleNoise(r)], NO_ROTATION, r, 0.002 * r);
}

function porous(prng: Prng, r: number): FieldNode {
  const body: FieldNode = {
    type: 'ellipsoid',
    radii: [r, r * prng.range(0.75, 0.9), r * prng.range(0.65, 0.8)],
    noise: [fbm(prng, 1 / r, 5, 0.1 * r)],
  };
  const holes: FieldNode[] = [];
  const tunnels = prng.intRange(3, POROUS_TUNNELS_MAX);
  for (let i = 0; i < tunnels; i++) {
    const d = prng.unitVector();
    const c = scaled(prng.unitVector(), r * prng.range(0, 0.35));
    holes.push({
      type: 'capsule',
      a: [c[0] - d[0] * 1.4 * r, c[1] - d[1] * 1.4 * r, c[2] - d[2] * 1.4 * r],
      b: [c[0] + d[0] * 1.4 * r, c[1] + d[1] * 1.4 * r, c[2] + d[2] * 1.4 * r],
      radius: r * prng.range(0.1, 0.18),
    });
  }
  holes.push(...idle(POROUS_TUNNELS_MAX - tunnels, (i) => {
    const far = scaled(IDLE_AXES[i % 6], IDLE_DISTANCE * r);
    return { type: 'capsule', a: far, b: [far[0], far[1] + r, far[2]], radius: 0.1 * r };
  }));
  const pits = prng.intRange(4, POROUS_PITS_MAX);
  for (let i = 0; i < pits; i++) {
    holes.push({ type: 'translate', offset: scaled(prng.unitVector(), r * prng.range(0.6, 0.85)), child: { type: 'sphere', radius: r * prng.range(0.12, 0.25) } });
  }
  holes.push(...idle(POROUS_PITS_MAX - pits, (i) => ({
    type: 'translate', offset: scaled(IDLE_AXES[i % 6], IDLE_DISTANCE * r), child: { type: 'sphere', radius: 0.12 * r },
  })));
  return randomRotation(prng, {
    type: 'smoothSubtraction',
    blend: 0.08 * r,
    children: [body, { type: 'union', children: holes, noise: [fbm(prng, 3 / r, 3, 0.04 * r)] }],
  });
}

const BUILDERS: Record<AsteroidFamily, (prng: Prng, radiusM: number) => FieldNode> = {
  potato,
  shard,
  contactBinary,
  cratered,
  metallic,
  porous,
};

/** Seed → asteroid recipe (body-local metres, centered near the origin). */
export function asteroidRecipe(seed: number, options: AsteroidOptions = {}): FieldRecipe {
  const prng = new Prng(seed);
  const picked = prng.pick(ASTEROID_FAMILIES);
  const family = options.family ?? picked;
  const radiusM = prng.logRange(ASTEROID_RADIUS_MIN_M, ASTEROID_RADIUS_MAX_M);
  // Through parseRecipe: validated, and canonical (normalised axes, filled defaults), so
  // the JSON a seed gives is exactly what a saved-and-reloaded recipe gives.
  return parseRecipe({
    version: 1,
    name: `asteroid ${family} ${seed >>> 0}`,
    root: BUILDERS[family](prng, radiusM),
    brushes: [],
  });
}
