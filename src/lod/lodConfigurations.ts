/**
 * LOD configurations to mesh or test with (docs/lod.md, "Seams"): seeded random ones, 2:1 balanced
 * with level steps across face edges and around cube corners, and one from a camera through
 * `selectChunks`. Pure TypeScript.
 */
import { Prng } from '../field/index.ts';
import type { ChunkAddress } from './chunkKey.ts';
import { childAddress } from './chunkKey.ts';
import type { CubeSphereSpace } from './cubeSphere.ts';
import { FACE_COUNT } from './cubeSphere.ts';
import type { PlanetShell } from './culling.ts';
import { chunkBoundingSphere, chunkInShell } from './culling.ts';
import { balanceLod } from './lodBalance.ts';
import type { SelectOptions } from './selection.ts';
import { selectChunks } from './selection.ts';

export interface RandomLodOptions {
  /** Finest level a chunk may reach (default 0). */
  finestLevel?: number;
}

const CUBE_CORNERS = [-1, 1].flatMap((x) => [-1, 1].flatMap((y) => [-1, 1].map((z) => [x, y, z])));

/**
 * A seeded random valid LOD configuration: leaves tiling the shell, 2:1 balanced across faces, edges
 * and cube corners (canonical order). Each seed draws a split probability per level and a focus — a
 * cube corner, a point on a cube edge, or a random direction — around which the chunks of a random
 * SUBSET of the faces are refined to a focus level while the others are not, so the balance pass puts
 * level steps across face edges and around cube corners.
 */
export function randomLodConfiguration(
  space: CubeSphereSpace, shell: PlanetShell, seed: number, options: RandomLodOptions = {},
): ChunkAddress[] {
  const r = new Prng(seed);
  const root = space.levels;
  const finest = Math.min(options.finestLevel ?? 0, root);
  const pSplit: number[] = [];
  for (let l = 0; l <= root; l++) pSplit.push(r.next() * r.next() * 1.4);
  const kind = r.int(3);
  let focus: number[];
  if (kind === 0) {
    focus = CUBE_CORNERS[r.int(8)].slice();
  } else if (kind === 1) {
    // A point on a cube edge: two coordinates ±1, the third in (−1, 1).
    const free = r.int(3);
    focus = [r.next() < 0.5 ? -1 : 1, r.next() < 0.5 ? -1 : 1, r.next() < 0.5 ? -1 : 1];
    focus[free] = r.range(-0.9, 0.9);
  } else {
    focus = r.unitVector();
  }
  const len = Math.hypot(focus[0], focus[1], focus[2]);
  const radius = 0.5 * (shell.innerM + shell.outerM);
  const fx = (focus[0] / len) * radius, fy = (focus[1] / len) * radius, fz = (focus[2] / len) * radius;
  const focusFaces = new Set<number>();
  for (let f = 0; f < FACE_COUNT; f++) if (r.next() < 0.5) focusFaces.add(f);
  const focusLevel = finest + r.int(Math.max(root - finest, 1));
  const reachM = r.range(0.05, 0.6) * radius;
  const sphere = new Float64Array(4);
  const leaves: ChunkAddress[] = [];
  const stack: ChunkAddress[] = [];
  for (let f = FACE_COUNT - 1; f >= 0; f--) if (chunkInShell(space, shell, root, 0)) stack.push({ face: f, level: root, ci: 0, cj: 0, ck: 0 });
  while (stack.length > 0) {
    const a = stack.pop()!;
    let split = a.level > finest && r.next() < pSplit[a.level];
    if (!split && a.level > focusLevel && focusFaces.has(a.face)) {
      chunkBoundingSphere(space, a, sphere);
      split = Math.hypot(sphere[0] - fx, sphere[1] - fy, sphere[2] - fz) - sphere[3] < reachM;
    }
    if (!split) {
      leaves.push(a);
      continue;
    }
    for (let c = 7; c >= 0; c--) {
      const kid = childAddress(a, c);
      if (chunkInShell(space, shell, kid.level, kid.ck)) stack.push(kid);
    }
  }
  return balanceLod(space, shell, leaves);
}

/** Viewport factor of 1080 px at 60° vertical field of view (see `LodView.projectionFactor`). */
export const PROJECTION_1080P_60DEG = 1080 / (2 * Math.tan(Math.PI / 6));

/**
 * The LOD configuration `selectChunks` picks for a camera at `cameraM` (body-local metres), with no
 * frustum (all directions): its leaves, canonical order. `selectChunks` balances across faces and
 * corners already.
 */
export function cameraLodConfiguration(
  space: CubeSphereSpace, shell: PlanetShell, cameraM: readonly [number, number, number],
  options: SelectOptions & { projectionFactor?: number } = {},
): ChunkAddress[] {
  const sel = selectChunks(space, shell, { cameraM, projectionFactor: options.projectionFactor ?? PROJECTION_1080P_60DEG }, options);
  return sel.leaves;
}

/** Keys of a configuration's chunks per level, for reports: `{ level: count }`. */
export function levelHistogram(leaves: readonly ChunkAddress[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const a of leaves) out[a.level] = (out[a.level] ?? 0) + 1;
  return out;
}
