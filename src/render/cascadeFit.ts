/**
 * The arithmetic of the sun's shadow cascades (src/render/SunShadows.ts), free of three's objects so Node
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
 * A cascade's radius (m) for a slice sphere of `sliceRadiusM`: 2 % over it, rounded up to 1/8-octave
 * steps, so a far distance that changes every frame (altitude) changes the texel size only now and
 * then, not continuously (no shimmer).
 */
export function cascadeRadiusM(sliceRadiusM: number): number {
  return Math.pow(2, Math.ceil(Math.log2(sliceRadiusM * 1.02) * 8) / 8);
}

/**
 * The light camera's range for a map around a sphere of radius `radiusM` whose casters reach `reachM`
 * beyond it towards the sun: the light sits `lightDistanceM` from the center, its near plane half a
 * radius in front of it, its far plane 1.5 radii past the center (a reach of 0.5 r gives the single
 * map's light 2 r away, near 0.5 r, far 3.5 r).
 */
export function cascadeDepthRange(radiusM: number, reachM: number): { lightDistanceM: number; nearM: number; farM: number } {
  const lightDistanceM = 1.5 * radiusM + reachM;
  return { lightDistanceM, nearM: 0.5 * radiusM, farM: lightDistanceM + 1.5 * radiusM };
}

/** One coordinate snapped to whole texels of `texelM`, so shadows do not crawl as the fit moves. */
export function snapToTexel(valueM: number, texelM: number): number {
  return Math.round(valueM / texelM) * texelM;
}

/**
 * Cascade `i` of `count`'s map size relative to the base size: `scales[i]` when given, else 1 for
 * every cascade but the last of several, which gets 0.5.
 */
export function cascadeMapScale(i: number, count: number, scales?: readonly number[]): number {
  return scales?.[i] ?? (count > 1 && i === count - 1 ? 0.5 : 1);
}

/** A map's size in texels for a base size and a scale (at least 64). */
export function cascadeMapSize(baseMapSize: number, scale: number): number {
  return Math.max(64, Math.round(baseMapSize * scale));
}

/**
 * Staggered cascades: whether cascade `i` of `count` is fitted and rendered at `frame`. Cascade 0
 * every frame, the others in turn (with 3 cascades each far one every other frame).
 */
export function cascadeDue(i: number, count: number, frame: number, stagger: boolean): boolean {
  return !stagger || i === 0 || frame % (count - 1) === i - 1;
}

/**
 * three's shadow `bias` (normalised depth) and `normalBias` (m) from biases in texels of world size:
 * `texelM` the map's texel, `depthRangeM` its camera's far − near.
 */
export function shadowBias(biasTexels: number, normalBiasTexels: number, texelM: number, depthRangeM: number): { bias: number; normalBias: number } {
  return { bias: (biasTexels * texelM) / Math.max(depthRangeM, 1e-9), normalBias: normalBiasTexels * texelM };
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
 * Which cascade maps must be rendered again (SunShadows.fitCascades with a casters' version): those whose
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
