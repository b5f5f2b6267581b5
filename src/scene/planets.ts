/**
 * Seed → planet FieldRecipe: a sphere of radius 50 km – 6000 km (log-uniform) with
 * continents (low-frequency fbm), ridged mountains, canyons (ridged noise with negative
 * amplitude: the crests become narrow trenches), a crater field, a small domain warp for
 * overhangs, and caves: a thin shell that follows the terrain a little below the surface,
 * broken into pockets by noise and carved out of the body.
 *
 * Precision: the JS back end is double precision everywhere. The GLSL back end gets
 * body-local float32 positions, whose spacing at 6000 km is 0.5 m; noise inputs at the
 * highest frequencies (cave noise, ~1/300 m) then carry ~2e-3 of a cycle of error. That is
 * far inside the parity tolerance (1e-4 of the radius = 600 m) but too coarse for
 * metre-scale shading near the surface; the sampling passes should evaluate chunk-local
 * positions with a double-single origin (a later issue, see docs/recipes.md).
 */
import { parseRecipe } from '../field/parseRecipe';
import { Prng } from '../field/prng';
import type { FieldNode, FieldRecipe, NoiseLayer } from '../field/recipe';

export const PLANET_RADIUS_MIN_M = 50e3;
export const PLANET_RADIUS_MAX_M = 6000e3;

function layer(prng: Prng, kind: NoiseLayer['kind'], frequency: number, octaves: number, amplitude: number, gain = 0.5): NoiseLayer {
  return { kind, seed: prng.seed(), frequency, octaves, lacunarity: 2, gain, amplitude };
}

/** Seed → planet recipe (body-local metres, centered at the origin). */
export function planetRecipe(seed: number): FieldRecipe {
  const prng = new Prng(seed);
  const r = prng.logRange(PLANET_RADIUS_MIN_M, PLANET_RADIUS_MAX_M);
  const continents = layer(prng, 'fbm', prng.range(1, 2) / r, 7, r * prng.range(0.003, 0.005));
  const mountains = layer(prng, 'ridged', prng.range(4, 7) / r, 8, r * prng.range(0.0015, 0.003));
  const canyons = layer(prng, 'ridged', prng.range(2, 4) / r, 4, -r * prng.range(0.0006, 0.0012), 0.4);
  const craters = {
    seed: prng.seed(), count: prng.intRange(30, 90), center: [0, 0, 0] as [number, number, number], sphereRadius: r,
    radiusMin: 0.004 * r, radiusMax: 0.05 * r, sizeExponent: 2, depth: 0.06, rimHeight: 0.02, ejectaFalloff: 1,
  };
  const caveDepthM = Math.min(Math.max(5e-5 * r, 20), 400);
  const warp = { seed: prng.seed(), frequency: 1 / (10 * caveDepthM), octaves: 3, lacunarity: 2, gain: 0.5, amplitude: caveDepthM };
  const terrain = (radius: number): FieldNode => ({
    type: 'sphere',
    radius,
    noise: [continents, mountains, canyons],
    craters,
    warp,
  });
  const thickness = 0.35 * caveDepthM;
  const caves: FieldNode = {
    type: 'shell',
    thickness,
    child: terrain(r - caveDepthM),
    noise: [layer(prng, 'fbm', 1 / (1.5 * caveDepthM), 3, -1.8 * thickness)],
  };
  return parseRecipe({
    version: 1,
    name: `planet ${seed >>> 0}`,
    root: { type: 'smoothSubtraction', blend: 0.2 * caveDepthM, children: [terrain(r), caves] },
    brushes: [],
  });
}

/**
 * The mean radius of a {@link planetRecipe} planet and about its lowest ground (every noise layer
 * and the deepest crater at their deepest), metres: where its atmosphere starts (atmosphere.ts).
 */
export function planetGround(recipe: FieldRecipe): { meanRadiusM: number; lowestM: number } {
  const root = recipe.root;
  const terrain = root.type === 'smoothSubtraction' ? root.children[0] : root;
  if (terrain.type !== 'sphere') throw new Error(`planetGround: ${recipe.name ?? 'recipe'} is not a planet recipe (no terrain sphere)`);
  let relief = 0;
  for (const n of terrain.noise ?? []) relief += Math.abs(n.amplitude);
  if (terrain.craters) relief += terrain.craters.depth * terrain.craters.radiusMax;
  return { meanRadiusM: terrain.radius, lowestM: terrain.radius - relief };
}
