/**
 * What is under the pointer (issue 19): the first surface a camera ray through a screen point meets,
 * among the given roots' meshes, through their BVHs (three-mesh-bvh's accelerated raycast, patched
 * in at start-up). Asteroid meshes arrive with a BVH built in their worker; a mesh without one (a
 * planet chunk or seam) gets one the first time a pick ray meets its bounding sphere, so a pick costs
 * a few BVH descents rather than every triangle of the planet.
 */
import { Raycaster, Sphere, Vector2, type Camera, type Mesh, type Object3D, type Vector3 } from 'three';
import { MeshBVH } from 'three-mesh-bvh';

export interface PickHit {
  /** World point hit, metres. */
  point: Vector3;
  /** From the camera, metres. */
  distanceM: number;
  /** The mesh hit. */
  object: Object3D;
}

const raycaster = new Raycaster();
// Every layer: a planet's batched pieces sit on a layer of their own (src/render/pieceBatches.ts).
raycaster.layers.enableAll();
const ndc = new Vector2();
const sphere = new Sphere();

/**
 * The first hit of the ray from `camera` through pixel (`xPx`, `yPx`) of a `widthPx`×`heightPx`
 * view, among `roots` (and their descendants), or null.
 */
export function pickAt(camera: Camera, xPx: number, yPx: number, widthPx: number, heightPx: number, roots: readonly Object3D[]): PickHit | null {
  if (!(widthPx > 0 && heightPx > 0) || roots.length === 0) return null;
  camera.updateMatrixWorld();
  ndc.set((xPx / widthPx) * 2 - 1, -(yPx / heightPx) * 2 + 1);
  raycaster.setFromCamera(ndc, camera);
  raycaster.firstHitOnly = true;
  // What is drawn only (three's raycaster tests hidden meshes too: a planet's pieces kept for reuse).
  const shown: Object3D[] = [];
  for (const root of roots) {
    root.traverseVisible((o) => {
      ensureBvh(o);
      shown.push(o);
    });
  }
  const hit = raycaster.intersectObjects(shown, false)[0];
  return hit ? { point: hit.point, distanceM: hit.distance, object: hit.object } : null;
}

/** Builds a BVH for a mesh the ray may meet that has none (planet pieces come without). */
function ensureBvh(o: Object3D): void {
  const mesh = o as Mesh;
  if (!mesh.isMesh || !mesh.geometry?.index || mesh.geometry.boundsTree) return;
  const g = mesh.geometry;
  if (!g.boundingSphere) g.computeBoundingSphere();
  sphere.copy(g.boundingSphere!).applyMatrix4(mesh.matrixWorld);
  if (!raycaster.ray.intersectsSphere(sphere)) return;
  // Indirect: the BVH keeps its own triangle order and leaves the drawn index buffer as it is.
  g.boundsTree = new MeshBVH(g, { indirect: true });
}
