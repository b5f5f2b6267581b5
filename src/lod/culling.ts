/**
 * Culling before sampling: the radial shell where a planet's surface can be, chunk bounding spheres,
 * frustum and horizon tests, and the record of chunks found empty or full.
 */
import type { RecipeBounds } from '../field/index';
import type { ChunkAddress, ChunkKey } from './chunkKey.ts';
import { childAddress, chunkKey, keyOf, parseChunkKey } from './chunkKey.ts';
import type { CubeSphereSpace } from './cubeSphere.ts';

/** Radial band (m from the planet center) outside which the field has no surface. */
export interface PlanetShell {
  innerM: number;
  outerM: number;
}

/**
 * The shell from a recipe's bounds, conservatively: the bounding sphere is the outer radius; the base
 * surface lies at most `elevationM` below it before modifiers (base radius ≈ sphereRadiusM − E), and
 * modifiers move it by at most E more, so inner = sphereRadiusM − 2E − extraDepthM. `extraDepthM`
 * covers base surfaces deeper than the outer one (e.g. planetRecipe's cave shell sits 20–400 m under
 * the surface; that is always < E for planetRecipe, so 0 is enough there — checked in test/lod).
 */
export function planetShell(bounds: RecipeBounds, extraDepthM = 0): PlanetShell {
  const outerM = Math.hypot(...bounds.sphereCenter) + bounds.sphereRadiusM;
  return { innerM: Math.max(0, bounds.sphereRadiusM - Math.hypot(...bounds.sphereCenter) - 2 * bounds.elevationM - extraDepthM), outerM };
}

/** Radial range of a chunk (exact: radius depends on gk only). out = [r0, r1]. */
export function chunkRadialRange(space: CubeSphereSpace, level: number, ck: number, out: number[] | Float64Array): void {
  const U = space.chunkUnits(level);
  out[0] = space.radiusAt(ck * U);
  out[1] = space.radiusAt((ck + 1) * U);
}

const scratchR = new Float64Array(2);

/** True when the chunk's radial range meets the shell (closed intervals). Chunks outside are never requested. */
export function chunkInShell(space: CubeSphereSpace, shell: PlanetShell, level: number, ck: number): boolean {
  chunkRadialRange(space, level, ck, scratchR);
  return scratchR[1] >= shell.innerM && scratchR[0] <= shell.outerM;
}

/** Bounding sphere: 4 numbers, center xyz (body-local m) and radius. */
export const SPHERE_STRIDE = 4;

/**
 * A sphere containing the chunk. Samples a 3 × 3 grid of directions on the inner and outer caps; the
 * caps bulge between samples by at most r1 (1 − cos Δ) (Δ the largest angle between adjacent sample
 * directions), added as margin. Writes into out[0..3].
 */
export function chunkBoundingSphere(space: CubeSphereSpace, a: ChunkAddress, out: Float64Array | number[]): void {
  const U = space.chunkUnits(a.level);
  const r0 = space.radiusAt(a.ck * U), r1 = space.radiusAt((a.ck + 1) * U);
  const d = scratchDirs;
  for (let y = 0; y < 3; y++)
    for (let x = 0; x < 3; x++) {
      space.direction(a.face, (a.ci + x / 2) * U, (a.cj + y / 2) * U, scratchD);
      d[3 * (x + 3 * y)] = scratchD[0];
      d[3 * (x + 3 * y) + 1] = scratchD[1];
      d[3 * (x + 3 * y) + 2] = scratchD[2];
    }
  let cx = 0, cy = 0, cz = 0;
  for (let n = 0; n < 9; n++) {
    cx += d[3 * n];
    cy += d[3 * n + 1];
    cz += d[3 * n + 2];
  }
  const rm = 0.5 * (r0 + r1) / 9;
  cx *= rm; cy *= rm; cz *= rm;
  let rad = 0;
  let minCos = 1;
  for (let n = 0; n < 9; n++) {
    const dx = d[3 * n], dy = d[3 * n + 1], dz = d[3 * n + 2];
    for (const r of [r0, r1]) rad = Math.max(rad, Math.hypot(dx * r - cx, dy * r - cy, dz * r - cz));
    const x = n % 3, y = (n / 3) | 0;
    if (x < 2) minCos = Math.min(minCos, dx * d[3 * (n + 1)] + dy * d[3 * (n + 1) + 1] + dz * d[3 * (n + 1) + 2]);
    if (y < 2) minCos = Math.min(minCos, dx * d[3 * (n + 3)] + dy * d[3 * (n + 3) + 1] + dz * d[3 * (n + 3) + 2]);
  }
  out[0] = cx;
  out[1] = cy;
  out[2] = cz;
  out[3] = rad + r1 * (1 - minCos);
}
const scratchDirs = new Float64Array(27);
const scratchD = new Float64Array(3);

/**
 * Frustum test of a sphere against 6 planes given as 24 numbers (nx, ny, nz, d per plane, body-local
 * frame, inside when n · p + d ≥ 0; n need not be unit — distances are divided by |n|). True when the
 * sphere is wholly outside one plane.
 */
export function sphereOutsideFrustum(planes: ArrayLike<number>, cx: number, cy: number, cz: number, radius: number): boolean {
  for (let p = 0; p + 3 < planes.length; p += 4) {
    const nx = planes[p], ny = planes[p + 1], nz = planes[p + 2];
    const len = Math.hypot(nx, ny, nz) || 1;
    if ((nx * cx + ny * cy + nz * cz + planes[p + 3]) / len < -radius) return true;
  }
  return false;
}

/**
 * Horizon test: true when the whole sphere (c, ρ) is hidden from the camera behind the solid ball of
 * radius `occluderM` at the origin. Conservative: the sphere's center must be hidden by the ball shrunk
 * by ρ (every segment from the camera to a point of the sphere then passes within occluderM of the
 * center). A camera inside the shrunk ball sees everything (nothing is culled).
 */
export function sphereBelowHorizon(
  camX: number, camY: number, camZ: number, occluderM: number, cx: number, cy: number, cz: number, radius: number,
): boolean {
  const r = occluderM - radius;
  if (!(r > 0)) return false;
  if (camX * camX + camY * camY + camZ * camZ <= r * r) return false;
  // Closest point to the origin on the segment camera → center.
  const sx = cx - camX, sy = cy - camY, sz = cz - camZ;
  const ss = sx * sx + sy * sy + sz * sz;
  let t = ss > 0 ? -(camX * sx + camY * sy + camZ * sz) / ss : 0;
  t = Math.min(1, Math.max(0, t));
  const px = camX + t * sx, py = camY + t * sy, pz = camZ + t * sz;
  return px * px + py * py + pz * pz < r * r;
}

/** What sampling found in a chunk. */
export type Homogeneous = 'empty' | 'full';

/** Children a forgotten proof's split looks at, at most ({@link HomogeneousRecord.forget}). */
const MAX_SPLIT_CHILDREN = 16_384;

/** Bound on {@link HomogeneousRecord}'s memo: a camera flying on without a new proof starts it again. */
const MAX_PROVEN_MEMO = 50_000;

/**
 * Record of chunks found empty (all samples outside) or full (all inside), so they are not sampled
 * again. A PROVEN entry also covers every descendant: its samples were farther from zero than the
 * field's Lipschitz bound allows to change between samples (see {@link homogeneityFromSamples}), so
 * no finer level can find a surface there either.
 */
export class HomogeneousRecord {
  private readonly entries = new Map<ChunkKey, { state: Homogeneous; proven: boolean }>();
  /**
   * {@link provenAncestor} by key, kept until the record changes: one selection asks for ~10,000
   * chunks, most of them siblings, and each walk to the root built a key a level.
   */
  private readonly provenMemo = new Map<ChunkKey, Homogeneous | null>();

  /** Records a chunk's state; an unproven mark keeps a proof already recorded (its job may answer after its parent proved it). */
  mark(key: ChunkKey, state: Homogeneous, proven: boolean): void {
    if (!proven && this.entries.get(key)?.proven) return;
    this.entries.set(key, { state, proven });
    if (proven) this.provenMemo.clear();
  }

  /** The recorded state of this exact chunk, or of a proven ancestor. */
  get(a: ChunkAddress, rootLevel: number, key: ChunkKey = chunkKey(a.face, a.level, a.ci, a.cj, a.ck)): Homogeneous | undefined {
    const own = this.entries.get(key);
    if (own) return own.state;
    return this.provenAncestor(a, rootLevel, key);
  }

  /** State of a proven entry on this chunk or any ancestor (then every descendant is homogeneous). */
  provenAncestor(a: ChunkAddress, rootLevel: number, key: ChunkKey = chunkKey(a.face, a.level, a.ci, a.cj, a.ck)): Homogeneous | undefined {
    let m = this.provenMemo.get(key);
    if (m === undefined) {
      const e = this.entries.get(key);
      if (e?.proven) m = e.state;
      else if (a.level >= rootLevel) m = null;
      else {
        const p = { face: a.face, level: a.level + 1, ci: a.ci >> 1, cj: a.cj >> 1, ck: a.ck >> 1 };
        m = this.provenAncestor(p, rootLevel, chunkKey(p.face, p.level, p.ci, p.cj, p.ck)) ?? null;
      }
      if (this.provenMemo.size >= MAX_PROVEN_MEMO) this.provenMemo.clear();
      this.provenMemo.set(key, m);
    }
    return m ?? undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  delete(key: ChunkKey): void {
    this.entries.delete(key);
    this.provenMemo.clear();
  }

  /**
   * Forgets what a brush edit may have changed (issue 19): the entries `reached` says it reached
   * whose state `breaks` says it can change (planetEdits.ts `brokenMarks`: a dig cannot fill the
   * air). A proof forgotten there also covered descendants the edit does not reach: it is filed
   * again on each of them, level by level down to the reached chunks of level 0, so a dig under a
   * coarse chunk's proof leaves the rest of that chunk proven.
   */
  forget(reached: (a: ChunkAddress, key: ChunkKey) => boolean, breaks: (state: Homogeneous) => boolean = () => true): void {
    const split: Array<{ a: ChunkAddress; state: Homogeneous }> = [];
    for (const [key, e] of this.entries) {
      if (!breaks(e.state)) continue;
      const a = parseChunkKey(key);
      if (!reached(a, key)) continue;
      this.entries.delete(key);
      if (e.proven) split.push({ a, state: e.state });
    }
    split.sort((x, y) => y.a.level - x.a.level);
    // Coarse levels first, and at most MAX_SPLIT_CHILDREN looked at: a brush wider than the finest
    // chunks by far reaches thousands of them, and what is not split is forgotten, as before.
    for (let i = 0, looked = 0; i < split.length && looked < MAX_SPLIT_CHILDREN; i++, looked += 8) {
      const s = split[i];
      if (s.a.level === 0) continue;
      for (let c = 0; c < 8; c++) {
        const child = childAddress(s.a, c);
        const key = keyOf(child);
        if (reached(child, key)) split.push({ a: child, state: s.state });
        else this.entries.set(key, { state: s.state, proven: true });
      }
    }
    this.provenMemo.clear();
  }
}

/** How many samples are inside (negative), and the least |value| (Infinity for none). */
export function sampleSigns(values: ArrayLike<number>): { inside: number; minAbs: number } {
  let inside = 0, minAbs = Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v < 0) inside++;
    const a = Math.abs(v);
    if (a < minAbs) minAbs = a;
  }
  return { inside, minAbs };
}

/**
 * Classifies a chunk from its grid samples: null when the samples change sign; otherwise empty/full,
 * `proven` when min |value| > lipschitz · maxGapM (every point of the chunk is within maxGapM of a
 * sample, so the field cannot reach zero anywhere in it). maxGapM: {@link chunkSampleGapM}.
 */
export function homogeneityFromSamples(
  values: ArrayLike<number>, lipschitz: number, maxGapM: number,
): { state: Homogeneous; proven: boolean } | null {
  const { inside, minAbs } = sampleSigns(values);
  if (inside !== 0 && inside !== values.length) return null;
  return { state: inside === 0 ? 'empty' : 'full', proven: minAbs > lipschitz * maxGapM };
}

/** A child's proof from its parent's samples: 0 none, 1 proven empty, 2 proven full. */
export type ChildProof = 0 | 1 | 2;

/**
 * The eight children's proofs from their parent's lattice (issue 42, docs/lod.md "Proofs for the
 * children"): a surface chunk's samples usually settle most of its children. Child `c` (bit 0 the
 * upper half along i, bit 1 along j, bit 2 along k) covers half the lattice each way, ends included;
 * it is proven when its samples taken every `stride` points (2: the sparse lattice JS always samples)
 * all have one sign and |value| > `boundM`. `boundM` is the chunk's own proof bound for that spacing
 * (Lipschitz × the spacing's gap + what the band limit and the sampler leave out): every point of the
 * child is within that gap of one of those samples, so no descendant can hold a surface either.
 * `values`: P³ points, i fastest, P − 1 divisible by 2 × stride.
 */
export function childProofs(values: ArrayLike<number>, P: number, stride: 1 | 2, boundM: number): ChildProof[] {
  const half = (P - 1) / 2;
  const out: ChildProof[] = [];
  for (let c = 0; c < 8; c++) {
    const i0 = c & 1 ? half : 0, j0 = c & 2 ? half : 0, k0 = c & 4 ? half : 0;
    let inside = 0, outside = 0, near = false;
    for (let k = k0; k <= k0 + half && !near; k += stride) {
      for (let j = j0; j <= j0 + half && !near; j += stride) {
        for (let i = i0, p = i0 + P * (j + P * k); i <= i0 + half; i += stride, p += stride) {
          const v = values[p];
          if (v < 0) inside++;
          else outside++;
          // NaN fails too: an unsampled point proves nothing.
          if (!(Math.abs(v) > boundM) || (inside > 0 && outside > 0)) {
            near = true;
            break;
          }
        }
      }
    }
    out.push(near ? 0 : inside > 0 ? 2 : 1);
  }
  return out;
}

/**
 * Upper bound on the distance (m) from any point of a level-`level` chunk lying below `maxRadiusM`
 * to its nearest grid sample: half a cell's diagonal (bounded by the sum of its edges), with lateral
 * cell edges ≤ h · 2^level at the surface radius (tangent warp: 0.707…1.000, test/lod), scaled to
 * that radius, plus 1% margin.
 */
export function chunkSampleGapM(space: CubeSphereSpace, level: number, maxRadiusM: number): number {
  const lateral = 1.01 * space.cellSizeM(level) * (maxRadiusM / space.radiusM);
  const radial = space.heightUnitM * 2 ** level;
  // The Jacobian's columns are not orthogonal near face corners: bound the diagonal by the sum of the
  // edge lengths, not by Pythagoras.
  return 0.5 * (2 * lateral + radial);
}
