/**
 * An asteroid's own BodyMaterial (per-pixel field normals; AsteroidField gives one to near
 * asteroids): its recipe compiled to GLSL and the program compiled with `compileAsync`
 * (KHR_parallel_shader_compile where available), then swapped in: the frame never waits for a
 * shader compile.
 */
import type { PerspectiveCamera, Scene, WebGLRenderer } from 'three';
import { compileOffFrame } from '../render/compileOffFrame';
import { BodyMaterial, bodyMaterialField } from '../render/BodyMaterial';
import type { AsteroidState, MeshEntry } from './asteroidState';

export interface DetailContext {
  renderer: WebGLRenderer;
  scene: Scene;
  onError: (message: string) => void;
  /** Binds a mesh to the new material (its positions' origin, cell size, fade). */
  bind: (entry: MeshEntry, leavingFade?: number) => void;
}

/** Starts `a`'s detail material; its `detailState` says how it goes. */
export function compileDetail(a: AsteroidState, camera: PerspectiveCamera, ctx: DetailContext): void {
  a.detailState = 'compiling';
  let material: BodyMaterial;
  try {
    material = new BodyMaterial(bodyMaterialField(a.recipe), { family: a.spec.family, seed: a.spec.seed });
  } catch (e) {
    a.detailState = 'failed';
    ctx.onError(`Asteroid ${a.spec.index}: material failed: ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  const version = a.version;
  compileOffFrame(material, a.current!.mesh.geometry, a.body, ctx.renderer, ctx.scene, camera).then(
    () => {
      // Edited while it compiled: the newest brushes as numbers, or (past the program's room) compiled again.
      const outdated = a.version !== version && !material.setFieldData(bodyMaterialField(a.recipe));
      if (a.detailState !== 'compiling' || outdated) {
        material.dispose();
        if (outdated && a.detailState === 'compiling') a.detailState = 'none';
        return;
      }
      a.detail = material;
      a.detailState = 'ready';
      for (const entry of [a.current, a.leaving]) {
        if (!entry || entry.cellSizeM === 0) continue;
        entry.mesh.material = material;
        ctx.bind(entry, entry === a.leaving ? 0 : undefined);
      }
    },
    (e: unknown) => {
      a.detailState = 'failed';
      material.dispose();
      ctx.onError(`Asteroid ${a.spec.index}: shader failed: ${e instanceof Error ? e.message : String(e)}`);
    },
  );
}
