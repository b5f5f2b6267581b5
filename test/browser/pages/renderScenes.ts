/**
 * Page-side helpers for test/browser/render.test.ts, loaded with srImport() on the dev server.
 * Builds asteroid meshes in the page (JS field sampling + Dual Contouring over one 32³ chunk),
 * draws them with BodyMaterial, Sun and SkyCubemap at a small size (SwiftShader is slow), and
 * returns PNGs (data URLs) and pixel statistics for the Node side to save and assert on.
 */
import {
  ACESFilmicToneMapping,
  BufferAttribute,
  BufferGeometry,
  Group,
  HemisphereLight,
  Mesh,
  PCFShadowMap,
  PerspectiveCamera,
  Scene,
  Sphere,
  SRGBColorSpace,
  Vector3,
  WebGLRenderer,
} from 'three';
import { compileToJs, recipeBounds } from '../../../src/field/index';
import { compileToGlsl } from '../../../src/field/glsl';
import { cartesianMapping, meshChunk, sampleChunk } from '../../../src/mesher/index';
import { asteroidFamily, asteroidRecipe } from '../../../src/scene/index';
import { BodyMaterial, bodyMaterialField, type BodyMaterialOptions } from '../../../src/render/BodyMaterial';
import { Sun } from '../../../src/render/Sun';
import { SkyCubemap } from '../../../src/render/SkyCubemap';

export const WIDTH = 480;
export const HEIGHT = 360;

let renderer: WebGLRenderer | null = null;
/** Sky seed of the canonical views. */
const SKY_SEED = 7;

function getRenderer(logDepth: boolean): WebGLRenderer {
  if (renderer && renderer.capabilities.logarithmicDepthBuffer === logDepth) return renderer;
  renderer?.dispose();
  const canvas = document.createElement('canvas');
  canvas.width = WIDTH;
  canvas.height = HEIGHT;
  document.body.appendChild(canvas);
  renderer = new WebGLRenderer({ canvas, antialias: false, preserveDrawingBuffer: true, logarithmicDepthBuffer: logDepth });
  renderer.setPixelRatio(1);
  renderer.setSize(WIDTH, HEIGHT, false);
  renderer.toneMapping = ACESFilmicToneMapping;
  renderer.toneMappingExposure = 1;
  renderer.outputColorSpace = SRGBColorSpace;
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.type = PCFShadowMap;
  return renderer;
}

/** One asteroid: a single 32³ chunk meshed in the page, drawn with a BodyMaterial. */
interface Body {
  group: Group;
  mesh: Mesh<BufferGeometry, BodyMaterial>;
  material: BodyMaterial;
  radiusM: number;
  centerM: Vector3;
  dispose(): void;
}

function buildBody(seed: number, cells: number, options: BodyMaterialOptions = {}, numbersAsData = false): Body {
  const recipe = asteroidRecipe(seed);
  const bounds = recipeBounds(recipe);
  const field = compileToJs(recipe);
  const extent = Math.max(...[0, 1, 2].map((a) => bounds.boxMax[a] - bounds.boxMin[a])) * 1.08;
  const stepM = extent / cells;
  const originM: [number, number, number] = [0, 1, 2].map(
    (a) => 0.5 * (bounds.boxMin[a] + bounds.boxMax[a]) - extent / 2,
  ) as [number, number, number];
  const mapping = cartesianMapping(stepM, originM);
  const spec = { originGrid: [0, 0, 0] as const, level: 0, cells };
  const values = sampleChunk(spec, field, mapping);
  const { mesh: chunk } = meshChunk({ ...spec, values, mapping, field });

  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(chunk.positions, 3));
  geometry.setAttribute('normal', new BufferAttribute(chunk.normals, 3));
  geometry.setIndex(new BufferAttribute(chunk.indices, 1));
  geometry.computeBoundingSphere();

  const compiled = numbersAsData ? bodyMaterialField(recipe) : compileToGlsl(recipe, { gradient: true });
  const material = new BodyMaterial(compiled, { family: asteroidFamily(seed), seed, ...options });
  const mesh = new Mesh(geometry, material);
  mesh.castShadow = mesh.receiveShadow = true;
  // Positions are relative to the chunk origin: the mesh sits there in the body's frame.
  mesh.position.fromArray(chunk.originWorld);
  material.bindChunk(mesh, { chunkOriginM: chunk.originWorld, cellSizeM: stepM });
  const group = new Group();
  group.add(mesh);
  return {
    group,
    mesh,
    material,
    radiusM: bounds.sphereRadiusM,
    centerM: new Vector3(...bounds.sphereCenter),
    dispose() {
      geometry.dispose();
      material.dispose();
    },
  };
}

interface PixelStats {
  /** Fraction of pixels brighter than the background threshold. */
  litFraction: number;
  /** Standard deviation of luma (0..255) over the frame. */
  lumaStd: number;
  /** Distinct colours (quantised to 5 bits per channel). */
  distinctColours: number;
}

function readPixels(r: WebGLRenderer): Uint8Array {
  const gl = r.getContext();
  const out = new Uint8Array(WIDTH * HEIGHT * 4);
  gl.readPixels(0, 0, WIDTH, HEIGHT, gl.RGBA, gl.UNSIGNED_BYTE, out);
  return out;
}

function luma(px: Uint8Array, i: number): number {
  return 0.2126 * px[i] + 0.7152 * px[i + 1] + 0.0722 * px[i + 2];
}

function stats(px: Uint8Array): PixelStats {
  let lit = 0;
  let sum = 0;
  let sum2 = 0;
  const colours = new Set<number>();
  for (let i = 0; i < px.length; i += 4) {
    const y = luma(px, i);
    if (y > 12) lit++;
    sum += y;
    sum2 += y * y;
    colours.add(((px[i] >> 3) << 10) | ((px[i + 1] >> 3) << 5) | (px[i + 2] >> 3));
  }
  const n = px.length / 4;
  const mean = sum / n;
  return { litFraction: lit / n, lumaStd: Math.sqrt(Math.max(0, sum2 / n - mean * mean)), distinctColours: colours.size };
}

/** Fraction of pixels whose luma differs by more than `threshold` (0..255). */
function diffFraction(a: Uint8Array, b: Uint8Array, threshold: number): number {
  let n = 0;
  for (let i = 0; i < a.length; i += 4) if (Math.abs(luma(a, i) - luma(b, i)) > threshold) n++;
  return n / (a.length / 4);
}

/** Fraction of pixels that `shadowed` makes darker than `lit` by more than `threshold`. */
function darkenedFraction(shadowed: Uint8Array, lit: Uint8Array, threshold: number): number {
  let n = 0;
  for (let i = 0; i < lit.length; i += 4) if (luma(lit, i) - luma(shadowed, i) > threshold) n++;
  return n / (lit.length / 4);
}

function png(r: WebGLRenderer): string {
  return r.domElement.toDataURL('image/png');
}

interface Stage {
  scene: Scene;
  camera: PerspectiveCamera;
  sun: Sun;
  bodies: Body[];
  dispose(): void;
}

/** Face size of the test sky: 512 keeps SwiftShader's one-off render to a few seconds. */
const SKY_SIZE = 512;
let sky: SkyCubemap | null = null;

/** The page's sky (one per page, like the app), rendered for `seed` if needed. */
function getSky(r: WebGLRenderer, seed: number): SkyCubemap {
  sky ??= new SkyCubemap({ seed, size: SKY_SIZE });
  sky.setSeed(seed);
  sky.update(r);
  return sky;
}

function stage(bodies: Body[], sunDirection: Vector3, skySeed: number | null = SKY_SEED): Stage {
  const scene = new Scene();
  for (const b of bodies) scene.add(b.group);
  const sun = new Sun({ direction: [sunDirection.x, sunDirection.y, sunDirection.z] });
  scene.add(sun);
  if (skySeed === null) scene.add(new HemisphereLight(0x4a5670, 0x120e0c, 0.25));
  else getSky(renderer!, skySeed).attach(scene);
  // Shadow bounds: every body's bounding sphere, in world space.
  const all = new Sphere();
  bodies.forEach((b, i) => {
    b.group.updateMatrixWorld(true);
    const s = new Sphere(b.centerM.clone().applyMatrix4(b.group.matrixWorld), b.radiusM * 1.1);
    if (i === 0) all.copy(s);
    else all.union(s);
  });
  sun.fitShadow(all);
  const camera = new PerspectiveCamera(40, WIDTH / HEIGHT, 1, 1e6);
  return {
    scene,
    camera,
    sun,
    bodies,
    dispose() {
      sun.dispose();
      for (const b of bodies) b.dispose();
    },
  };
}

function lookFrom(camera: PerspectiveCamera, target: Vector3, dir: Vector3, distance: number): void {
  camera.position.copy(target).addScaledVector(dir.clone().normalize(), distance);
  camera.near = distance * 0.02;
  camera.far = distance * 50;
  camera.lookAt(target);
  camera.updateProjectionMatrix();
  camera.updateMatrixWorld();
}

function timed(r: WebGLRenderer, scene: Scene, camera: PerspectiveCamera): number {
  const t0 = performance.now();
  r.render(scene, camera);
  readPixels(r); // forces the frame to finish so the time is real
  return performance.now() - t0;
}

export interface CloseUpResult {
  png: string;
  meshNormalsPng: string;
  noShadowPng: string;
  stats: PixelStats;
  normalsDiffFraction: number;
  shadowDarkenedFraction: number;
  frameMs: number;
  triangles: number;
}

/**
 * An asteroid close-up with the sun from the side: rendered with per-pixel field normals,
 * with mesh normals only, and without shadows.
 */
export function closeUp(
  seed: number,
  view: 'closeUp' | 'selfShadow' = 'closeUp',
  logDepth = false,
  options: BodyMaterialOptions = {},
  /** Debug: magnify a sub-rectangle [x, y, w, h] of the frame; other sun/view directions. */
  debug: { crop?: [number, number, number, number]; sunDir?: [number, number, number]; viewDir?: [number, number, number] } = {},
): CloseUpResult {
  const r = getRenderer(logDepth);
  const body = buildBody(seed, 32, { ...(view === 'selfShadow' ? { craterShading: true } : {}), ...options });
  // Close-up: sun from the upper left, a terminator across the body. Self-shadow: a low,
  // grazing sun so ridges and lobes throw long shadows across the surface.
  const sunDir = (view === 'closeUp' ? new Vector3(-0.8, 0.45, 0.35) : new Vector3(-1, 0.15, 0.1)).normalize();
  if (debug.sunDir) sunDir.fromArray(debug.sunDir).normalize();
  const st = stage([body], sunDir);
  const viewDir = view === 'closeUp' ? new Vector3(0.25, 0.2, 1) : new Vector3(0.2, 0.2, 1);
  if (debug.viewDir) viewDir.fromArray(debug.viewDir);
  lookFrom(st.camera, body.centerM, viewDir, body.radiusM * (view === 'closeUp' ? 2.2 : 2.6));
  const crop = debug.crop;
  if (crop) st.camera.setViewOffset(WIDTH, HEIGHT, crop[0], crop[1], crop[2], crop[3]);
  timed(r, st.scene, st.camera); // compile
  const frameMs = timed(r, st.scene, st.camera);
  const withField = readPixels(r);
  const out1 = png(r);
  body.material.perPixelNormals = false;
  r.render(st.scene, st.camera);
  const withMesh = readPixels(r);
  const out2 = png(r);
  body.material.perPixelNormals = true;
  st.sun.light.castShadow = false;
  r.render(st.scene, st.camera);
  const noShadow = readPixels(r);
  const out3 = png(r);
  const result: CloseUpResult = {
    png: out1,
    meshNormalsPng: out2,
    noShadowPng: out3,
    stats: stats(withField),
    normalsDiffFraction: diffFraction(withField, withMesh, 6),
    shadowDarkenedFraction: darkenedFraction(withField, noShadow, 10),
    frameMs,
    triangles: body.mesh.geometry.index!.count / 3,
  };
  st.dispose();
  return result;
}

export interface FieldResult {
  png: string;
  stats: PixelStats;
  frameMs: number;
  bodies: number;
}

/**
 * A small asteroid field seen towards the sun: bodies of several families and sizes backlit,
 * the sun disc and its glow behind them.
 */
export function field(seeds: number[], logDepth = true): FieldResult {
  const r = getRenderer(logDepth);
  const bodies = seeds.map((seed) => buildBody(seed, 24));
  // Lay the bodies out on a rough ring around the origin, scaled so the largest is ~300 m
  // (a field: sizes relative to each other are kept).
  const scaleTo = 300 / Math.max(...bodies.map((b) => b.radiusM));
  const placements = [
    [0, 0, 0], [-900, 250, -700], [850, -200, -500], [-400, -350, 600], [500, 380, 350], [150, 100, -1500], [-1300, -100, -1200],
  ];
  bodies.forEach((b, i) => {
    const s = scaleTo * (0.5 + 0.5 * ((i * 0.618) % 1));
    b.group.scale.setScalar(s);
    const p = placements[i % placements.length];
    b.group.position.set(p[0], p[1], p[2]).addScaledVector(b.centerM, -s);
    b.group.rotation.set(i * 1.3, i * 0.7, i * 2.1);
  });
  // The sun behind the field, inside the frame (upper right), about 28° off the view axis:
  // bodies show lit crescents and rims, the sun disc and glow sit between them.
  const camera = new Vector3(-300, 150, 2600);
  const look = new Vector3(0, 0, 0);
  const viewDir = look.clone().sub(camera).normalize();
  const sunDir = viewDir.clone().add(new Vector3(0.42, 0.3, 0)).normalize();
  const st = stage(bodies, sunDir);
  st.camera.position.copy(camera);
  st.camera.near = 10;
  st.camera.far = 1e6;
  st.camera.lookAt(look);
  st.camera.updateProjectionMatrix();
  st.camera.updateMatrixWorld();
  timed(r, st.scene, st.camera);
  const frameMs = timed(r, st.scene, st.camera);
  const px = readPixels(r);
  const result: FieldResult = { png: png(r), stats: stats(px), frameMs, bodies: bodies.length };
  st.dispose();
  return result;
}

export interface SkyResult {
  png: string;
  stats: PixelStats;
  /** Time of the one-off cube render (ms, includes compiling the sky shader). */
  skyMs: number;
  frameMs: number;
  /** Fraction of pixels that are star-like: much brighter than their 4-neighbourhood. */
  starPixelFraction: number;
  /** Mean saturation of non-star pixels above black (nebula colour). */
  meanChroma: number;
  /**
   * Connected areas (4-neighbours) of pixels brighter than `STAR_BLOB_LUMA`: the stars as seen.
   * Point-like stars give areas of a few pixels; stars in a magnified cube map gave soft discs.
   */
  starBlobs: { count: number; medianArea: number; p95Area: number; maxArea: number };
}

/** Luma (0–255) above which a pixel counts as part of a star's visible area. */
const STAR_BLOB_LUMA = 90;

function brightBlobs(px: Uint8Array): SkyResult['starBlobs'] {
  const seen = new Uint8Array(WIDTH * HEIGHT);
  const areas: number[] = [];
  for (let start = 0; start < WIDTH * HEIGHT; start++) {
    if (seen[start] || luma(px, 4 * start) <= STAR_BLOB_LUMA) continue;
    let area = 0;
    const stack = [start];
    seen[start] = 1;
    while (stack.length > 0) {
      const p = stack.pop()!;
      area++;
      const x = p % WIDTH, y = (p / WIDTH) | 0;
      for (const q of [x > 0 ? p - 1 : -1, x < WIDTH - 1 ? p + 1 : -1, y > 0 ? p - WIDTH : -1, y < HEIGHT - 1 ? p + WIDTH : -1]) {
        if (q >= 0 && !seen[q] && luma(px, 4 * q) > STAR_BLOB_LUMA) {
          seen[q] = 1;
          stack.push(q);
        }
      }
    }
    areas.push(area);
  }
  areas.sort((a, b) => a - b);
  const at = (f: number): number => (areas.length ? areas[Math.min(areas.length - 1, Math.floor(f * areas.length))] : 0);
  return { count: areas.length, medianArea: at(0.5), p95Area: at(0.95), maxArea: areas.length ? areas[areas.length - 1] : 0 };
}

/** The sky alone (no bodies, no sun), looking at the seed's nebula. */
export function skyAlone(seed: number): SkyResult {
  const r = getRenderer(false);
  const t0 = performance.now();
  const s = getSky(r, seed);
  readPixels(r);
  const skyMs = performance.now() - t0;
  const scene = new Scene();
  s.attach(scene);
  const camera = new PerspectiveCamera(60, WIDTH / HEIGHT, 0.1, 10);
  camera.lookAt(s.palette.nebulaCenter);
  camera.updateMatrixWorld();
  timed(r, scene, camera);
  const frameMs = timed(r, scene, camera);
  const px = readPixels(r);
  let star = 0;
  let chroma = 0;
  let chromaN = 0;
  for (let y = 1; y < HEIGHT - 1; y++)
    for (let x = 1; x < WIDTH - 1; x++) {
      const i = 4 * (y * WIDTH + x);
      const l = luma(px, i);
      const around = (luma(px, i - 4) + luma(px, i + 4) + luma(px, i - 4 * WIDTH) + luma(px, i + 4 * WIDTH)) / 4;
      if (l > around + 25) star++;
      else if (l > 8) {
        const mx = Math.max(px[i], px[i + 1], px[i + 2]);
        const mn = Math.min(px[i], px[i + 1], px[i + 2]);
        chroma += (mx - mn) / mx;
        chromaN++;
      }
    }
  s.detach(scene);
  return {
    png: png(r),
    stats: stats(px),
    skyMs,
    frameMs,
    starPixelFraction: star / (WIDTH * HEIGHT),
    meanChroma: chromaN ? chroma / chromaN : 0,
    starBlobs: brightBlobs(px),
  };
}

/**
 * Renders `frames` frames with the sky (calling update every frame, as the app does), changes
 * the seed once, renders `frames` more; returns the cube render counts along the way.
 */
export function skyRenderCount(seed: number, frames: number): { afterFirst: number; afterSecond: number; afterSameSeed: number } {
  const r = getRenderer(false);
  const s = new SkyCubemap({ seed, size: 64 });
  const scene = new Scene();
  s.attach(scene);
  const camera = new PerspectiveCamera(60, WIDTH / HEIGHT, 0.1, 10);
  for (let f = 0; f < frames; f++) {
    s.update(r);
    camera.rotation.y = f * 0.1;
    r.render(scene, camera);
  }
  const afterFirst = s.renderCount;
  s.setSeed(seed + 1);
  for (let f = 0; f < frames; f++) {
    s.update(r);
    r.render(scene, camera);
  }
  const afterSecond = s.renderCount;
  s.setSeed(seed + 1);
  s.update(r);
  const afterSameSeed = s.renderCount;
  s.detach(scene);
  s.dispose();
  return { afterFirst, afterSecond, afterSameSeed };
}

export interface FadeResult {
  png: string;
  /** Pixels that differ between one opaque mesh and a complementary cross-fade pair. */
  crossFadeDiffFraction: number;
  /** Pixels that differ between both meshes at fade 0 and no body at all. */
  hiddenDiffFraction: number;
  /** Pixels that differ between one opaque mesh and a single mesh at fade 0.5. */
  halfFadeDiffFraction: number;
}

/**
 * LOD cross-fade: two meshes of the same body sharing one BodyMaterial, one at fade t and the
 * other at fade 1 − t with the complementary dither, must cover exactly what one opaque mesh
 * covers; at fade 0 both vanish.
 */
export function fadeCoverage(seed: number): FadeResult {
  const r = getRenderer(false);
  const body = buildBody(seed, 24);
  const st = stage([body], new Vector3(-0.8, 0.45, 0.35).normalize());
  lookFrom(st.camera, body.centerM, new Vector3(0.25, 0.2, 1), body.radiusM * 5);
  r.render(st.scene, st.camera);
  const opaque = readPixels(r);

  const state = body.material.bindChunk(body.mesh, { fade: 0.5 });
  r.render(st.scene, st.camera);
  const half = readPixels(r);

  const twin = new Mesh(body.mesh.geometry, body.material);
  twin.position.copy(body.mesh.position);
  twin.castShadow = twin.receiveShadow = true;
  body.group.add(twin);
  const incoming = body.material.bindChunk(twin, { chunkOriginM: state.chunkOriginM.toArray(), cellSizeM: state.cellSizeM, fade: 0.35 });
  state.fade = 0.65;
  state.fadeComplement = true;
  r.render(st.scene, st.camera);
  const pair = readPixels(r);
  const out = png(r);

  state.fade = 0;
  incoming.fade = 0;
  r.render(st.scene, st.camera);
  const hidden = readPixels(r);
  body.group.visible = false;
  r.render(st.scene, st.camera);
  const none = readPixels(r);
  st.dispose();
  return {
    png: out,
    crossFadeDiffFraction: diffFraction(opaque, pair, 2),
    hiddenDiffFraction: diffFraction(hidden, none, 2),
    halfFadeDiffFraction: diffFraction(opaque, half, 2),
  };
}

/**
 * GeometryUploader: buffer uploads (gl.bufferData calls) while meshes wait hidden, then none when
 * they are first drawn; and nothing uploaded for a mesh disposed before its turn.
 */
export async function geometryUploads(): Promise<{ duringFlush: number; atFirstDraw: number; uploaded: number; disposedSkipped: boolean; drawnPixels: number; queuedAnswers: string }> {
  const { GeometryUploader } = await import('../../../src/render/geometryUpload');
  const { MeshBasicMaterial, IcosahedronGeometry } = await import('three');
  const r = getRenderer(false);
  const gl = r.getContext() as WebGL2RenderingContext;
  let bufferData = 0;
  const original = gl.bufferData.bind(gl) as (...args: unknown[]) => void;
  (gl as unknown as { bufferData: (...args: unknown[]) => void }).bufferData = (...args: unknown[]) => { bufferData++; original(...args); };
  try {
    const scene = new Scene();
    const camera = new PerspectiveCamera(45, WIDTH / HEIGHT, 0.1, 100);
    camera.position.set(0, 0, 5);
    const material = new MeshBasicMaterial({ color: 0xffffff });
    const meshes = [0, 1, 2].map((i) => {
      const m = new Mesh(new IcosahedronGeometry(0.5, 3), material);
      m.position.x = i - 1;
      m.visible = false;
      scene.add(m);
      return m;
    });
    const uploader = new GeometryUploader();
    meshes.forEach((m) => uploader.queue(m));
    // A fourth mesh, disposed (removed) before its turn: skipped.
    const gone = new Mesh(new IcosahedronGeometry(0.5, 1), material);
    scene.add(gone);
    uploader.queue(gone);
    gone.removeFromParent();
    gone.geometry.dispose();
    r.render(scene, camera); // nothing visible yet: nothing uploaded
    const before = bufferData;
    // isQueued per mesh: before any flush, after one upload (budget 0: one mesh), after all.
    let queuedAnswers = meshes.map((m) => (uploader.isQueued(m) ? 'q' : '-')).join('');
    uploader.flush(r, 0);
    queuedAnswers += ' ' + meshes.map((m) => (uploader.isQueued(m) ? 'q' : '-')).join('');
    while (uploader.queued > 0) uploader.flush(r, 1000);
    queuedAnswers += ' ' + meshes.map((m) => (uploader.isQueued(m) ? 'q' : '-')).join('');
    const duringFlush = bufferData - before;
    for (const m of meshes) m.visible = true;
    const atFirst = bufferData;
    r.render(scene, camera);
    const atFirstDraw = bufferData - atFirst;
    const pixels = new Uint8Array(4 * WIDTH * HEIGHT);
    gl.readPixels(0, 0, WIDTH, HEIGHT, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    let drawnPixels = 0;
    for (let i = 0; i < pixels.length; i += 4) if (pixels[i] > 200) drawnPixels++;
    uploader.dispose();
    for (const m of meshes) m.geometry.dispose();
    return { duringFlush, atFirstDraw, uploaded: uploader.uploaded, disposedSkipped: uploader.uploaded === 3, drawnPixels, queuedAnswers };
  } finally {
    (gl as unknown as { bufferData: unknown }).bufferData = original;
  }
}

/**
 * Issue 16: BodyMaterial with the field's numbers as data (bodyMaterialField) against the literal
 * field, same view: the fraction of pixels that differ by more than 6 of 255; and how many
 * BodyMaterial programs the renderer holds after drawing `seeds` (one family) with data fields.
 */
export function dataMaterial(seed: number, sameFamilySeeds: number[]): {
  diffFraction: number; litFraction: number; programs: number; png: string; frameMs: { literal: number; data: number };
} {
  const r = getRenderer(false);
  const sunDir = new Vector3(-0.8, 0.45, 0.35).normalize();
  const frameMs = { literal: 0, data: 0 };
  const frame = (numbersAsData: boolean): Uint8Array => {
    const body = buildBody(seed, 32, {}, numbersAsData);
    const st = stage([body], sunDir);
    lookFrom(st.camera, body.centerM, new Vector3(0.25, 0.2, 1), body.radiusM * 2.2);
    timed(r, st.scene, st.camera); // compile
    frameMs[numbersAsData ? 'data' : 'literal'] = Math.min(timed(r, st.scene, st.camera), timed(r, st.scene, st.camera));
    const px = readPixels(r);
    st.dispose();
    return px;
  };
  const literal = frame(false);
  const data = frame(true);
  const out = png(r);
  // Bodies of one family, each its own material and numbers: one program between them.
  const bodies = sameFamilySeeds.map((s) => buildBody(s, 16, {}, true));
  const st = stage(bodies, sunDir);
  lookFrom(st.camera, bodies[0].centerM, new Vector3(0.25, 0.2, 1), bodies[0].radiusM * 6);
  r.render(st.scene, st.camera);
  const programs = (r.info.programs ?? []).filter((p) => p.name === 'BodyMaterial').length;
  st.dispose();
  return { diffFraction: diffFraction(literal, data, 6), litFraction: stats(data).litFraction, programs, png: out, frameMs };
}
