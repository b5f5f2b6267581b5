/**
 * Planet classes (issue 41): every class occurs over seeds 0–199, the choice is deterministic,
 * every class's recipe keeps the field contract, has relief in every band from 100 km to 10 m, and
 * the volume classes have overhangs, arches and caves where `--altitude` puts the camera.
 * The thresholds are argued in docs/recipes.md ("Planet classes").
 */
import { describe, expect, it } from 'vitest';
import { compileToJs, parseRecipe, recipeBounds } from '../../src/field/index';
import { compileToGlsl } from '../../src/field/compileGlsl';
import {
  PLANET_CLASSES, planetAir, planetClassOf, planetSurfaceView, planetWorld, sceneSpec, type PlanetClass,
} from '../../src/scene/index';
import { CLASS_AIR } from '../../src/scene/planetClasses';
import { bandRelief, findCave, multiCrossingShare, surfaceRadius } from './terrainProbe';

/** Bands of the relief test (m) and the least median RMS relief in each, as a share of the band. */
const BANDS_M = [100e3, 10e3, 1e3, 100, 10];
const MIN_RELIEF_SHARE = 1e-3;
/** Six directions spread over the sphere (the north pole first: the camera of `--altitude`). */
const DIRECTIONS: [number, number, number][] = [[0, 1, 0], [1, 0, 0], [0, 0, 1], [-0.6, 0.64, 0.48], [0.3, -0.9, 0.3162], [-0.7, -0.1, 0.707]];
/** A small (62 km, seed 4) and a large (2,173 km, seed 2) planet. */
const SIZE_SEEDS = [4, 2];

describe('planet classes', () => {
  it('every class occurs over seeds 0–199, and the choice is deterministic and fits the air', () => {
    const counts = new Map<PlanetClass, number>();
    for (let seed = 0; seed < 200; seed++) {
      const cls = planetClassOf(seed);
      expect(planetClassOf(seed)).toBe(cls);
      expect(CLASS_AIR[cls]).toContain(planetAir(seed, cls));
      counts.set(cls, (counts.get(cls) ?? 0) + 1);
    }
    for (const cls of PLANET_CLASSES) expect(counts.get(cls) ?? 0, cls).toBeGreaterThanOrEqual(10);
  });

  it('the class follows the seed into the scene: air, sea and clouds as the class says', () => {
    for (let seed = 0; seed < 40; seed++) {
      const planet = sceneSpec(seed, 'planet').planet!;
      expect(planet.planetClass).toBe(planetClassOf(seed));
      if (planet.planetClass === 'moon') expect(planet.atmosphere).toBeNull();
      if (planet.planetClass === 'ocean') {
        expect(planet.atmosphere).not.toBeNull();
        expect(planet.sea).not.toBeNull();
        expect(planet.clouds).not.toBeNull();
      }
      if (!planet.atmosphere) expect(planet.clouds).toBeNull();
    }
    // class= for any seed: a moon drawn as an ocean gets air, a sea and a body id of its own.
    const moonSeed = [...Array(50).keys()].find((s) => planetClassOf(s) === 'moon')!;
    const asOcean = sceneSpec(moonSeed, 'planet', { planetClass: 'ocean' }).planet!;
    expect(asOcean.planetClass).toBe('ocean');
    expect(asOcean.atmosphere).not.toBeNull();
    expect(asOcean.sea).not.toBeNull();
    expect(asOcean.id).toBe(`planet:${moonSeed}:ocean`);
    expect(sceneSpec(moonSeed, 'planet', { planetClass: 'moon' }).planet!.id).toBe(`planet:${moonSeed}`);
  });

  it.each(PLANET_CLASSES)('%s: same seed, same recipe; the field contract holds (finite, parsed, bounded, compiles to GLSL)', (cls) => {
    for (const seed of [...SIZE_SEEDS, 11]) {
      const world = planetWorld(seed, cls);
      expect(JSON.stringify(planetWorld(seed, cls))).toBe(JSON.stringify(world));
      expect(parseRecipe(JSON.parse(JSON.stringify(world.recipe)))).toEqual(world.recipe);
      const bounds = recipeBounds(world.recipe);
      expect(Number.isFinite(bounds.lipschitz)).toBe(true);
      expect(bounds.lipschitz).toBeLessThan(30);
      expect(bounds.elevationM).toBeLessThan(0.2 * world.meanRadiusM);
      const glsl = compileToGlsl(world.recipe);
      expect(glsl.source).toContain('float sr_field(vec3 p)');
      const field = compileToJs(world.recipe);
      const R = world.meanRadiusM;
      for (const [x, y, z] of DIRECTIONS) {
        const l = Math.hypot(x, y, z);
        for (const r of [0.5 * R, R - 50, R, R + 30, R + 2 * bounds.elevationM]) {
          const v = field((x / l) * r, (y / l) * r, (z / l) * r);
          expect(Number.isFinite(v)).toBe(true);
        }
        // Inside deep down, outside high up: the planet is a closed body.
        expect(field((x / l) * 0.5 * R, (y / l) * 0.5 * R, (z / l) * 0.5 * R)).toBeLessThan(0);
        expect(field((x / l) * (R + 1.5 * bounds.elevationM), (y / l) * (R + 1.5 * bounds.elevationM), (z / l) * (R + 1.5 * bounds.elevationM))).toBeGreaterThan(0);
      }
      if (world.sea) {
        expect(world.sea.radiusM).toBeGreaterThan(R - bounds.elevationM);
        expect(world.sea.radiusM).toBeLessThan(R + bounds.elevationM);
      }
    }
  });

  it.each(PLANET_CLASSES)('%s: relief in every band from 100 km to 10 m, in metres (not radius-relative)', (cls) => {
    for (const seed of SIZE_SEEDS) {
      const world = planetWorld(seed, cls);
      const bounds = recipeBounds(world.recipe);
      const field = compileToJs(world.recipe);
      const R = world.meanRadiusM;
      const top = R + bounds.elevationM + 1;
      for (const band of BANDS_M) {
        const rms = DIRECTIONS.map((d, i) => {
          const l = Math.hypot(...d);
          return bandRelief(field, [d[0] / l, d[1] / l, d[2] / l], i, band, R, top, Math.max(1, bounds.lipschitz));
        }).sort((a, b) => a - b);
        const median = 0.5 * (rms[2] + rms[3]);
        expect(median / band, `${cls}, seed ${seed} (${(R / 1e3).toFixed(0)} km), ${band} m band: median RMS ${median.toFixed(3)} m`).toBeGreaterThanOrEqual(MIN_RELIEF_SHARE);
      }
    }
  });

  it('the surface camera stands at its altitude over the class’s own ground, outside the rock (karst’s shells included)', () => {
    for (const [seed, cls] of [[42, undefined], [4, 'karst'], [4, 'volcanic'], [15, 'ocean']] as const) {
      const recipe = planetWorld(seed, cls).recipe;
      const field = compileToJs(recipe);
      for (const altitudeM of [40, 300]) {
        const view = planetSurfaceView(seed, altitudeM, cls ? { planetClass: cls } : {});
        expect(Math.abs(field(...view.position) - altitudeM), `seed ${seed} ${cls ?? ''} ${altitudeM} m`).toBeLessThan(0.01);
      }
    }
  });

  it.each(['karst', 'volcanic'] as const)('%s: overhangs and arches over the camera’s square km, and a cave a 2 m sphere can enter', (cls) => {
    const world = planetWorld(4, cls);
    const bounds = recipeBounds(world.recipe);
    const field = compileToJs(world.recipe);
    const ground = surfaceRadius(field, [0, 1, 0], world.meanRadiusM + bounds.elevationM + 1, Math.max(1, bounds.lipschitz));
    // 40 × 40 vertical rays over 1 km², sampled every 0.5 m from 120 m under the ground to 160 m over it.
    const share = multiCrossingShare(field, 1000, 40, ground - 120, ground + 160, 0.5);
    expect(share, 'rays crossing the surface ≥ 3 times').toBeGreaterThanOrEqual(0.05);
    // 2 m cells over 200 m × 200 m: the air that a 2 m sphere (1 m clearance) reaches from the sky.
    const cave = findCave(field, 200, 2, ground - 60, ground + 90, 1);
    expect(cave.reached).toBeGreaterThan(0);
    expect(cave.largestPocket, `covered air reached from outside (at ${cave.pocketAt?.map((v) => v.toFixed(0))})`).toBeGreaterThanOrEqual(50);
  });
});
