/**
 * The pieces of a batch (src/render/pieceBatches.ts) that a camera sees, drawn as runs. A batch's
 * pieces lie one after another in its index buffer; those whose bounding spheres are in the view
 * frustum form runs of neighbours ({@link visibleRuns}). three draws the first run as the mesh's
 * draw range; {@link drawRestOfRuns}, from the mesh's onAfterRender — the program, vertex array
 * and uniforms three bound for the first run still bound — draws the others in one
 * WEBGL_multi_draw call. So a batch draws only pieces in view whatever their order, and groups can
 * be larger (fewer draws) without drawing what is out of view: the first-to-last range alone drew
 * the pieces between two runs, seen or not.
 */
import { Frustum, Matrix4, Sphere, Vector3, WebGLCoordinateSystem, type Camera, type WebGLRenderer } from 'three';

/** A piece's share of a batch: its index range and its bounding sphere in the batch's frame. */
export interface BatchSpan {
  start: number;
  count: number;
  sphere: Sphere;
  /** A piece the batch no longer draws (it changed: src/render/pieceBatches.ts), not drawn whatever the view. */
  skipped?: boolean;
}

/**
 * Runs of index ranges: `starts` and `counts` in indices, the first `count` of them used;
 * `byteOffsets` room for the starts in bytes (the multi-draw call's form).
 */
export interface DrawRuns {
  starts: Int32Array;
  counts: Int32Array;
  byteOffsets: Int32Array;
  /** Each run's nearest distance from the camera (its order). */
  distances: Float64Array;
  count: number;
}

export function drawRuns(capacity: number): DrawRuns {
  return {
    starts: new Int32Array(capacity), counts: new Int32Array(capacity), byteOffsets: new Int32Array(capacity),
    distances: new Float64Array(capacity), count: 0,
  };
}

// The frustum of the last camera matrices seen: a frame's batches (~130) share their camera's.
const frustum = new Frustum();
const frustumMatrix = new Matrix4();
let frustumReversed = false;
const scratchMatrix = new Matrix4();
const scratchSphere = new Sphere();
const scratchEye = new Vector3();

/** The camera's view frustum (cached while its matrices stay the same). */
function cameraFrustum(camera: Camera): Frustum {
  scratchMatrix.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse);
  if (!scratchMatrix.equals(frustumMatrix) || camera.reversedDepth !== frustumReversed) {
    frustum.setFromProjectionMatrix(scratchMatrix, WebGLCoordinateSystem, camera.reversedDepth);
    frustumMatrix.copy(scratchMatrix);
    frustumReversed = camera.reversedDepth;
  }
  return frustum;
}

/** Whether `span`'s sphere, moved by `matrixWorld` (left in scratchSphere), meets the frustum. */
function inView(f: Frustum, span: BatchSpan, matrixWorld: Matrix4): boolean {
  return f.intersectsSphere(scratchSphere.copy(span.sphere).applyMatrix4(matrixWorld));
}

/**
 * The index range from a batch's first span in `camera`'s view to its last (count 0 when none
 * is): what a batch draws where WEBGL_multi_draw is missing (whose batches never skip spans: the
 * range would draw a skipped one between two others).
 */
export function drawnRange(spans: readonly BatchSpan[], matrixWorld: Matrix4, camera: Camera): { start: number; count: number } {
  const f = cameraFrustum(camera);
  let first = -1, last = -1;
  for (let i = 0; i < spans.length; i++) {
    if (spans[i].skipped || !inView(f, spans[i], matrixWorld)) continue;
    if (first < 0) first = i;
    last = i;
  }
  if (first < 0) return { start: 0, count: 0 };
  return { start: spans[first].start, count: spans[last].start + spans[last].count - spans[first].start };
}

/**
 * The spans in `camera`'s view as runs of neighbours, nearest run first (written into `out`,
 * returned). Nearest first because a batch is one object to three's front-to-back sort: the runs'
 * order is what lets early depth rejection work inside a group as it does between objects (on the
 * H100 at 20 m the GPU time did not move measurably either way; on a GPU bound by pixels it would).
 */
export function visibleRuns(spans: readonly BatchSpan[], matrixWorld: Matrix4, camera: Camera, out: DrawRuns): DrawRuns {
  const f = cameraFrustum(camera);
  scratchEye.setFromMatrixPosition(camera.matrixWorld);
  let n = 0;
  let end = -1;
  for (const span of spans) {
    if (span.skipped || !inView(f, span, matrixWorld)) continue;
    const d = Math.max(0, scratchSphere.center.distanceTo(scratchEye) - scratchSphere.radius);
    if (n > 0 && span.start === end) {
      out.counts[n - 1] += span.count;
      out.distances[n - 1] = Math.min(out.distances[n - 1], d);
    } else {
      out.starts[n] = span.start;
      out.counts[n] = span.count;
      out.distances[n] = d;
      n++;
    }
    end = span.start + span.count;
  }
  out.count = n;
  sortByDistance(out);
  return out;
}

/** Insertion sort of the runs by distance (stable; a batch has a few dozen at most). */
function sortByDistance(runs: DrawRuns): void {
  const { starts, counts, distances } = runs;
  for (let i = 1; i < runs.count; i++) {
    const s = starts[i], c = counts[i], d = distances[i];
    let j = i - 1;
    for (; j >= 0 && distances[j] > d; j--) {
      starts[j + 1] = starts[j];
      counts[j + 1] = counts[j];
      distances[j + 1] = distances[j];
    }
    starts[j + 1] = s;
    counts[j + 1] = c;
    distances[j + 1] = d;
  }
}

/**
 * Draws runs 1… of `runs` (32-bit indices) with the state three left bound after drawing run 0,
 * counted in `renderer.info`. False where WEBGL_multi_draw is missing (nothing drawn).
 */
export function drawRestOfRuns(renderer: WebGLRenderer, runs: DrawRuns): boolean {
  if (!renderer.extensions.has('WEBGL_multi_draw')) return false;
  const rest = runs.count - 1;
  if (rest <= 0) return true;
  const gl = renderer.getContext();
  const ext = renderer.extensions.get('WEBGL_multi_draw') as {
    multiDrawElementsWEBGL(mode: number, counts: Int32Array, countsOffset: number, type: number, offsets: Int32Array, offsetsOffset: number, drawCount: number): void;
  };
  let indices = 0;
  for (let i = 1; i < runs.count; i++) {
    runs.byteOffsets[i] = runs.starts[i] * 4;
    indices += runs.counts[i];
  }
  ext.multiDrawElementsWEBGL(gl.TRIANGLES, runs.counts, 1, gl.UNSIGNED_INT, runs.byteOffsets, 1, rest);
  renderer.info.update(indices, gl.TRIANGLES, 1);
  return true;
}
