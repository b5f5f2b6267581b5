/**
 * Which planet chunks a user's brushes reach (issue 19), pure. A chunk mesh depends only on the
 * brushes that reach it, so its piece id carries their content hash (its *revision*, '' for none):
 * a dig makes new ids for the chunks it reaches and for the seams reading them, the streaming model
 * meshes those in one transaction while the old ones stay drawn, and an undo returns to the ids —
 * and the cached pieces — of before.
 *
 * "Reaches": a brush changes the field's sign only within its radius + blend / 4 (the smooth
 * min/max move a value by at most blend / 4), so two chunks that share a lattice point agree on its
 * sign whenever both or neither are reached — what keeps the seams between them closed (the test
 * welds an edited planet). Values near the surface also move within a few cells of that sphere where
 * the field's slope is about 1, so the reach is grown by the blend and {@link MARGIN_CELLS} cells of
 * the chunk's coarser level (a chunk job also samples its coarser neighbours' lattice points).
 * Further out a brush only moves values far from zero (the recipe's global Lipschitz bound, ~15 on
 * the planets, would make every dig reach whole layers of chunks for sub-cell changes). A brush
 * reaches a chunk when that grown sphere meets the chunk's bounding sphere; every chunk job samples
 * the field with the brushes that reach it, in the order they were made.
 */
import { brushesHash, brushText, type Brush } from '../field/index.ts';
import type { ChunkAddress } from './chunkKey.ts';
import { chunkBoundingSphere, type PlanetShell } from './culling.ts';
import type { CubeSphereSpace } from './cubeSphere.ts';

/** Cells of a chunk's coarser level a brush's reach is grown by (see the header). */
export const MARGIN_CELLS = 2;

export class PlanetEdits {
  private readonly sphere = new Float64Array(4);

  /** Revisions by chunk address (the streaming model and the plan keep one address object a key). */
  private readonly revisions = new WeakMap<ChunkAddress, string>();

  constructor(private readonly space: CubeSphereSpace, readonly brushes: readonly Brush[] = []) {}

  /** The same chunk space with other brushes. */
  with(brushes: readonly Brush[]): PlanetEdits {
    return new PlanetEdits(this.space, brushes);
  }

  /** The brushes that reach chunk `a` (see the header), in the order they were made. */
  brushesFor(a: ChunkAddress): Brush[] {
    if (this.brushes.length === 0) return [];
    const s = this.sphere;
    chunkBoundingSphere(this.space, a, s);
    const margin = MARGIN_CELLS * this.space.cellSizeM(Math.min(a.level + 1, this.space.levels));
    return this.brushes.filter((b) => Math.hypot(s[0] - b.center[0], s[1] - b.center[1], s[2] - b.center[2]) <= s[3] + b.radius + b.blend + margin);
  }

  /** Chunk `a`'s revision: '' when no brush reaches it, else the content hash of those that do. */
  revision(a: ChunkAddress): string {
    let r = this.revisions.get(a);
    if (r === undefined) {
      const own = this.brushesFor(a);
      r = own.length === 0 ? '' : brushesHash(own);
      this.revisions.set(a, r);
    }
    return r;
  }

  /**
   * The shell chunks are selected in, grown to hold every brush: a dig below the generated shell's
   * inner radius (or a build above its outer one) must not leave chunks unselected under it.
   */
  shell(base: PlanetShell): PlanetShell {
    let { innerM, outerM } = base;
    for (const b of this.brushes) {
      const r = Math.hypot(...b.center);
      const reach = b.radius + b.blend + MARGIN_CELLS * this.space.cellSizeM(0);
      if (b.op === 'carve') innerM = Math.min(innerM, Math.max(0, r - reach));
      else outerM = Math.max(outerM, r + reach);
    }
    return { innerM, outerM };
  }

  /** Why one of `brushes` cannot be applied in this chunk space (it reaches past its radial range), or null. */
  problem(brushes: readonly Brush[]): string | null {
    for (const brush of brushes) {
      const r = Math.hypot(...brush.center);
      const reach = brush.radius + brush.blend;
      if (r - reach < this.space.innerRadiusM || r + reach > this.space.outerRadiusM) {
        return `a brush of radius ${brush.radius} m there reaches past the planet's chunk space ` +
          `(${(this.space.innerRadiusM / 1000).toFixed(1)}–${(this.space.outerRadiusM / 1000).toFixed(1)} km from its centre)`;
      }
    }
    return null;
  }
}

/** Which empty/full marks a change of brushes can break where the changed brushes reach. */
export interface BrokenMarks {
  empty: boolean;
  full: boolean;
}

/**
 * Which empty/full marks going from brushes `before` to `after` can break (issue 43: a dig forgot
 * the air's proofs above it too, and the LOD then asked for hundreds of chunks to prove them again).
 * Each brush is a monotone step on the field: a carve is a smooth max with the negated sphere (never
 * lower), an add a smooth min with it (never higher), and every later step is non-decreasing in its
 * input. So adding a carve or taking an add back can only raise the field: more air, an empty chunk
 * stays empty and only full marks may break. Adding an add or taking a carve back only lowers it.
 * Brushes kept but in another order (or a brush repeated) can move it either way: both.
 */
export function brokenMarks(before: readonly Brush[], after: readonly Brush[]): BrokenMarks {
  const a = before.map(brushText), b = after.map(brushText);
  const inA = new Set(a), inB = new Set(b);
  const keptA = a.filter((k) => inB.has(k)), keptB = b.filter((k) => inA.has(k));
  if (keptA.length !== keptB.length || keptA.some((k, i) => k !== keptB[i])) return { empty: true, full: true };
  let raises = false, lowers = false;
  after.forEach((brush, i) => {
    if (inA.has(b[i])) return;
    if (brush.op === 'carve') raises = true;
    else lowers = true;
  });
  before.forEach((brush, i) => {
    if (inB.has(a[i])) return;
    if (brush.op === 'carve') lowers = true;
    else raises = true;
  });
  return { empty: lowers, full: raises };
}

/**
 * The brushes in one list and not the other (an edit adds one, an undo takes one back): the chunks
 * they reach change. None for equal lists; the same brushes in another order give them all.
 */
export function changedBrushes(before: readonly Brush[], after: readonly Brush[]): Brush[] {
  const a = before.map(brushText), b = after.map(brushText);
  if (a.length === b.length && a.every((k, i) => k === b[i])) return [];
  const inB = new Set(b), inA = new Set(a);
  const changed = [...after.filter((_, i) => !inA.has(b[i])), ...before.filter((_, i) => !inB.has(a[i]))];
  // Same brushes, another order: every chunk they reach may differ (order matters where they overlap).
  return changed.length > 0 ? changed : [...after];
}
