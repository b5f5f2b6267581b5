/**
 * What is under the pointer (issue 19): the first surface a camera ray through a screen point meets,
 * among the given roots' meshes, through their BVHs (three-mesh-bvh's accelerated raycast, patched
 * in at start-up). Asteroid meshes arrive with a BVH built in their worker; a mesh without one (a
 * planet chunk or seam) gets one the first time a pick ray meets its bounding sphere, so a pick costs
 * a few BVH descents rather than every triangle of the planet.
 *
 * Where nothing drawn is hit, a planet can still be (issue 45: a click on the planet must go there
 * before its chunks are in, and between them): {@link traceField} marches the ray over the planet's
 * field, which the renderer need not have meshed.
 */
import { Ray, Raycaster, Sphere, Vector2, Vector3, type Camera, type Mesh, type Object3D } from 'three';
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

/** The camera ray through pixel (`xPx`, `yPx`) of a `widthPx`×`heightPx` view (a new Ray). */
export function pixelRay(camera: Camera, xPx: number, yPx: number, widthPx: number, heightPx: number): Ray {
  camera.updateMatrixWorld();
  ndc.set((xPx / widthPx) * 2 - 1, -(yPx / heightPx) * 2 + 1);
  raycaster.setFromCamera(ndc, camera);
  return raycaster.ray.clone();
}

const entry = new Vector3();
const at = new Vector3();
const boundSphere = new Sphere();

/**
 * Where `ray` first meets the surface of a field (negative inside, roughly the distance outside),
 * inside the sphere of `boundRadiusM` around `center` that holds the whole body; its distance along
 * the ray, or null (a miss). Sphere tracing at 0.9 of the field, then bisection once inside: to within
 * 0.5 m or a millionth of the distance, at most 256 field samples.
 */
export function traceField(ray: Ray, center: Vector3, boundRadiusM: number, field: (p: Vector3) => number): number | null {
  boundSphere.set(center, boundRadiusM);
  if (!ray.intersectSphere(boundSphere, entry)) return null;
  let t = boundSphere.containsPoint(ray.origin) ? 0 : entry.distanceTo(ray.origin);
  const end = t + 2 * boundRadiusM;
  let outside = t;
  for (let i = 0; i < 200 && t <= end; i++) {
    const h = field(ray.at(t, at));
    const tolerance = Math.max(0.5, 1e-6 * t);
    if (h >= 0 && h < tolerance) return t;
    if (h < 0) {
      // Overshot: bisect between the last point outside and this one.
      let inside = t;
      for (let j = 0; j < 56 && inside - outside > tolerance; j++) {
        const mid = 0.5 * (outside + inside);
        if (field(ray.at(mid, at)) < 0) inside = mid;
        else outside = mid;
      }
      return outside;
    }
    outside = t;
    t += Math.max(0.9 * h, tolerance);
  }
  return null;
}
