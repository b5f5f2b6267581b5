/**
 * Jobs name bodies registered with their worker (bodyRegistry.ts): an unknown body is a clear
 * error, a re-registration replaces what was derived from the old definition, and a job's result
 * does not depend on whether the recipe came with the job or by registration.
 */
import { describe, expect, it } from 'vitest';
import { asteroidRecipe, planetRecipe } from '../../src/scene/index';
import { meshBody } from './oneWorker';
import { handleRegistration, registerBody, registeredBody, registeredBodyCount, unregisterBody, UnknownBodyError } from './oneWorker';
import { meshPlanetChunk } from './oneWorker';

const grid = { cells: 12, originM: [-400, -400, -400] as [number, number, number], stepM: 800 / 12, simplify: 0 };

describe('body registry', () => {
  it('a job naming a body never registered fails with a message that says so', () => {
    expect(() => meshBody({ body: 'asteroid:404', ...grid })).toThrow(UnknownBodyError);
    expect(() => meshBody({ body: 'asteroid:404', ...grid })).toThrow(/body "asteroid:404" is not registered with this worker/);
  });

  it('registration messages register and unregister; other messages are left alone', () => {
    const before = registeredBodyCount();
    expect(handleRegistration({ kind: 'registerBody', params: { body: 'm:1', definition: { recipe: asteroidRecipe(1) } } })).toBe(true);
    expect(registeredBodyCount()).toBe(before + 1);
    expect(meshBody({ body: 'm:1', ...grid, bvh: false }).indices.length).toBeGreaterThan(0);
    expect(handleRegistration({ kind: 'meshBody', params: {} })).toBe(false);
    expect(handleRegistration({ kind: 'unregisterBody', params: { body: 'm:1' } })).toBe(true);
    expect(registeredBodyCount()).toBe(before);
    expect(() => meshBody({ body: 'm:1', ...grid })).toThrow(UnknownBodyError);
  });

  it('re-registering an id replaces the recipe and drops what was derived from the old one', () => {
    registerBody('m:2', { recipe: asteroidRecipe(2) });
    const a = meshBody({ body: 'm:2', ...grid, bvh: false });
    const derivedBefore = registeredBody('m:2').derived.size;
    expect(derivedBefore).toBeGreaterThan(0); // the compiled field was kept
    registerBody('m:2', { recipe: asteroidRecipe(3) });
    expect(registeredBody('m:2').derived.size).toBe(0);
    const b = meshBody({ body: 'm:2', ...grid, bvh: false });
    expect(b.hash).not.toBe(a.hash);
    registerBody('m:3', { recipe: asteroidRecipe(3) });
    expect(meshBody({ body: 'm:3', ...grid, bvh: false }).hash).toBe(b.hash);
    unregisterBody('m:2');
    unregisterBody('m:3');
  });

  it('a planet chunk job needs a body registered with a chunk space', () => {
    registerBody('p:no-space', { recipe: planetRecipe(4) });
    expect(() => meshPlanetChunk({ body: 'p:no-space', face: 0, level: 0, ci: 0, cj: 0, ck: 0, coarser: [], simplify: 0 })).toThrow(/without a chunk space/);
    unregisterBody('p:no-space');
  });
});
