/**
 * One disposal contract for the objects of src/render that own GPU resources (after
 * pmndrs/postprocessing, where every pass and effect is a Disposable that frees what it made):
 *
 * - Whoever creates a geometry, material, texture or render target owns it and frees it, once; shared
 *   ones (a registry's materials, a texture handed in) are never freed by a borrower.
 * - An owner implements {@link Disposable}. It registers what it creates with a {@link GpuResources}
 *   as it creates it (`this.gpu.own(new WebGLRenderTarget(…))`), and its `dispose()` calls
 *   `this.gpu.dispose()` (plus anything that is not a resource: listeners, timers).
 * - `dispose()` may be called more than once; the second call frees nothing again.
 * - A resource replaced while its owner lives (a target resized, a map rebuilt) is freed where it is
 *   replaced: {@link GpuResources.replace}.
 *
 * three.js's own objects already fit the interface (BufferGeometry, Material, Texture,
 * WebGLRenderTarget, and postprocessing-style passes all have `dispose()`).
 */

/** Something that holds GPU resources and frees them in `dispose()`. */
export interface Disposable {
  dispose(): void;
}

/**
 * The GPU resources one object owns, freed together and once, in the order they were registered.
 */
export class GpuResources implements Disposable {
  private readonly owned: Disposable[] = [];

  /** Registers `resource` as owned (returned, so a field can be set in one line). */
  own<T extends Disposable>(resource: T): T {
    if (!this.owned.includes(resource)) this.owned.push(resource);
    return resource;
  }

  /** Registers several resources as owned. */
  ownAll(resources: Iterable<Disposable>): void {
    for (const r of resources) this.own(r);
  }

  /** Frees `old` now (when owned here) and owns `next` in its place. Returns `next`. */
  replace<T extends Disposable>(old: Disposable | null | undefined, next: T): T {
    if (old && old !== next) this.release(old);
    return this.own(next);
  }

  /** Frees one owned resource now (no-op when it is not owned here). */
  release(resource: Disposable): void {
    const i = this.owned.indexOf(resource);
    if (i < 0) return;
    this.owned.splice(i, 1);
    resource.dispose();
  }

  /** How many resources are owned (tests, debug overlays). */
  get size(): number {
    return this.owned.length;
  }

  /**
   * Frees every owned resource and forgets it: each is freed once, however often this is called
   * (what is owned after a dispose is freed by the next one).
   */
  dispose(): void {
    const owned = this.owned.splice(0);
    for (const r of owned) r.dispose();
  }
}

/** A mesh-like object's geometry and material(s), freed when the object owns them. */
export function meshResources(mesh: { geometry: Disposable; material: Disposable | Disposable[] }): Disposable[] {
  return [mesh.geometry, ...(Array.isArray(mesh.material) ? mesh.material : [mesh.material])];
}
