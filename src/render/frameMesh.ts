/**
 * Framing a mesh for a thumbnail: the camera distance and look-at point that fit the mesh's own
 * silhouette (a bounding sphere leaves elongated bodies tiny in their frame).
 */
import { Vector3, type Mesh, type PerspectiveCamera } from 'three';

/**
 * Points `camera` (aspect 1) along −`toCamera` at `mesh` so its vertices fill `fill` of the
 * frame: the view-plane center of the vertices is the look-at point, and the distance is the
 * least one that keeps every vertex inside the shrunken frustum.
 */
export function frameMesh(camera: PerspectiveCamera, mesh: Mesh, toCamera: Vector3, fill: number): void {
  mesh.updateMatrixWorld(true);
  const position = mesh.geometry.getAttribute('position');
  const right = new Vector3().crossVectors(new Vector3(0, 1, 0), toCamera).normalize();
  const up = new Vector3().crossVectors(toCamera, right);
  const v = new Vector3();
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (let i = 0; i < position.count; i++) {
    v.fromBufferAttribute(position, i).applyMatrix4(mesh.matrixWorld);
    const x = v.dot(right);
    const y = v.dot(up);
    minX = Math.min(minX, x); maxX = Math.max(maxX, x);
    minY = Math.min(minY, y); maxY = Math.max(maxY, y);
  }
  const center = new Vector3().addScaledVector(right, 0.5 * (minX + maxX)).addScaledVector(up, 0.5 * (minY + maxY));
  const tanHalf = Math.tan(((camera.fov / 2) * Math.PI) / 180) * fill;
  let distanceM = 0;
  let depthM = 0;
  for (let i = 0; i < position.count; i++) {
    v.fromBufferAttribute(position, i).applyMatrix4(mesh.matrixWorld).sub(center);
    const z = v.dot(toCamera);
    distanceM = Math.max(distanceM, z + Math.max(Math.abs(v.dot(right)), Math.abs(v.dot(up))) / tanHalf);
    depthM = Math.max(depthM, Math.abs(z));
  }
  camera.position.copy(center).addScaledVector(toCamera, distanceM);
  camera.near = Math.max(1e-3, (distanceM - depthM) * 0.5);
  camera.far = (distanceM + depthM) * 2;
  camera.updateProjectionMatrix();
  camera.lookAt(center);
  camera.updateMatrixWorld();
}
