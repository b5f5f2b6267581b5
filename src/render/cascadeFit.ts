/**
 * The arithmetic of the sun's shadow cascades (src/render/Sun.ts), free of three's objects so Node
 * tests reach it: where the view frustum splits, the sphere around a slice, and which maps must be
 * rendered again — a map whose fit, light and casters have not changed still holds the right depths.
 */

/**
 * Practical split scheme (Zhang et al., PSSM): split i of n between `near` and `far` is
 * `lambda · near (far/near)^(i/n) + (1 − lambda) (near + (far − near) i/n)`. Returns the n + 1
 * boundaries, first `near`, last `far`.
 */
export function cascadeSplits(count: number, nearM: number, farM: number, lambda = 0.7): number[] {
  const near = Math.max(nearM, 1e-3);
  const far = Math.max(farM, near * 1.001);
  const out = [near];
  for (let i = 1; i < count; i++) {
    const t = i / count;
    out.push(lambda * near * Math.pow(far / near, t) + (1 - lambda) * (near + (far - near) * t));
  }
  out.push(far);
  return out;
}

/**
 * Smallest sphere around the slice [n, f] of a symmetric perspective frustum whose corners sit
 * at (±n·tx, ±n·ty, −n) … (±f·tx, ±f·ty, −f): center on the axis at distance `center`.
 */
export function sliceSphere(nearM: number, farM: number, tanHalfX: number, tanHalfY: number): { centerM: number; radiusM: number } {
  const k2 = tanHalfX * tanHalfX + tanHalfY * tanHalfY;
  // Equidistant from the near and far corners; if that lies beyond the far plane, the far
  // corners' circle alone bounds the slice.
  let c = ((farM + nearM) * (1 + k2)) / 2;
  if (c >= farM) c = farM;
  const r = Math.max(Math.hypot(c - nearM, nearM * Math.sqrt(k2)), Math.hypot(farM - c, farM * Math.sqrt(k2)));
  return { centerM: c, radiusM: r };
}

/**
 * What a cascade's map was rendered for: its center in the light's basis, in whole texels across
 * (x, y: the fit snaps there anyway) and eighths of its radius along the light (z: an orthographic
 * map does not change as its box slides along the light, only its depth range, which reaches well
 * past the casters either way), its radius, and the casters' version.
 */
export interface CascadeFitKey {
  x: number;
  y: number;
  z: number;
  radiusM: number;
  casters: number;
}

/**
 * A map is rendered again after this many frames even when nothing it was rendered for changed:
 * the bound on how late a change the casters' version missed would show (none should).
 */
export const MAX_CACHED_FRAMES = 240;

/**
 * Which cascade maps must be rendered again (Sun.fitCascades with a casters' version): those whose
 * fit moved, whose casters changed, that were never rendered, or that are older than
 * {@link MAX_CACHED_FRAMES}. Near a planet the camera that hovers, or drifts by less than a texel
 * of a far map, re-renders nothing: the shadow passes were ~40 % of a frame at 20 m on the H100.
 */
export class CascadeMapCache {
  private readonly rendered: ({ key: CascadeFitKey; frame: number } | null)[] = [];

  constructor(private readonly maxAgeFrames = MAX_CACHED_FRAMES) {}

  /** Whether cascade `i` must be rendered for `key` at `frame`; if so, it counts as rendered for it. */
  needsRender(i: number, key: CascadeFitKey, frame: number): boolean {
    const last = this.rendered[i];
    if (last && frame - last.frame < this.maxAgeFrames && sameKey(last.key, key)) return false;
    this.rendered[i] = { key: { ...key }, frame };
    return true;
  }

  /** Every map is rendered again (new light direction, map size or cascade count; a restored context). */
  clear(): void {
    this.rendered.length = 0;
  }
}

function sameKey(a: CascadeFitKey, b: CascadeFitKey): boolean {
  return a.x === b.x && a.y === b.y && a.z === b.z && a.radiusM === b.radiusM && a.casters === b.casters;
}
