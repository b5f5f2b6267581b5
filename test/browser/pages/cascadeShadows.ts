/**
 * Page-side helpers for test/browser/cascadeShadows.test.ts, loaded with srImport() on the dev
 * server: a flat ground (BodyMaterial) with two tall boxes, one near the camera and one far
 * beyond the first cascade, lit by a low sun; rendered with cascaded shadows, with one map
 * fitted the way the planet view fits it today, and with shadows off. Returns PNGs and pixel
 * measures for the Node side to save and assert on. Small frame: SwiftShader is slow.
 */
import {
  ACESFilmicToneMapping,
  BoxGeometry,
  Group,
  HemisphereLight,
  Mesh,
  MeshStandardMaterial,
  PCFShadowMap,
  PerspectiveCamera,
  PlaneGeometry,
  Scene,
  Sphere,
  SRGBColorSpace,
  Vector3,
  WebGLRenderer,
} from 'three';
import { compileToGlsl } from '../../../src/field/glsl';
import { parseRecipe } from '../../../src/field/index';
import { BodyMaterial } from '../../../src/render/BodyMaterial';
import { Sun } from '../../../src/render/Sun';

export const WIDTH = 320;
export const HEIGHT = 240;

/** A low sun ahead of the camera: the boxes' shadows fall towards it, over many rows. */
const SUN_DIRECTION = new Vector3(0.35, 0.4, -0.85).normalize();
const CAMERA_HEIGHT_M = 25;
const SHADOW_FAR_M = 600;
interface Pillar {
  x: number;
  z: number;
  size: number;
  height: number;
}
const NEAR_PILLAR: Pillar = { x: -6, z: -45, size: 3, height: 10 };
const FAR_PILLAR: Pillar = { x: 25, z: -330, size: 20, height: 80 };
/** Its shadow falls outside the one map PlanetView fitted before cascades. */
const FARTHEST_PILLAR: Pillar = { x: -30, z: -500, size: 30, height: 80 };

let renderer: WebGLRenderer | null = null;

function getRenderer(): WebGLRenderer {
  if (renderer) return renderer;
  const canvas = document.createElement('canvas');
  canvas.width = WIDTH;
  canvas.height = HEIGHT;
  document.body.appendChild(canvas);
  renderer = new WebGLRenderer({ canvas, antialias: false, preserveDrawingBuffer: true, logarithmicDepthBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(WIDTH, HEIGHT, false);
  renderer.toneMapping = ACESFilmicToneMapping;
  renderer.outputColorSpace = SRGBColorSpace;
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.type = PCFShadowMap;
  return renderer;
}

function readPixels(r: WebGLRenderer): Uint8Array {
  const gl = r.getContext();
  const out = new Uint8Array(WIDTH * HEIGHT * 4);
  gl.readPixels(0, 0, WIDTH, HEIGHT, gl.RGBA, gl.UNSIGNED_BYTE, out);
  return out;
}

/** Luma (0..255) at pixel (x, y), y down from the top like the PNG. */
function lumaAt(px: Uint8Array, x: number, y: number): number {
  const i = ((HEIGHT - 1 - y) * WIDTH + x) * 4;
  return 0.2126 * px[i] + 0.7152 * px[i + 1] + 0.0722 * px[i + 2];
}

/** Mean luma over a (2h+1)² window around (x, y). */
function windowLuma(px: Uint8Array, x: number, y: number, h: number): number {
  let sum = 0;
  let n = 0;
  for (let dy = -h; dy <= h; dy++)
    for (let dx = -h; dx <= h; dx++) {
      const xx = Math.round(x) + dx;
      const yy = Math.round(y) + dy;
      if (xx < 0 || yy < 0 || xx >= WIDTH || yy >= HEIGHT) continue;
      sum += lumaAt(px, xx, yy);
      n++;
    }
  return n ? sum / n : 0;
}

/** Where the ground shadow of a pillar's point at half its height lands, on screen. */
function shadowPixel(camera: PerspectiveCamera, p: Pillar): { x: number; y: number; distanceM: number } {
  const top = new Vector3(p.x, p.height * 0.5, p.z).add(OFFSET);
  const ground = top.addScaledVector(SUN_DIRECTION, -top.y / SUN_DIRECTION.y);
  const distanceM = ground.clone().sub(camera.position).dot(new Vector3(0, 0, -1).applyQuaternion(camera.quaternion));
  const ndc = ground.project(camera);
  return { x: (ndc.x * 0.5 + 0.5) * WIDTH, y: (0.5 - ndc.y * 0.5) * HEIGHT, distanceM };
}

export interface CascadeResult {
  cascadesPng: string;
  singlePng: string;
  offPng: string;
  /** Cascade boundaries (view distance, m) and texel sizes (m). */
  splitsM: number[];
  texelsM: number[];
  /** View distances (m) and luma on / off at the two shadow spots. */
  near: { distanceM: number; cascades: number; single: number; off: number };
  far: { distanceM: number; cascades: number; single: number; off: number };
  farthest: { distanceM: number; cascades: number; single: number; off: number };
  /**
   * Along lit ground (a strip of columns the shadows never reach), per image row: view
   * distance of the row's ground (m) and the luma ratio cascaded / no shadow.
   */
  rows: { y: number; distanceM: number; ratio: number }[];
  /** Median frame times of 7 (ms): cascades, one map, no shadows. */
  ms: { cascades: number; single: number; off: number };
}

/** Where the scene sits in the world: far from the origin, as a planet's surface is. */
const OFFSET = new Vector3(1500, 0, -2500);

/**
 * Draws like the app: the world group shifted by −camera while drawing (floating origin),
 * a render camera at the origin with the world camera's orientation.
 */
function timedRender(r: WebGLRenderer, scene: Scene, world: Group, camera: PerspectiveCamera): { px: Uint8Array; ms: number; png: string } {
  const renderCamera = camera.clone();
  renderCamera.position.set(0, 0, 0);
  renderCamera.updateMatrixWorld();
  world.position.copy(camera.position).negate();
  world.updateMatrixWorld();
  try {
    r.render(scene, renderCamera); // compile and warm up
    readPixels(r);
    const times: number[] = [];
    let px: Uint8Array = new Uint8Array(0);
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      r.render(scene, renderCamera);
      px = readPixels(r); // waits for the frame
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return { px, ms: times[3], png: r.domElement.toDataURL('image/png') };
  } finally {
    world.position.set(0, 0, 0);
    world.updateMatrixWorld();
  }
}

/** The three renders: cascaded shadows, one map fitted as PlanetView does today, no shadows. */
export function cascadeScene(cascades = 3, shadowMapSize = 2048): CascadeResult {
  const r = getRenderer();
  const scene = new Scene();
  const world = new Group();
  scene.add(world);
  world.add(new HemisphereLight(0x8a96b0, 0x302820, 0.6));

  // A slab whose top is y = 0, centered far below so "up" is +y everywhere on it.
  const depth = 1e5;
  const recipe = parseRecipe({
    version: 1,
    root: { type: 'translate', offset: [0, -depth, 0], child: { type: 'box', halfExtents: [4000, depth, 4000] } },
    brushes: [],
  });
  const ground = new Mesh(
    new PlaneGeometry(8000, 8000, 1, 1).rotateX(-Math.PI / 2),
    new BodyMaterial(compileToGlsl(recipe, { gradient: true }), {
      perPixelNormals: false,
      occlusion: false,
      strataSpacingM: 3,
      noiseScaleM: 40,
      cellSizeM: 1,
      regolithAmount: 1,
    }),
  );
  ground.castShadow = ground.receiveShadow = true;
  ground.position.copy(OFFSET);
  world.add(ground);
  const pillarMaterial = new MeshStandardMaterial({ color: 0x807060, roughness: 0.9 });
  for (const p of [NEAR_PILLAR, FAR_PILLAR, FARTHEST_PILLAR]) {
    const box = new Mesh(new BoxGeometry(p.size, p.height, p.size), pillarMaterial);
    box.position.set(p.x, p.height / 2, p.z).add(OFFSET);
    box.castShadow = box.receiveShadow = true;
    world.add(box);
  }

  const camera = new PerspectiveCamera(55, WIDTH / HEIGHT, 0.5, 1e8);
  camera.position.set(0, CAMERA_HEIGHT_M, 0).add(OFFSET);
  camera.lookAt(new Vector3(0, 0, -120).add(OFFSET));
  camera.updateMatrixWorld();
  camera.updateProjectionMatrix();

  const sun = new Sun({ direction: [SUN_DIRECTION.x, SUN_DIRECTION.y, SUN_DIRECTION.z], shadowMapSize });
  world.add(sun);

  // 1. One map fitted like PlanetView.fitShadows today: a sphere around the ground below
  //    the camera, radius max(200 m, 4 × altitude).
  sun.fitShadow(new Sphere(OFFSET.clone(), Math.max(200, 4 * CAMERA_HEIGHT_M)));
  const single = timedRender(r, scene, world, camera);

  // 2. Cascades.
  sun.fitCascades(camera, { count: cascades, farM: SHADOW_FAR_M, casterDepthM: 200 });
  const cascaded = timedRender(r, scene, world, camera);
  const splitsM = [...sun.splitsM];
  const texelsM = sun.cascadeLights.map((_, i) => sun.cascadeTexelM(i));

  // 3. Shadows off (the same lights, none casting; the test in render.test.ts does the same).
  for (const light of sun.cascadeLights) light.castShadow = false;
  const off = timedRender(r, scene, world, camera);

  const spot = (p: Pillar) => {
    const s = shadowPixel(camera, p);
    return {
      distanceM: s.distanceM,
      cascades: windowLuma(cascaded.px, s.x, s.y, 1),
      single: windowLuma(single.px, s.x, s.y, 1),
      off: windowLuma(off.px, s.x, s.y, 1),
    };
  };

  // Lit ground: the right-hand columns (the shadows fall to the left and towards the
  // camera), every row below the horizon.
  const rows: CascadeResult['rows'] = [];
  const forward = new Vector3(0, 0, -1).applyQuaternion(camera.quaternion);
  for (let y = 0; y < HEIGHT; y++) {
    // Ground distance of this row at the strip's center.
    const ray = new Vector3(0.85 * 2 - 1, 1 - (2 * (y + 0.5)) / HEIGHT, 0.5).unproject(camera).sub(camera.position).normalize();
    if (ray.y >= -1e-3) continue;
    const t = camera.position.y / -ray.y;
    const distanceM = ray.multiplyScalar(t).dot(forward);
    if (distanceM > SHADOW_FAR_M * 0.95) continue;
    let on = 0;
    let ref = 0;
    for (let x = Math.round(0.75 * WIDTH); x < Math.round(0.95 * WIDTH); x++) {
      on += lumaAt(cascaded.px, x, y);
      ref += lumaAt(off.px, x, y);
    }
    rows.push({ y, distanceM, ratio: ref > 0 ? on / ref : 1 });
  }

  const result: CascadeResult = {
    cascadesPng: cascaded.png,
    singlePng: single.png,
    offPng: off.png,
    splitsM,
    texelsM,
    near: spot(NEAR_PILLAR),
    far: spot(FAR_PILLAR),
    farthest: spot(FARTHEST_PILLAR),
    rows,
    ms: { cascades: cascaded.ms, single: single.ms, off: off.ms },
  };
  ground.geometry.dispose();
  ground.material.dispose();
  pillarMaterial.dispose();
  sun.dispose();
  return result;
}
