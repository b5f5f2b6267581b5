import { describe, expect, it } from 'vitest';
import { asteroidFieldSpec, explorePlanet, heroCamera, planetRecipe } from '../../src/scene/index';

const sub = (a: number[], b: number[]): number[] => a.map((v, i) => v - b[i]);
const dot = (a: number[], b: number[]): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const len = (a: number[]): number => Math.sqrt(dot(a, a));

describe('explore scene: the seed’s planet beside its asteroid field', () => {
  it.each([1, 2, 3, 77, 4000000000])('seed %i: the planet of mode=planet, clear of the field, in the default view, half lit', (seed) => {
    const field = asteroidFieldSpec(seed);
    const planet = explorePlanet(seed, field);
    expect(planet.recipe).toEqual(planetRecipe(seed));
    const distance = len(planet.centerM);
    // Clear of every asteroid with room to spare.
    expect(distance - planet.radiusM).toBeGreaterThan(field.extentM + 40e3);
    // In front of the default camera, its center within the 45° view's vertical half-angle.
    const cam = heroCamera(field);
    const view = sub(cam.target, cam.position);
    const toPlanet = sub(planet.centerM, cam.position);
    const angle = Math.acos(dot(view, toPlanet) / (len(view) * len(toPlanet)));
    expect(angle).toBeLessThan((22.5 * Math.PI) / 180);
    // Phase angle (sun – planet – camera) near 90°: the terminator crosses the visible disc.
    const toCamera = sub(cam.position, planet.centerM);
    const phase = Math.acos(dot(toCamera, field.sunDirection) / len(toCamera));
    expect(Math.abs(phase - Math.PI / 2)).toBeLessThan(0.5);
  });

  it('is deterministic', () => {
    const a = explorePlanet(9, asteroidFieldSpec(9));
    const b = explorePlanet(9, asteroidFieldSpec(9));
    expect(a).toEqual(b);
  });
});
