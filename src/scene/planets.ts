/**
 * Seed → planet (issue 41): a radius of 50 km – 6000 km (log-uniform), a class
 * (planetClasses.ts) and the class's FieldRecipe, with its sea level where it has water.
 *
 * Every class builds its relief from **absolute wavelengths**, not fractions of the radius: a
 * ladder of noise layers from continents and basins (~1,200 km, or the planet's own size when
 * smaller) through ranges (~100 km), valleys (~10 km), hills and cliffs (~1 km), outcrops
 * (~100 m) and rocks (~10 m) down to the ground's last metres, each band's height a share of its
 * wavelength (its `slope`). So a 60 km moon and a 6,000 km planet both have something to see from
 * 400 m, and from 3 m. The LOD's band limit (src/field/bandLimit.ts) drops the octaves a level's
 * cells cannot carry, so the fine bands cost only near the ground.
 *
 * Two classes show what only a volume mesher can (docs/recipes.md, "Planet classes"):
 * - **karst**: a rock band a few tens of metres over the ground, cut by 3-D noise into pillars,
 *   arches and overhanging ledges, and a cave sheet under the ground whose pockets breach it
 *   (sinkholes and cave mouths with rock above);
 * - **volcanic**: lava tubes (the same sheet, narrower and closer under the crust) and
 *   overhanging flow fronts.
 * Both are shells that follow the terrain with the terrain's own modifiers, so the JS back end
 * evaluates the terrain once for all three (compileJs.ts's shared modifiers).
 *
 * Precision: the JS back end is double precision everywhere. The GLSL back end gets body-local
 * float32 positions (0.5 m apart at 6000 km): the planet's GPU sampling is used only for levels
 * whose cells are ≥ 128 float32 ulps of the radius (src/jobs/planetGpuSamples.ts); finer levels
 * sample in JS.
 */
import { compileClosures } from '../field/compileJs';
import { parseRecipe } from '../field/parseRecipe';
import { Prng } from '../field/prng';
import type { CraterField, DomainWarp, FieldNode, FieldRecipe, NoiseKind, NoiseLayer } from '../field/recipe';
import type { SeaSpec } from '../field/atmosphereMedium';
import { planetAir, planetClassOf, type AirKind, type PlanetClass } from './planetClasses';

export const PLANET_RADIUS_MIN_M = 50e3;
export const PLANET_RADIUS_MAX_M = 6000e3;

/** One band of a class's relief ladder. */
interface Band {
  kind: NoiseKind;
  /** The first octave's wavelength, metres (capped at 1.5 radii: a planet has nothing longer). */
  wavelengthM: number;
  octaves: number;
  /** Height of the band as a share of its wavelength (amplitude = slope × wavelength); < 0 carves. */
  slope: number;
  gain?: number;
  lacunarity?: number;
}

/** A planet of a class: its recipe and what is drawn beside the field. */
export interface PlanetWorld {
  seed: number;
  planetClass: PlanetClass;
  /** The air the class and the seed give it (src/scene/planetAtmosphere.ts makes the medium). */
  air: AirKind;
  recipe: FieldRecipe;
  /** The terrain sphere's radius, metres. */
  meanRadiusM: number;
  /** About its lowest ground (every layer at its deepest), metres. */
  lowestM: number;
  /** Its sea, or null. */
  sea: SeaSpec | null;
}

function layer(prng: Prng, radiusM: number, b: Band): NoiseLayer {
  const wavelength = Math.min(b.wavelengthM, 1.5 * radiusM);
  return {
    kind: b.kind,
    seed: prng.seed(),
    frequency: 1 / wavelength,
    octaves: b.octaves,
    lacunarity: b.lacunarity ?? 2,
    gain: b.gain ?? 0.5,
    amplitude: b.slope * wavelength * prng.range(0.8, 1.25),
  };
}

/** The ladders: up to 8 bands per class (a node's limit), longest first. */
const LADDERS: Record<PlanetClass, Band[]> = {
  moon: [
    { kind: 'fbm', wavelengthM: 1.2e6, octaves: 4, slope: 0.0025 },
    // Crater cells: a crater of up to 0.3 wavelengths in radius in ~60 % of cells, an octave per
    // size; big complex craters are shallower than small simple ones.
    { kind: 'craters', wavelengthM: 60e3, octaves: 5, slope: 0.06 },
    { kind: 'fbm', wavelengthM: 12e3, octaves: 4, slope: 0.006 },
    { kind: 'craters', wavelengthM: 1.5e3, octaves: 5, slope: 0.14 },
    { kind: 'fbm', wavelengthM: 150, octaves: 3, slope: 0.015 },
    { kind: 'craters', wavelengthM: 24, octaves: 3, slope: 0.15 },
    { kind: 'fbm', wavelengthM: 6, octaves: 2, slope: 0.02 },
  ],
  desert: [
    { kind: 'fbm', wavelengthM: 1.2e6, octaves: 4, slope: 0.002 },
    { kind: 'ridged', wavelengthM: 60e3, octaves: 5, slope: -0.008, gain: 0.45 },
    // Mesas and buttes: terraced plateaus at two scales.
    { kind: 'terrace', wavelengthM: 20e3, octaves: 4, slope: 0.012 },
    { kind: 'terrace', wavelengthM: 2e3, octaves: 3, slope: 0.02 },
    { kind: 'ridged', wavelengthM: 300, octaves: 3, slope: 0.04 },
    { kind: 'billow', wavelengthM: 40, octaves: 3, slope: 0.012 },
    { kind: 'fbm', wavelengthM: 6, octaves: 2, slope: 0.015 },
  ],
  alpine: [
    { kind: 'fbm', wavelengthM: 1.2e6, octaves: 5, slope: 0.003 },
    { kind: 'ridged', wavelengthM: 150e3, octaves: 6, slope: 0.02 },
    { kind: 'ridged', wavelengthM: 30e3, octaves: 4, slope: -0.008, gain: 0.45 },
    { kind: 'fbm', wavelengthM: 3e3, octaves: 4, slope: 0.02 },
    { kind: 'ridged', wavelengthM: 300, octaves: 4, slope: 0.04 },
    { kind: 'fbm', wavelengthM: 20, octaves: 3, slope: 0.04 },
  ],
  ocean: [
    { kind: 'fbm', wavelengthM: 1.2e6, octaves: 6, slope: 0.004 },
    { kind: 'ridged', wavelengthM: 100e3, octaves: 5, slope: 0.01 },
    { kind: 'fbm', wavelengthM: 8e3, octaves: 4, slope: 0.01 },
    { kind: 'billow', wavelengthM: 600, octaves: 4, slope: 0.02 },
    { kind: 'fbm', wavelengthM: 40, octaves: 3, slope: 0.02 },
    { kind: 'fbm', wavelengthM: 5, octaves: 2, slope: 0.02 },
  ],
  ice: [
    { kind: 'fbm', wavelengthM: 1.2e6, octaves: 4, slope: 0.0015 },
    { kind: 'ridged', wavelengthM: 80e3, octaves: 5, slope: 0.004 },
    { kind: 'ridged', wavelengthM: 3e3, octaves: 4, slope: -0.02, gain: 0.4, lacunarity: 2.3 },
    { kind: 'ridged', wavelengthM: 400, octaves: 3, slope: 0.015 },
    { kind: 'ridged', wavelengthM: 40, octaves: 3, slope: -0.12, gain: 0.4 },
    { kind: 'fbm', wavelengthM: 6, octaves: 2, slope: 0.01 },
  ],
  volcanic: [
    { kind: 'fbm', wavelengthM: 1.2e6, octaves: 4, slope: 0.003 },
    { kind: 'ridged', wavelengthM: 20e3, octaves: 5, slope: 0.006 },
    // Lobes of lava ~45 m high (0.015 read as a plain from 300 m: issue 41's "flatter than Io").
    { kind: 'billow', wavelengthM: 1.5e3, octaves: 4, slope: 0.03 },
    // Flow fronts: steps of ~10 m.
    { kind: 'terrace', wavelengthM: 250, octaves: 3, slope: 0.05 },
    { kind: 'ridged', wavelengthM: 30, octaves: 3, slope: 0.05 },
    { kind: 'fbm', wavelengthM: 4, octaves: 2, slope: 0.03 },
  ],
  karst: [
    { kind: 'fbm', wavelengthM: 1.2e6, octaves: 4, slope: 0.002 },
    { kind: 'ridged', wavelengthM: 100e3, octaves: 5, slope: 0.008 },
    { kind: 'terrace', wavelengthM: 5e3, octaves: 4, slope: 0.02 },
    { kind: 'billow', wavelengthM: 500, octaves: 4, slope: 0.04 },
    { kind: 'fbm', wavelengthM: 30, octaves: 3, slope: 0.03 },
    { kind: 'fbm', wavelengthM: 5, octaves: 2, slope: 0.03 },
  ],
};

/** Large craters per class (the recipe's crater field; the smaller ones are in the ladder). */
function craterField(prng: Prng, cls: PlanetClass, r: number): CraterField | undefined {
  const base = { seed: prng.seed(), center: [0, 0, 0] as [number, number, number], sphereRadius: r };
  switch (cls) {
    case 'moon':
      return { ...base, count: 200, radiusMin: 0.004 * r, radiusMax: 0.1 * r, sizeExponent: 1.6, depth: 0.12, rimHeight: 0.035, ejectaFalloff: 1.2 };
    case 'ice':
      return { ...base, count: 40, radiusMin: 0.003 * r, radiusMax: 0.04 * r, sizeExponent: 2, depth: 0.05, rimHeight: 0.015, ejectaFalloff: 1 };
    case 'volcanic':
      // Shield volcanoes: a high rim over a shallow caldera, flanks three radii wide.
      return { ...base, count: 36, radiusMin: Math.min(4e3, 0.02 * r), radiusMax: Math.min(40e3, 0.08 * r), sizeExponent: 1.5, depth: 0.04, rimHeight: 0.09, ejectaFalloff: 3 };
    case 'desert':
      return { ...base, count: 24, radiusMin: 0.003 * r, radiusMax: 0.03 * r, sizeExponent: 2, depth: 0.06, rimHeight: 0.02, ejectaFalloff: 1 };
    default:
      return undefined;
  }
}

/** The volume features of the karst and volcanic classes (lengths in metres). */
const VOLUMES = {
  karst: { bandHeightM: 30, bandThicknessM: 8, bandNoiseM: 40, bandWavelengthM: 120, bandSparseM: 30, caveDepthM: 22, caveThicknessM: 6, caveNoiseM: 26, caveWavelengthM: 70, caveSparseM: 30 },
  volcanic: { bandHeightM: 14, bandThicknessM: 5, bandNoiseM: 9, bandWavelengthM: 60, bandSparseM: 20, caveDepthM: 14, caveThicknessM: 4, caveNoiseM: 16, caveWavelengthM: 110, caveSparseM: 20 },
} as const;

/**
 * A shell's noise: `wavelengthM` fbm of ±`noiseM` that makes and breaks it, and a ridged layer of
 * −`sparseM` at 8 wavelengths that thins it out (ridged is in [0, 1], ~0.4 on average: a negative
 * amplitude is an offset that moves the shell's edge inwards, more along the ridges' lines), so
 * the features come in groups with open ground between.
 */
function shellNoise(prng: Prng, wavelengthM: number, noiseM: number, sparseM: number): NoiseLayer[] {
  return [
    { kind: 'fbm', seed: prng.seed(), frequency: 1 / wavelengthM, octaves: 3, lacunarity: 2, gain: 0.5, amplitude: noiseM },
    { kind: 'ridged', seed: prng.seed(), frequency: 1 / (8 * wavelengthM), octaves: 2, lacunarity: 2, gain: 0.5, amplitude: -sparseM },
  ];
}

/** Seed (and optionally a class other than the seed's) → the planet. */
export function planetWorld(seed: number, planetClass?: PlanetClass): PlanetWorld {
  const prng = new Prng(seed);
  const r = prng.logRange(PLANET_RADIUS_MIN_M, PLANET_RADIUS_MAX_M);
  const cls = planetClass ?? planetClassOf(seed);
  const air = planetAir(seed, cls);
  const noise = LADDERS[cls].map((b) => layer(prng, r, b));
  const craters = craterField(prng, cls, r);
  const warpWavelength = Math.min(40e3, 0.5 * r);
  const warp: DomainWarp = { seed: prng.seed(), frequency: 1 / warpWavelength, octaves: 3, lacunarity: 2, gain: 0.5, amplitude: 0.04 * warpWavelength };
  const terrain = (radius: number): FieldNode => ({ type: 'sphere', radius, noise, ...(craters ? { craters } : {}), warp });
  let root: FieldNode = terrain(r);
  if (cls === 'karst' || cls === 'volcanic') {
    const v = VOLUMES[cls];
    const band: FieldNode = {
      type: 'shell',
      thickness: v.bandThicknessM,
      child: terrain(r + v.bandHeightM),
      noise: shellNoise(prng, v.bandWavelengthM, v.bandNoiseM, v.bandSparseM),
    };
    const caves: FieldNode = {
      type: 'shell',
      thickness: v.caveThicknessM,
      child: terrain(r - v.caveDepthM),
      noise: shellNoise(prng, v.caveWavelengthM, v.caveNoiseM, v.caveSparseM),
    };
    root = {
      type: 'smoothSubtraction',
      blend: 0.4 * v.caveThicknessM,
      children: [{ type: 'smoothUnion', blend: 0.5 * v.bandThicknessM, children: [root, band] }, caves],
    };
  }
  const recipe = parseRecipe({ version: 1, name: `planet ${seed >>> 0} ${cls}`, root, brushes: [] });
  const { lowestM } = planetGround(recipe);
  return { seed, planetClass: cls, air, recipe, meanRadiusM: r, lowestM, sea: planetSea(prng, cls, recipe, r) };
}

/** Seed → planet recipe (body-local metres, centered at the origin); `planetClass` overrides the seed's. */
export function planetRecipe(seed: number, planetClass?: PlanetClass): FieldRecipe {
  return planetWorld(seed, planetClass).recipe;
}

/** Sea colours (linear RGB): turquoise shallows over dark blue. */
const SEA_SHALLOW: [number, number, number] = [0.05, 0.3, 0.32];
const SEA_DEEP: [number, number, number] = [0.004, 0.025, 0.06];

/**
 * The sea of an ocean world (about 62 % of its ground under water) and of some alpine worlds (a
 * fifth, in the basins). Sea level is a quantile of the terrain's height over 512 directions
 * (a Fibonacci sphere): the height at radius R is −field(R·dir) to first order.
 */
function planetSea(prng: Prng, cls: PlanetClass, recipe: FieldRecipe, r: number): SeaSpec | null {
  const share = cls === 'ocean' ? prng.range(0.55, 0.7) : cls === 'alpine' ? prng.range(0.15, 0.3) : 0;
  if (share === 0) return null;
  const { craters: _craters, ...terrain } = groundTerrain(recipe.root);
  const field = compileClosures(parseRecipe({ version: 1, root: terrain, brushes: [] }));
  const n = 512;
  const heights = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const y = 1 - (2 * (i + 0.5)) / n;
    const s = Math.sqrt(1 - y * y);
    const a = i * Math.PI * (3 - Math.sqrt(5));
    heights[i] = -field(r * s * Math.cos(a), r * y, r * s * Math.sin(a));
  }
  heights.sort();
  const level = heights[Math.min(n - 1, Math.floor(share * n))];
  const tint = prng.range(0.8, 1.2);
  return {
    radiusM: r + level,
    shallow: [SEA_SHALLOW[0] * tint, SEA_SHALLOW[1], SEA_SHALLOW[2] / tint],
    deep: SEA_DEEP,
    clarityM: prng.range(6, 14),
  };
}

/** The terrain sphere of a planet recipe: the first child down from the root. */
function groundTerrain(root: FieldNode): FieldNode & { type: 'sphere' } {
  let node: FieldNode = root;
  for (let depth = 0; depth < 8; depth++) {
    if (node.type === 'sphere') return node;
    if ('children' in node) node = node.children[0];
    else if ('child' in node) node = node.child;
    else break;
  }
  throw new Error('not a planet recipe (no terrain sphere)');
}

/**
 * The mean radius of a {@link planetRecipe} planet and about its lowest ground (every noise layer
 * and the deepest crater at their deepest), metres: where its atmosphere starts (planetAtmosphere.ts).
 * The terrain sphere is the first child down from the root.
 */
export function planetGround(recipe: FieldRecipe): { meanRadiusM: number; lowestM: number } {
  let terrain: FieldNode & { type: 'sphere' };
  try {
    terrain = groundTerrain(recipe.root);
  } catch {
    throw new Error(`planetGround: ${recipe.name ?? 'recipe'} is not a planet recipe (no terrain sphere)`);
  }
  let relief = 0;
  for (const n of terrain.noise ?? []) relief += Math.abs(n.amplitude);
  if (terrain.craters) relief += terrain.craters.depth * terrain.craters.radiusMax;
  return { meanRadiusM: terrain.radius, lowestM: terrain.radius - relief };
}
