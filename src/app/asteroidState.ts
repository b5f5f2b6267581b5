/**
 * One asteroid of the explore field as AsteroidField (src/app/AsteroidField.ts) keeps it — its
 * drawn and leaving meshes, its job, its edited recipe, its retries and material — and what is
 * read from that state alone: the status the page reports, the collider's view of the drawn mesh,
 * a world point in the body's frame, the nearest asteroid, whether a build stays in the meshed box.
 */
import { Group, Mesh, Vector3, type Material } from 'three';
import type { Brush, FieldRecipe } from '../field/index';
import type { BodyMaterial } from '../render/BodyMaterial';
import { RetryState } from '../lod/retry';
import { asteroidGrid, type AsteroidSpec } from '../scene/index';
import type { BodyJob } from '../workers/BodyMesher';
import type { BodyMeshParams, BodyMeshResult } from '../jobs/bodyJob';
import { BODY_SIMPLIFY } from '../mesher/index';
import { bodyGeometryBytes, createBodyGeometry } from '../render/bodyGeometry';

export interface AsteroidStatus {
  index: number;
  seed: number;
  family: string;
  /** Level drawn now (−1: nothing yet). */
  level: number;
  /** Level the screen size asks for. */
  desired: number;
  /** Material: the shared family one, or the body's own (compiling / ready). */
  material: string;
  /** Level of the job in flight (−1: none). */
  jobLevel: number;
  /** Mesh hash of the drawn level (determinism checks). */
  hash: string;
  triangles: number;
  failed: string | null;
  /** Failed attempts since the last success (retries in progress or given up). */
  attempts: number;
  /** A placeholder stands where the asteroid would be (it gave up with nothing to show). */
  placeholder: boolean;
}

export interface MeshEntry {
  level: number;
  mesh: Mesh;
  hash: string;
  bytes: number;
  /** 0 → 1 while fading in. */
  fadeIn: number;
  /** Body-local origin of the mesh positions and its cell size (for BodyMaterial). */
  originM: [number, number, number];
  cellSizeM: number;
  /** The body's edit version the mesh was made for (AsteroidField.setBrushes). */
  version: number;
}

export interface AsteroidState {
  spec: AsteroidSpec;
  /** Spinning group at the bounding-sphere center. */
  pivot: Group;
  /** Body-local frame (offset so the recipe's origin is where it belongs). */
  body: Group;
  current: MeshEntry | null;
  /** The previous mesh, fading out under `current`. */
  leaving: MeshEntry | null;
  desired: number;
  job: { level: number; job: BodyJob; version: number } | null;
  /** The recipe meshed now: the spec's, plus the user's brushes (issue 19), and its worker id. */
  recipe: FieldRecipe;
  bodyId: string;
  /** Bumped by each edit; the drawn mesh is current when its version matches. */
  version: number;
  /** Releases the edited recipe's worker registration (null: the spec's own id). */
  releaseEdit: (() => void) | null;
  /** The last error once retries gave up (null: fine, or still retrying). */
  failed: string | null;
  retry: RetryState;
  /** Marks a given-up asteroid that has no mesh to show. */
  placeholder: Mesh | null;
  /** Projected radius, pixels (last frame). */
  radiusPx: number;
  /** The body's own material once compiled (null: the shared family material). */
  detail: BodyMaterial | null;
  detailState: 'none' | 'compiling' | 'ready' | 'failed';
  grid: { originM: [number, number, number]; extentM: number };
}

/** An asteroid before its first mesh: its spinning pivot (at its place and phase) and body frame, nothing drawn or asked. */
export function newAsteroidState(spec: AsteroidSpec): AsteroidState {
  const pivot = new Group();
  pivot.name = `asteroid ${spec.index} (seed ${spec.seed}, ${spec.family})`;
  pivot.position.set(...spec.positionM);
  pivot.rotateOnAxis(new Vector3(...spec.spinAxis), spec.phaseRad);
  const body = new Group();
  body.position.set(-spec.bodyCenterM[0], -spec.bodyCenterM[1], -spec.bodyCenterM[2]);
  pivot.add(body);
  return {
    spec, pivot, body, current: null, leaving: null, desired: 0, job: null, failed: null, radiusPx: 0, grid: asteroidGrid(spec),
    recipe: spec.recipe, bodyId: spec.id, version: 0, releaseEdit: null,
    detail: null, detailState: 'none', retry: new RetryState(), placeholder: null,
  };
}

/** The body job that meshes the asteroid's box with `cells` per side (its edited recipe's id). */
export function bodyJobParams(a: AsteroidState, cells: number, debugThrow: boolean): BodyMeshParams {
  return { body: a.bodyId, cells, originM: a.grid.originM, stepM: a.grid.extentM / cells, simplify: BODY_SIMPLIFY, debugThrow };
}

/** A job's non-empty mesh as a drawn entry: its geometry (BVH attached) at its origin, casting and taking shadows. */
export function meshEntry(result: BodyMeshResult, level: number, cellSizeM: number, material: Material, fadeIn: number, version: number): MeshEntry {
  const mesh = new Mesh(createBodyGeometry(result), material);
  mesh.position.set(...result.originM);
  mesh.castShadow = mesh.receiveShadow = true;
  mesh.name = `level ${level}`;
  return { level, mesh, hash: result.hash, bytes: bodyGeometryBytes(result), fadeIn, originM: result.originM, cellSizeM, version };
}

/** An asteroid's drawn mesh as a collider sees it (physics, issue 19). */
export interface ColliderMesh {
  /** Changes with the mesh. */
  key: string;
  positions: Float32Array;
  indices: Uint16Array | Uint32Array;
  /** The arrays' offset in the spinning frame. */
  offsetM: [number, number, number];
}

export function asteroidStatus(a: AsteroidState): AsteroidStatus {
  return {
    index: a.spec.index,
    seed: a.spec.seed,
    family: a.spec.family,
    level: a.current?.level ?? -1,
    desired: a.desired,
    jobLevel: a.job?.level ?? -1,
    material: a.detailState === 'none' ? 'family' : a.detailState,
    hash: a.current?.hash ?? '',
    triangles: a.current ? (a.current.mesh.geometry.index?.count ?? 0) / 3 : 0,
    failed: a.failed,
    attempts: a.retry.failures,
    placeholder: a.placeholder !== null,
  };
}

/** The asteroid whose surface (its bounding sphere's) is nearest to `point`. */
export function nearestAsteroid(asteroids: readonly AsteroidState[], point: Vector3): AsteroidState {
  let best = asteroids[0];
  let bestD = Infinity;
  for (const a of asteroids) {
    const d = point.distanceTo(a.pivot.position) - a.spec.radiusM;
    if (d < bestD) {
      bestD = d;
      best = a;
    }
  }
  return best;
}

/** Why a build among `brushes` would reach past the asteroid's meshed box (null: none does); `finestCells` cells per side at the finest level. */
export function buildOutsideBox(a: AsteroidState, brushes: readonly Brush[], finestCells: number): string | null {
  const { originM, extentM } = a.grid;
  const margin = extentM / finestCells;
  for (const b of brushes) {
    if (b.op !== 'add') continue;
    const reach = b.radius + b.blend + margin;
    // Builds stay inside the meshed box: past it the mesh would be cut open.
    if (b.center.some((c, k) => c - reach < originM[k] || c + reach > originM[k] + extentM)) {
      return `a build of radius ${b.radius} m there would reach past asteroid ${a.spec.index}'s box (${extentM.toFixed(0)} m a side)`;
    }
  }
  return null;
}

/** The asteroid draws a mesh of its newest edit (or of its spec, never edited); given up counts as done. */
export function drawsNewestEdit(a: AsteroidState): boolean {
  return a.version === 0 || a.failed !== null || (a.current?.version === a.version && a.leaving === null);
}

/** A world point in the asteroid's own frame (its recipe's), metres. */
export function bodyFramePoint(a: AsteroidState, world: Vector3): [number, number, number] {
  a.body.updateWorldMatrix(true, false);
  return a.body.worldToLocal(world.clone()).toArray() as [number, number, number];
}

/** The drawn mesh's arrays and their offset in the spinning frame; null before the first mesh. */
export function colliderMesh(a: AsteroidState): ColliderMesh | null {
  const geometry = a.current?.mesh.geometry;
  const positions = geometry?.getAttribute('position')?.array;
  const indices = geometry?.index?.array;
  if (!a.current || !(positions instanceof Float32Array) || !(indices instanceof Uint16Array || indices instanceof Uint32Array)) return null;
  const c = a.spec.bodyCenterM;
  const o = a.current.originM;
  return { key: `${a.current.level}:${a.current.hash}`, positions, indices, offsetM: [o[0] - c[0], o[1] - c[1], o[2] - c[2]] };
}
