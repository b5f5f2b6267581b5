/** The LOD worker's view of the camera: where it is and what it sees, in the planet's frame. */
import { Frustum, Matrix4, type PerspectiveCamera, type Vector3 } from 'three';
import type { LodView } from '../lod/index';

const frustum = new Frustum();
const viewProjection = new Matrix4();

/** What the LOD worker selects for: the camera and its frustum in the planet's frame (`centerM`: its world position). */
export function lodView(camera: PerspectiveCamera, centerM: Vector3, heightPx: number): LodView {
  camera.updateMatrixWorld();
  viewProjection.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse);
  frustum.setFromProjectionMatrix(viewProjection);
  // Planes in body-local space: n·(p + c) + d = n·p + (d + n·c).
  const planes: number[] = [];
  for (const p of frustum.planes) planes.push(p.normal.x, p.normal.y, p.normal.z, p.constant + p.normal.dot(centerM));
  return {
    cameraM: [camera.position.x - centerM.x, camera.position.y - centerM.y, camera.position.z - centerM.z],
    projectionFactor: heightPx / (2 * Math.tan((camera.fov * Math.PI) / 360)),
    frustumPlanes: planes,
  };
}
