/**
 * Page helpers for test/browser/atmosphere.test.ts: a planet's atmosphere (src/render/Atmosphere.ts)
 * over a plain sphere of its mean radius, drawn as the app draws it (log depth, ACES, sRGB, the
 * sun's disc, the standard material with the sun's cascades and the air patched in), from a
 * camera at a chosen altitude and view elevation, the sun at a chosen elevation. Returns the PNG
 * and mean colours of pixel rows, so tests can compare zenith, horizon and space.
 */
import {
  ACESFilmicToneMapping, BufferAttribute, Color, Matrix3, Matrix4, Mesh, MeshStandardMaterial, PerspectiveCamera, Scene, SphereGeometry, SRGBColorSpace, Vector3, WebGLRenderer,
} from 'three';
import { sceneSpec } from '../../../src/scene/index';
import { Atmosphere } from '../../../src/render/Atmosphere';
import { withAtmosphere } from '../../../src/render/atmosphereMaterial';
import { withSunCascades } from '../../../src/render/sunCascades';
import { PlanetGround } from '../../../src/render/planetGround';
import { groundVertexColours } from '../../../src/field/groundColours';
import { Sun } from '../../../src/render/Sun';
import { planetGround } from '../../../src/scene/planets';
import { FrameOutput } from '../../../src/render/FrameOutput';
import { createRenderer } from '../../../src/app/renderer';

export interface AtmosphereView {
  seed: number;
  /** Camera height over the mean ground, metres; or its distance from the centre in radii (`orbitRadii`). */
  altitudeM?: number;
  orbitRadii?: number;
  /** Degrees above the horizontal the camera looks (90: the zenith); ignored in orbit (looks at the centre). */
  lookElevationDeg?: number;
  /** The sun's elevation over the camera's horizon, degrees, and its azimuth from the view direction. */
  sunElevationDeg: number;
  sunAzimuthDeg?: number;
  width?: number;
  height?: number;
  fovDeg?: number;
  software?: boolean;
  /** The planet's ground colours on the sphere (src/render/planetGround.ts); default a flat tone. */
  ground?: boolean;
  /** With `ground`: octaves of its close-range detail (default 0: none). */
  groundDetailOctaves?: number;
  /**
   * The sphere turned about x (radians) under the camera: away from its pole, where SphereGeometry's
   * fan of sliver triangles meets (close-up views).
   */
  sphereTiltRad?: number;
  /** Orbit views: the sun behind the camera (a full disc) instead of to the side. */
  sunBehind?: boolean;
  /** Orbit views: over the north pole instead of the equator. */
  overPole?: boolean;
  /** Orbit views: the camera turned this far (degrees) right and up of the planet's centre. */
  lookAsideDeg?: [number, number];
  /** The sky passes bounded to the atmosphere's rectangle on screen (default, as in the app) or full-screen. */
  boundedSky?: boolean;
  /** Inside the air: aerial perspective from the table (default) or marched per vertex (Atmosphere.aerialTable). */
  aerialTable?: boolean;
  /**
   * The depth buffer: the app's (src/app/renderer.ts: reversed float depth where EXT_clip_control
   * exists, as here) or the logarithmic one it falls back to (default).
   */
  depth?: 'app' | 'log';
}

export interface AtmosphereShot {
  png: string;
  /** Mean linear-ish RGB (0–255, sRGB-encoded) of each pixel row, top first. */
  rows: [number, number, number][];
  /** RGB of every pixel (sRGB 0–255), row-major from the top. */
  pixels: number[];
  width: number;
  height: number;
  frameMs: number;
  /** Frame time without the atmosphere (sky passes hidden, materials unpatched), same view. */
  frameMsWithout: number | null;
  hasAtmosphere: boolean;
  skyViewRenders: number;
  /** Orbit views: the columns of the middle row where the ground's and the atmosphere's silhouettes are (right side). */
  limb: { groundPx: number; topPx: number } | null;
  /** Whether the renderer's depth buffer is reversed (else logarithmic). */
  reversedDepth: boolean;
}

/** One renderer per depth mode, each with its frame path: as the app draws on a software GPU (HDR target and tone mapping, no bloom). */
const renderers = new Map<'app' | 'log', { renderer: WebGLRenderer; output: FrameOutput }>();

function getRenderer(width: number, height: number, depth: 'app' | 'log'): { renderer: WebGLRenderer; output: FrameOutput } {
  let r = renderers.get(depth);
  if (!r) {
    const canvas = document.createElement('canvas');
    document.body.appendChild(canvas);
    const renderer = depth === 'app'
      ? createRenderer({ canvas, preserveDrawingBuffer: true })
      : new WebGLRenderer({ canvas, antialias: false, preserveDrawingBuffer: true, logarithmicDepthBuffer: true });
    renderer.outputColorSpace = SRGBColorSpace;
    renderer.toneMapping = ACESFilmicToneMapping;
    // No shadow maps in either (the app's renderer has them on): the depth buffer is the one difference.
    renderer.shadowMap.enabled = false;
    r = { renderer, output: new FrameOutput(renderer, { bloom: false }) };
    renderers.set(depth, r);
  }
  r.renderer.setPixelRatio(1);
  r.renderer.setSize(width, height, false);
  return r;
}

export async function atmosphereShot(view: AtmosphereView): Promise<AtmosphereShot> {
  const width = view.width ?? 160;
  const height = view.height ?? 90;
  const { renderer: r, output } = getRenderer(width, height, view.depth ?? 'log');
  const planet = sceneSpec(view.seed, 'planet').planet!;
  const ground = planetGround(planet.recipe).meanRadiusM;
  const scene = new Scene();
  scene.background = new Color(0, 0, 0);
  const camera = new PerspectiveCamera(view.fovDeg ?? 60, width / height, 0.5, 1e9);
  // The camera over the north pole (+y); it looks along +z tilted up by the view elevation.
  const orbit = view.orbitRadii !== undefined;
  const camY = orbit ? view.orbitRadii! * ground : ground + (view.altitudeM ?? 2);
  const lookEl = ((view.lookElevationDeg ?? 0) * Math.PI) / 180;
  const sunEl = (view.sunElevationDeg * Math.PI) / 180;
  const sunAz = ((view.sunAzimuthDeg ?? 0) * Math.PI) / 180;
  const sunDir = new Vector3(Math.cos(sunEl) * Math.sin(sunAz), Math.sin(sunEl), Math.cos(sunEl) * Math.cos(sunAz));
  if (orbit) {
    // From the side, the sun behind and to the right: a lit crescent and its limb.
    const behind: [number, number, number] = view.overPole ? [0.1, 1, 0.15] : [0.1, 0.15, 1];
    sunDir.set(...(view.sunBehind ? behind : [1, 0.2, 0.35] as [number, number, number])).normalize();
    if (view.overPole) {
      camera.position.set(0, camY, 0);
      camera.up.set(0, 0, -1);
    } else {
      camera.position.set(0, 0, camY);
    }
    camera.lookAt(0, 0, 0);
    if (view.lookAsideDeg) {
      camera.rotateY((-view.lookAsideDeg[0] * Math.PI) / 180);
      camera.rotateX((view.lookAsideDeg[1] * Math.PI) / 180);
    }
  } else {
    camera.position.set(0, camY, 0);
    camera.up.set(0, 1, 0);
    camera.lookAt(new Vector3(0, camY + Math.sin(lookEl) * 100, Math.cos(lookEl) * 100));
  }
  camera.updateMatrixWorld(true);
  const sun = new Sun({ direction: sunDir.toArray() as [number, number, number] });
  scene.add(sun);
  const spec = planet.atmosphere;
  const atmosphere = spec ? new Atmosphere(spec, { software: view.software ?? true }) : null;
  if (atmosphere) {
    atmosphere.aerialTable = view.aerialTable ?? true;
    atmosphere.boundedSky = view.boundedSky ?? true;
  }
  const material = withSunCascades(new MeshStandardMaterial({ color: new Color(0.26, 0.24, 0.21), roughness: 0.95 }));
  const geometry = new SphereGeometry(ground, 256, 128);
  if (view.ground) {
    const g = planetGround(planet.recipe);
    const groundColours = new PlanetGround({ seed: view.seed, meanRadiusM: g.meanRadiusM, reliefM: g.meanRadiusM - g.lowestM, detailOctaves: view.groundDetailOctaves });
    groundColours.setCamera(camera.position.toArray() as [number, number, number]);
    groundColours.patch(material);
    // The vertices' colours as a body worker makes them (src/field/groundColours.ts), in the
    // planet's frame — the world's, as in the app (a tilted sphere only moves its vertices).
    const tilt = new Matrix4().makeRotationX(view.sphereTiltRad ?? 0);
    const positions = geometry.attributes.position.clone().applyMatrix4(tilt).array as Float32Array;
    const normals = geometry.attributes.normal.clone().applyNormalMatrix(new Matrix3().getNormalMatrix(tilt)).array as Float32Array;
    const colours = groundVertexColours(positions, normals, [0, 0, 0], (2 * Math.PI * ground) / 256, groundColours.palette);
    geometry.setAttribute('groundColour', new BufferAttribute(colours, 4, true));
  }
  if (atmosphere) withAtmosphere(material, atmosphere);
  const sphere = new Mesh(geometry, material);
  sphere.rotation.x = view.sphereTiltRad ?? 0;
  scene.add(sphere);
  if (atmosphere) scene.add(atmosphere.sky);
  const draw = (): number => {
    const t0 = performance.now();
    if (atmosphere) {
      const illum = sun.light.color.clone().multiplyScalar(sun.light.intensity);
      atmosphere.update(r, camera.position, new Vector3(0, 0, 0), sunDir, illum);
    }
    output.render(scene, camera);
    const px = new Uint8Array(4);
    const gl = r.getContext();
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
    return performance.now() - t0;
  };
  draw(); // compiles, renders the tables
  const times: number[] = [];
  for (let i = 0; i < 3; i++) times.push(draw());
  const frameMs = median(times);
  const png = r.domElement.toDataURL('image/png');
  const gl = r.getContext();
  const raw = new Uint8Array(width * height * 4);
  gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, raw);
  const pixels: number[] = [];
  const rows: [number, number, number][] = [];
  for (let y = height - 1; y >= 0; y--) {
    const sum = [0, 0, 0];
    for (let x = 0; x < width; x++) {
      const i = 4 * (y * width + x);
      for (let k = 0; k < 3; k++) {
        sum[k] += raw[i + k];
        pixels.push(raw[i + k]);
      }
    }
    rows.push(sum.map((s) => s / width) as [number, number, number]);
  }
  let frameMsWithout: number | null = null;
  if (atmosphere) {
    // The same frame without the air: a plain material, no sky passes.
    const plain = withSunCascades(new MeshStandardMaterial({ color: new Color(0.26, 0.24, 0.21), roughness: 0.95 }));
    sphere.material = plain;
    atmosphere.sky.visible = false;
    const raw1 = (): number => {
      const t0 = performance.now();
      output.render(scene, camera);
      const px = new Uint8Array(4);
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
      return performance.now() - t0;
    };
    raw1();
    const without: number[] = [];
    for (let i = 0; i < 3; i++) without.push(raw1());
    frameMsWithout = median(without);
    plain.dispose();
  }
  const skyViewRenders = atmosphere?.skyViewRenders ?? 0;
  let limb: AtmosphereShot['limb'] = null;
  if (orbit) {
    const focal = height / 2 / Math.tan(((view.fovDeg ?? 60) * Math.PI) / 360);
    const column = (radius: number): number => width / 2 + focal * Math.tan(Math.asin(Math.min(1, radius / camY)));
    limb = { groundPx: column(ground), topPx: column(spec ? spec.topRadiusM : ground) };
  }
  atmosphere?.dispose();
  material.dispose();
  sphere.geometry.dispose();
  return { png, rows, pixels, width, height, frameMs, frameMsWithout, hasAtmosphere: !!atmosphere, skyViewRenders, limb, reversedDepth: r.capabilities.reversedDepthBuffer };
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[s.length >> 1];
}
