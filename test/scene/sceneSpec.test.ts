import { describe, expect, it } from 'vitest';
import { asteroidRecipe, bodyId, explorePlanet, asteroidFieldSpec, planetRecipe, sceneSpec, type SceneSpec } from '../../src/scene/index';

const len = (a: readonly number[]): number => Math.hypot(a[0], a[1], a[2]);

/** Every body of a scene as [id, recipe]. */
function bodies(scene: SceneSpec): [string, unknown][] {
  const out: [string, unknown][] = (scene.asteroids?.asteroids ?? []).map((a) => [a.id, a.recipe]);
  if (scene.planet) out.push([scene.planet.id, scene.planet.recipe]);
  return out;
}

describe('sceneSpec: seed + kind → the scene', () => {
  it.each(['explore', 'asteroid', 'planet'] as const)('%s: deterministic, serialisable, same seed → same scene', (kind) => {
    const a = sceneSpec(42, kind);
    expect(JSON.parse(JSON.stringify(a))).toEqual(a);
    expect(sceneSpec(42, kind)).toEqual(a);
    expect(sceneSpec(43, kind)).not.toEqual(a);
  });

  it('explore: the seed’s asteroid field and, beside it, the planet of planet mode', () => {
    const scene = sceneSpec(3, 'explore');
    expect(scene.asteroids).toEqual(asteroidFieldSpec(3));
    const planet = explorePlanet(3, asteroidFieldSpec(3));
    expect(scene.planet!.recipe).toEqual(planetRecipe(3));
    expect(scene.planet!.centerM).toEqual(planet.centerM);
    expect(scene.planet!.id).toBe(sceneSpec(3, 'planet').planet!.id);
    // One sun for every body: the field's.
    expect(scene.sunDirection).toEqual(scene.asteroids!.sunDirection);
    // The camera looks at the hero asteroid.
    expect(scene.camera.target).toEqual(scene.asteroids!.asteroids[0].positionM);
  });

  it('asteroid: one asteroid at the origin, no planet; planet: one planet at the origin, no asteroids', () => {
    const a = sceneSpec(7, 'asteroid');
    expect(a.planet).toBeNull();
    expect(a.asteroids!.asteroids).toHaveLength(1);
    expect(a.asteroids!.asteroids[0].recipe).toEqual(asteroidRecipe(7));
    const p = sceneSpec(7, 'planet');
    expect(p.asteroids).toBeNull();
    expect(p.planet!.centerM).toEqual([0, 0, 0]);
    expect(len(p.camera.position)).toBeGreaterThan(2 * p.planet!.radiusM);
  });

  it.each([1, 2, 99])('seed %i: the sun is a unit vector and body ids are unique within the scene', (seed) => {
    for (const kind of ['explore', 'asteroid', 'planet'] as const) {
      const scene = sceneSpec(seed, kind);
      expect(len(scene.sunDirection)).toBeCloseTo(1, 12);
      const ids = bodies(scene).map(([id]) => id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('an id names one recipe in every scene that shows it (what registerBody relies on)', () => {
    const byId = new Map<string, unknown>();
    for (const seed of [5, 6]) {
      for (const kind of ['explore', 'asteroid', 'planet'] as const) {
        for (const [id, recipe] of bodies(sceneSpec(seed, kind))) {
          if (byId.has(id)) expect(recipe).toEqual(byId.get(id));
          byId.set(id, recipe);
        }
      }
    }
    // The field's asteroids are the gallery's asteroids of their own seeds.
    const hero = sceneSpec(5, 'explore').asteroids!.asteroids[1];
    expect(hero.id).toBe(bodyId('asteroid', hero.seed));
    expect(sceneSpec(hero.seed, 'asteroid').asteroids!.asteroids[0].recipe).toEqual(hero.recipe);
  });

  it.each([-1, 1.5, 2 ** 32, NaN])('rejects seed %s with a clear message', (seed) => {
    expect(() => sceneSpec(seed, 'explore')).toThrow(/scene seed must be an integer/);
  });
});
