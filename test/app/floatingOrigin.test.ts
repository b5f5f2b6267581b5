/**
 * No vertex jitter hovering 2 m above a 6,000 km planet whose center is 20,000 km from the world
 * origin (issue 9's precision). The finest chunk under the camera is made by the real chunk job
 * (1 m cells, 32³), placed as PlanetView places chunks (mesh at its float64 chunk origin inside the
 * planet's root at the planet center), and drawn through the app's floating origin. Per frame, for
 * every vertex, what the GPU computes — three's float64 matrices rounded to float32 as uploaded,
 * applied in float32 arithmetic to the float32 attribute — is compared with float64, while the
 * camera creeps 0.5 mm a frame: the view-space position (model-view: three composes it in float64,
 * so it is fine either way) and the world position (model matrix: where shadow lookups and lighting
 * start). Without the shift (the control) world positions are a metre off and jump as the camera
 * moves — shadows would crawl.
 */
import { describe, expect, it } from 'vitest';
import { BufferAttribute, BufferGeometry, Group, Mesh, PerspectiveCamera, Vector3 } from 'three';
import { compileToJs, recipeBounds } from '../../src/field/index';
import { CubeSphereSpace } from '../../src/lod/index';
import { drawShifted } from '../../src/render/floatingOrigin';
import { planetRecipe } from '../../src/scene/index';
import { meshPlanetChunk } from '../jobs/oneWorker';
import { registerBody } from '../jobs/oneWorker';

/** The planet the jobs below name (registered with this thread's body registry, as a worker's would be). */
const PLANET = 'test:planet';

const f = Math.fround;
const HEIGHT_PX = 1080;
/** Vertices this close to the camera are checked (the whole 32 m chunk below it). */
const NEAR_M = 100;

interface Errors { worstM: number; worstPx: number; vertices: number }

/**
 * Worst |float32 − float64| error (m), and in pixels at the vertex's distance, of `matrix` applied to
 * each vertex within `nearM` of the camera, as the GPU does it: the matrix rounded to float32 as
 * uploaded, float32 arithmetic. `modelView` (three composes it in float64 on the CPU): the vertex
 * position; `model`: the world position the shadow lookup and the lighting start from.
 */
function errors(mesh: Mesh, camera: PerspectiveCamera, which: 'modelView' | 'model', nearM: number): Errors {
  const focal = HEIGHT_PX / (2 * Math.tan((camera.fov * Math.PI) / 360));
  const view = camera.matrixWorldInverse.clone().multiply(mesh.matrixWorld).elements;
  const mv = which === 'modelView' ? view : mesh.matrixWorld.elements;
  const m = mv.map(f);
  const pos = mesh.geometry.getAttribute('position').array as Float32Array;
  let worstM = 0, worstPx = 0, vertices = 0;
  for (let i = 0; i < pos.length; i += 3) {
    const x = pos[i], y = pos[i + 1], z = pos[i + 2];
    const ex = mv[0] * x + mv[4] * y + mv[8] * z + mv[12];
    const ey = mv[1] * x + mv[5] * y + mv[9] * z + mv[13];
    const ez = mv[2] * x + mv[6] * y + mv[10] * z + mv[14];
    const d = Math.hypot(view[0] * x + view[4] * y + view[8] * z + view[12], view[1] * x + view[5] * y + view[9] * z + view[13], view[2] * x + view[6] * y + view[10] * z + view[14]);
    if (d > nearM) continue;
    vertices++;
    const gx = f(f(f(f(m[0] * x) + f(m[4] * y)) + f(m[8] * z)) + m[12]);
    const gy = f(f(f(f(m[1] * x) + f(m[5] * y)) + f(m[9] * z)) + m[13]);
    const gz = f(f(f(f(m[2] * x) + f(m[6] * y)) + f(m[10] * z)) + m[14]);
    const e = Math.hypot(gx - ex, gy - ey, gz - ez);
    worstM = Math.max(worstM, e);
    worstPx = Math.max(worstPx, (e * focal) / Math.max(d, 0.5));
  }
  return { worstM, worstPx, vertices };
}

describe('floating origin: hovering 2 m above a 6,000 km planet 20,000 km from the origin', () => {
  it('the finest chunk under the camera renders without jitter (µm, 1e-3 px); unshifted it would not', () => {
    const recipe = planetRecipe(63);
    const bounds = recipeBounds(recipe);
    const radiusM = bounds.sphereRadiusM;
    expect(radiusM).toBeGreaterThan(6e6);
    const spaceOptions = { radiusM, chunkCells: 32, finestCellM: 1 };
    registerBody(PLANET, { recipe, space: spaceOptions });
    const space = new CubeSphereSpace(spaceOptions);
    const field = compileToJs(recipe);
    // The ground along d (bisection on the JS field), the camera 2 m above it.
    const d = new Vector3(0.3, 0.55, 0.78).normalize();
    let lo = radiusM - 2 * bounds.elevationM, hi = radiusM + bounds.elevationM;
    for (let i = 0; i < 80; i++) {
      const r = 0.5 * (lo + hi);
      if (field(d.x * r, d.y * r, d.z * r) < 0) lo = r; else hi = r;
    }
    const ground = d.clone().multiplyScalar(lo);
    // The level-0 chunk holding the ground point, meshed by the worker's job function.
    const g = [0, 0, 0, 0];
    space.fromWorld(ground.x, ground.y, ground.z, g);
    const N = space.chunkCells;
    const job = meshPlanetChunk({
      body: PLANET, face: g[0], level: 0,
      ci: Math.floor(g[1] / N), cj: Math.floor(g[2] / N), ck: Math.floor(g[3] / N), coarser: [], simplify: 0.02,
    });
    expect(job.homogeneous).toBeNull();
    expect(space.cellSizeM(0)).toBeLessThan(1.01);

    // PlanetView's placement: the chunk mesh at its chunk origin, in the planet's root.
    const world = new Group();
    const planetRoot = new Group();
    planetRoot.position.set(2e7, 0, 0);
    world.add(planetRoot);
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(job.positions, 3));
    const mesh = new Mesh(geometry);
    mesh.position.set(...job.originM);
    planetRoot.add(mesh);
    world.updateMatrixWorld(true);

    const camera = new PerspectiveCamera(60, 16 / 9, 0.5, 1e8);
    const renderCamera = new PerspectiveCamera();
    const eye = ground.clone().addScaledVector(d, 2).add(planetRoot.position);
    const ahead = new Vector3(-d.y, d.x, 0).normalize();
    const step = ahead.clone().multiplyScalar(5e-4);
    const worst = (a: Errors, b: Errors): Errors => ({ worstM: Math.max(a.worstM, b.worstM), worstPx: Math.max(a.worstPx, b.worstPx), vertices: b.vertices });
    const none: Errors = { worstM: 0, worstPx: 0, vertices: 0 };
    let shiftedView = none, shiftedModel = none, unshiftedView = none, unshiftedModel = none;
    for (let frame = 0; frame < 12; frame++) {
      camera.position.copy(eye).addScaledVector(step, frame);
      camera.lookAt(camera.position.clone().addScaledVector(ahead, 50).addScaledVector(d, -5));
      camera.updateMatrixWorld(true);
      drawShifted(world, camera, renderCamera, () => {
        shiftedView = worst(shiftedView, errors(mesh, renderCamera, 'modelView', NEAR_M));
        shiftedModel = worst(shiftedModel, errors(mesh, renderCamera, 'model', NEAR_M));
      });
      // Control: the same frame drawn without the shift.
      world.updateMatrixWorld(true);
      unshiftedView = worst(unshiftedView, errors(mesh, camera, 'modelView', NEAR_M));
      unshiftedModel = worst(unshiftedModel, errors(mesh, camera, 'model', NEAR_M));
    }
    const um = (e: Errors): string => `${(e.worstM * 1e6).toFixed(2)} µm = ${e.worstPx.toExponential(2)} px`;
    console.log(
      `R ${(radiusM / 1e3).toFixed(0)} km, planet center 2e7 m from the origin, camera 2 m up, 1 m cells: ` +
        `${shiftedView.vertices} of ${job.positions.length / 3} chunk vertices within ${NEAR_M} m; worst float32 error at 1080p: ` +
        `vertex ${um(shiftedView)}, world position ${um(shiftedModel)}; unshifted: vertex ${um(unshiftedView)}, world position ${um(unshiftedModel)}`,
    );
    expect(shiftedView.vertices).toBeGreaterThan(0);
    expect(shiftedView.vertices).toBe(job.positions.length / 3);
    for (const e of [shiftedView, shiftedModel]) {
      expect(e.worstM).toBeLessThan(1e-4);
      expect(e.worstPx).toBeLessThan(1e-2);
    }
    // The control shows what the shift guards: world positions (shadow lookups, lighting) a metre off.
    expect(unshiftedModel.worstM).toBeGreaterThan(0.1);
  });
});

describe('drawShifted and a reversed depth buffer', () => {
  it("keeps the render camera's reversed projection: the near plane at depth 1, the far at 0", () => {
    const world = new Group();
    const camera = new PerspectiveCamera(60, 16 / 9, 0.5, 1e8);
    camera.position.set(10, 20, 30);
    camera.updateMatrixWorld(true);
    const renderCamera = new PerspectiveCamera();
    // What three's WebGLRenderer does to the camera it draws with when its depth is reversed.
    Object.assign(renderCamera, { _reversedDepth: true });
    const ndcZ = (m: PerspectiveCamera, distanceM: number): number => new Vector3(0, 0, -distanceM).applyMatrix4(m.projectionMatrix).z;
    for (let frame = 0; frame < 2; frame++) {
      drawShifted(world, camera, renderCamera, () => {
        expect(renderCamera.reversedDepth).toBe(true);
        expect(ndcZ(renderCamera, 0.5)).toBeCloseTo(1, 6);
        expect(ndcZ(renderCamera, 1e8)).toBeCloseTo(0, 6);
        // Nearer is larger, and 2,500 km out (a planet behind the asteroids) is still above 0.
        expect(ndcZ(renderCamera, 100)).toBeGreaterThan(ndcZ(renderCamera, 2.5e6));
        expect(ndcZ(renderCamera, 2.5e6)).toBeGreaterThan(0);
      });
    }
    // The app's own camera keeps the standard projection (picking and culling use it).
    expect(ndcZ(camera, 0.5)).toBeCloseTo(-1, 6);
  });
});
