/**
 * A planet's still pieces drawn a group at a time (issue 20's frame cost). Near the ground a planet
 * draws ~450 chunks and ~450 seams (planet 4 at 20 m), and a draw costs the same on the CPU
 * whatever it holds: three.js's recording and ANGLE's validation and Vulkan command recording in the
 * GPU process, several microseconds each. Neighbouring pieces of one level — the chunks under one
 * ancestor {@link GROUP_LEVELS} levels up, with the seams they own — are merged into one geometry
 * and drawn in one call.
 *
 * The policy ({@link BatchPolicy}, pure, Node-tested), per group: the batch draws exactly the
 * group's pieces that are drawn whole (shown, not fading, on the standard material). The moment that
 * set changes (a commit, a fade, an edit) the batch skips its pieces that left it and the group's
 * new pieces draw singly, so the frame never shows a stale piece; once the set has stayed the same
 * for {@link SETTLE_MS} it is batched again, at most {@link BUILD_BUDGET_MS} of merging a frame.
 * Where a batch cannot skip pieces (no WEBGL_multi_draw) a change drops it and all its pieces draw
 * singly until then. A camera in flight at 200 m/s over planet 4 at 300 m drew 700–900 calls a
 * frame on the H100 when a change dropped the whole group (620 shrinking instead: most single
 * pieces in flight are new or fading ones); a still or slow camera draws a few dozen for the
 * planet. A batched piece moves to layer {@link BATCHED_LAYER}, which neither the camera nor the
 * shadow maps draw (its own `visible` stays the streaming's), and is raycast as before (the
 * raycasters test every layer); a batch itself is not raycast.
 *
 * Positions: a batch sits at its first piece's origin, the others' float32 positions made relative
 * to it in doubles. float32 keeps ~1e-7 of the distance from that origin, and a group spans 2^
 * GROUP_LEVELS (4) chunks of its level: micrometres for the finest, a centimetre for groups a
 * hundred kilometres wide and as far away (under a pixel).
 *
 * Groups two levels up rather than one: on the H100 at 20 m over planet 4, 170 → 121 draws and
 * 0.8–1.2 ms less a frame finished on the GPU (CPU and ANGLE's recording), for up to +0.2 ms of
 * GPU; a merge takes ~1 ms (at most ~15 on that machine while flying).
 *
 * Culling: three culls a batch whole (its bounding sphere), so a group half in view drew its other
 * half too (2.27 M triangles at 20 m over planet 4 against 1.73 M single). A batch's pieces are laid
 * out so that a frustum's cut tends to keep few runs of them ({@link batchOrder}), and each draw
 * draws the pieces in view: their runs, the first as the draw range and the rest in one
 * WEBGL_multi_draw call after it (src/render/batchRuns.ts); without the extension, the range from
 * the first piece in view to the last ({@link drawnRange}). The shadow maps' draws do the same
 * with each cascade's camera (onBeforeShadow / onAfterShadow), as three culls single pieces there.
 *
 * GPU memory: a batch is a second copy of its pieces' geometry (the pieces keep theirs, to be drawn
 * singly the frame their group changes); {@link PieceBatches.bytes} says how much, and
 * {@link PieceBatches.maxBytes} caps it: a group whose batch would pass the cap is not built (its
 * pieces draw singly), so the copies never outgrow what the planet's budget allows them.
 */
import { BufferAttribute, BufferGeometry, Mesh, Sphere, type Camera, type Group, type Material, type WebGLRenderer } from 'three';
import { parseChunkKey } from '../lod/chunkKey';
import type { Disposable } from './disposal';
import { drawnRange, drawRestOfRuns, drawRuns, visibleRuns, type BatchSpan } from './batchRuns';

export { drawnRange, type BatchSpan } from './batchRuns';

/** How long a group's set must stay the same before it is batched (ms). */
export const SETTLE_MS = 400;
/** Main-thread time a frame may spend merging batches (ms; at least one group a frame). */
export const BUILD_BUDGET_MS = 3;
/** The layer batched pieces are moved to (drawn by nothing). */
export const BATCHED_LAYER = 1;
/** A group: the chunks under one ancestor this many levels up (and the seams they own). */
export const GROUP_LEVELS = 2;

/** What to do this frame (pure: {@link BatchPolicy.step}). */
export type BatchStep = 'keep' | 'shrink' | 'drop' | 'build' | 'wait';

/**
 * When to build, shrink and drop one group's batch. `step(ids, now, canBuild, canShrink)`: the ids
 * of the group's pieces drawn whole this frame (any order), whether there is time to build this
 * frame, whether the batch can skip some of its pieces (WEBGL_multi_draw: batchRuns.ts).
 * 'keep': the batch draws all its pieces; 'shrink': the batch draws only {@link drawn} (those of
 * its pieces still drawn whole), the group's other pieces draw singly; 'drop': no batch, the pieces
 * draw singly; 'build': batch `ids` now (replacing any batch); 'wait': no batch, not yet.
 *
 * A change in the set (a commit, a fade, an edit) shrinks the batch rather than dropping it, so a
 * camera in flight keeps drawing most of a group in one call while the piece or two that changed
 * draw singly; once the new set has stayed the same for the settle time the batch is rebuilt with
 * it. A batch left with fewer than `minPieces` of its pieces is dropped.
 */
export class BatchPolicy {
  private batched: Set<number> | null = null;
  private live: Set<number> | null = null;
  private signature = '';
  private since = 0;

  constructor(private readonly settleMs = SETTLE_MS, private readonly minPieces = 2) {}

  get hasBatch(): boolean {
    return this.batched !== null;
  }

  /** The batched pieces the batch draws (after 'keep', 'shrink' or 'build'); null without a batch. */
  get drawn(): ReadonlySet<number> | null {
    return this.live;
  }

  step(ids: readonly number[], nowMs: number, canBuild = true, canShrink = true): BatchStep {
    if (this.batched) {
      const batched = this.batched;
      if (ids.length === batched.size && ids.every((id) => batched.has(id))) {
        // Back to the batched set after a shrink: a later change settles from its own start.
        if (this.live !== batched) this.signature = '';
        this.live = batched;
        return 'keep';
      }
      this.settle(ids, nowMs);
      const present = ids.filter((id) => batched.has(id));
      if (!canShrink || present.length < this.minPieces) {
        this.batched = this.live = null;
        return 'drop';
      }
      if (this.settled(ids, nowMs, canBuild)) return this.build(ids);
      this.live = new Set(present);
      return 'shrink';
    }
    this.settle(ids, nowMs);
    return this.settled(ids, nowMs, canBuild) ? this.build(ids) : 'wait';
  }

  /** Restarts the settle time when the set changed. */
  private settle(ids: readonly number[], nowMs: number): void {
    const signature = signatureOf(ids);
    if (signature === this.signature) return;
    this.signature = signature;
    this.since = nowMs;
  }

  private settled(ids: readonly number[], nowMs: number, canBuild: boolean): boolean {
    return nowMs - this.since >= this.settleMs && ids.length >= this.minPieces && canBuild;
  }

  private build(ids: readonly number[]): BatchStep {
    this.batched = this.live = new Set(ids);
    return 'build';
  }
}

/** The set `ids` as a string, whatever their order. */
function signatureOf(ids: readonly number[]): string {
  return [...ids].sort((a, b) => a - b).join(',');
}

/**
 * A piece's place in its batch: its chunk's position under the group's ancestor (radial bit lowest,
 * so a column's two layers sit together; then along the face), a seam right after its chunk.
 */
export function batchOrder(mesh: Mesh): number {
  const a = parseChunkKey(mesh.userData.key as string);
  const mask = (1 << GROUP_LEVELS) - 1;
  const bits = GROUP_LEVELS;
  const cell = (a.ck & mask) | ((a.ci & mask) << bits) | ((a.cj & mask) << (2 * bits));
  return 2 * cell + (mesh.userData.kind === 'seam' ? 1 : 0);
}

interface GroupState {
  policy: BatchPolicy;
  mesh: Mesh | null;
  /** The batch's pieces in its order, each with its span. */
  members: Mesh[];
  spans: BatchSpan[];
  /** Some of its pieces are skipped ({@link BatchPolicy} 'shrink'). */
  shrunk: boolean;
}

/** The batches of one planet's pieces (src/render/planetPieces.ts runs it once a frame). */
export class PieceBatches implements Disposable {
  /** Batches built so far (tests, stats). */
  builds = 0;
  /** Off: every piece draws on its own (the comparison in tests and benchmarks). */
  enabled = true;
  /** The most GPU bytes the batches may hold (PlanetView: half the planet's memory budget). */
  maxBytes = Infinity;
  private readonly groups = new Map<string, GroupState>();
  /** Whether a batch can skip some of its pieces: WEBGL_multi_draw, known from the first batch drawn. */
  private canSkip = false;
  private totalBytes = 0;

  /**
   * `clock`: what the merge budget is measured with (ms; default performance.now). Tests pass a still
   * one, so what a frame builds does not depend on how loaded the machine is.
   */
  constructor(private readonly root: Group, private readonly material: () => Material, private readonly clock: () => number = () => performance.now()) {}

  /** Pieces batches draw now (0: none). */
  get size(): number {
    let n = 0;
    for (const g of this.groups.values()) if (g.mesh) n += g.spans.reduce((k, span) => k + (span.skipped ? 0 : 1), 0);
    return n;
  }

  /** Batches drawn now. */
  get batches(): number {
    let n = 0;
    for (const g of this.groups.values()) if (g.mesh) n++;
    return n;
  }

  /** GPU bytes of the batches' geometry (a second copy of their pieces'). */
  get bytes(): number {
    return this.totalBytes;
  }

  /** Pieces in batches, batches, their GPU bytes (the planet's stats). */
  stats(): { batched: number; batches: number; batchBytes: number } {
    return { batched: this.size, batches: this.batches, batchBytes: this.bytes };
  }

  /**
   * Once a frame after the commits and fades: `whole`, the pieces drawn whole (shown, not fading,
   * on the standard material), each with its group's key. What the planet casts into the shadow
   * maps is the same batched or not (the cached cascades stay valid).
   */
  update(whole: readonly { mesh: Mesh; group: string }[], nowMs: number): void {
    if (!this.enabled) {
      this.clear();
      return;
    }
    const byGroup = new Map<string, Mesh[]>();
    for (const { mesh, group } of whole) {
      let list = byGroup.get(group);
      if (!list) byGroup.set(group, (list = []));
      list.push(mesh);
    }
    for (const [key, g] of this.groups) {
      if (byGroup.has(key)) continue;
      this.drop(g);
      this.groups.delete(key);
    }
    const t0 = this.clock();
    let built = false;
    for (const [key, meshes] of byGroup) {
      let g = this.groups.get(key);
      if (!g) this.groups.set(key, (g = { policy: new BatchPolicy(), mesh: null, members: [], spans: [], shrunk: false }));
      const canBuild = (!built || this.clock() - t0 < BUILD_BUDGET_MS) && (g.mesh !== null || this.totalBytes + mergedBytes(meshes) <= this.maxBytes);
      const step = g.policy.step(meshes.map((m) => m.id), nowMs, canBuild, this.canSkip);
      if (step === 'drop') this.drop(g);
      if (step === 'build') {
        this.build(g, meshes, key);
        built = true;
      }
      if (step === 'shrink' || (step === 'keep' && g.shrunk)) this.shrink(g, g.policy.drawn!);
    }
  }

  /** Back to single pieces (the debug tint, teardown). */
  clear(): void {
    for (const g of this.groups.values()) this.drop(g);
    this.groups.clear();
  }

  /** Frees the batch meshes' geometries (the material is the pieces'). */
  dispose(): void {
    this.clear();
  }

  /** The batch draws only `drawn` of its pieces; the others are back on the drawn layer, to draw singly (or fade, or hide). */
  private shrink(g: GroupState, drawn: ReadonlySet<number>): void {
    g.shrunk = false;
    g.members.forEach((m, i) => {
      const on = drawn.has(m.id);
      g.spans[i].skipped = !on;
      m.layers.set(on ? BATCHED_LAYER : 0);
      if (!on) g.shrunk = true;
    });
  }

  private drop(g: GroupState): void {
    for (const m of g.members) m.layers.set(0);
    g.members = [];
    g.spans = [];
    g.shrunk = false;
    if (g.mesh) {
      this.totalBytes -= geometryBytes(g.mesh.geometry);
      g.mesh.removeFromParent();
      g.mesh.geometry.dispose();
      g.mesh = null;
    }
  }

  private build(g: GroupState, pieces: readonly Mesh[], key: string): void {
    this.drop(g);
    const ordered = pieces.map((m) => ({ m, order: batchOrder(m) })).sort((a, b) => a.order - b.order).map((o) => o.m);
    const origin = ordered[0].position;
    const mesh = new Mesh(mergePieces(ordered, origin), this.material());
    mesh.name = `batch ${key} (${ordered.length})`;
    mesh.position.copy(origin);
    mesh.matrixAutoUpdate = false;
    mesh.updateMatrix();
    mesh.castShadow = mesh.receiveShadow = true;
    // Picking and collisions hit the pieces themselves (raycasters test every layer).
    mesh.raycast = () => undefined;
    const spans = batchSpans(ordered, origin);
    const geometry = mesh.geometry;
    const runs = drawRuns(spans.length);
    // Where WEBGL_multi_draw is: the pieces in view, the first run as the draw range, the others
    // after it (batchRuns.ts). Without: the range from the first piece in view to the last. The
    // shadow maps' draws the same, with the cascade's camera.
    const before = (renderer: WebGLRenderer, camera: Camera): void => {
      if (renderer.extensions.has('WEBGL_multi_draw')) {
        this.canSkip = true;
        visibleRuns(spans, mesh.matrixWorld, camera, runs);
        geometry.setDrawRange(runs.count > 0 ? runs.starts[0] : 0, runs.count > 0 ? runs.counts[0] : 0);
      } else {
        runs.count = 0;
        const { start, count } = drawnRange(spans, mesh.matrixWorld, camera);
        geometry.setDrawRange(start, count);
      }
    };
    const after = (renderer: WebGLRenderer): void => {
      drawRestOfRuns(renderer, runs);
      runs.count = 0;
      geometry.setDrawRange(0, Infinity);
    };
    mesh.onBeforeRender = (renderer, _scene, camera) => before(renderer, camera);
    mesh.onAfterRender = (renderer) => after(renderer);
    mesh.onBeforeShadow = (renderer, _object, _camera, shadowCamera) => before(renderer, shadowCamera);
    mesh.onAfterShadow = (renderer) => after(renderer);
    this.root.add(mesh);
    this.totalBytes += geometryBytes(mesh.geometry);
    g.mesh = mesh;
    g.members = ordered;
    g.spans = spans;
    for (const m of g.members) m.layers.set(BATCHED_LAYER);
    this.builds++;
  }
}

/** Each piece's index range in {@link mergePieces}' geometry of `pieces`, and its bounding sphere relative to `origin`. */
export function batchSpans(pieces: readonly Mesh[], origin: { x: number; y: number; z: number }): BatchSpan[] {
  const spans: BatchSpan[] = [];
  let start = 0;
  for (const p of pieces) {
    const g = p.geometry;
    if (!g.boundingSphere) g.computeBoundingSphere();
    const sphere = g.boundingSphere!.clone();
    sphere.center.x += p.position.x - origin.x;
    sphere.center.y += p.position.y - origin.y;
    sphere.center.z += p.position.z - origin.z;
    const count = g.index!.count;
    spans.push({ start, count, sphere });
    start += count;
  }
  return spans;
}

/** Bytes of a geometry's attributes and index. */
function geometryBytes(g: BufferGeometry): number {
  let n = g.index ? g.index.array.byteLength : 0;
  for (const a of Object.values(g.attributes)) n += (a as BufferAttribute).array.byteLength;
  return n;
}

/** What {@link mergePieces} will make of `pieces`, in bytes (32-bit indices). */
function mergedBytes(pieces: readonly Mesh[]): number {
  let n = 0;
  for (const p of pieces) n += geometryBytes(p.geometry) - p.geometry.index!.array.byteLength + 4 * p.geometry.index!.count;
  return n;
}

/** The pieces' geometry as one, positions relative to `origin` (the planet's frame), 32-bit indices. */
export function mergePieces(pieces: readonly Mesh[], origin: { x: number; y: number; z: number }): BufferGeometry {
  let vertices = 0, indices = 0;
  for (const s of pieces) {
    vertices += s.geometry.attributes.position.count;
    indices += s.geometry.index!.count;
  }
  const withColour = pieces.length > 0 && pieces.every((s) => s.geometry.attributes.groundColour !== undefined);
  const positions = new Float32Array(3 * vertices);
  const normals = new Int16Array(3 * vertices);
  const colours = withColour ? new Uint8Array(4 * vertices) : null;
  const index = new Uint32Array(indices);
  let v0 = 0, i0 = 0;
  for (const s of pieces) {
    const g = s.geometry;
    const p = g.attributes.position.array as Float32Array;
    const n = g.attributes.normal.array as Int16Array;
    const idx = g.index!.array;
    // The piece's own origin less the batch's, in doubles; then float32 per vertex.
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
  geometry.boundingSphere = geometry.boundingBox!.getBoundingSphere(new Sphere());
  return geometry;
}
