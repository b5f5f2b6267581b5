/**
 * A planet's still seams drawn in one call (issue 20's frame cost). Seams are half of a planet's
 * draw calls near the ground (440 of 898 at 20 m over planet 4) for 5 % of its triangles, and a
 * draw costs the same on the CPU whatever it holds: three.js's recording and ANGLE's validation and
 * Vulkan command recording in the GPU process, several microseconds each.
 *
 * The policy ({@link SeamBatchPolicy}, pure, Node-tested): the batch holds exactly the seams that
 * are drawn whole (shown, not fading, on the standard material). The moment that set changes (a
 * commit, a fade, an edit) the batch is dropped and the seams draw one by one again, as before, so
 * the frame never shows a stale batch; once the set has stayed the same for {@link SETTLE_MS} it is
 * batched again. Streaming while flying rebuilds nothing; a still or slow camera draws ~440 fewer
 * calls. A batched seam moves to layer {@link BATCHED_LAYER}, which neither the camera nor the
 * shadow maps draw (its own `visible` stays the streaming's), and is raycast as before (the
 * raycasters test every layer); the batch itself is not raycast.
 *
 * Positions: the batch sits at an origin near the camera (snapped to {@link ORIGIN_GRID_M}), its
 * seams' float32 positions made relative to it in doubles. float32 keeps ~1e-7 of the distance
 * from that origin: sub-millimetre for the seams near the camera, where a mismatch with the chunks
 * (drawn from their own origins) could show; the batch is rebuilt when the camera strays more than
 * {@link ORIGIN_STRAY_M} from it.
 */
import { BufferAttribute, BufferGeometry, Mesh, Sphere, Vector3, type Group, type Material } from 'three';

/** How long the batchable set must stay the same before it is batched (ms). */
export const SETTLE_MS = 400;
/** The layer batched seams are moved to (drawn by nothing). */
export const BATCHED_LAYER = 1;
/** The batch's origin snaps to this grid (m), and is moved when the camera is farther than ORIGIN_STRAY_M. */
export const ORIGIN_GRID_M = 256;
export const ORIGIN_STRAY_M = 2000;

/** What to do this frame (pure: {@link SeamBatchPolicy.step}). */
export type BatchStep = 'keep' | 'drop' | 'build' | 'wait';

/**
 * When to build and drop the batch. `step(ids, now, strayed)`: the ids of the seams drawn whole
 * this frame (any order), whether the camera strayed from the batch's origin. 'drop': the batch no
 * longer matches, draw the seams singly; 'build': batch `ids` now; 'wait': no batch, not yet.
 */
export class SeamBatchPolicy {
  private batched: Set<number> | null = null;
  private signature = '';
  private since = 0;

  constructor(private readonly settleMs = SETTLE_MS, private readonly minSeams = 2) {}

  get hasBatch(): boolean {
    return this.batched !== null;
  }

  step(ids: readonly number[], nowMs: number, strayed = false): BatchStep {
    if (this.batched) {
      if (!strayed && ids.length === this.batched.size && ids.every((id) => this.batched!.has(id))) return 'keep';
      this.batched = null;
      this.restart(ids, nowMs);
      return 'drop';
    }
    const signature = [...ids].sort((a, b) => a - b).join(',');
    if (signature !== this.signature) {
      this.signature = signature;
      this.since = nowMs;
      return 'wait';
    }
    if (nowMs - this.since < this.settleMs || ids.length < this.minSeams) return 'wait';
    this.batched = new Set(ids);
    return 'build';
  }

  /** The batch was dropped from outside (debug tint, teardown). */
  reset(): void {
    this.batched = null;
    this.signature = '';
  }

  private restart(ids: readonly number[], nowMs: number): void {
    this.signature = [...ids].sort((a, b) => a - b).join(',');
    this.since = nowMs;
  }
}

const scratchSphere = new Sphere();

/** The batch's mesh and its members (src/render/planetPieces.ts runs it once a frame). */
export class SeamBatch {
  readonly policy = new SeamBatchPolicy();
  /** Batches built so far (tests, stats). */
  builds = 0;
  /** Off: every seam draws on its own (the comparison in tests and benchmarks). */
  enabled = true;
  private mesh: Mesh | null = null;
  private members: Mesh[] = [];
  private readonly origin = new Vector3();

  constructor(private readonly root: Group, private readonly material: () => Material) {}

  /** Seams in the batch now (0: none). */
  get size(): number {
    return this.members.length;
  }

  /**
   * Once a frame after the commits and fades: `whole`, the seams drawn whole (shown, not fading,
   * on the standard material); the camera in the planet's frame. What the planet casts into the
   * shadow maps is the same batched or not (the cached cascades stay valid).
   */
  update(whole: readonly Mesh[], cameraInBody: readonly [number, number, number], nowMs: number): void {
    if (!this.enabled) {
      this.clear();
      return;
    }
    const strayed = this.mesh !== null &&
      Math.hypot(cameraInBody[0] - this.origin.x, cameraInBody[1] - this.origin.y, cameraInBody[2] - this.origin.z) > ORIGIN_STRAY_M;
    const step = this.policy.step(whole.map((m) => m.id), nowMs, strayed);
    if (step === 'drop') this.drop();
    if (step === 'build') this.build(whole, cameraInBody);
  }

  /** Back to single seams (the debug tint, teardown). */
  clear(): void {
    this.policy.reset();
    this.drop();
  }

  dispose(): void {
    this.clear();
  }

  private drop(): void {
    for (const m of this.members) m.layers.set(0);
    this.members = [];
    if (this.mesh) {
      this.mesh.removeFromParent();
      this.mesh.geometry.dispose();
      this.mesh = null;
    }
  }

  private build(seams: readonly Mesh[], cameraInBody: readonly [number, number, number]): void {
    this.drop();
    this.origin.set(...(cameraInBody.map((c) => Math.round(c / ORIGIN_GRID_M) * ORIGIN_GRID_M) as [number, number, number]));
    const geometry = mergeSeams(seams, this.origin);
    const mesh = new Mesh(geometry, this.material());
    mesh.name = `seam batch (${seams.length})`;
    mesh.position.copy(this.origin);
    mesh.matrixAutoUpdate = false;
    mesh.updateMatrix();
    mesh.castShadow = mesh.receiveShadow = true;
    // Picking and collisions hit the seams themselves (raycasters test every layer).
    mesh.raycast = () => undefined;
    this.root.add(mesh);
    this.mesh = mesh;
    this.members = [...seams];
    for (const m of this.members) m.layers.set(BATCHED_LAYER);
    this.builds++;
  }
}

/** The seams' geometry as one, positions relative to `origin` (the planet's frame), 32-bit indices. */
export function mergeSeams(seams: readonly Mesh[], origin: Vector3): BufferGeometry {
  let vertices = 0, indices = 0;
  for (const s of seams) {
    vertices += s.geometry.attributes.position.count;
    indices += s.geometry.index!.count;
  }
  const withColour = seams.length > 0 && seams.every((s) => s.geometry.attributes.groundColour !== undefined);
  const positions = new Float32Array(3 * vertices);
  const normals = new Int16Array(3 * vertices);
  const colours = withColour ? new Uint8Array(4 * vertices) : null;
  const index = new Uint32Array(indices);
  let v0 = 0, i0 = 0;
  for (const s of seams) {
    const g = s.geometry;
    const p = g.attributes.position.array as Float32Array;
    const n = g.attributes.normal.array as Int16Array;
    const idx = g.index!.array;
    // The seam's own origin less the batch's, in doubles; then float32 per vertex.
    const dx = s.position.x - origin.x, dy = s.position.y - origin.y, dz = s.position.z - origin.z;
    const count = g.attributes.position.count;
    for (let v = 0; v < count; v++) {
      positions[3 * (v0 + v)] = p[3 * v] + dx;
      positions[3 * (v0 + v) + 1] = p[3 * v + 1] + dy;
      positions[3 * (v0 + v) + 2] = p[3 * v + 2] + dz;
    }
    normals.set(n.subarray(0, 3 * count), 3 * v0);
    if (colours) colours.set((g.attributes.groundColour.array as Uint8Array).subarray(0, 4 * count), 4 * v0);
    for (let i = 0; i < idx.length; i++) index[i0 + i] = idx[i] + v0;
    v0 += count;
    i0 += idx.length;
  }
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(positions, 3));
  geometry.setAttribute('normal', new BufferAttribute(normals, 3, true));
  if (colours) geometry.setAttribute('groundColour', new BufferAttribute(colours, 4, true));
  geometry.setIndex(new BufferAttribute(index, 1));
  geometry.computeBoundingBox();
  geometry.boundingSphere = geometry.boundingBox!.getBoundingSphere(scratchSphere.clone());
  return geometry;
}
