import { IcosahedronGeometry, Mesh, MeshBasicMaterial } from 'three';
import { GpuResources, type Disposable } from './disposal';

/**
 * Wireframe balls standing where a body that failed to generate would be, so the user sees
 * something failed there rather than a hole. One shared material; {@link remove} frees a ball's
 * geometry, {@link dispose} the material.
 */
export class FailedPlaceholders implements Disposable {
  private material: MeshBasicMaterial | null = null;
  private readonly gpu = new GpuResources();

  /** A ball of 0.8 × `radiusM` (inside the body's silhouette when it does come). */
  create(radiusM: number): Mesh {
    this.material ??= this.gpu.own(new MeshBasicMaterial({ color: 0xff6a4d, wireframe: true, transparent: true, opacity: 0.6 }));
    const mesh = new Mesh(new IcosahedronGeometry(radiusM * 0.8, 1), this.material);
    mesh.name = 'failed-body placeholder';
    return mesh;
  }

  remove(mesh: Mesh): void {
    mesh.removeFromParent();
    mesh.geometry.dispose();
  }

  dispose(): void {
    this.gpu.dispose();
    this.material = null;
  }
}
