/**
 * Page-side set-up for test/browser/export.test.ts: an asteroid meshed by the real body job,
 * placed as AsteroidField places it (spinning pivot, body frame, mesh at its grid origin) with
 * its BodyMaterial, exported as GLB and OBJ, and the GLB read back with GLTFLoader.
 */
import { Group, Mesh, Vector3 } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { compileToGlsl } from '../../../src/field/glsl';
import { countTriangles, exportMeshBase64 } from '../../../src/app/exportMesh';
import { BodyMaterial } from '../../../src/render/BodyMaterial';
import { createBodyGeometry } from '../../../src/render/bodyGeometry';
import { asteroidGrid, singleAsteroidSpec } from '../../../src/scene/index';
import { meshBody } from '../../jobs/oneWorker';
import { registerBody } from '../../jobs/oneWorker';

export async function exportAsteroid(seed: number, cells: number) {
  const spec = singleAsteroidSpec(seed).asteroids[0];
  const grid = asteroidGrid(spec);
  registerBody(spec.id, { recipe: spec.recipe });
  const result = meshBody({ body: spec.id, cells, originM: grid.originM, stepM: grid.extentM / cells, simplify: 0.02 });
  const pivot = new Group();
  pivot.position.set(3000, -200, 1500); // somewhere in a field: the export must not carry this
  pivot.rotateOnAxis(new Vector3(0, 1, 0), 0.7);
  const body = new Group();
  body.position.set(-spec.bodyCenterM[0], -spec.bodyCenterM[1], -spec.bodyCenterM[2]);
  pivot.add(body);
  const material = new BodyMaterial(compileToGlsl(spec.recipe, { gradient: true }), { family: spec.family, seed });
  const mesh = new Mesh(createBodyGeometry(result), material);
  mesh.position.set(...result.originM);
  body.add(mesh);

  const glb = await exportMeshBase64(pivot, 'glb', `sr-asteroid-seed${seed}`, { family: spec.family });
  const obj = await exportMeshBase64(pivot, 'obj', `sr-asteroid-seed${seed}`, { family: spec.family });
  const bytes = Uint8Array.from(atob(glb.base64), (c) => c.charCodeAt(0));
  const gltf = await new GLTFLoader().parseAsync(bytes.buffer, '');
  let reimportedRadius = 0;
  const v = new Vector3();
  gltf.scene.updateMatrixWorld(true);
  gltf.scene.traverse((o) => {
    const m = o as Mesh;
    if (!m.isMesh) return;
    const p = m.geometry.getAttribute('position');
    for (let i = 0; i < p.count; i++) reimportedRadius = Math.max(reimportedRadius, v.fromBufferAttribute(p, i).applyMatrix4(m.matrixWorld).length());
  });
  let reimportedMaterial = '';
  gltf.scene.traverse((o) => {
    if ((o as Mesh).isMesh) reimportedMaterial = ((o as Mesh).material as { type: string }).type;
  });
  material.dispose();
  mesh.geometry.dispose();
  return {
    sourceTriangles: countTriangles(pivot),
    glb,
    obj: { name: obj.name, triangles: obj.triangles, text: atob(obj.base64) },
    reimportedTriangles: countTriangles(gltf.scene),
    reimportedRadius,
    reimportedMaterial,
    radiusM: spec.radiusM,
    // The scene is untouched: the mesh still has its BodyMaterial.
    sourceMaterialKept: mesh.material === material,
  };
}
