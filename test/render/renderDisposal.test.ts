/**
 * src/render's GPU owners keep the disposal contract (src/render/disposal.ts): after `dispose()` —
 * called twice — every geometry, material, texture and render target an owner made has been freed
 * exactly once, and nothing it was handed (another owner's tables) has been freed at all. The
 * resources are found by walking the owner's fields; three frees GPU memory on their 'dispose' events,
 * which are counted here.
 */
import { describe, expect, it } from 'vitest';
import { BufferGeometry, Group, Material, RenderTarget, Texture } from 'three';
import { sceneSpec } from '../../src/scene/sceneSpec';
import { Atmosphere } from '../../src/render/Atmosphere';
import { PlanetLayers } from '../../src/render/PlanetLayers';
import { SkyCubemap } from '../../src/render/SkyCubemap';
import { Sun } from '../../src/render/Sun';
import { FamilyMaterials } from '../../src/render/familyMaterial';
import { FailedPlaceholders } from '../../src/render/failedPlaceholder';
import { GeometryUploader } from '../../src/render/geometryUpload';
import { PlanetPieces } from '../../src/render/planetPieces';

type Resource = BufferGeometry | Material | Texture | RenderTarget;

/** Every GPU resource reachable from `root` through fields, arrays, maps and sets (a render target's own textures left out: they are freed with it). */
function resources(root: unknown): Set<Resource> {
  const found = new Set<Resource>();
  const targetTextures = new Set<Texture>();
  const seen = new Set<unknown>();
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object' || seen.has(v) || ArrayBuffer.isView(v)) return;
    seen.add(v);
    if (v instanceof RenderTarget) for (const t of v.textures) targetTextures.add(t);
    if (v instanceof BufferGeometry || v instanceof Material || v instanceof Texture || v instanceof RenderTarget) found.add(v);
    const values = v instanceof Map || v instanceof Set ? [...v.values()] : Array.isArray(v) ? v : Object.values(v);
    for (const x of values) walk(x);
  };
  walk(root);
  for (const t of targetTextures) found.delete(t);
  return found;
}

/** Disposes `owner` twice and checks what it owns was freed once and what it borrowed never. */
function expectDisposedOnce(owner: { dispose(): void }, borrowed: unknown[] = [], minimum = 1): void {
  const shared = resources(borrowed);
  const all = resources(owner);
  const owned = [...all].filter((r) => !shared.has(r));
  expect(owned.length).toBeGreaterThanOrEqual(minimum);
  const counts = new Map<Resource, number>();
  for (const r of all) {
    counts.set(r, 0);
    (r as BufferGeometry).addEventListener('dispose', () => counts.set(r, counts.get(r)! + 1));
  }
  owner.dispose();
  owner.dispose();
  const name = (r: Resource): string => `${r.constructor.name} "${(r as { name?: string }).name ?? ''}"`;
  for (const r of owned) expect(counts.get(r), `${name(r)} freed once`).toBe(1);
  for (const r of all) if (shared.has(r)) expect(counts.get(r), `${name(r)} (borrowed) not freed`).toBe(0);
}

describe('render: every GPU owner frees what it made, once', () => {
  const planet = sceneSpec(4, 'planet').planet!;

  it('Sun', () => expectDisposedOnce(new Sun({ cascades: 3 }), [], 2));

  it('SkyCubemap (with its stars)', () => expectDisposedOnce(new SkyCubemap({ seed: 3, size: 16 }), [], 6));

  it('Atmosphere', () => expectDisposedOnce(new Atmosphere(planet.atmosphere!, { software: true }), [], 12));

  it('PlanetLayers (the sea, the clouds and their cover; the atmosphere is borrowed)', () => {
    const atmosphere = new Atmosphere(planet.atmosphere!, { software: true });
    const layers = new PlanetLayers({
      seed: planet.seed, sea: planet.sea, clouds: planet.clouds, atmosphere, software: true, lowestGroundM: planet.atmosphere!.bottomRadiusM,
    });
    expect(layers.sea && layers.clouds, 'planet 4 has a sea and clouds').toBeTruthy();
    expectDisposedOnce(layers, [atmosphere], 6);
    atmosphere.dispose();
  });

  it('PlanetPieces (materials, batches, uploader; the atmosphere is borrowed)', () => {
    const atmosphere = new Atmosphere(planet.atmosphere!, { software: true });
    const pieces = new PlanetPieces(new Group(), () => 1, atmosphere, null);
    const owner = { pieces, dispose: () => pieces.disposeMaterials() };
    expectDisposedOnce(owner, [atmosphere], 10);
    atmosphere.dispose();
  });

  it('FamilyMaterials, FailedPlaceholders, GeometryUploader', () => {
    const families = new FamilyMaterials();
    families.get('default');
    families.get('shard');
    expectDisposedOnce(families, [], 2);
    const placeholders = new FailedPlaceholders();
    const ball = placeholders.create(10);
    placeholders.remove(ball); // the ball's geometry is freed where it is removed
    expectDisposedOnce(placeholders, [], 1);
    expectDisposedOnce(new GeometryUploader(), [], 2);
  });
});
