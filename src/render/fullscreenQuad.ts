/**
 * A full-screen pass: a 2×2 quad that an orthographic camera draws whole, one material at a time
 * (the atmosphere's look-up tables, the cloud cover's bake). Its geometry is owned by the caller's
 * GpuResources; the materials are the caller's.
 */
import { Mesh, OrthographicCamera, PlaneGeometry, Scene, type ShaderMaterial, type WebGLRenderer } from 'three';
import type { GpuResources } from './disposal';

export class FullscreenQuad {
  private readonly scene = new Scene();
  private readonly camera = new OrthographicCamera(-1, 1, 1, -1, 0, 1);
  private readonly quad: Mesh<PlaneGeometry, ShaderMaterial>;

  constructor(gpu: GpuResources, material: ShaderMaterial) {
    this.quad = new Mesh(gpu.own(new PlaneGeometry(2, 2)), material);
    this.quad.frustumCulled = false;
    this.scene.add(this.quad);
  }

  /** Draws the quad with `material` (default: the last one drawn) into the renderer's current target. */
  render(renderer: WebGLRenderer, material: ShaderMaterial = this.quad.material): void {
    this.quad.material = material;
    renderer.render(this.scene, this.camera);
  }
}
