/**
 * The disposal contract (src/render/disposal.ts): what an owner registers is freed once, however often
 * it is disposed; a replaced resource is freed where it is replaced; three's objects fit the interface
 * (counted through their 'dispose' events, which is what the renderer frees GPU memory on).
 */
import { describe, expect, it } from 'vitest';
import { BufferGeometry, DataTexture, Mesh, MeshBasicMaterial, WebGLRenderTarget, type EventDispatcher } from 'three';
import { GpuResources, meshResources, type Disposable } from '../../src/render/disposal';
import { Sun } from '../../src/render/Sun';

/** Counts an object's 'dispose' events. */
function counted<T extends EventDispatcher<{ dispose: object }>>(obj: T): { obj: T; count: () => number } {
  let n = 0;
  obj.addEventListener('dispose', () => n++);
  return { obj, count: () => n };
}

describe('GpuResources', () => {
  it('frees each owned resource once, in order, however often it is disposed', () => {
    const order: string[] = [];
    const res = (name: string): Disposable => ({ dispose: () => order.push(name) });
    const gpu = new GpuResources();
    const a = gpu.own(res('a'));
    gpu.own(a); // owned twice: still freed once
    gpu.ownAll([res('b'), res('c')]);
    expect(gpu.size).toBe(3);
    gpu.dispose();
    gpu.dispose();
    expect(order).toEqual(['a', 'b', 'c']);
    expect(gpu.size).toBe(0);
  });

  it('replace frees the old resource now, release frees one; unknown ones are left alone', () => {
    const gpu = new GpuResources();
    const first = counted(new WebGLRenderTarget(4, 4));
    const second = counted(new WebGLRenderTarget(8, 8));
    const borrowed = counted(new DataTexture(new Uint8Array(4), 1, 1));
    let target = gpu.own(first.obj);
    target = gpu.replace(target, second.obj);
    expect(first.count()).toBe(1);
    gpu.release(borrowed.obj);
    expect(borrowed.count()).toBe(0);
    gpu.dispose();
    expect([first.count(), second.count(), borrowed.count()]).toEqual([1, 1, 0]);
    expect(target).toBe(second.obj);
  });

  it('meshResources: a mesh\'s geometry and every material', () => {
    const geometry = counted(new BufferGeometry());
    const materials = [counted(new MeshBasicMaterial()), counted(new MeshBasicMaterial())];
    const gpu = new GpuResources();
    gpu.ownAll(meshResources(new Mesh(geometry.obj, materials.map((m) => m.obj))));
    gpu.dispose();
    expect([geometry.count(), ...materials.map((m) => m.count())]).toEqual([1, 1, 1]);
  });

  it('Sun: disposing twice frees the disc once', () => {
    const sun = new Sun({ cascades: 3 });
    const geometry = counted(sun.disc.geometry);
    const material = counted(sun.disc.material);
    sun.dispose();
    sun.dispose();
    expect([geometry.count(), material.count()]).toEqual([1, 1]);
  });
});
