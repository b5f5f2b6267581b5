/**
 * Fly-mode collision: a move stops short of the first surface along it. Meshes are raycast
 * through their BVHs (three-mesh-bvh's accelerated raycast, patched in at start-up); surfaces
 * without a whole mesh to raycast (planets, whose chunks stream) are tested with a predicate on
 * the end point (the field's altitude there).
 */
import { Raycaster, Vector3, type Object3D } from 'three';

export interface CollisionOptions {
  /** Meshes the move may not pass through (raycast, first hit only). */
  meshes: Object3D | null;
  /** True when the end point is inside or too near a surface that is not raycast: the move is refused. */
  blockedAt?: (point: Vector3) => boolean;
  /** How far short of a hit the move stops, metres (default 1). */
  marginM?: number;
}

const raycaster = new Raycaster();
// Every layer: a planet's batched pieces sit on a layer of their own (src/render/pieceBatches.ts).
raycaster.layers.enableAll();
const direction = new Vector3();

/** The allowed end of a move from `from` to `to`: `to`, a point `marginM` before the first hit, or `from`. */
export function collideMove(from: Vector3, to: Vector3, options: CollisionOptions): Vector3 {
  if (options.blockedAt?.(to)) return from;
  if (!options.meshes) return to;
  direction.copy(to).sub(from);
  const length = direction.length();
  if (length === 0) return to;
  const margin = options.marginM ?? 1;
  raycaster.set(from, direction.divideScalar(length));
  raycaster.far = length + margin;
  raycaster.firstHitOnly = true;
  const hit = raycaster.intersectObject(options.meshes, true)[0];
  if (!hit) return to;
  return from.clone().addScaledVector(direction, Math.max(0, hit.distance - margin));
}
