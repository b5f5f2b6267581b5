import {
  Box3,
  Color,
  DirectionalLight,
  Group,
  HemisphereLight,
  IcosahedronGeometry,
  Mesh,
  MeshStandardMaterial,
  Sphere,
  Vector3,
  type BufferGeometry,
} from 'three';

/**
 * A lit, shadow-casting stand-in scene: a lumpy rock with a moonlet hanging between it and
 * the sun, so the moonlet's shadow falls on the rock and the rock shadows itself. It proves
 * the renderer, lights and PCF shadow maps work before the real bodies arrive.
 */
export interface PlaceholderScene {
  root: Group;
  sun: DirectionalLight;
  /** World-space bounds of everything that casts or receives shadows. */
  bounds: Sphere;
  dispose(): void;
}

function lumpy(geometry: BufferGeometry, amplitude: number, phase: number): BufferGeometry {
  const pos = geometry.getAttribute('position');
  const v = new Vector3();
  for (let i = 0; i < pos.count; i++) {
    v.fromBufferAttribute(pos, i);
    const n = v.clone().normalize();
    // A few incommensurate low-frequency lobes: deterministic, no PRNG needed.
    const bump =
      0.55 * Math.sin(2.1 * n.x + phase) * Math.cos(1.7 * n.y - 0.3 * phase) +
      0.3 * Math.sin(4.3 * n.y + 2.0 * n.z + phase) +
      0.15 * Math.sin(9.1 * n.z - 3.1 * n.x) * Math.sin(7.3 * n.y);
    v.addScaledVector(n, amplitude * bump);
    pos.setXYZ(i, v.x, v.y, v.z);
  }
  geometry.computeVertexNormals();
  return geometry;
}

/** From the rock towards the sun: from the side of the default view, so a terminator shows. */
const SUN_DIRECTION = new Vector3(-0.55, 0.6, 0.58).normalize();

export function createPlaceholderScene(): PlaceholderScene {
  const root = new Group();
  root.name = 'placeholder';

  const rockMaterial = new MeshStandardMaterial({ color: new Color(0.3, 0.27, 0.24), roughness: 0.92 });
  const rock = new Mesh(lumpy(new IcosahedronGeometry(1, 24), 0.22, 0.4), rockMaterial);
  rock.name = 'rock';
  rock.castShadow = rock.receiveShadow = true;
  root.add(rock);

  const moonMaterial = new MeshStandardMaterial({ color: new Color(0.36, 0.34, 0.32), roughness: 0.85 });
  const moon = new Mesh(lumpy(new IcosahedronGeometry(0.28, 8), 0.06, 2.0), moonMaterial);
  moon.name = 'moonlet';
  // Between the rock and the sun, a little towards the camera, so its shadow lands on the
  // part of the rock the default view sees lit.
  moon.position.copy(SUN_DIRECTION).multiplyScalar(1.75).add(new Vector3(0.35, -0.15, 0.55));
  moon.castShadow = moon.receiveShadow = true;
  root.add(moon);

  const sun = new DirectionalLight(0xfff4e6, 2.4);
  sun.name = 'sun';
  sun.position.copy(SUN_DIRECTION).multiplyScalar(4);
  sun.castShadow = true;
  sun.shadow.mapSize.set(2048, 2048);
  sun.shadow.radius = 3;
  sun.shadow.bias = -0.0004;
  sun.shadow.normalBias = 0.015;
  root.add(sun, sun.target);

  const fill = new HemisphereLight(0x30384a, 0x050403, 0.35);
  root.add(fill);

  const bounds = new Box3().setFromObject(root.getObjectByName('rock')!).union(new Box3().setFromObject(moon));
  const sphere = bounds.getBoundingSphere(new Sphere());
  fitShadowCamera(sun, sphere);

  return {
    root,
    sun,
    bounds: sphere,
    dispose() {
      rock.geometry.dispose();
      moon.geometry.dispose();
      rockMaterial.dispose();
      moonMaterial.dispose();
      sun.shadow.map?.dispose();
    },
  };
}

/** Fits an orthographic directional-light shadow frustum tightly around `bounds`. */
export function fitShadowCamera(light: DirectionalLight, bounds: Sphere): void {
  const dir = light.position.clone().sub(light.target.position).normalize();
  light.target.position.copy(bounds.center);
  light.position.copy(bounds.center).addScaledVector(dir, bounds.radius * 2);
  const cam = light.shadow.camera;
  const r = bounds.radius * 1.05;
  cam.left = -r;
  cam.right = r;
  cam.top = r;
  cam.bottom = -r;
  cam.near = bounds.radius * 0.5;
  cam.far = bounds.radius * 3.5;
  cam.updateProjectionMatrix();
  light.target.updateMatrixWorld();
}
