/**
 * Planet atmospheres (issue 20): which planets have one, that they are seeded and pure, and that
 * the medium behaves as air does — bluer light scattered out more, far more air along the
 * horizon than straight up, the planet's shadow below the horizon.
 */
import { describe, expect, it } from 'vitest';
import { extinctionAt, transmittanceToTop } from '../../src/field/atmosphereMedium';
import { planetAtmosphere } from '../../src/scene/planetAtmosphere';
import { planetGround, planetRecipe } from '../../src/scene/planets';
import { sceneSpec } from '../../src/scene/sceneSpec';

describe('planetAtmosphere', () => {
  it('is seeded: the same seed gives the same air, and some planets have none', () => {
    const specs = Array.from({ length: 60 }, (_, s) => sceneSpec(s, 'planet').planet!.atmosphere);
    expect(JSON.stringify(sceneSpec(4, 'planet').planet!.atmosphere)).toBe(JSON.stringify(specs[4]));
    const airless = specs.filter((a) => a === null).length;
    expect(airless).toBeGreaterThan(10);
    expect(airless).toBeLessThan(40);
    const kinds = new Set(specs.filter((a) => a).map((a) => a!.kind));
    expect([...kinds].sort()).toEqual(['clear', 'hazy']);
    // The planets the docs and tests show: seed 4 has clear air, seed 15 none.
    expect(specs[4]?.kind).toBe('clear');
    expect(specs[15]).toBeNull();
  });

  it('does not move the planet recipe (its own random stream)', () => {
    expect(JSON.stringify(sceneSpec(4, 'planet').planet!.recipe)).toBe(JSON.stringify(planetRecipe(4)));
  });

  it('starts at the low ground and ends 12 scale heights up; explore planets carry it too', () => {
    for (const seed of [1, 4, 7, 14]) {
      const ground = planetGround(planetRecipe(seed));
      const a = planetAtmosphere(seed, ground.meanRadiusM, ground.lowestM)!;
      expect(a).not.toBeNull();
      expect(a.bottomRadiusM).toBeLessThanOrEqual(ground.meanRadiusM);
      expect(a.bottomRadiusM).toBeGreaterThanOrEqual(ground.meanRadiusM - a.rayleighScaleHeightM - 1e-6);
      expect(a.topRadiusM - a.bottomRadiusM).toBeCloseTo(12 * a.rayleighScaleHeightM, 6);
      expect(sceneSpec(seed, 'explore').planet!.atmosphere).toEqual(a);
    }
  });
});

describe('the medium', () => {
  const ground = planetGround(planetRecipe(4));
  const a = planetAtmosphere(4, ground.meanRadiusM, ground.lowestM)!;
  const r = ground.meanRadiusM;

  it('thins with height', () => {
    const low = extinctionAt(a, 0);
    const high = extinctionAt(a, 6 * a.rayleighScaleHeightM);
    for (let k = 0; k < 3; k++) expect(high[k]).toBeLessThan(0.05 * low[k]);
  });

  it('lets red through more than blue, straight up like the Earth (zenith depth of blue 0.1-0.6)', () => {
    const t = transmittanceToTop(a, r, 1);
    expect(t[0]).toBeGreaterThan(t[1]);
    expect(t[1]).toBeGreaterThan(t[2]);
    expect(-Math.log(t[2])).toBeGreaterThan(0.1);
    expect(-Math.log(t[2])).toBeLessThan(0.6);
  });

  it('reddens the horizon: along it blue is nearly all scattered out, red much less', () => {
    const t = transmittanceToTop(a, r + 2, 0);
    expect(t[2]).toBeLessThan(0.02);
    expect(t[0] / t[2]).toBeGreaterThan(10);
    const zenith = transmittanceToTop(a, r + 2, 1);
    expect(t[0]).toBeLessThan(0.5 * zenith[0]);
  });

  it('is dark in the planet\'s shadow (a ray into the ground)', () => {
    expect(transmittanceToTop(a, r + 2, -0.5)).toEqual([0, 0, 0]);
  });

  it('converges: 64 and 256 midpoint steps agree within 1 %', () => {
    for (const mu of [1, 0.3, 0.05]) {
      const coarse = transmittanceToTop(a, r + 100, mu, 64);
      const fine = transmittanceToTop(a, r + 100, mu, 256);
      for (let k = 0; k < 3; k++) expect(Math.abs(coarse[k] - fine[k])).toBeLessThan(0.01 * Math.max(fine[k], 1e-3));
    }
  });
});
